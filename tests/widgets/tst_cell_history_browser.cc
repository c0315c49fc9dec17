// Qt Test for what the data browser adds around the cell history, over real
// workspaces: "View as of" (rows whose cells expire by then vanish, and come
// back when it is off), the row estimate from region statistics (and none
// when a filter covers a region only in part), typed key component columns
// (epoch by default for an i64 "ts", other formats chosen and remembered),
// and a cell's history asked for from the view.
#include <QAbstractItemModelTester>
#include <QSettings>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

#include "async/job_runner.h"
#include "browser/cell_table_model.h"
#include "browser/column_format_store.h"
#include "browser/data_browser.h"
#include "test_workspace.h"

using namespace keyscope;

namespace {

constexpr int64_t kEpoch = 1709251200000;  // 2024-03-01 00:00 UTC
constexpr int64_t kHour = 3600 * 1000;

struct Fixture {
  // `tested`: a QAbstractItemModelTester watches the model (it fetches every
  // page, so tests of the partial row count go without).
  Fixture(const QString& settingsFile, bool tested) : settings(settingsFile, QSettings::IniFormat) {
    if (tested) {
      tester = std::make_unique<QAbstractItemModelTester>(
          browser.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    }
  }
  QSettings settings;
  ColumnFormatStore formats{&settings};
  JobRunner runner;
  DataBrowser browser{&runner, &formats};
  std::unique_ptr<QAbstractItemModelTester> tester;
};

bool settle(Fixture& f) {
  return QTest::qWaitFor(
      [&f] { return !f.browser.model()->isLoading() && !f.browser.isEstimating(); }, 10000);
}

}  // namespace

class TestCellHistoryBrowser : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir m_dir;

  std::unique_ptr<Fixture> browse(Workspace& ws, const std::string& table, bool tested = true) {
    auto f = std::make_unique<Fixture>(m_dir.filePath(QStringLiteral("settings.ini")), tested);
    f->browser.resize(1000, 600);
    f->browser.setWorkspace(&ws, QString::fromStdString(ws.path()));
    f->browser.showTable(ws.describeTable(table).value());
    settle(*f);
    return f;
  }

 private slots:
  void viewAsOfALaterDateHidesWhatExpiresByThen() {
    auto ws = test::openWorkspace(m_dir.filePath(QStringLiteral("asof.ksw")));
    TableOptions table;
    table.name = "ttl";
    FamilyOptions f;
    f.name = "f";
    f.ttlSeconds = 3600;
    table.families = {f};
    test::check(ws->createTable(table), "create");
    const int64_t now = ws->now();
    std::vector<Mutation> puts;
    for (int n = 0; n < 20; ++n) {
      // Rows 0-9 written now, rows 10-19 stamped ten hours on.
      const int64_t ts = n < 10 ? now : now + 10 * kHour;
      puts.emplace_back(Put{test::rowKey(n), {{"f", "q", ts, "v"}}});
    }
    test::check(ws->mutate("ttl", puts), "fill");

    auto fx = browse(*ws, "ttl");
    QCOMPARE(fx->browser.model()->rowCount(), 20);
    int changes = 0;
    connect(&fx->browser, &DataBrowser::asOfChanged, this, [&changes] { ++changes; });
    fx->browser.setAsOf(now + 2 * kHour);  // rows 0-9 have expired by then
    QVERIFY(settle(*fx));
    QCOMPARE(fx->browser.model()->rowCount(), 10);
    QCOMPARE(fx->browser.model()->index(0, 0).data().toString(), QString::fromStdString(test::rowKey(10)));
    QVERIFY2(fx->browser.statusText().contains(QStringLiteral("as of 20")),
             qPrintable(fx->browser.statusText()));
    QCOMPARE(changes, 1);
    // The data and the engine's clock are untouched.
    QCOMPARE(ws->count("ttl", {}).value(), uint64_t{20});
    fx->browser.setAsOf(std::nullopt);
    QVERIFY(settle(*fx));
    QCOMPARE(fx->browser.model()->rowCount(), 20);
    QVERIFY(!fx->browser.statusText().contains(QStringLiteral("as of")));
    QCOMPARE(changes, 2);
  }

  void theRowCountIsEstimatedFromRegionStatistics() {
    auto ws = test::openWorkspace(m_dir.filePath(QStringLiteral("estimate.ksw")));
    test::fillNumberedTable(*ws, 1000, 1000);  // 4 cells a row: d:name and 3 versions of d:count
    test::check(ws->flush("t"), "flush");
    auto fx = browse(*ws, "t", /*tested=*/false);
    QCOMPARE(fx->browser.model()->rowCount(), 256);
    QCOMPARE(fx->browser.rowEstimate(), std::optional<uint64_t>(1000));
    QVERIFY2(fx->browser.statusText().contains(QStringLiteral("≥ 256 rows (about 1,000)")),
             qPrintable(fx->browser.statusText()));

    // Two regions: a filter that covers the second whole is estimated from it alone...
    test::check(ws->split("t", Bytes(test::rowKey(500))).status(), "split");
    QVERIFY(fx->browser.applyFilter({}, QString::fromStdString(test::rowKey(500)), {}));
    QVERIFY(settle(*fx));
    QCOMPARE(fx->browser.rowEstimate(), std::optional<uint64_t>(500));
    // ...one that covers a region in part says nothing rather than guess.
    QVERIFY(fx->browser.applyFilter(QStringLiteral("row000"), {}, {}));
    QVERIFY(settle(*fx));
    QVERIFY(!fx->browser.rowEstimate().has_value());
    QVERIFY2(!fx->browser.statusText().contains(QStringLiteral("about")),
             qPrintable(fx->browser.statusText()));
  }

  void keyComponentsShowTypedFormatsThatPersist() {
    auto ws = test::openWorkspace(m_dir.filePath(QStringLiteral("keys.ksw")));
    TableOptions table;
    table.name = "events";
    FamilyOptions e;
    e.name = "e";
    table.families = {e};
    table.keySchema = "ts:i64 | n:u32";
    test::check(ws->createTable(table), "create");
    const KeySchema schema = KeySchema::parse(table.keySchema).value();
    for (uint64_t n = 0; n < 3; ++n) {
      Put put{encodeKey(schema, {kEpoch + static_cast<int64_t>(n) * 1000, n}).value(),
              {{"e", "x", 1, "1"}}};
      test::check(ws->put("events", put), "put");
    }
    {
      auto fx = browse(*ws, "events");
      CellTableModel* model = fx->browser.model();
      const int ts = model->columnOf(QStringLiteral("row.ts"));
      const int n = model->columnOf(QStringLiteral("row.n"));
      QVERIFY(ts > 0 && n > 0);
      QCOMPARE(model->columnFormat(ts), ValueFormat::kEpochMillis);  // by its type and name
      QCOMPARE(model->columnFormat(n), ValueFormat::kEscaped);
      QCOMPARE(model->index(1, ts).data().toString(), QStringLiteral("2024-03-01 00:00:01.000 UTC"));
      QCOMPARE(model->index(1, n).data().toString(), QStringLiteral("1"));
      fx->browser.setColumnFormat(ts, ValueFormat::kEscaped);  // the decoded number
      QCOMPARE(model->index(1, ts).data().toString(), QStringLiteral("1709251201000"));
      fx->browser.setColumnFormat(n, ValueFormat::kHex);  // the component's key bytes
      QCOMPARE(model->index(1, n).data().toString(), QStringLiteral("00000001"));
      fx->browser.setColumnFormat(n, ValueFormat::kEpochMillis);
      QCOMPARE(model->index(1, n).data().toString(), QStringLiteral("1970-01-01 00:00:00.001 UTC"));
    }
    // Remembered for the workspace and table, the default as no entry.
    auto again = browse(*ws, "events");
    CellTableModel* model = again->browser.model();
    const int ts = model->columnOf(QStringLiteral("row.ts"));
    QCOMPARE(model->columnFormat(ts), ValueFormat::kEscaped);
    QCOMPARE(model->columnFormat(model->columnOf(QStringLiteral("row.n"))), ValueFormat::kEpochMillis);
    again->browser.setColumnFormat(ts, ValueFormat::kEpochMillis);
    const QHash<QString, ValueFormat> stored =
        again->formats.formats(QString::fromStdString(ws->path()), QStringLiteral("events"));
    QVERIFY(!stored.contains(QStringLiteral("row.ts")));
    QCOMPARE(stored.value(QStringLiteral("row.n")), ValueFormat::kEpochMillis);
  }

  void aCellAsksForItsHistory() {
    auto ws = test::openWorkspace(m_dir.filePath(QStringLiteral("cells.ksw")));
    test::fillNumberedTable(*ws, 10, 0);
    auto fx = browse(*ws, "t");
    CellTableModel* model = fx->browser.model();
    std::vector<CellHistoryTarget> asked;
    connect(&fx->browser, &DataBrowser::cellHistoryRequested, this,
            [&asked](const CellHistoryTarget& target) { asked.push_back(target); });
    fx->browser.setColumnFormat(model->columnOf(QStringLiteral("d:count")), ValueFormat::kInteger);
    const QModelIndex count = model->index(3, model->columnOf(QStringLiteral("d:count")));
    QVERIFY(fx->browser.requestCellHistory(count));
    QVERIFY(fx->browser.requestCellHistory(count, /*wholeFamily=*/true));
    QVERIFY(!fx->browser.requestCellHistory(model->index(3, 0)));  // the row key has none
    QCOMPARE(asked.size(), size_t{2});
    QCOMPARE(asked[0].table, std::string("t"));
    QCOMPARE(asked[0].row, test::rowKey(3));
    QCOMPARE(asked[0].family, std::string("d"));
    QCOMPARE(asked[0].qualifier, std::optional<Bytes>("count"));
    QCOMPARE(asked[0].format, ValueFormat::kInteger);
    QVERIFY(!asked[1].qualifier.has_value());
    // A double-click asks too.
    fx->browser.show();
    QVERIFY(QTest::qWaitForWindowExposed(&fx->browser));
    QTableView* view = fx->browser.view();
    const QRect cell = view->visualRect(count);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, cell.center());
    QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, cell.center());
    QCOMPARE(asked.size(), size_t{3});
    QCOMPARE(asked[2].row, test::rowKey(3));
  }
};

QTEST_MAIN(TestCellHistoryBrowser)
#include "tst_cell_history_browser.moc"
