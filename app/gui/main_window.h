// MainWindow: Keyscope's main window over one workspace. Wiring only:
//   - a dock with the workspace tree (tables → families → regions) above the
//     selected table's description and example commands;
//   - tabs for the data browser and the key schema lab;
//   - File > New / Open / Open Recent / Open Demo Workspace / Close, drag and
//     drop of a .ksw file, View > Refresh;
//   - a status line with the progress of an open or a demo build (Cancel).
// The Session owns the workspace and the job runner; the views read through
// them. Window state, the lab's last schema and tuple, recent files and the
// browser's column formats persist in QSettings.
//
// GUI thread only.
#pragma once

#include <QMainWindow>
#include <QString>
#include <QList>
#include <QStringList>

#include <memory>

class QCloseEvent;
class QDockWidget;
class QDragEnterEvent;
class QDropEvent;
class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QSettings;
class QSplitter;
class QTabWidget;
class QTemporaryDir;

namespace keyscope {

class ColumnFormatStore;
class CellHistoryView;
struct CellHistoryTarget;
class DataBrowser;
class HotspotsView;
class StorageView;
class WorkloadLab;
class RegionsView;
class ExportDialog;
struct ExportSource;
class KeyBytesView;
class KeyInspector;
class KeySchemaView;
class QueryConsole;
class RecentFiles;
class Session;
class TableInfoView;
class WorkspaceTree;
struct ScanOptions;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  // With `persistState`, window state, recent files, the lab's schema and
  // tuple and column formats are read from the user's settings and written
  // back; without it (screenshots, tests) the window starts from the
  // defaults and keeps its settings in a scratch file that is thrown away.
  explicit MainWindow(bool persistState, QWidget* parent = nullptr);
  ~MainWindow() override;

  // Opens what startup.h says for these command-line arguments.
  void openAtStart(const QStringList& arguments);
  // Open (off the GUI thread) an existing workspace file, a new one, or the
  // demo workspace (built first when missing). Errors go to a message box
  // when persisting state, else only to lastError() and the status line.
  void openWorkspace(const QString& path);
  void newWorkspace(const QString& path);
  void openDemoWorkspace();

  // The main tabs by key ("data", "lab", ...: tabKeys() in order). showTab
  // returns false for a key no tab has.
  bool showTab(const QString& key);
  QString currentTab() const;
  QStringList tabKeys() const;

  Session* session() const { return m_session; }
  WorkspaceTree* tree() const { return m_tree; }
  DataBrowser* browser() const { return m_browser; }
  // The bottom dock "Cell history" (hidden until a cell's history is asked for).
  CellHistoryView* historyView() const { return m_history; }
  // Shows the history dock on the cell (as the browser's double-click does).
  void showCellHistory(const CellHistoryTarget& target);
  QDockWidget* historyDock() const { return m_historyDock; }
  QueryConsole* console() const { return m_console; }
  TableInfoView* tableInfo() const { return m_tableInfo; }
  ColumnFormatStore* columnFormats() const { return m_formats.get(); }
  KeySchemaView* schemaView() const { return m_schemaView; }
  KeyBytesView* bytesView() const { return m_bytesView; }
  KeyInspector* inspector() const { return m_inspector; }
  HotspotsView* hotspots() const { return m_hotspots; }
  StorageView* storage() const { return m_storage; }
  WorkloadLab* workload() const { return m_workload; }
  RegionsView* regions() const { return m_regions; }
  // The hotspot heatmap's drill-through: selects the table, shows the rows
  // [scan.startRow, scan.stopRow) in the data browser and switches to it;
  // the status line gives the scan (with its TIMERANGE) as a shell line.
  void showDrillThrough(const QString& table, const ScanOptions& scan, const QString& shellLine);
  // CSV export (ExportDialog, non-modal, deleted when closed; cancelled when
  // the workspace closes): of a table as a whole (File > Export Table…, the
  // tree's context menu), of the data browser's view, or of any source.
  // nullptr (with the reason in lastError()) when no workspace or table is open.
  ExportDialog* exportTable(const QString& table);
  ExportDialog* exportBrowserView();
  ExportDialog* openExportDialog(const ExportSource& source);

  // Nothing is loading: no open, build, refresh or page under way.
  bool isIdle() const;
  // The last error shown (tests and screenshots never see message boxes).
  QString lastError() const { return m_lastError; }

 protected:
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  void buildViews();
  // Adds a main tab; `key` names it in settings, --tab and showTab().
  void addView(const QString& key, QWidget* view, const QString& tabTitle,
               const QString& menuText);
  void createMenus();
  void rebuildRecentMenu();
  void restoreSettings();
  void saveSettings() const;

  void onOpened(const QString& path);
  void onAboutToClose();
  void onOpenFailed(const QString& path, const QString& message);
  void onDemoProgress(const QString& line, int done, int total);
  void onBusyChanged(bool busy);
  void onTableSelected(const QString& table);
  void showError(const QString& title, const QString& message);
  void showAbout();
  void chooseAndOpen();
  void chooseAndCreate();

  bool m_persistState = false;
  std::unique_ptr<QTemporaryDir> m_scratch;  // settings when not persisting
  std::unique_ptr<QSettings> m_settings;
  std::unique_ptr<RecentFiles> m_recent;
  std::unique_ptr<ColumnFormatStore> m_formats;
  Session* m_session = nullptr;

  struct View {
    QString key;
    QString menuText;
  };
  QTabWidget* m_tabs = nullptr;
  QList<View> m_views;  // in tab order
  QDockWidget* m_dock = nullptr;
  QDockWidget* m_historyDock = nullptr;
  CellHistoryView* m_history = nullptr;
  WorkspaceTree* m_tree = nullptr;
  TableInfoView* m_tableInfo = nullptr;
  QSplitter* m_dockSplitter = nullptr;
  DataBrowser* m_browser = nullptr;
  QSplitter* m_labSplitter = nullptr;
  KeySchemaView* m_schemaView = nullptr;
  KeyBytesView* m_bytesView = nullptr;
  KeyInspector* m_inspector = nullptr;
  HotspotsView* m_hotspots = nullptr;
  StorageView* m_storage = nullptr;
  WorkloadLab* m_workload = nullptr;
  RegionsView* m_regions = nullptr;
  QueryConsole* m_console = nullptr;
  QMenu* m_recentMenu = nullptr;

  QLabel* m_progressLabel = nullptr;
  QProgressBar* m_progressBar = nullptr;
  QPushButton* m_cancelButton = nullptr;
  QString m_lastError;
};

}  // namespace keyscope
