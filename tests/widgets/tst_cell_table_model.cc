// Qt Test for CellTableModel and loadPage over real workspace files: pages
// by key cursor (each page's scan starts after the last key loaded), never
// loads everything at once, says "≥ N rows" until the end, inserts columns
// as later pages bring them, counts versions, decodes key components,
// filters by prefix and range, drops a stale query's pages, stops at its
// memory budget, and shows each column in its display format.
// QAbstractItemModelTester watches a model from before it gets data; as it
// calls fetchMore() after every change (as a view filling its viewport
// would), it has a test of its own and the paging tests go without it.
#include <QAbstractItemModelTester>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

#include "async/job_runner.h"
#include "browser/cell_table_model.h"
#include "browser/page_loader.h"
#include "keyscope/cancel_token.h"
#include "test_workspace.h"

using keyscope::BrowseQuery;
using keyscope::Bytes;
using keyscope::CellTableModel;
using keyscope::JobRunner;
using keyscope::ValueFormat;
using keyscope::test::rowKey;

namespace {

constexpr int kRows = 1000;
constexpr int kExtraFrom = 700;  // rows from here on have m:extra: a column the 3rd page brings

BrowseQuery queryOf(const char* table) {
  BrowseQuery query;
  query.table = table;
  return query;
}

QString text(const CellTableModel& model, int row, const QString& column) {
  return model.index(row, model.columnOf(column)).data().toString();
}

}  // namespace

class TestCellTableModel : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir m_dir;
  std::unique_ptr<keyscope::Workspace> m_ws;

  struct Fixture {
    JobRunner runner;
    CellTableModel model{&runner};
  };

  static bool settle(CellTableModel& model) {
    return QTest::qWaitFor([&model] { return !model.isLoading(); }, 10000);
  }

 private slots:
  void initTestCase() {
    QVERIFY(m_dir.isValid());
    m_ws = keyscope::test::openWorkspace(m_dir.filePath(QStringLiteral("browse.ksw")));
    keyscope::test::fillNumberedTable(*m_ws, kRows, kExtraFrom);
    keyscope::test::fillKeyedTable(*m_ws, 20);
  }

  void cleanupTestCase() { m_ws.reset(); }

  void thePageScanStartsJustAfterTheLastKeyLoaded() {
    keyscope::PageRequest request;
    request.query = queryOf("t");
    request.after = rowKey(255);
    const keyscope::ScanOptions scan = keyscope::pageScanOptions(request);
    QCOMPARE(scan.startRow, rowKey(255));
    QVERIFY(!scan.startInclusive);
    QCOMPARE(scan.limit, static_cast<int64_t>(keyscope::kPageRows) + 1);

    keyscope::CancelToken cancel;
    const keyscope::Result<keyscope::RowPage> page = keyscope::loadPage(*m_ws, request, cancel);
    QVERIFY(page.isOk());
    QCOMPARE(page->rows.size(), keyscope::kPageRows);
    QCOMPARE(page->rows.front().key, rowKey(256));
    QVERIFY(!page->atEnd);
  }

  void aCancelledPageLoadReturnsCancelled() {
    keyscope::PageRequest request;
    request.query = queryOf("t");
    keyscope::CancelToken cancel;
    cancel.cancel();
    const keyscope::Result<keyscope::RowPage> page = keyscope::loadPage(*m_ws, request, cancel);
    QVERIFY(!page.isOk());
    QCOMPARE(page.status().code(), keyscope::Status::Code::kCancelled);
  }

  void aModelThatFetchesFromItsOwnSignalsLoadsEachRowOnce() {
    // The tester fetches more from inside rowsInserted and columnsInserted,
    // so it reads the whole table page after page, re-entering the model.
    Fixture f;
    QAbstractItemModelTester tester(&f.model,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    f.model.setWorkspace(m_ws.get());
    f.model.setQuery(queryOf("t"));
    QTRY_VERIFY_WITH_TIMEOUT(f.model.isComplete(), 10000);
    QCOMPARE(f.model.rowCount(), kRows);
    for (int row = 0; row < kRows; ++row) {
      QCOMPARE(f.model.rowKey(row), rowKey(row));
    }
    QCOMPARE(f.model.pagesLoaded(), 4);
    QVERIFY(!f.model.isLoading());
  }

  void theFirstPageLoadsAloneAndSaysAtLeast() {
    Fixture f;
    f.model.setWorkspace(m_ws.get());
    f.model.setQuery(queryOf("t"));
    QVERIFY(f.model.isLoading());
    QVERIFY(settle(f.model));
    QCOMPARE(f.model.rowCount(), static_cast<int>(keyscope::kPageRows));
    QCOMPARE(f.model.pagesLoaded(), 1);
    QCOMPARE(f.model.rowCountText(), QStringLiteral("≥ 256 rows"));
    QVERIFY(!f.model.isComplete());
    QVERIFY(f.model.canFetchMore({}));
    // Nothing loads more on its own.
    QTest::qWait(100);
    QCOMPARE(f.model.rowCount(), static_cast<int>(keyscope::kPageRows));
  }

  void fetchingMorePagesOnToTheEndThenKnowsTheCount() {
    Fixture f;
    f.model.setWorkspace(m_ws.get());
    f.model.setQuery(queryOf("t"));
    QVERIFY(settle(f.model));
    int fetches = 0;
    while (f.model.canFetchMore({})) {
      const int before = f.model.rowCount();
      f.model.fetchMore({});
      QVERIFY(settle(f.model));
      QVERIFY(f.model.rowCount() > before);
      ++fetches;
    }
    QCOMPARE(fetches, 3);  // 1000 rows: pages of 256, 256, 256, 232
    QCOMPARE(f.model.rowCount(), kRows);
    QVERIFY(f.model.isComplete());
    QCOMPARE(f.model.rowCountText(), QStringLiteral("1,000 rows"));
    for (int row = 0; row < kRows; row += 97) {
      QCOMPARE(text(f.model, row, QStringLiteral("row")), QString::fromStdString(rowKey(row)));
      QCOMPARE(text(f.model, row, QStringLiteral("d:name")), QStringLiteral("name%1").arg(row));
    }
  }

  void columnsALaterPageBringsAreInsertedWhereTheySort() {
    Fixture f;
    f.model.setWorkspace(m_ws.get());
    f.model.setQuery(queryOf("t"));
    QVERIFY(settle(f.model));
    QCOMPARE(f.model.columnOf(QStringLiteral("m:extra")), -1);
    QCOMPARE(f.model.columnCount(), 3);  // row, d:count, d:name
    QCOMPARE(f.model.columnName(1), QStringLiteral("d:count"));
    while (f.model.canFetchMore({})) {
      f.model.fetchMore({});
      QVERIFY(settle(f.model));
    }
    QCOMPARE(f.model.columnCount(), 4);
    QCOMPARE(f.model.columnName(3), QStringLiteral("m:extra"));
    QCOMPARE(text(f.model, kExtraFrom - 1, QStringLiteral("m:extra")), QString());
    QCOMPARE(text(f.model, kExtraFrom, QStringLiteral("m:extra")), QStringLiteral("x"));
  }

  void cellsCountTheirVersions() {
    Fixture f;
    f.model.setWorkspace(m_ws.get());
    f.model.setQuery(queryOf("t"));
    QVERIFY(settle(f.model));
    const QModelIndex count = f.model.index(0, f.model.columnOf(QStringLiteral("d:count")));
    const QModelIndex name = f.model.index(0, f.model.columnOf(QStringLiteral("d:name")));
    QCOMPARE(count.data(CellTableModel::VersionsRole).toInt(), 3);
    QCOMPARE(count.data(CellTableModel::TimestampRole).toLongLong(), 1003);  // the latest
    QCOMPARE(name.data(CellTableModel::VersionsRole).toInt(), 1);
    QVERIFY(count.data(Qt::ToolTipRole).toString().contains(QStringLiteral("3 versions")));
  }

  void columnsShowInTheirFormat() {
    Fixture f;
    f.model.setWorkspace(m_ws.get());
    f.model.setQuery(queryOf("t"));
    QVERIFY(settle(f.model));
    const int count = f.model.columnOf(QStringLiteral("d:count"));
    QCOMPARE(f.model.index(5, count).data().toString(),
             QStringLiteral("\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x05"));
    f.model.setColumnFormat(QStringLiteral("d:count"), ValueFormat::kInteger);
    QCOMPARE(f.model.index(5, count).data().toString(), QStringLiteral("5"));
    QCOMPARE(f.model.index(5, count).data(Qt::TextAlignmentRole).toInt(),
             static_cast<int>(Qt::AlignRight | Qt::AlignVCenter));
    f.model.setColumnFormat(QStringLiteral("row"), ValueFormat::kHex);
    QCOMPARE(f.model.index(5, 0).data().toString(), QStringLiteral("726f773030303035"));
    // "name5" is no integer: shown escaped, marked as not fitting.
    const int name = f.model.columnOf(QStringLiteral("d:name"));
    f.model.setColumnFormat(QStringLiteral("d:name"), ValueFormat::kInteger);
    QCOMPARE(f.model.index(5, name).data().toString(), QStringLiteral("name5"));
    QCOMPARE(f.model.index(5, name).data(CellTableModel::FitsFormatRole).toBool(), false);
    // A format chosen before the column exists applies when it arrives.
    Fixture g;
    g.model.setWorkspace(m_ws.get());
    g.model.setColumnFormats({{QStringLiteral("d:count"), ValueFormat::kInteger}});
    g.model.setQuery(queryOf("t"));
    QVERIFY(settle(g.model));
    QCOMPARE(text(g.model, 7, QStringLiteral("d:count")), QStringLiteral("7"));
  }

  void aPrefixAndARangeBoundTheRows() {
    Fixture f;
    f.model.setWorkspace(m_ws.get());
    BrowseQuery query = queryOf("t");
    query.prefix = "row0001";  // row00010 ... row00019
    f.model.setQuery(query);
    QVERIFY(settle(f.model));
    QVERIFY(f.model.isComplete());
    QCOMPARE(f.model.rowCount(), 10);
    QCOMPARE(f.model.rowCountText(), QStringLiteral("10 rows"));
    query.startRow = rowKey(15);
    f.model.setQuery(query);
    QVERIFY(settle(f.model));
    QCOMPARE(f.model.rowCount(), 5);
    query.prefix.clear();
    query.startRow = rowKey(100);
    query.stopRow = rowKey(103);
    f.model.setQuery(query);
    QVERIFY(settle(f.model));
    QCOMPARE(f.model.rowCount(), 3);
    QCOMPARE(text(f.model, 2, QStringLiteral("row")), QString::fromStdString(rowKey(102)));
    // A range outside the prefix is empty without a scan.
    query.prefix = "row009";
    f.model.setQuery(query);
    QVERIFY(settle(f.model));
    QCOMPARE(f.model.rowCountText(), QStringLiteral("no rows"));
  }

  void keySchemaComponentsBecomeColumns() {
    Fixture f;
    f.model.setWorkspace(m_ws.get());
    BrowseQuery query = queryOf("keyed");
    query.keySchema = keyscope::KeySchema::parse("metric:utf8 | n:u32").value();
    f.model.setQuery(query);
    QVERIFY(settle(f.model));
    QCOMPARE(f.model.rowCount(), 40);
    QCOMPARE(f.model.firstCellColumn(), 3);
    QCOMPARE(f.model.columnName(1), QStringLiteral("row.metric"));
    QCOMPARE(f.model.columnName(2), QStringLiteral("row.n"));
    QCOMPARE(f.model.columnKind(1), CellTableModel::ColumnKind::kComponent);
    QCOMPARE(text(f.model, 0, QStringLiteral("row.metric")), QStringLiteral("cpu"));
    QCOMPARE(text(f.model, 21, QStringLiteral("row.metric")), QStringLiteral("mem"));
    QCOMPARE(text(f.model, 21, QStringLiteral("row.n")), QStringLiteral("1"));
  }

  void aKeyThatDoesNotFitTheSchemaDecodesPartly() {
    Fixture f;
    f.model.setWorkspace(m_ws.get());
    BrowseQuery query = queryOf("t");  // keys "row00000": no utf8 terminator
    query.keySchema = keyscope::KeySchema::parse("metric:utf8 | n:u32").value();
    f.model.setQuery(query);
    QVERIFY(settle(f.model));
    QCOMPARE(text(f.model, 0, QStringLiteral("row.metric")), QString());
    QCOMPARE(f.model.index(0, 1).data(CellTableModel::FitsFormatRole).toBool(), false);
    QVERIFY(f.model.index(0, 0)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("does not fit")));
  }

  void aNewQueryDropsTheOldQuerysPage() {
    Fixture f;
    f.model.setWorkspace(m_ws.get());
    f.model.setQuery(queryOf("t"));
    BrowseQuery keyed = queryOf("keyed");
    f.model.setQuery(keyed);  // before the first page of t came back
    QVERIFY(settle(f.model));
    QTest::qWait(100);
    QCOMPARE(f.model.rowCount(), 40);
    QCOMPARE(f.model.pagesLoaded(), 1);
    QCOMPARE(f.model.columnName(1), QStringLiteral("v:x"));
  }

  void detachingTheWorkspaceCancelsAndEmpties() {
    Fixture f;
    f.model.setWorkspace(m_ws.get());
    f.model.setQuery(queryOf("t"));
    f.model.setWorkspace(nullptr);
    QVERIFY(!f.model.isLoading());
    QVERIFY(f.runner.waitForDone(5000));
    QTest::qWait(100);
    QCOMPARE(f.model.rowCount(), 0);
    QVERIFY(!f.model.canFetchMore({}));
  }

  void fetchingStopsAtTheMemoryBudget() {
    Fixture f;
    f.model.setLoadedByteBudget(1);  // one page is over it
    f.model.setWorkspace(m_ws.get());
    f.model.setQuery(queryOf("t"));
    QVERIFY(settle(f.model));
    QCOMPARE(f.model.rowCount(), static_cast<int>(keyscope::kPageRows));
    QVERIFY(f.model.budgetReached());
    QVERIFY(!f.model.canFetchMore({}));
  }

  void aMissingTableSaysSo() {
    Fixture f;
    f.model.setWorkspace(m_ws.get());
    f.model.setQuery(queryOf("nope"));
    QVERIFY(settle(f.model));
    QVERIFY(!f.model.errorText().isEmpty());
    QVERIFY(!f.model.canFetchMore({}));
  }

  void keysAreFoundAmongLoadedRows() {
    Fixture f;
    f.model.setWorkspace(m_ws.get());
    f.model.setQuery(queryOf("t"));
    QVERIFY(settle(f.model));
    QCOMPARE(f.model.firstRowAtOrAfter(rowKey(17)), 17);
    QCOMPARE(f.model.firstRowAtOrAfter(rowKey(17) + "a"), 18);
    QCOMPARE(f.model.firstRowAtOrAfter(""), 0);
    QCOMPARE(f.model.firstRowAtOrAfter("zzz"), -1);
  }
};

QTEST_MAIN(TestCellTableModel)
#include "tst_cell_table_model.moc"
