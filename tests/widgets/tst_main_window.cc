// Qt Test for the main window's wiring (app/gui, linked as keyscope_gui):
// opening a workspace fills the tree with tables, families and regions;
// selecting a table shows its description and examples and browses it; a
// missing file is an error, not a crash, and so is a workspace another
// process holds open; a damaged store file is marked in the tree; a failed background flush (a file size limit) is shown;
// a dropped .ksw file opens; the
// demo is built with progress (and a cancelled build leaves nothing); the
// session waits for jobs before the workspace closes; the startup choice and
// recent files; window state and choices that survive a restart.
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileInfo>
#include <QIcon>
#include <QMimeData>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QTreeView>
#include <QUrl>

#include <atomic>
#include <memory>

#include "browser/cell_table_model.h"
#include "browser/data_browser.h"
#include "browser/value_format.h"
#include "key_lab/key_schema_view.h"
#include "main_window.h"
#include "recent_files.h"
#include "session.h"
#include "startup.h"
#include "test_workspace.h"
#include "workspace/table_info_view.h"
#include "workspace/workspace_tree.h"
#include "workspace/workspace_tree_model.h"

using keyscope::MainWindow;
using keyscope::WorkspaceTreeModel;

namespace {

QStringList childNames(const QAbstractItemModel* model, const QModelIndex& parent) {
  QStringList names;
  for (int row = 0; row < model->rowCount(parent); ++row)
    names << model->index(row, 0, parent).data().toString();
  return names;
}

}  // namespace

class TestMainWindow : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir m_dir;
  QString m_path;

 private slots:
  void initTestCase() {
    QVERIFY(m_dir.isValid());
    m_path = m_dir.filePath(QStringLiteral("window.ksw"));
    auto ws = keyscope::test::openWorkspace(m_path);
    keyscope::test::fillNumberedTable(*ws, 300, 0);
    keyscope::test::fillKeyedTable(*ws, 5);
    keyscope::test::check(ws->flush("t"), "flush");
    keyscope::test::check(ws->split("t", std::string("row00150")).status(), "split");
  }

  void openingAWorkspaceFillsTheTree() {
    MainWindow window(/*persistState=*/false);
    QAbstractItemModelTester tester(window.tree()->model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    window.openWorkspace(m_path);
    QTRY_VERIFY_WITH_TIMEOUT(window.session()->workspace() != nullptr, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(window.isIdle(), 10000);
    const WorkspaceTreeModel* model = window.tree()->model();
    QCOMPARE(childNames(model, {}), (QStringList{QStringLiteral("keyed"), QStringLiteral("t")}));
    const QModelIndex t = model->tableIndex(QStringLiteral("t"));
    QCOMPARE(childNames(model, t),
             (QStringList{QStringLiteral("Families"), QStringLiteral("Regions (2)")}));
    const QModelIndex families = model->index(0, 0, t);
    QCOMPARE(childNames(model, families), (QStringList{QStringLiteral("d"), QStringLiteral("m")}));
    QVERIFY(
        model->index(0, 1, families).data().toString().startsWith(QStringLiteral("VERSIONS 5")));
    const QModelIndex regions = model->index(1, 0, t);
    const QString firstRegion = model->index(0, 1, regions).data().toString();
    QVERIFY2(firstRegion.contains(QStringLiteral("[start, row00150)")), qPrintable(firstRegion));
    QVERIFY2(firstRegion.contains(QStringLiteral("server ")), qPrintable(firstRegion));
    QVERIFY2(firstRegion.contains(QStringLiteral(" cells")), qPrintable(firstRegion));
    QVERIFY(window.windowTitle().startsWith(QStringLiteral("window.ksw")));
    const QString keyedDetails = model->index(0, 1).data().toString();
    QVERIFY2(keyedDetails.startsWith(QStringLiteral("1 family · 1 region · ")),
             qPrintable(keyedDetails));
  }

  void aWorkspacesFirstTableIsSelectedAndBrowsedWhenItOpens() {
    MainWindow window(/*persistState=*/false);
    window.openWorkspace(m_path);
    QTRY_COMPARE_WITH_TIMEOUT(window.tree()->selectedTable(), QStringLiteral("keyed"), 10000);
    QCOMPARE(window.browser()->tableName(), QStringLiteral("keyed"));
    QCOMPARE(window.tableInfo()->table()->name, std::string("keyed"));
    QTRY_COMPARE_WITH_TIMEOUT(window.browser()->model()->rowCount(), 10, 10000);
    // A refresh keeps the selection and does not reload the browser.
    const int pages = window.browser()->model()->pagesLoaded();
    window.tree()->refresh();
    QTRY_VERIFY_WITH_TIMEOUT(!window.tree()->isRefreshing(), 10000);
    QCOMPARE(window.tree()->selectedTable(), QStringLiteral("keyed"));
    QCOMPARE(window.browser()->model()->pagesLoaded(), pages);
  }

  void selectingATableShowsItsDescriptionAndBrowsesIt() {
    MainWindow window(/*persistState=*/false);
    window.openWorkspace(m_path);
    QTRY_VERIFY_WITH_TIMEOUT(window.tree()->model()->tableIndex(QStringLiteral("t")).isValid(),
                             10000);
    QVERIFY(window.tree()->selectTable(QStringLiteral("t")));
    QCOMPARE(window.tableInfo()->table()->name, std::string("t"));
    const QString info = window.tableInfo()->toPlainText();
    QVERIFY2(info.contains(QStringLiteral("Numbered rows for tests.")), qPrintable(info));
    QVERIFY2(info.contains(QStringLiteral("scan 't', {LIMIT => 5}")), qPrintable(info));
    QCOMPARE(window.browser()->tableName(), QStringLiteral("t"));
    QTRY_COMPARE_WITH_TIMEOUT(window.browser()->model()->rowCount(), 256, 10000);
    // A family's row selects its table too.
    const QModelIndex keyed = window.tree()->model()->tableIndex(QStringLiteral("keyed"));
    window.tree()->view()->setCurrentIndex(window.tree()->model()->index(0, 0, keyed));
    QCOMPARE(window.browser()->tableName(), QStringLiteral("keyed"));
    QTRY_COMPARE_WITH_TIMEOUT(window.browser()->model()->rowCount(), 10, 10000);
    QCOMPARE(window.browser()->model()->columnName(1), QStringLiteral("row.metric"));
  }

  // A store file whose metadata fails its checksum: the workspace still
  // opens, and the tree leads the table's and the region's details with the
  // damage and marks them with a warning icon; other tables stay plain.
  void aDamagedStoreFileIsMarkedInTheTree() {
    const QString path = m_dir.filePath(QStringLiteral("damaged-tree.ksw"));
    const QByteArray marker("zz-row-key-in-the-store-file-metadata");
    {
      auto ws = keyscope::test::openWorkspace(path);
      keyscope::test::fillKeyedTable(*ws, 5);
      keyscope::TableOptions z;
      z.name = "z";
      z.families = {keyscope::FamilyOptions{}};
      z.families.front().name = "f";
      keyscope::test::check(ws->createTable(z), "create z");
      keyscope::test::check(ws->put("z", keyscope::Put{marker.toStdString(), {{"f", "q", 1, "v"}}}), "put");
      keyscope::test::check(ws->flush("z"), "flush z");
      keyscope::test::check(ws->flush("keyed"), "flush keyed");  // so the log holds no copy of the key
    }
    // The row key is the store file's first and last key in its metadata
    // (and in its one page): flip a byte of every copy.
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadWrite));
    QByteArray bytes = file.readAll();
    int flipped = 0;
    for (qsizetype at = bytes.indexOf(marker); at >= 0; at = bytes.indexOf(marker, at + 1), ++flipped)
      bytes[at + 5] = static_cast<char>(bytes[at + 5] ^ 0x01);
    QVERIFY(flipped >= 2);
    QVERIFY(file.seek(0));
    QCOMPARE(file.write(bytes), bytes.size());
    file.close();

    MainWindow window(/*persistState=*/false);
    window.openWorkspace(path);
    QTRY_VERIFY2_WITH_TIMEOUT(window.session()->workspace() != nullptr, qPrintable(window.lastError()), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(window.isIdle(), 10000);
    const WorkspaceTreeModel* model = window.tree()->model();
    const QModelIndex z = model->tableIndex(QStringLiteral("z"));
    QVERIFY(z.isValid());
    const QString damage = QStringLiteral("1 damaged store file (keyscope-cli check) · ");
    const QString details = model->index(z.row(), 1).data().toString();
    QVERIFY2(details.startsWith(damage + QStringLiteral("1 family · 1 region")), qPrintable(details));
    QVERIFY(!z.data(Qt::DecorationRole).value<QIcon>().isNull());
    const QModelIndex regions = model->index(1, 0, z);
    const QString region = model->index(0, 1, regions).data().toString();
    QVERIFY2(region.startsWith(damage + QStringLiteral("server ")), qPrintable(region));
    QVERIFY(!model->index(0, 0, regions).data(Qt::DecorationRole).value<QIcon>().isNull());
    const QModelIndex keyed = model->tableIndex(QStringLiteral("keyed"));
    QVERIFY(!model->index(keyed.row(), 1).data().toString().contains(QStringLiteral("damaged")));
    QVERIFY(keyed.data(Qt::DecorationRole).value<QIcon>().isNull());
  }

  void aMissingFileIsAnErrorAndNothingOpens() {
    MainWindow window(/*persistState=*/false);
    QSignalSpy failed(window.session(), &keyscope::Session::openFailed);
    window.openWorkspace(m_dir.filePath(QStringLiteral("absent.ksw")));
    QCOMPARE(failed.count(), 1);
    QVERIFY(window.session()->workspace() == nullptr);
    QVERIFY(window.lastError().contains(QStringLiteral("absent.ksw")));
  }

  void aWorkspaceAnotherProcessHoldsIsRefusedAndTheWindowGoesOn() {
    // flock(1) holds the workspace's lock as another Keyscope process would
    // (without forking: the process that holds the lock is `sleep` itself).
    QProcess holder;
    holder.start(QStringLiteral("flock"), {QStringLiteral("--no-fork"), m_path,
                                           QStringLiteral("sleep"), QStringLiteral("60")});
    QVERIFY2(holder.waitForStarted(), "flock(1) from util-linux");
    QTRY_VERIFY_WITH_TIMEOUT(!keyscope::Workspace::open(m_path.toStdString()), 10000);
    MainWindow window(/*persistState=*/false);
    QSignalSpy failed(window.session(), &keyscope::Session::openFailed);
    window.openWorkspace(m_path);
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 10000);
    QVERIFY(window.session()->workspace() == nullptr);
    const QString refusal =
        QStringLiteral(
            "%1 is open in another Keyscope process (sleep, pid %2); close it there first")
            .arg(QFileInfo(m_path).absoluteFilePath())
            .arg(holder.processId());
    QVERIFY2(window.lastError().contains(refusal), qPrintable(window.lastError()));
    // The window goes on: another workspace opens, and this one once released.
    const QString other = m_dir.filePath(QStringLiteral("meanwhile.ksw"));
    window.newWorkspace(other);
    QTRY_COMPARE_WITH_TIMEOUT(window.session()->path(), other, 10000);
    holder.kill();
    QVERIFY(holder.waitForFinished());
    window.openWorkspace(m_path);
    QTRY_COMPARE_WITH_TIMEOUT(window.session()->path(), QFileInfo(m_path).absoluteFilePath(),
                              10000);
    QTRY_VERIFY_WITH_TIMEOUT(window.isIdle(), 10000);
  }

  void aFailedBackgroundFlushIsShown() {
    const QString path = m_dir.filePath(QStringLiteral("limited.ksw"));
    {
      auto ws = keyscope::test::openWorkspace(path);
      keyscope::TableOptions table;
      table.name = "big";
      table.families = {keyscope::FamilyOptions{}};
      table.families[0].name = "d";
      table.memstoreFlushSize = 256 << 10;
      keyscope::test::check(ws->createTable(table), "create");
    }
    MainWindow window(/*persistState=*/false);
    window.openWorkspace(path);
    QTRY_VERIFY_WITH_TIMEOUT(window.session()->workspace() != nullptr && window.isIdle(), 10000);
    keyscope::Workspace& ws = *window.session()->workspace();
    // Writes go to the SQLite log (-wal) until a checkpoint, far off here.
    const QByteArray log = (path + QStringLiteral("-wal")).toLocal8Bit();
    const auto logSize = [&log] {
      struct stat st {};
      return ::stat(log.constData(), &st) == 0 ? st.st_size : off_t{0};
    };
    const auto put = [&ws](int n) {
      std::string value(8 << 10, static_cast<char>('a' + n % 26));
      return ws.put("big", keyscope::Put{keyscope::test::rowKey(n), {{"d", "v", 1, value}}});
    };
    // 28 rows of 8 KiB in memory, then room in the log for eight more (what
    // a row costs there, measured), not for the flush of 32 the fourth of
    // them starts.
    const off_t before = logSize();
    keyscope::test::check(put(0), "put");
    const off_t perRow = std::max<off_t>(logSize() - before, 8 << 10);
    for (int n = 1; n < 28; ++n) keyscope::test::check(put(n), "put");
    // SIGXFSZ ignored: a write past the limit fails with EFBIG instead of
    // ending the test. The limit goes with the scope, however the test ends.
    ::signal(SIGXFSZ, SIG_IGN);
    struct FileSizeLimit {
      rlimit saved{};
      explicit FileSizeLimit(rlim_t bytes) {
        ::getrlimit(RLIMIT_FSIZE, &saved);
        rlimit limited = saved;
        limited.rlim_cur = bytes;
        ::setrlimit(RLIMIT_FSIZE, &limited);
      }
      ~FileSizeLimit() { ::setrlimit(RLIMIT_FSIZE, &saved); }
    };
    {
      const FileSizeLimit limit(static_cast<rlim_t>(logSize() + 8 * perRow));
      for (int n = 28; n < 36 && put(n).isOk(); ++n) (void)ws.waitForBackgroundWork();
      QTRY_VERIFY2_WITH_TIMEOUT(
          window.lastError().contains(QStringLiteral("file size limit reached")),
          qPrintable(window.lastError()), 10000);
    }
    QVERIFY2(window.lastError().contains(QStringLiteral("flushing table 'big'")),
             qPrintable(window.lastError()));
    QVERIFY2(window.lastError().contains(QStringLiteral("Nothing is lost")),
             qPrintable(window.lastError()));
  }

  void openingAnotherWorkspaceReplacesTheFirst() {
    const QString other = m_dir.filePath(QStringLiteral("other.ksw"));
    MainWindow window(/*persistState=*/false);
    window.openWorkspace(m_path);
    QTRY_VERIFY_WITH_TIMEOUT(window.session()->workspace() != nullptr, 10000);
    window.tree()->selectTable(QStringLiteral("t"));
    window.newWorkspace(other);
    QTRY_COMPARE_WITH_TIMEOUT(window.session()->path(), other, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(window.isIdle(), 10000);
    QCOMPARE(window.tree()->model()->rowCount(), 0);
    QCOMPARE(window.browser()->tableName(), QString());
    QCOMPARE(window.browser()->model()->rowCount(), 0);
  }

  void openingTheOpenWorkspaceAgainKeepsTheSameEngine() {
    keyscope::Session session;
    session.open(m_path);
    QTRY_VERIFY_WITH_TIMEOUT(session.workspace() != nullptr, 10000);
    const keyscope::Workspace* first = session.workspace();
    QSignalSpy opened(&session, &keyscope::Session::opened);
    QSignalSpy closing(&session, &keyscope::Session::aboutToClose);
    session.open(m_path);
    QCOMPARE(opened.count(), 1);
    QCOMPARE(closing.count(), 0);
    QCOMPARE(session.workspace(), first);
    QVERIFY(!session.isBusy());
  }

  void theSessionWaitsForJobsBeforeTheWorkspaceCloses() {
    keyscope::Session session;
    session.open(m_path);
    QTRY_VERIFY_WITH_TIMEOUT(session.workspace() != nullptr, 10000);
    std::atomic<bool> started{false};
    std::atomic<bool> finished{false};
    QObject context;
    const keyscope::Workspace* ws = session.workspace();
    session.jobs()->submit(
        session.jobs()->newChannel(), &context,
        [ws, &started, &finished](keyscope::JobControl& job) {
          started = true;
          while (!job.isCancelled()) QThread::msleep(1);
          finished = ws->tableExists("t");  // the workspace is still open here
          return 0;
        },
        [](int) {});
    QTRY_VERIFY(started.load());
    session.close();
    QVERIFY(finished.load());
    QVERIFY(session.workspace() == nullptr);
  }

  void droppingAWorkspaceFileOpensIt() {
    MainWindow window(/*persistState=*/false);
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(m_path)});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &drop);
    QTRY_COMPARE_WITH_TIMEOUT(window.session()->path(), m_path, 10000);
    // Anything else is refused.
    QMimeData text;
    text.setUrls({QUrl::fromLocalFile(m_dir.filePath(QStringLiteral("notes.txt")))});
    QDragEnterEvent refused(QPoint(10, 10), Qt::CopyAction, &text, Qt::LeftButton, Qt::NoModifier);
    refused.setAccepted(false);
    QApplication::sendEvent(&window, &refused);
    QVERIFY(!refused.isAccepted());
  }

  void theDemoIsBuiltWithProgressThenOpened() {
    const QString demo = m_dir.filePath(QStringLiteral("built-demo.ksw"));
    keyscope::Session session;
    QSignalSpy progress(&session, &keyscope::Session::demoProgress);
    QSignalSpy opened(&session, &keyscope::Session::opened);
    session.buildDemo(demo);
    QVERIFY(session.isBusy());
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 60000);
    QVERIFY(progress.count() >= 1);
    QVERIFY(!progress.first().at(0).toString().isEmpty());
    QVERIFY(session.workspace()->tableExists("tsdb"));
    QVERIFY(!QFileInfo::exists(demo + QStringLiteral(".building")));
  }

  void aCancelledDemoBuildLeavesNoFile() {
    const QString demo = m_dir.filePath(QStringLiteral("cancelled-demo.ksw"));
    keyscope::Session session;
    QSignalSpy opened(&session, &keyscope::Session::opened);
    QSignalSpy progress(&session, &keyscope::Session::demoProgress);
    session.buildDemo(demo);
    QTRY_VERIFY_WITH_TIMEOUT(progress.count() >= 1, 60000);  // under way: the file exists
    QVERIFY(QFileInfo::exists(demo + QStringLiteral(".building")));
    session.cancelPending();
    QVERIFY(!session.isBusy());
    QVERIFY(session.jobs()->waitForDone(60000));
    QTest::qWait(50);
    QCOMPARE(opened.count(), 0);
    QVERIFY(!QFileInfo::exists(demo));
    QVERIFY(!QFileInfo::exists(demo + QStringLiteral(".building")));
  }

  void startupPrefersTheArgumentThenARecentFileThenTheDemo() {
    using keyscope::chooseStartupWorkspace;
    const QString demo = m_dir.filePath(QStringLiteral("demo.ksw"));
    const QString gone = m_dir.filePath(QStringLiteral("gone.ksw"));
    auto choice = chooseStartupWorkspace({QStringLiteral("x.ksw")}, {m_path}, demo);
    QCOMPARE(choice.path, QStringLiteral("x.ksw"));
    QVERIFY(!choice.buildDemo);
    choice = chooseStartupWorkspace({}, {gone, m_path}, demo);
    QCOMPARE(choice.path, m_path);
    choice = chooseStartupWorkspace({}, {gone}, demo);
    QCOMPARE(choice.path, demo);
    QVERIFY(choice.buildDemo);  // not there yet
    choice = chooseStartupWorkspace({}, {}, m_path);
    QVERIFY(!choice.buildDemo);
    QVERIFY(keyscope::demoWorkspacePath().endsWith(QStringLiteral("keyscope/demo.ksw")));
  }

  void recentFilesKeepTheNewestFirstWithoutDuplicates() {
    QSettings settings(m_dir.filePath(QStringLiteral("recent.ini")), QSettings::IniFormat);
    keyscope::RecentFiles recent(&settings);
    for (int i = 0; i < keyscope::RecentFiles::kMax + 3; ++i)
      recent.add(QStringLiteral("/w/%1.ksw").arg(i));
    recent.add(QStringLiteral("/w/5.ksw"));
    const QStringList files = recent.files();
    QCOMPARE(files.size(), keyscope::RecentFiles::kMax);
    QCOMPARE(files.first(), QStringLiteral("/w/5.ksw"));
    QCOMPARE(files.count(QStringLiteral("/w/5.ksw")), 1);
    QCOMPARE(files.at(1), QStringLiteral("/w/%1.ksw").arg(keyscope::RecentFiles::kMax + 2));
    recent.remove(QStringLiteral("/w/5.ksw"));
    QVERIFY(!recent.files().contains(QStringLiteral("/w/5.ksw")));
  }

  // A window that persists its state (the real app's) brings back, after a
  // restart: its size, the tab shown, the dock hidden, the key lab's schema,
  // the last workspace (opened at start) and a column's display format.
  // QSettings is pointed at a scratch home, so the user's settings are
  // neither read nor touched.
  void windowStateAndChoicesSurviveARestart() {
    QTemporaryDir home;
    QVERIFY(home.isValid());
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, home.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, home.path());
    QCoreApplication::setOrganizationName(QStringLiteral("KeyscopeTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_main_window"));
    const QString schema = QStringLiteral("region:utf8 | day:i32");
    {
      MainWindow window(/*persistState=*/true);
      window.show();
      window.openWorkspace(m_path);
      QTRY_VERIFY_WITH_TIMEOUT(window.session()->workspace() != nullptr && window.isIdle(), 10000);
      QVERIFY(window.tree()->selectTable(QStringLiteral("t")));
      QTRY_VERIFY_WITH_TIMEOUT(window.browser()->model()->columnOf(QStringLiteral("d:count")) > 0,
                               10000);
      window.browser()->setColumnFormat(
          window.browser()->model()->columnOf(QStringLiteral("d:count")), keyscope::ValueFormat::kInteger);
      // Narrower than the default: every tab fits a 1,366-pixel-wide screen
      // with the dock beside it.
      QVERIFY2(window.minimumSizeHint().width() <= 1111, qPrintable(QString::number(window.minimumSizeHint().width())));
      window.resize(1111, 777);
      QVERIFY(window.showTab(QStringLiteral("lab")));
      window.findChild<QDockWidget*>(QStringLiteral("workspaceDock"))->hide();
      window.schemaView()->setSchemaText(schema);
      QVERIFY(window.close());  // closeEvent saves
    }
    MainWindow window(/*persistState=*/true);
    window.show();
    QCOMPARE(window.size(), QSize(1111, 777));
    QCOMPARE(window.currentTab(), QStringLiteral("lab"));
    QVERIFY(!window.findChild<QDockWidget*>(QStringLiteral("workspaceDock"))->isVisible());
    QCOMPARE(window.schemaView()->schemaText(), schema);
    window.openAtStart({});  // no argument: the most recent workspace
    QTRY_COMPARE_WITH_TIMEOUT(window.session()->path(), QFileInfo(m_path).absoluteFilePath(), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(window.isIdle(), 10000);
    QVERIFY(window.tree()->selectTable(QStringLiteral("t")));
    QTRY_VERIFY_WITH_TIMEOUT(window.browser()->model()->columnOf(QStringLiteral("d:count")) > 0, 10000);
    const int count = window.browser()->model()->columnOf(QStringLiteral("d:count"));
    QCOMPARE(window.browser()->model()->columnFormat(count), keyscope::ValueFormat::kInteger);
    window.close();
  }
};

QTEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
