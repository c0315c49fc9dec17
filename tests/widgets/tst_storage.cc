// Tests of the Storage tab over real workspaces: the table model's numbers
// (checked against the core report and hand-counted cells), the overhead
// sentence, the what-if rows, the chart's stacked parts and bar lengths, the
// scope, PNG/PDF and CSV export, memstore-only data and a table that is not
// read while the tab is hidden.
#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <qcustomplot.h>

#include "async/job_runner.h"
#include "storage/storage_chart.h"
#include "storage/storage_table_model.h"
#include "storage/storage_view.h"
#include "test_workspace.h"

namespace keyscope {

namespace {

// sizes_verbose in small: text keys with a number and an ISO timestamp in a
// family with a long name, flushed into one store file.
void fillVerboseTable(Workspace& ws, bool flush) {
  TableOptions table;
  table.name = "verbose";
  FamilyOptions family;
  family.name = "measurements";
  table.families = {family};
  test::check(ws.createTable(table, {}), "create");
  for (int device = 1; device <= 20; ++device) {
    for (int minute = 0; minute < 4; ++minute) {
      char row[64];
      std::snprintf(row, sizeof row, "device-%06d|2024-03-01T00:%02d:00.000Z", device, minute * 15);
      Put put{row, {PutCell{"measurements", "temperature_celsius", 1000 + minute, "21.5"},
                    PutCell{"measurements", "humidity_percent", 1000 + minute, "40"}}};
      test::check(ws.put("verbose", put), "put");
    }
  }
  if (flush) test::check(ws.flush("verbose"), "flush");
}

}  // namespace

class TestStorage : public QObject {
  Q_OBJECT

 private slots:
  void viewShowsWhereTheBytesGo() {
    QTemporaryDir dir;
    auto ws = test::openWorkspace(dir.filePath(QStringLiteral("w.ksw")));
    fillVerboseTable(*ws, true);
    const StorageReport expected = ws->storageReport("verbose").value();

    JobRunner runner;
    StorageView view(&runner);
    QAbstractItemModelTester tester(view.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    view.resize(1100, 800);
    view.setWorkspace(ws.get());
    view.showTable(ws->describeTable("verbose").value());
    QVERIFY(!view.isLoading());  // hidden: nothing read yet
    QVERIFY(view.report() == nullptr);
    view.show();
    QTRY_VERIFY_WITH_TIMEOUT(!view.isLoading() && view.report() != nullptr, 30000);

    StorageTableModel* model = view.model();
    QCOMPARE(model->rowCount(), 11);  // 6 parts, page index, bloom filters, block headers, dictionaries, total
    QCOMPARE(model->columnCount(), int(StorageTableModel::kColumnCount));
    const auto number = [&](int row, int column) {
      return model->data(model->index(row, column), Qt::EditRole).toULongLong();
    };
    const StorageSlice& total = expected.total;
    QCOMPARE(number(0, StorageTableModel::kRaw), total.raw[StorageCategory::kRowKey]);
    QCOMPARE(number(1, StorageTableModel::kRaw), 0ull);  // family names are not stored per cell
    QCOMPARE(number(1, StorageTableModel::kHBase), 160ull * 12ull);  // 160 cells x "measurements"
    QCOMPARE(number(4, StorageTableModel::kRaw), 160ull * 3ull);   // "21.5" and "40": 80 x 4 + 80 x 2
    QCOMPARE(number(6, StorageTableModel::kRaw), total.pageIndexBytes);
    QCOMPARE(number(7, StorageTableModel::kRaw), total.bloomBytes);
    QCOMPARE(number(9, StorageTableModel::kRaw), 0ull);
    QCOMPARE(number(9, StorageTableModel::kStored), total.dictionaryBytes);
    QCOMPARE(number(10, StorageTableModel::kRaw), total.rawBytes + total.pageIndexBytes + total.bloomBytes);
    QCOMPARE(number(10, StorageTableModel::kStored),
             total.storedBytes + total.pageIndexBytes + total.bloomBytes + total.dictionaryBytes);
    QCOMPARE(model->data(model->index(9, 0)).toString(), QStringLiteral("compression dictionaries"));
    QCOMPARE(model->data(model->index(10, 0)).toString(), QStringLiteral("total"));

    QVERIFY2(view.overheadText().startsWith(QStringLiteral("For every byte of value, ")), qPrintable(view.overheadText()));
    const QString ratio = QString::number(overheadRatio(total), 'f', 1);
    QVERIFY2(view.overheadText().contains(ratio + QStringLiteral(" bytes of row key")), qPrintable(view.overheadText()));

    const QStringList whatIfs = view.whatIfLines();
    QCOMPARE(whatIfs.size(), 2);
    QVERIFY2(whatIfs[0].startsWith(QStringLiteral("family 'measurements' → 'm': −")), qPrintable(whatIfs[0]));
    QVERIFY2(whatIfs[0].contains(QStringLiteral("−0% here")), qPrintable(whatIfs[0]));
    // 160 cells x 11 bytes of family name fewer, as HBase KeyValues.
    const uint64_t hbase = total.hbase.total();
    QVERIFY2(whatIfs[0].contains(QLocale().toString(static_cast<qulonglong>(hbase - 160 * 11))), qPrintable(whatIfs[0]));
    QVERIFY2(whatIfs[1].startsWith(QStringLiteral("row key's numbers and timestamps as binary integers: −")),
             qPrintable(whatIfs[1]));
    // The key shrinks from 38 to 20 bytes in every one of 160 KeyValues.
    QVERIFY2(whatIfs[1].contains(QLocale().toString(static_cast<qulonglong>(hbase - 160 * 18))), qPrintable(whatIfs[1]));

    StorageChart* chart = view.chart();
    QCOMPARE(chart->partCount(), 10);
    QCOMPARE(chart->plot()->plottableCount(), 10);
    QCOMPARE(chart->barTotal(StorageChart::kRawBar),
             double(total.rawBytes + total.pageIndexBytes + total.bloomBytes));
    QCOMPARE(chart->barTotal(StorageChart::kHBaseBar), double(hbase));
    QCOMPARE(chart->barTotal(StorageChart::kStoredBar),
             double(total.storedBytes + total.pageIndexBytes + total.bloomBytes + total.dictionaryBytes));

    // Scope: the one family is the whole table here.
    auto* scope = view.findChild<QComboBox*>(QStringLiteral("storageScope"));
    QVERIFY(scope != nullptr);
    QCOMPARE(scope->count(), 2);  // whole table, family measurements (one region: no region items)
    view.setScope(QStringLiteral("measurements"), 0);
    QCOMPARE(scope->currentIndex(), 1);
    QCOMPARE(view.currentSlice().family, std::string("measurements"));
    QCOMPARE(number(0, StorageTableModel::kRaw), total.raw[StorageCategory::kRowKey]);

    // Export.
    const QString png = dir.filePath(QStringLiteral("s.png"));
    const QString pdf = dir.filePath(QStringLiteral("s.pdf"));
    const QString csv = dir.filePath(QStringLiteral("s.csv"));
    QVERIFY(view.saveImage(png).isOk());
    QVERIFY(view.saveImage(pdf).isOk());
    QVERIFY(view.exportCsv(csv).isOk());
    QVERIFY(QFileInfo(png).size() > 0);
    QVERIFY(QFileInfo(pdf).size() > 0);
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = file.readAll().split('\n');
    QCOMPARE(lines.value(0).trimmed(), QByteArray("part,keyscope_raw_bytes,keyscope_stored_bytes,stored_is_estimate,"
                                                  "compressibility,hbase_keyvalue_bytes"));
    QVERIFY(lines.value(2).startsWith("family name,0,0,"));
    QVERIFY(lines.value(11).startsWith("total," + QByteArray::number(qulonglong(total.rawBytes + total.pageIndexBytes +
                                                                                  total.bloomBytes))));
  }

  void memstoreOnlyDataIsNamedNotCounted() {
    QTemporaryDir dir;
    auto ws = test::openWorkspace(dir.filePath(QStringLiteral("w.ksw")));
    fillVerboseTable(*ws, false);
    JobRunner runner;
    StorageView view(&runner);
    QAbstractItemModelTester tester(view.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    view.show();
    view.setWorkspace(ws.get());
    view.showTable(ws->describeTable("verbose").value());
    QTRY_VERIFY_WITH_TIMEOUT(!view.isLoading() && view.report() != nullptr, 30000);
    QCOMPARE(view.overheadText(), QStringLiteral("No cells in store files yet."));
    QVERIFY2(view.statusText().contains(QStringLiteral("still in memstores")), qPrintable(view.statusText()));
    QVERIFY(view.whatIfLines().isEmpty());
    QCOMPARE(view.chart()->barTotal(StorageChart::kRawBar), 0.0);
  }

  void unknownTableIsAnErrorNotACrash() {
    QTemporaryDir dir;
    auto ws = test::openWorkspace(dir.filePath(QStringLiteral("w.ksw")));
    JobRunner runner;
    StorageView view(&runner);
    view.show();
    view.setWorkspace(ws.get());
    TableOptions missing;
    missing.name = "missing";
    view.showTable(missing);
    QTRY_VERIFY_WITH_TIMEOUT(!view.isLoading(), 30000);
    QVERIFY(view.report() == nullptr);
    QVERIFY2(view.statusText().startsWith(QStringLiteral("No storage report for missing")), qPrintable(view.statusText()));
    QVERIFY(!view.exportCsv(dir.filePath(QStringLiteral("x.csv"))).isOk());
  }
};

}  // namespace keyscope

QTEST_MAIN(keyscope::TestStorage)
#include "tst_storage.moc"
