// Qt Test for DataBrowser over a real workspace: the key box goes to a key
// (escapes and hex; a loaded key is selected, a later one starts the view
// there), a bad key says why, filters bound the rows, a column's format is
// remembered for the workspace and table, and Copy gives CSV with headers.
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QFile>
#include <QItemSelectionModel>
#include <QSettings>
#include <QStandardItemModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

#include "async/job_runner.h"
#include "browser/cell_table_model.h"
#include "browser/column_format_store.h"
#include "browser/data_browser.h"
#include "test_workspace.h"

using keyscope::CellTableModel;
using keyscope::DataBrowser;
using keyscope::RowKeyInputKind;
using keyscope::ValueFormat;
using keyscope::test::rowKey;

class TestDataBrowser : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir m_dir;
  std::unique_ptr<keyscope::Workspace> m_ws;
  QString m_path;

  struct Fixture {
    explicit Fixture(const QString& settingsFile) : settings(settingsFile, QSettings::IniFormat) {}
    QSettings settings;
    keyscope::ColumnFormatStore formats{&settings};
    keyscope::JobRunner runner;
    DataBrowser browser{&runner, &formats};
  };

  std::unique_ptr<Fixture> browserOnTable() {
    auto f = std::make_unique<Fixture>(m_dir.filePath(QStringLiteral("settings.ini")));
    f->browser.resize(900, 600);
    f->browser.setWorkspace(m_ws.get(), m_path);
    f->browser.showTable(m_ws->describeTable("t").value());
    settle(*f);
    return f;
  }

  static void settle(Fixture& f) {
    QVERIFY(QTest::qWaitFor([&f] { return !f.browser.model()->isLoading(); }, 10000));
  }

  static QString currentKey(Fixture& f) {
    return f.browser.view()->currentIndex().siblingAtColumn(0).data().toString();
  }

 private slots:
  void initTestCase() {
    QVERIFY(m_dir.isValid());
    m_path = m_dir.filePath(QStringLiteral("browser.ksw"));
    m_ws = keyscope::test::openWorkspace(m_path);
    keyscope::test::fillNumberedTable(*m_ws, 1000, 1000);
  }

  void cleanupTestCase() { m_ws.reset(); }

  void showingATableLoadsItsFirstPage() {
    auto f = browserOnTable();
    QCOMPARE(f->browser.model()->rowCount(), 256);
    QVERIFY2(f->browser.statusText().contains(QStringLiteral("≥ 256 rows")),
             qPrintable(f->browser.statusText()));
  }

  void goingToALoadedKeySelectsItsRow() {
    auto f = browserOnTable();
    QVERIFY(f->browser.goToKey(QStringLiteral("row00042")));
    QCOMPARE(currentKey(*f), QStringLiteral("row00042"));
    QCOMPARE(f->browser.model()->pagesLoaded(), 1);  // no reload
    // Hex of "row00043"; a key between rows goes to the next one.
    f->browser.setKeyInputKind(RowKeyInputKind::kHex);
    QVERIFY(f->browser.goToKey(QStringLiteral("72 6f 77 30 30 30 34 33")));
    QCOMPARE(currentKey(*f), QStringLiteral("row00043"));
    f->browser.setKeyInputKind(RowKeyInputKind::kEscaped);
    QVERIFY(f->browser.goToKey(QStringLiteral("row00043\\x00")));
    QCOMPARE(currentKey(*f), QStringLiteral("row00044"));
  }

  void goingToAKeyBeyondTheLoadedRowsStartsThere() {
    auto f = browserOnTable();
    QVERIFY(f->browser.goToKey(QStringLiteral("row00900")));
    settle(*f);
    QCOMPARE(f->browser.model()->index(0, 0).data().toString(), QStringLiteral("row00900"));
    QCOMPARE(f->browser.model()->rowCount(), 100);
    QVERIFY(f->browser.model()->isComplete());
  }

  void aKeyThatDoesNotParseSaysWhy() {
    auto f = browserOnTable();
    f->browser.setKeyInputKind(RowKeyInputKind::kHex);
    QVERIFY(!f->browser.goToKey(QStringLiteral("7g")));
    QVERIFY2(f->browser.inputErrorText().contains(QStringLiteral("bad hex digit")),
             qPrintable(f->browser.inputErrorText()));
    QCOMPARE(f->browser.model()->rowCount(), 256);  // the view is unchanged
  }

  void componentsNeedTheTablesKeySchema() {
    auto f = browserOnTable();  // t has no key schema
    auto* kinds = qobject_cast<QStandardItemModel*>(
        f->browser.findChild<QComboBox*>(QStringLiteral("keyKind"))->model());
    QVERIFY(kinds != nullptr);
    QVERIFY(!kinds->item(2)->isEnabled());
    f->browser.setKeyInputKind(RowKeyInputKind::kComponents);
    QVERIFY(!f->browser.goToKey(QStringLiteral(R"(["row"])")));
    QVERIFY2(f->browser.inputErrorText().contains(QStringLiteral("no key schema")),
             qPrintable(f->browser.inputErrorText()));
  }

  void aKeyPastTheLastRowSaysThereIsNone() {
    auto f = browserOnTable();
    QVERIFY(f->browser.applyFilter(QStringLiteral("row001"), QString(), QString()));
    settle(*f);
    QVERIFY(f->browser.model()->isComplete());
    QVERIFY(f->browser.goToKey(QStringLiteral("row0019z")));
    QVERIFY2(f->browser.inputErrorText().startsWith(QStringLiteral("No row at or after")),
             qPrintable(f->browser.inputErrorText()));
    QCOMPARE(f->browser.model()->rowCount(), 100);  // nothing reloaded
  }

  void aFilterBoundsTheRows() {
    auto f = browserOnTable();
    QVERIFY(f->browser.applyFilter(QStringLiteral("row001"), QString(), QString()));
    settle(*f);
    QCOMPARE(f->browser.model()->rowCount(), 100);
    QVERIFY2(f->browser.statusText().contains(QStringLiteral("100 rows")),
             qPrintable(f->browser.statusText()));
    QVERIFY(
        f->browser.applyFilter(QString(), QStringLiteral("row00010"), QStringLiteral("row00020")));
    settle(*f);
    QCOMPARE(f->browser.model()->rowCount(), 10);
    f->browser.clearFilter();
    settle(*f);
    QCOMPARE(f->browser.model()->rowCount(), 256);
  }

  void aColumnsFormatIsRememberedForTheWorkspaceAndTable() {
    {
      auto f = browserOnTable();
      const int count = f->browser.model()->columnOf(QStringLiteral("d:count"));
      f->browser.setColumnFormat(count, ValueFormat::kInteger);
      QCOMPARE(f->browser.model()->index(9, count).data().toString(), QStringLiteral("9"));
    }
    auto f = browserOnTable();  // a new browser, reading the same settings
    const int count = f->browser.model()->columnOf(QStringLiteral("d:count"));
    QCOMPARE(f->browser.model()->columnFormat(count), ValueFormat::kInteger);
    QCOMPARE(f->browser.model()->index(9, count).data().toString(), QStringLiteral("9"));
    f->browser.setColumnFormat(count,
                               ValueFormat::kEscaped);  // leave the default for the other tests
  }

  void copyGivesTheSelectionAsCsvWithHeaders() {
    auto f = browserOnTable();
    CellTableModel* model = f->browser.model();
    QItemSelectionModel* selection = f->browser.view()->selectionModel();
    const int name = model->columnOf(QStringLiteral("d:name"));
    selection->select(QItemSelection(model->index(1, 0), model->index(2, 0)),
                      QItemSelectionModel::Select);
    selection->select(QItemSelection(model->index(1, name), model->index(2, name)),
                      QItemSelectionModel::Select);
    const QString csv = f->browser.copySelection();
    QCOMPARE(csv, QStringLiteral("row,d:name\nrow00001,name1\nrow00002,name2\n"));
    QCOMPARE(QApplication::clipboard()->text(), csv);
  }

  // A damaged block of a table's store file: the browser shows the
  // engine's Corruption (which names the table, region, store file and
  // page) in its status line, and goes on showing other tables.
  void aDamagedStoreFileShowsTheErrorAndTheBrowserKeepsWorking() {
    const QString path = m_dir.filePath(QStringLiteral("damaged.ksw"));
    const std::string marker = "a value that will be damaged on disk";
    {
      std::unique_ptr<keyscope::Workspace> ws = keyscope::test::openWorkspace(path);
      keyscope::test::fillNumberedTable(*ws, 300, 300);
      keyscope::TableOptions u;
      u.name = "u";
      u.families = {keyscope::FamilyOptions{}};
      u.families.front().name = "f";
      keyscope::test::check(ws->createTable(u), "create u");
      keyscope::test::check(ws->put("u", keyscope::Put{"healthy", {{"f", "q", 1, "fine"}}}), "put u");
      keyscope::test::check(ws->put("t", keyscope::Put{rowKey(5), {{"m", "note", 1, marker}}}), "put marker");
      keyscope::test::check(ws->flush("t"), "flush t");
      keyscope::test::check(ws->flush("u"), "flush u");
    }
    // Flip a byte of every copy of the marker in the file (the store file's
    // block holds one; freed pages may hold more).
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadWrite));
    QByteArray bytes = file.readAll();
    int flipped = 0;
    for (qsizetype at = bytes.indexOf(marker.c_str()); at >= 0; at = bytes.indexOf(marker.c_str(), at + 1)) {
      bytes[at + 3] = static_cast<char>(bytes[at + 3] ^ 0x20);
      ++flipped;
    }
    QVERIFY(flipped > 0);
    QVERIFY(file.seek(0));
    QCOMPARE(file.write(bytes), bytes.size());
    file.close();

    std::unique_ptr<keyscope::Workspace> ws = keyscope::test::openWorkspace(path);
    auto f = std::make_unique<Fixture>(m_dir.filePath(QStringLiteral("settings.ini")));
    f->browser.resize(900, 600);
    f->browser.setWorkspace(ws.get(), path);
    f->browser.showTable(ws->describeTable("t").value());
    settle(*f);
    const QString error = f->browser.model()->errorText();
    QVERIFY2(error.contains(QStringLiteral("Corruption")) && error.contains(QStringLiteral("table 't'")) &&
                 error.contains(QStringLiteral("store file")) && error.contains(QStringLiteral("page")),
             qPrintable(error));
    QVERIFY2(f->browser.statusText().contains(QStringLiteral("checksum mismatch")), qPrintable(f->browser.statusText()));

    f->browser.showTable(ws->describeTable("u").value());
    settle(*f);
    QVERIFY2(f->browser.model()->errorText().isEmpty(), qPrintable(f->browser.model()->errorText()));
    QCOMPARE(f->browser.model()->rowCount(), 1);
    f->browser.setWorkspace(nullptr, QString());
  }
};

QTEST_MAIN(TestDataBrowser)
#include "tst_data_browser.moc"
