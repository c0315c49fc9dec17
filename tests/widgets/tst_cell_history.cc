// Qt Test for the cell history: the pure layout (a broken axis that gives
// logical, epoch and year-52011 timestamps each their own segment; what each
// delete marker masks; VERSIONS, TIMERANGE, TTL and KEEP_DELETED_CELLS), the
// layout against the real engine's get on a real workspace, the versions
// model under QAbstractItemModelTester, and the view with its real
// QCustomPlot (reads on the job runner, get options, bad input, "as of").
#include <QAbstractItemModelTester>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

#include "async/job_runner.h"
#include "history/cell_history_view.h"
#include "history/history_fetch.h"
#include "history/history_layout.h"
#include "history/history_model.h"
#include "history/history_plot.h"
#include "test_workspace.h"

using namespace keyscope;

namespace {

constexpr int64_t kEpoch = 1709251200000;           // 2024-03-01 00:00 UTC
constexpr int64_t kYear52011 = 1'579'146'537'600'000;  // 52011-03-01 00:00 UTC
constexpr int64_t kMinute = 60'000;

Cell put(const std::string& qualifier, int64_t ts, const std::string& value = "v") {
  return Cell{"row", "f", qualifier, ts, CellType::kPut, value};
}

Cell marker(CellType type, const std::string& qualifier, int64_t ts) {
  return Cell{"row", "f", qualifier, ts, type, {}};
}

FamilyOptions family(int32_t versions = 10) {
  FamilyOptions f;
  f.name = "f";
  f.maxVersions = versions;
  return f;
}

// The input of a whole-family history; cells in any order (sorted here as
// the engine returns them: family markers first, column, timestamp desc, type desc).
HistoryInput input(std::vector<Cell> raw, FamilyOptions f = family()) {
  std::sort(raw.begin(), raw.end(), [](const Cell& a, const Cell& b) {
    const bool af = isFamilyDeleteType(a.type), bf = isFamilyDeleteType(b.type);
    const Bytes aq = af ? Bytes() : a.qualifier, bq = bf ? Bytes() : b.qualifier;
    if (aq != bq) return aq < bq;
    if (a.timestamp != b.timestamp) return a.timestamp > b.timestamp;
    return static_cast<int>(a.type) > static_cast<int>(b.type);
  });
  HistoryInput in;
  in.family = std::move(f);
  in.raw = std::move(raw);
  in.get.maxVersions = in.family.maxVersions;
  in.now = kEpoch;
  return in;
}

const HistoryVersion& find(const HistoryLayout& layout, const std::string& qualifier, int64_t ts,
                           CellType type = CellType::kPut) {
  for (const HistoryVersion& v : layout.versions) {
    if (v.qualifier == qualifier && v.timestamp == ts && v.type == type) return v;
  }
  qFatal("no version %s@%lld", qualifier.c_str(), static_cast<long long>(ts));
}

const MaskSpan& spanOf(const HistoryLayout& layout, CellType type) {
  for (const MaskSpan& span : layout.masks) {
    if (layout.versions[static_cast<size_t>(span.marker)].type == type) return span;
  }
  qFatal("no mask span");
}

}  // namespace

class TestCellHistory : public QObject {
  Q_OBJECT

 private slots:
  // --- The broken axis --------------------------------------------------------

  void logicalEpochAndYear52011TimestampsGetASegmentEach() {
    const std::vector<int64_t> ts = {1, 2, 3, kEpoch, kEpoch + 5 * kMinute, kEpoch + 60 * kMinute,
                                     kYear52011, kYear52011 + kMinute};
    const std::vector<AxisSegment> segments = axisSegments(ts);
    QCOMPARE(segments.size(), size_t{3});
    QCOMPARE(segments[0].first, int64_t{1});
    QCOMPARE(segments[0].last, int64_t{3});
    QVERIFY(!segments[0].epochLike);
    QCOMPARE(segments[1].first, kEpoch);
    QVERIFY(segments[1].epochLike);
    QCOMPARE(segments[2].last, kYear52011 + kMinute);
    for (size_t i = 1; i < segments.size(); ++i) QVERIFY(segments[i].x0 > segments[i - 1].x1);

    // Every timestamp has its own place: none is squashed onto another.
    HistoryInput in;
    for (int64_t t : ts) in.raw.push_back(put("q", t));
    const HistoryLayout layout = layoutHistory(in);
    for (size_t i = 1; i < layout.versions.size(); ++i) {
      QVERIFY2(layout.versions[i].x != layout.versions[i - 1].x, "two versions at one x");
    }
    // Within a segment the axis is linear: 5 minutes is 1/12 of the way to 60.
    const double x0 = layout.xOf(kEpoch), x5 = layout.xOf(kEpoch + 5 * kMinute),
                 x60 = layout.xOf(kEpoch + 60 * kMinute);
    QVERIFY(std::abs((x5 - x0) / (x60 - x0) - 1.0 / 12) < 1e-9);
    // Ticks: integers for logical values, date-times for epoch ones, year 52011 in full.
    QStringList labels;
    for (const AxisTick& tick : layout.ticks) labels << tick.label;
    QVERIFY2(labels.contains(QStringLiteral("1")), qPrintable(labels.join('|')));
    QVERIFY2(labels.contains(QStringLiteral("2024-03-01 00:00:00")), qPrintable(labels.join('|')));
    QVERIFY2(labels.filter(QStringLiteral("52011-")).size() == 2, qPrintable(labels.join('|')));
  }

  void readingsMinutesApartStayOneSegment() {
    std::vector<int64_t> ts;
    for (int i = 0; i < 576; ++i) ts.push_back(kEpoch + i * 5 * kMinute);  // two days
    QCOMPARE(axisSegments(ts).size(), size_t{1});
    QCOMPARE(axisSegments({7}).size(), size_t{1});
    QCOMPARE(axisSegments({1, 3}).size(), size_t{1});  // a small gap is not a break
    QVERIFY(axisSegments({}).empty());
  }

  void timestampsBetweenSegmentsFallInTheBreak() {
    HistoryInput in;
    for (int64_t t : {int64_t{1}, int64_t{2}, kEpoch, kEpoch + kMinute}) in.raw.push_back(put("q", t));
    const HistoryLayout layout = layoutHistory(in);
    QCOMPARE(layout.segments.size(), size_t{2});
    const double gapX = layout.xOf(1000);
    QVERIFY(gapX > layout.segments[0].x1 && gapX < layout.segments[1].x0);
    QCOMPARE(layout.xOf(0), layout.xMin);
    QCOMPARE(layout.xOf(std::numeric_limits<int64_t>::max()), layout.xMax);
  }

  // --- What each delete marker masks -----------------------------------------

  void deleteMasksOneExactTimestampInItsColumn() {
    const HistoryLayout layout = layoutHistory(input(
        {put("a", 4), put("a", 5), put("a", 6), put("b", 5), marker(CellType::kDelete, "a", 5)}));
    QCOMPARE(find(layout, "a", 5).fate, VersionFate::kMasked);
    QCOMPARE(find(layout, "a", 4).fate, VersionFate::kReturned);
    QCOMPARE(find(layout, "a", 6).fate, VersionFate::kReturned);
    QCOMPARE(find(layout, "b", 5).fate, VersionFate::kReturned);
    QCOMPARE(find(layout, "a", 5, CellType::kDelete).masks.size(), size_t{1});
    const MaskSpan& span = spanOf(layout, CellType::kDelete);
    QCOMPARE(span.x0, span.x1);  // a point, in the column's lane
    QCOMPARE(span.lane, find(layout, "a", 5).lane);
    QCOMPARE(fateText(layout, find(layout, "a", 5)), QStringLiteral("masked by Delete @ 5"));
  }

  void deleteColumnMasksItsColumnUpToItsTimestamp() {
    const HistoryLayout layout = layoutHistory(input({put("a", 4), put("a", 5), put("a", 6),
                                                      put("b", 3),
                                                      marker(CellType::kDeleteColumn, "a", 5)}));
    QCOMPARE(find(layout, "a", 4).fate, VersionFate::kMasked);
    QCOMPARE(find(layout, "a", 5).fate, VersionFate::kMasked);
    QCOMPARE(find(layout, "a", 6).fate, VersionFate::kReturned);
    QCOMPARE(find(layout, "b", 3).fate, VersionFate::kReturned);
    const MaskSpan& span = spanOf(layout, CellType::kDeleteColumn);
    QCOMPARE(span.x0, layout.xMin);  // a band from the start of time
    QCOMPARE(span.x1, find(layout, "a", 5).x);
    QCOMPARE(span.lane, find(layout, "a", 5).lane);
  }

  void deleteFamilyMasksEveryColumnUpToItsTimestamp() {
    const HistoryLayout layout = layoutHistory(input(
        {put("a", 4), put("a", 6), put("b", 5), put("b", 7), marker(CellType::kDeleteFamily, "", 5)}));
    QCOMPARE(find(layout, "a", 4).fate, VersionFate::kMasked);
    QCOMPARE(find(layout, "b", 5).fate, VersionFate::kMasked);
    QCOMPARE(find(layout, "a", 6).fate, VersionFate::kReturned);
    QCOMPARE(find(layout, "b", 7).fate, VersionFate::kReturned);
    QCOMPARE(layout.lanes.front(), QStringLiteral("(family)"));
    const MaskSpan& span = spanOf(layout, CellType::kDeleteFamily);
    QCOMPARE(span.lane, -1);  // every lane
    QCOMPARE(span.x0, layout.xMin);
  }

  void deleteFamilyVersionMasksOneTimestampInEveryColumn() {
    const HistoryLayout layout = layoutHistory(input({put("a", 4), put("a", 5), put("b", 5),
                                                      put("b", 6),
                                                      marker(CellType::kDeleteFamilyVersion, "", 5)}));
    QCOMPARE(find(layout, "a", 5).fate, VersionFate::kMasked);
    QCOMPARE(find(layout, "b", 5).fate, VersionFate::kMasked);
    QCOMPARE(find(layout, "a", 4).fate, VersionFate::kReturned);
    QCOMPARE(find(layout, "b", 6).fate, VersionFate::kReturned);
    const MaskSpan& span = spanOf(layout, CellType::kDeleteFamilyVersion);
    QCOMPARE(span.lane, -1);
    QCOMPARE(span.x0, span.x1);
  }

  // --- VERSIONS, TIMERANGE, TTL, KEEP_DELETED_CELLS ---------------------------

  void versionsBeyondTheLimitAreNotReturned() {
    HistoryInput in = input({put("a", 1), put("a", 2), put("a", 3)}, family(2));
    in.get.maxVersions = 5;  // capped by the family's 2
    const HistoryLayout layout = layoutHistory(in);
    QCOMPARE(find(layout, "a", 3).fate, VersionFate::kReturned);
    QCOMPARE(find(layout, "a", 2).fate, VersionFate::kReturned);
    QCOMPARE(find(layout, "a", 1).fate, VersionFate::kBeyondVersions);
    QCOMPARE(fateText(layout, find(layout, "a", 1)), QStringLiteral("beyond VERSIONS"));
  }

  void aTimeRangeCountsOnlyTheVersionsInside() {
    HistoryInput in = input({put("a", 1), put("a", 2), put("a", 3), put("a", 4)}, family(2));
    in.get.timeRange = {1, 4};  // [1, 4): 3 and 2 are returned, 1 is beyond VERSIONS
    const HistoryLayout layout = layoutHistory(in);
    QCOMPARE(find(layout, "a", 4).fate, VersionFate::kOutsideRange);
    QCOMPARE(find(layout, "a", 3).fate, VersionFate::kReturned);
    QCOMPARE(find(layout, "a", 2).fate, VersionFate::kReturned);
    QCOMPARE(find(layout, "a", 1).fate, VersionFate::kBeyondVersions);
    in.get.timestamp = 4;  // TIMESTAMP overrides the range
    QCOMPARE(find(layoutHistory(in), "a", 4).fate, VersionFate::kReturned);
  }

  void olderThanTheTtlIsExpired() {
    FamilyOptions f = family();
    f.ttlSeconds = 60;
    HistoryInput in = input({put("a", kEpoch - 30'000), put("a", kEpoch - 90'000)}, f);
    const HistoryLayout layout = layoutHistory(in);
    QCOMPARE(find(layout, "a", kEpoch - 30'000).fate, VersionFate::kReturned);
    QCOMPARE(find(layout, "a", kEpoch - 90'000).fate, VersionFate::kExpired);
    QCOMPARE(layout.ttlCutoff, kEpoch - 60'000);
    f.minVersions = 1;  // MIN_VERSIONS keeps the newest even when expired
    in = input({put("a", kEpoch - 90'000), put("a", kEpoch - 95'000)}, f);
    const HistoryLayout kept = layoutHistory(in);
    QCOMPARE(find(kept, "a", kEpoch - 90'000).fate, VersionFate::kReturned);
    QCOMPARE(find(kept, "a", kEpoch - 95'000).fate, VersionFate::kExpired);
  }

  void keepDeletedCellsIgnoresMarkersAfterTheRange() {
    HistoryInput in = input({put("a", 3), marker(CellType::kDeleteColumn, "a", 10)});
    in.get.timeRange = {0, 5};
    QCOMPARE(find(layoutHistory(in), "a", 3).fate, VersionFate::kMasked);  // reaches back
    in.family.keepDeletedCells = KeepDeletedCells::kTrue;
    const HistoryLayout kept = layoutHistory(in);
    QCOMPARE(find(kept, "a", 3).fate, VersionFate::kReturned);
    QCOMPARE(find(kept, "a", 3).maskedBy.size(), size_t{1});  // the relation still shows
  }

  // --- Against the engine -----------------------------------------------------

  void theLayoutAgreesWithTheEnginesGet() {
    QTemporaryDir dir;
    auto ws = test::openWorkspace(dir.filePath(QStringLiteral("h.ksw")));
    writeHistoryTable(*ws);
    JobRunner runner;
    const CancelToken cancel;
    HistoryRequest request{"h", "r1", "f", std::nullopt, std::nullopt, std::nullopt};
    Result<HistoryResult> all = fetchHistory(*ws, request, cancel);
    QVERIFY2(all.isOk(), all.status().toString().c_str());
    const HistoryLayout& layout = all.value().layout;
    QCOMPARE(layout.disagreements, 0);
    QVERIFY(layout.returnedByGet > 0);
    // Every marker kind came back from the RAW read, with what it masks.
    QCOMPARE(find(layout, "a", 2).fate, VersionFate::kMasked);    // Delete @ 2
    QCOMPARE(find(layout, "b", 3).fate, VersionFate::kMasked);    // DeleteColumn @ 3
    QCOMPARE(find(layout, "b", 1).fate, VersionFate::kMasked);
    QCOMPARE(find(layout, "c", 4).fate, VersionFate::kMasked);    // DeleteFamilyVersion @ 4
    QCOMPARE(find(layout, "a", kEpoch).fate, VersionFate::kReturned);
    QCOMPARE(find(layout, "c", kYear52011).fate, VersionFate::kReturned);
    QCOMPARE(layout.segments.size(), size_t{3});  // logical, 2024, year 52011

    // One column, a narrower get: still in agreement, the family markers included.
    request.qualifier = Bytes("a");
    HistoryGet get;
    get.timeRange = {0, 100};
    get.maxVersions = 1;
    request.get = get;
    Result<HistoryResult> one = fetchHistory(*ws, request, cancel);
    QVERIFY2(one.isOk(), one.status().toString().c_str());
    QCOMPARE(one.value().layout.disagreements, 0);
    QCOMPARE(one.value().layout.lanes.front(), QStringLiteral("(family)"));
    QCOMPARE(find(one.value().layout, "a", 5).fate, VersionFate::kReturned);
    QCOMPARE(find(one.value().layout, "a", 1).fate, VersionFate::kBeyondVersions);

    request.family = "nope";
    QCOMPARE(fetchHistory(*ws, request, cancel).status().code(), Status::Code::kNotFound);
  }

  // --- The model and the view -------------------------------------------------

  void theModelListsEveryVersionWithItsFate() {
    HistoryModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    auto layout = std::make_shared<HistoryLayout>(layoutHistory(
        input({put("a", 4, std::string("\x00\x00\x00\x00\x00\x00\x00\x2a", 8)), put("a", 6),
               marker(CellType::kDeleteColumn, "a", 5)})));
    model.setLayout(layout);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.columnCount(), int{HistoryModel::kColumnCount});
    // Engine order: 6, the marker at 5, 4.
    QCOMPARE(model.index(1, HistoryModel::kType).data().toString(), QStringLiteral("DeleteColumn"));
    QCOMPARE(model.index(1, HistoryModel::kFate).data().toString(),
             QStringLiteral("delete marker: masks 1 put"));
    QCOMPARE(model.index(2, HistoryModel::kFate).data().toString(),
             QStringLiteral("masked by DeleteColumn @ 5"));
    QCOMPARE(model.index(0, HistoryModel::kFate).data().toString(), QStringLiteral("returned"));
    QCOMPARE(model.index(0, HistoryModel::kTime).data().toString(), QStringLiteral("logical"));
    model.setValueFormat(ValueFormat::kInteger);
    QCOMPARE(model.index(2, HistoryModel::kValue).data().toString(), QStringLiteral("42"));
    model.setLayout(nullptr);
    QCOMPARE(model.rowCount(), 0);
  }

  void theViewReadsDrawsAndRerunsTheGet() {
    QTemporaryDir dir;
    auto ws = test::openWorkspace(dir.filePath(QStringLiteral("v.ksw")));
    writeHistoryTable(*ws);
    JobRunner runner;
    CellHistoryView view(&runner);
    QAbstractItemModelTester tester(view.model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    view.resize(1200, 400);
    view.show();
    view.setWorkspace(ws.get());
    view.showCell("h", "r1", "f", std::nullopt);
    QVERIFY(QTest::qWaitFor([&] { return !view.isLoading() && view.result(); }, 10000));
    const HistoryLayout& layout = view.result()->layout;
    QCOMPARE(view.plot()->pointCount(), static_cast<int>(layout.versions.size()));
    QCOMPARE(view.plot()->breakCount(), static_cast<int>(layout.segments.size()) - 1);
    QCOMPARE(view.plot()->maskItemCount(), static_cast<int>(layout.masks.size()));
    QCOMPARE(view.model()->rowCount(), static_cast<int>(layout.versions.size()));
    QVERIFY2(view.statusText().contains(QStringLiteral("as the semantics predict")),
             qPrintable(view.statusText()));
    QCOMPARE(view.result()->input.get.maxVersions, 10);  // the family's VERSIONS

    // TIMESTAMP 5: only a@5 comes back.
    QVERIFY(view.setGetOptions({}, {}, QStringLiteral("5"), 10));
    QVERIFY(QTest::qWaitFor([&] { return !view.isLoading(); }, 10000));
    QCOMPARE(view.result()->layout.returnedByGet, 1);
    QCOMPARE(view.result()->layout.disagreements, 0);

    // A bad bound says where, and runs nothing.
    QVERIFY(!view.setGetOptions(QStringLiteral("soon"), {}, {}, 10));
    QVERIFY2(view.errorText().contains(QStringLiteral("TIMERANGE min")), qPrintable(view.errorText()));
    QVERIFY(!view.setGetOptions(QStringLiteral("9"), QStringLiteral("3"), {}, 10));
    QVERIFY(!view.errorText().isEmpty());
    // A date-time bound reads as UTC milliseconds.
    QVERIFY(view.setGetOptions(QStringLiteral("2024-03-01"), {}, {}, 10));
    QVERIFY(QTest::qWaitFor([&] { return !view.isLoading(); }, 10000));
    QCOMPARE(view.result()->input.get.timeRange.min, kEpoch);
    QCOMPARE(find(view.result()->layout, "a", 5).fate, VersionFate::kOutsideRange);

    view.setWorkspace(nullptr);
    QCOMPARE(view.model()->rowCount(), 0);
  }

  void asOfALaterDateExpiresVersionsByTheTtl() {
    QTemporaryDir dir;
    auto ws = test::openWorkspace(dir.filePath(QStringLiteral("ttl.ksw")));
    TableOptions table;
    table.name = "ttl";
    FamilyOptions f = family(3);
    f.ttlSeconds = 3600;
    table.families = {f};
    test::check(ws->createTable(table), "create ttl");
    const int64_t now = ws->now();
    Put p{"r", {{"f", "q", now - 1000, "fresh"}}};
    test::check(ws->put("ttl", p), "put");
    JobRunner runner;
    CellHistoryView view(&runner);
    view.setWorkspace(ws.get());
    view.showCell("ttl", "r", "f", Bytes("q"));
    QVERIFY(QTest::qWaitFor([&] { return !view.isLoading() && view.result(); }, 10000));
    QCOMPARE(find(view.result()->layout, "q", now - 1000).fate, VersionFate::kReturned);
    view.setAsOf(now + 2 * 3600 * 1000);  // two hours on: past the TTL
    QVERIFY(QTest::qWaitFor([&] { return !view.isLoading(); }, 10000));
    QCOMPARE(find(view.result()->layout, "q", now - 1000).fate, VersionFate::kExpired);
    QCOMPARE(view.result()->layout.returnedByGet, 0);
    QCOMPARE(view.result()->layout.disagreements, 0);
    QVERIFY2(view.statusText().contains(QStringLiteral("as of")), qPrintable(view.statusText()));
    view.setAsOf(std::nullopt);
    QVERIFY(QTest::qWaitFor([&] { return !view.isLoading(); }, 10000));
    QCOMPARE(view.result()->layout.returnedByGet, 1);
  }

  void parsingTimestampsNamesTheField() {
    QCOMPARE(parseHistoryTimestamp(QStringLiteral(" 42 "), QStringLiteral("x")).value(),
             std::optional<int64_t>(42));
    QVERIFY(!parseHistoryTimestamp(QString(), QStringLiteral("x")).value().has_value());
    const auto negative = parseHistoryTimestamp(QStringLiteral("-1"), QStringLiteral("TIMESTAMP"));
    QVERIFY(!negative.isOk());
    QVERIFY(QString::fromStdString(negative.status().message()).startsWith("TIMESTAMP"));
    QCOMPARE(parseHistoryTimestamp(QStringLiteral("2024-03-01 00:01"), QStringLiteral("x")).value(),
             std::optional<int64_t>(kEpoch + kMinute));
  }

 private:
  // Table "h", family f (VERSIONS 10), row r1:
  //   a: puts at 1, 2, 5 and at 2024-03-01; a Delete at 2
  //   b: puts at 1, 3, 7; a DeleteColumn at 3
  //   c: puts at 4 and in year 52011; a DeleteFamilyVersion at 4
  static void writeHistoryTable(Workspace& ws) {
    TableOptions table;
    table.name = "h";
    table.families = {family(10)};
    test::check(ws.createTable(table), "create h");
    Put p{"r1", {}};
    for (int64_t ts : {int64_t{1}, int64_t{2}, int64_t{5}, kEpoch})
      p.cells.push_back({"f", "a", ts, "a" + std::to_string(ts)});
    for (int64_t ts : {1, 3, 7}) p.cells.push_back({"f", "b", ts, "b" + std::to_string(ts)});
    for (int64_t ts : {int64_t{4}, kYear52011}) p.cells.push_back({"f", "c", ts, "c"});
    test::check(ws.put("h", p), "put h");
    Delete d{"r1", kLatestTimestamp,
             {{DeleteScope::kColumnVersion, "f", "a", 2},
              {DeleteScope::kColumnAll, "f", "b", 3},
              {DeleteScope::kFamilyVersion, "f", "", 4}}};
    test::check(ws.remove("h", d), "delete h");
  }
};

QTEST_MAIN(TestCellHistory)
#include "tst_cell_history.moc"
