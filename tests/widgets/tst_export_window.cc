// Qt Test for the export's wiring in the main window over a real workspace:
// File > Export Table and the data browser's Export View open the dialog
// on the right source (the view's filter included), and closing the
// workspace while an export is under way cancels it cleanly: nothing
// written, the dialog says so and can no longer run, and the window (with
// the dialog still open) is destroyed without touching the closed engine.
#include <QAction>
#include <QFile>
#include <QMenu>
#include <QMenuBar>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <memory>

#include "browser/cell_table_model.h"
#include "browser/data_browser.h"
#include "export/export_dialog.h"
#include "main_window.h"
#include "session.h"
#include "test_workspace.h"
#include "workspace/workspace_tree.h"

using keyscope::ExportDialog;
using keyscope::MainWindow;

class TestExportWindow : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir m_dir;
  QString m_path;

  void openOnTable(MainWindow& window) {
    window.openWorkspace(m_path);
    QVERIFY(QTest::qWaitFor([&window] { return window.session()->workspace() != nullptr; }, 30000));
    QVERIFY(QTest::qWaitFor([&window] { return window.isIdle(); }, 30000));
    QVERIFY(window.tree()->selectTable(QStringLiteral("t")));
    QVERIFY(QTest::qWaitFor([&window] { return window.isIdle(); }, 30000));
  }

  static QAction* fileAction(MainWindow& window, const QString& text) {
    for (QAction* menu : window.menuBar()->actions()) {
      if (menu->menu() == nullptr) continue;
      for (QAction* action : menu->menu()->actions()) {
        if (action->text() == text) return action;
      }
    }
    return nullptr;
  }

 private slots:
  void initTestCase() {
    QVERIFY(m_dir.isValid());
    m_path = m_dir.filePath(QStringLiteral("window.ksw"));
    auto ws = keyscope::test::openWorkspace(m_path);
    keyscope::test::fillNumberedTable(*ws, 2000, 1000);
  }

  void fileMenuExportsTheSelectedTable() {
    MainWindow window(/*persistState=*/false);
    openOnTable(window);
    QAction* exportTable = fileAction(window, QStringLiteral("&Export Table as CSV…"));
    QVERIFY(exportTable != nullptr);
    exportTable->trigger();
    auto* dialog = window.findChild<ExportDialog*>();
    QVERIFY(dialog != nullptr);
    QCOMPARE(dialog->source().table, QStringLiteral("t"));
    QVERIFY(dialog->source().scan.startRow.empty() && dialog->source().scan.stopRow.empty());
    QVERIFY(QTest::qWaitFor([dialog] { return dialog->isIdle(); }, 30000));
    QVERIFY2(dialog->previewText().startsWith(QStringLiteral("row,family,qualifier")),
             qPrintable(dialog->previewText()));
    // The window goes with the dialog still open.
  }

  void exportViewTakesTheBrowsersFilter() {
    MainWindow window(/*persistState=*/false);
    openOnTable(window);
    QVERIFY(window.browser()->applyFilter(QStringLiteral("row0012"), QString(), QString()));
    ExportDialog* dialog = window.exportBrowserView();
    QVERIFY(dialog != nullptr);
    QCOMPARE(dialog->source().scan.startRow, std::string("row0012"));
    QCOMPARE(dialog->source().scan.stopRow, std::string("row0013"));
    QVERIFY2(dialog->source().description.contains(QStringLiteral("prefix row0012")),
             qPrintable(dialog->source().description));
    const QString path = m_dir.filePath(QStringLiteral("view.csv"));
    dialog->setFilePath(path);
    QVERIFY(QTest::qWaitFor([dialog] { return dialog->isIdle(); }, 30000));
    QVERIFY(dialog->startExport());
    QVERIFY(QTest::qWaitFor([dialog] { return !dialog->isExporting(); }, 60000));
    QVERIFY(dialog->lastOutcome()->status.isOk());
    QCOMPARE(dialog->lastOutcome()->report.rows, uint64_t{10});
    QVERIFY(QFile::exists(path));
  }

  void closingTheWorkspaceCancelsAnExport() {
    MainWindow window(/*persistState=*/false);
    openOnTable(window);
    ExportDialog* dialog = window.exportTable(QStringLiteral("t"));
    QVERIFY(dialog != nullptr);
    const QString path = m_dir.filePath(QStringLiteral("closed.csv"));
    dialog->setFilePath(path);
    QVERIFY(QTest::qWaitFor([dialog] { return dialog->isIdle(); }, 30000));
    // Every worker of both priorities busy until the close cancels them, so
    // the export (a background job) is still waiting when the workspace
    // closes (no race with its end).
    keyscope::JobRunner* jobs = window.session()->jobs();
    QObject context;
    for (keyscope::JobPriority priority : {keyscope::JobPriority::kInteractive, keyscope::JobPriority::kBackground}) {
      for (int i = 0; i < std::max(2, QThread::idealThreadCount()) + 1; ++i) {
        jobs->submit(
            jobs->newChannel(priority), &context,
            [](keyscope::JobControl& control) {
              while (!control.isCancelled()) QThread::msleep(1);
              return 0;
            },
            [](int) {});
      }
    }
    QVERIFY(dialog->startExport());
    window.session()->close();  // aboutToClose, cancel, wait, close the engine
    QVERIFY(window.session()->workspace() == nullptr);
    QVERIFY(!dialog->isExporting());
    QVERIFY2(dialog->statusText().contains(QStringLiteral("cancelled, nothing written")),
             qPrintable(dialog->statusText()));
    QVERIFY(!dialog->startExport());
    QVERIFY(!QFile::exists(path));
    QVERIFY(!QFile::exists(path + QStringLiteral(".part")));
  }
};

QTEST_MAIN(TestExportWindow)
#include "tst_export_window.moc"
