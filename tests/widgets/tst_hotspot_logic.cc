// Tests of the hotspot heatmap's pure parts on constructed grids: the
// diagnostics (a monotonic diagonal names its lead component, a salted load
// raises nothing, a hot row, a hot range, too few keys), the drill-through
// scans (for a clicked cell and a brushed area, read back by the shell's own
// parser), region boundaries over time, and the CSV export.
#include <QTest>

#include <functional>
#include <string>

#include "hotspots/drill_through.h"
#include "hotspots/heat_grid_csv.h"
#include "hotspots/hotspot_diagnostics.h"
#include "hotspots/region_boundaries.h"
#include "keyscope/key_codec.h"
#include "keyscope/shell_command.h"

using namespace keyscope;

namespace {

constexpr int64_t kStart = 1704067200000;  // 2024-01-01 00:00:00 UTC

KeySchema schemaOf(const char* text) {
  Result<KeySchema> schema = KeySchema::parse(text);
  if (!schema) qFatal("bad schema %s", text);
  return schema.value();
}

// A grid of `buckets` x `columns` one-second cells; bucket b's start row is
// `row(b)` (bucket 0 starts at the table's start), its label `label(b)`.
HeatGrid makeGrid(size_t buckets, uint32_t columns, const std::function<double(size_t, size_t)>& value,
                  const std::function<std::string(size_t)>& label,
                  const std::function<Bytes(size_t)>& row = [](size_t b) { return b == 0 ? Bytes() : Bytes(1, static_cast<char>(b)); }) {
  HeatGrid grid;
  grid.window = {kStart, kStart + columns * 1000};
  grid.columnMillis = 1000;
  grid.columns = columns;
  grid.metric = LoadMetric::kWrites;
  for (size_t b = 0; b < buckets; ++b) {
    HeatGridBucket bucket;
    bucket.startRow = row(b);
    if (b + 1 < buckets) bucket.endRow = row(b + 1);
    bucket.label = label(b);
    grid.buckets.push_back(bucket);
  }
  grid.values.assign(buckets * columns, 0.0);
  for (size_t b = 0; b < buckets; ++b)
    for (size_t c = 0; c < columns; ++c) {
      grid.values[b * columns + c] = value(b, c);
      grid.maxValue = std::max(grid.maxValue, value(b, c));
    }
  return grid;
}

HeatGridRequest equalKeys(uint32_t buckets) {
  HeatGridRequest r;
  r.axis = KeyAxis::kEqualKeyCounts;
  r.keyBuckets = buckets;
  r.metric = LoadMetric::kWrites;
  return r;
}

std::string tsLabel(size_t b) { return "ts=2024-01-01 00:00:" + std::to_string(10 + b) + " \u203a event=" + std::to_string(b * 7); }

std::vector<HotspotDiagnostic::Kind> kinds(const std::vector<HotspotDiagnostic>& ds) {
  std::vector<HotspotDiagnostic::Kind> out;
  for (const auto& d : ds) out.push_back(d.kind);
  return out;
}

}  // namespace

class TestHotspotLogic : public QObject {
  Q_OBJECT

 private slots:
  void monotonicDiagonalNamesTheLeadComponent() {
    // 50 buckets over 100 s; the writes of second c all go to bucket c / 2.
    const HeatGrid grid = makeGrid(50, 100, [](size_t b, size_t c) { return b == c / 2 ? 100.0 : 0.0; }, tsLabel);
    const auto ds = diagnoseHotspots(grid, equalKeys(50), schemaOf("ts:i64 | event:u64"));
    QCOMPARE(ds.size(), size_t{1});
    QCOMPARE(ds[0].kind, HotspotDiagnostic::Kind::kMonotonicDiagonal);
    QCOMPARE(ds[0].component, QStringLiteral("ts"));
    QVERIFY(ds[0].title.contains(QStringLiteral("'ts'")));
    QVERIFY(ds[0].text.contains(QStringLiteral("grows with time")));
  }

  void staircaseOfRegionsIsStillADiagonal() {
    // By region: the last region is hot until it splits, 5 regions in turn.
    const HeatGrid grid = makeGrid(10, 100, [](size_t b, size_t c) { return b == 2 * (c / 20) ? 40.0 : 0.0; }, tsLabel);
    HeatGridRequest r = equalKeys(10);
    r.axis = KeyAxis::kRegions;
    const auto ds = diagnoseHotspots(grid, r, schemaOf("ts:i64 | event:u64"));
    QCOMPARE(kinds(ds), std::vector{HotspotDiagnostic::Kind::kMonotonicDiagonal});
  }

  void reversedTimestampFallsWithTime() {
    const HeatGrid grid = makeGrid(50, 100, [](size_t b, size_t c) { return b == 49 - c / 2 ? 100.0 : 0.0; }, tsLabel);
    const auto ds = diagnoseHotspots(grid, equalKeys(50), schemaOf("ts:i64 | event:u64"));
    QCOMPARE(kinds(ds), std::vector{HotspotDiagnostic::Kind::kMonotonicDiagonal});
    QVERIFY(ds[0].text.contains(QStringLiteral("falls with time")));
  }

  void saltedLoadRaisesNothing() {
    // 8 salt buckets of 8 key buckets each; in every second each salt bucket
    // is written at the same relative place: 8 parallel fronts.
    const HeatGrid grid = makeGrid(
        64, 100, [](size_t b, size_t c) { return b % 8 == c * 8 / 100 ? 12.0 : 0.0; },
        [](size_t b) { return "salt=" + std::to_string(b / 8) + " \u203a ts=" + std::to_string(b % 8); });
    const auto ds = diagnoseHotspots(grid, equalKeys(64), schemaOf("salt:salt(8, ts) | ts:i64 | event:u64"));
    QVERIFY2(ds.empty(), ds.empty() ? "" : qPrintable(ds[0].title));
  }

  void uniformLoadRaisesNothing() {
    const HeatGrid grid = makeGrid(100, 60, [](size_t b, size_t c) { return 5.0 + static_cast<double>((b * 7 + c * 3) % 4); }, tsLabel);
    QVERIFY(diagnoseHotspots(grid, equalKeys(100), schemaOf("ts:i64 | event:u64")).empty());
  }

  void singleHotRowNamesItsComponentValue() {
    const HeatGrid grid = makeGrid(
        50, 30, [](size_t b, size_t) { return b == 17 ? 50.0 : 1.0; },
        [](size_t b) { return "user=user" + std::to_string(1000 + b) + " \u203a ts=2024-01-01 00:00:0" + std::to_string(b % 10); });
    const auto ds = diagnoseHotspots(grid, equalKeys(50), schemaOf("user:utf8 | ts:i64"));
    QCOMPARE(kinds(ds), std::vector{HotspotDiagnostic::Kind::kHotRow});
    QCOMPARE(ds[0].component, QStringLiteral("user"));
    QVERIFY(ds[0].title.contains(QStringLiteral("user=user1017")));
  }

  void hotRangeIsFoundAndBounded() {
    // Buckets 20..27 (8 of 80) take 80% of a steady load.
    const HeatGrid grid = makeGrid(80, 30, [](size_t b, size_t) { return b >= 20 && b < 28 ? 30.0 : 1.0; },
                                   [](size_t b) { return "region=r" + std::to_string(b / 20) + " \u203a n=" + std::to_string(b); });
    const auto ds = diagnoseHotspots(grid, equalKeys(80), schemaOf("region:utf8 | n:u32"));
    QCOMPARE(kinds(ds), std::vector{HotspotDiagnostic::Kind::kHotRange});
    QCOMPARE(ds[0].component, QStringLiteral("region"));
    QVERIFY(ds[0].title.contains(QStringLiteral("region=r1")));
    // The narrowest run with 60% of the load: 7 or 8 of the hot buckets.
    QVERIFY2(ds[0].text.contains(QStringLiteral("of 80 key buckets, from region=r1 \u203a n=2")), qPrintable(ds[0].text));
  }

  void tooFewKeysToBucketEvenly() {
    const HeatGrid grid = makeGrid(5, 10, [](size_t, size_t) { return 1.0; }, tsLabel);
    const auto ds = diagnoseHotspots(grid, equalKeys(200), schemaOf("ts:i64 | event:u64"));
    QCOMPARE(kinds(ds), std::vector{HotspotDiagnostic::Kind::kTooFewKeys});
    QVERIFY(ds[0].text.contains(QStringLiteral("only 5")));
    QCOMPARE(ds[0].component, QStringLiteral("ts"));
  }

  void emptyGridRaisesNothing() {
    const HeatGrid grid = makeGrid(40, 20, [](size_t, size_t) { return 0.0; }, tsLabel);
    QVERIFY(diagnoseHotspots(grid, equalKeys(40), std::nullopt).empty());
  }

  void labelPartsDropTheRegionPrefix() {
    HeatGridBucket bucket;
    bucket.label = "region 12: salt=7 \u203a user=alice";
    QCOMPARE(bucketLabelParts(bucket), (QStringList{QStringLiteral("salt=7"), QStringLiteral("user=alice")}));
  }

  void drillThroughOfAClickedCell() {
    const HeatGrid grid = makeGrid(10, 20, [](size_t, size_t) { return 1.0; }, tsLabel);
    const Result<DrillThrough> drill = drillThrough(QStringLiteral("events"), grid, {2, 2, 3, 3});
    QVERIFY(drill.isOk());
    QCOMPARE(drill.value().scan.startRow, Bytes(1, '\x02'));
    QCOMPARE(drill.value().scan.stopRow, Bytes(1, '\x03'));
    QCOMPARE(drill.value().scan.timeRange.min, kStart + 3000);
    QCOMPARE(drill.value().scan.timeRange.max, kStart + 4000);
    QCOMPARE(drill.value().shellLine,
             QStringLiteral("scan 'events', {STARTROW => \"\\x02\", STOPROW => \"\\x03\", "
                            "TIMERANGE => [1704067203000, 1704067204000]}"));
  }

  void drillThroughOfABrushedAreaReadsBackInTheShell() {
    const HeatGrid grid = makeGrid(10, 20, [](size_t, size_t) { return 1.0; }, tsLabel,
                                   [](size_t b) { return b == 0 ? Bytes() : "k\"#\\" + std::string(1, static_cast<char>('a' + b)) + std::string(1, '\0'); });
    const Result<DrillThrough> drill = drillThrough(QStringLiteral("it's"), grid, {1, 3, 0, 4});
    QVERIFY(drill.isOk());
    const ScanOptions& scan = drill.value().scan;
    QCOMPARE(scan.startRow, grid.buckets[1].startRow);
    QCOMPARE(scan.stopRow, grid.buckets[3].endRow);
    QCOMPARE(scan.timeRange.min, kStart);
    QCOMPARE(scan.timeRange.max, kStart + 5000);
    // The shell reads the line back to the same scan.
    const std::string line = drill.value().shellLine.toStdString();
    const std::vector<shell::Statement> statements = shell::parseShell(line);
    QCOMPARE(statements.size(), size_t{1});
    QVERIFY2(statements[0].status.isOk(), statements[0].status.toString().c_str());
    const auto* parsed = std::get_if<shell::ScanCommand>(&*statements[0].command);
    QVERIFY(parsed != nullptr);
    QCOMPARE(parsed->table, std::string("it's"));
    QCOMPARE(parsed->options.startRow, scan.startRow);
    QCOMPARE(parsed->options.stopRow, scan.stopRow);
    QCOMPARE(parsed->options.timeRange, scan.timeRange);
  }

  void drillThroughOfTheFirstAndLastBucketsIsUnbounded() {
    const HeatGrid grid = makeGrid(4, 5, [](size_t, size_t) { return 1.0; }, tsLabel);
    const Result<DrillThrough> drill = drillThrough(QStringLiteral("t"), grid, {0, 3, 4, 4});
    QVERIFY(drill.isOk());
    QVERIFY(drill.value().scan.startRow.empty());
    QVERIFY(drill.value().scan.stopRow.empty());
    QCOMPARE(drill.value().shellLine, QStringLiteral("scan 't', {TIMERANGE => [1704067204000, 1704067205000]}"));
  }

  void drillThroughRefusesFoldedBucketsAndAreasOutsideTheGrid() {
    HeatGrid grid = makeGrid(4, 5, [](size_t, size_t) { return 1.0; }, tsLabel);
    QVERIFY(!drillThrough(QStringLiteral("t"), grid, {0, 4, 0, 0}).isOk());
    QVERIFY(!drillThrough(QStringLiteral("t"), grid, {0, 0, 2, 5}).isOk());
    grid.buckets[1].keyRange = false;
    const Result<DrillThrough> folded = drillThrough(QStringLiteral("t"), grid, {0, 2, 0, 0});
    QVERIFY(!folded.isOk());
    QVERIFY(QString::fromStdString(folded.status().message()).contains(QStringLiteral("unfold the salt")));
  }

  void boundariesAppearAtTheirSplit() {
    // Region 1 [ , ) splits at 'm' at 10 s; its upper daughter splits at 't' at 20 s.
    std::vector<RegionHistoryEntry> history;
    history.push_back({1, "", "", kStart - 5000, kStart + 10000, {}, RegionOrigin::kCreate, ""});
    history.push_back({2, "", "m", kStart + 10000, std::nullopt, {1}, RegionOrigin::kSizeSplit, "m"});
    history.push_back({3, "m", "", kStart + 10000, kStart + 20000, {1}, RegionOrigin::kSizeSplit, "m"});
    history.push_back({4, "m", "t", kStart + 20000, std::nullopt, {3}, RegionOrigin::kSizeSplit, "t"});
    history.push_back({5, "t", "", kStart + 20000, std::nullopt, {3}, RegionOrigin::kSizeSplit, "t"});
    const auto segments = boundarySegments(history, {kStart, kStart + 30000});
    QCOMPARE(segments.size(), size_t{2});  // 'm' continues through its daughter 4
    QCOMPARE(segments[0].row, Bytes("m"));
    QCOMPARE(segments[0].fromMillis, kStart + 10000);
    QCOMPARE(segments[0].toMillis, kStart + 30000);
    QVERIFY(segments[0].fromSplit);
    QCOMPARE(segments[1].row, Bytes("t"));
    QCOMPARE(segments[1].fromMillis, kStart + 20000);
    // A window before the first split has no boundary.
    QVERIFY(boundarySegments(history, {kStart, kStart + 9000}).empty());
  }

  void boundaryPositionsOnTheKeyAxis() {
    const HeatGrid grid = makeGrid(4, 2, [](size_t, size_t) { return 0.0; }, tsLabel,
                                   [](size_t b) { return b == 0 ? Bytes() : Bytes(1, static_cast<char>('a' + 4 * b)); });
    // Bucket starts: "", "e", "i", "m".
    QCOMPARE(boundaryAxisPosition(grid, "e").value(), 0.5);
    QCOMPARE(boundaryAxisPosition(grid, "f").value(), 1.5);  // inside bucket 1: drawn at the edge after it
    QCOMPARE(boundaryAxisPosition(grid, "z").value(), 3.0);  // inside the last bucket
    HeatGrid folded = grid;
    folded.buckets[2].keyRange = false;
    QVERIFY(!boundaryAxisPosition(folded, "e").has_value());
  }

  void csvHasAHeaderAndOneRecordPerBucket() {
    const HeatGrid grid = makeGrid(3, 2, [](size_t b, size_t c) { return static_cast<double>(b * 10 + c); },
                                   [](size_t b) { return b == 1 ? std::string("a, \"b\"") : std::string("x"); });
    const QStringList lines = QString::fromStdString(heatGridCsv(grid)).split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 4);
    QCOMPARE(lines[0], QStringLiteral("bucket,start_row,end_row,label (writes),1704067200000,1704067201000"));
    QCOMPARE(lines[1], QStringLiteral("0,,\\x01,x,0,1"));
    QCOMPARE(lines[2], QStringLiteral("1,\\x01,\\x02,\"a, \"\"b\"\"\",10,11"));
  }
};

QTEST_GUILESS_MAIN(TestHotspotLogic)
#include "tst_hotspot_logic.moc"
