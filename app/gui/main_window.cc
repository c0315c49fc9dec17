// MainWindow (see main_window.h). GUI thread only.
#include "main_window.h"

#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTreeView>

#include "browser/cell_table_model.h"
#include "browser/column_format_store.h"
#include "browser/data_browser.h"
#include "history/cell_history_view.h"
#include "browser/row_key_input.h"
#include "export/export_dialog.h"
#include "console/query_console.h"
#include "console/shell_line_edit.h"
#include "hotspots/hotspots_view.h"
#include "storage/storage_view.h"
#include "workload/workload_lab.h"
#include "regions/regions_view.h"
#include "key_lab/classic_designs.h"
#include "key_lab/key_bytes_view.h"
#include "key_lab/key_schema_view.h"
#include "inspector/key_inspector.h"
#include "recent_files.h"
#include "session.h"
#include "startup.h"
#include "version.h"
#include "workspace/table_info_view.h"
#include "workspace/workspace_tree.h"

namespace keyscope {

namespace {

// QSettings keys (organization "Keyscope", application "Keyscope").
constexpr char kGeometryKey[] = "mainWindow/geometry";
constexpr char kStateKey[] = "mainWindow/state";
constexpr char kDockSplitterKey[] = "mainWindow/dockSplitter";
constexpr char kTabKey[] = "mainWindow/tab";
constexpr char kLabSplitterKey[] = "keyLab/splitter";
constexpr char kSchemaKey[] = "keyLab/schema";
constexpr char kTupleKey[] = "keyLab/tuple";

// What a first start shows in the lab: the field-swap design, a good key to begin with.
constexpr size_t kFirstStartDesign = 1;

const QString kWorkspaceFilter = QStringLiteral("Keyscope workspaces (*.ksw);;All files (*)");


bool isWorkspaceFile(const QUrl& url) {
  return url.isLocalFile() &&
         url.toLocalFile().endsWith(QStringLiteral(".ksw"), Qt::CaseInsensitive);
}

}  // namespace

MainWindow::MainWindow(bool persistState, QWidget* parent)
    : QMainWindow(parent), m_persistState(persistState) {
  if (m_persistState) {
    m_settings = std::make_unique<QSettings>();
  } else {
    m_scratch = std::make_unique<QTemporaryDir>();
    m_settings = std::make_unique<QSettings>(m_scratch->filePath(QStringLiteral("settings.ini")),
                                             QSettings::IniFormat);
  }
  m_recent = std::make_unique<RecentFiles>(m_settings.get());
  m_formats = std::make_unique<ColumnFormatStore>(m_settings.get());
  m_session = new Session(this);
  setWindowTitle(tr("Keyscope"));
  setAcceptDrops(true);

  buildViews();
  createMenus();
  restoreSettings();

  connect(m_session, &Session::opened, this, &MainWindow::onOpened);
  connect(m_session, &Session::aboutToClose, this, &MainWindow::onAboutToClose);
  connect(m_session, &Session::openFailed, this, &MainWindow::onOpenFailed);
  connect(m_session, &Session::demoProgress, this, &MainWindow::onDemoProgress);
  connect(m_session, &Session::busyChanged, this, &MainWindow::onBusyChanged);
  connect(m_session, &Session::backgroundFailed, this, [this](const QString& message) {
    showError(tr("Background work failed"),
              tr("%1\n\nNothing is lost: the data stays in memory and in the workspace's log, "
                 "and the work is retried. Writes fail, saying why, while there is no room; "
                 "free disk space to go on.")
                  .arg(message));
  });
  connect(m_tree, &WorkspaceTree::tableSelected, this, &MainWindow::onTableSelected);
  // Double-click on a cell (or its context menu): its history in the bottom dock,
  // read as of the browser's "View as of" clock.
  connect(m_browser, &DataBrowser::cellHistoryRequested, this,
          &MainWindow::showCellHistory);
  connect(m_browser, &DataBrowser::asOfChanged, this,
          [this] { m_history->setAsOf(m_browser->asOf()); });
  // A write from the console: the tree reloads, then the views of the table shown.
  connect(m_console, &QueryConsole::workspaceChanged, this, [this] {
    connect(m_tree, &WorkspaceTree::refreshed, this,
            [this] { onTableSelected(m_tree->selectedTable()); }, Qt::SingleShotConnection);
    m_tree->refresh();
  });
  connect(m_tree, &WorkspaceTree::exportTableRequested, this, &MainWindow::exportTable);
  // A workload run wrote a table: the tree reloads and shows it in every view.
  connect(m_workload, &WorkloadLab::workspaceChanged, this, [this](const QString& table) {
    connect(m_tree, &WorkspaceTree::refreshed, this, [this, table] { m_tree->selectTable(table); },
            Qt::SingleShotConnection);
    m_tree->refresh();
  });
  // "Open A's workspace" after an A/B run.
  connect(m_workload, &WorkloadLab::openWorkspaceRequested, this, &MainWindow::openWorkspace);
  connect(m_browser, &DataBrowser::exportViewRequested, this, &MainWindow::exportBrowserView);
  // The data browser's "Inspect Row Key": the inspector, on that key.
  connect(m_browser, &DataBrowser::inspectRowKeyRequested, this, [this](const QByteArray& key) {
    showTab(QStringLiteral("inspector"));
    m_inspector->inspectKey(key.toStdString());
  });
  connect(m_tableInfo, &TableInfoView::exampleActivated, this, [this](const QString& command) {
    QApplication::clipboard()->setText(command);
    statusBar()->showMessage(tr("Copied: %1").arg(command), 5000);
  });
}

MainWindow::~MainWindow() {
  // The views hold the session's job runner and workspace, so they go first
  // (cancelling their jobs), then the session, which waits for the jobs and
  // closes the workspace. Left to QObject, children die in creation order:
  // the session (made first) before the views.
  disconnect(m_session, nullptr, this, nullptr);
  // Export dialogs are top-level children of the window: they hold the runner too.
  qDeleteAll(findChildren<ExportDialog*>(Qt::FindDirectChildrenOnly));
  delete takeCentralWidget();
  delete m_dock;
  delete m_historyDock;
  delete m_session;
}

void MainWindow::buildViews() {
  JobRunner* jobs = m_session->jobs();

  m_tree = new WorkspaceTree(jobs, this);
  m_tableInfo = new TableInfoView(this);
  m_dockSplitter = new QSplitter(Qt::Vertical, this);
  m_dockSplitter->setObjectName(QStringLiteral("dockSplitter"));
  m_dockSplitter->addWidget(m_tree);
  m_dockSplitter->addWidget(m_tableInfo);
  m_dockSplitter->setChildrenCollapsible(false);
  m_dockSplitter->setStretchFactor(0, 3);
  m_dockSplitter->setStretchFactor(1, 2);
  auto* dock = m_dock = new QDockWidget(tr("Workspace"), this);
  dock->setObjectName(QStringLiteral("workspaceDock"));
  dock->setWidget(m_dockSplitter);
  dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                    QDockWidget::DockWidgetClosable);
  addDockWidget(Qt::LeftDockWidgetArea, dock);
  resizeDocks({dock}, {420}, Qt::Horizontal);

  m_history = new CellHistoryView(jobs, this);
  m_historyDock = new QDockWidget(tr("Cell history"), this);
  m_historyDock->setObjectName(QStringLiteral("cellHistoryDock"));
  m_historyDock->setWidget(m_history);
  m_historyDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                             QDockWidget::DockWidgetClosable);
  addDockWidget(Qt::BottomDockWidgetArea, m_historyDock);
  m_historyDock->hide();  // until a cell's history is asked for

  m_browser = new DataBrowser(jobs, m_formats.get(), this);

  m_schemaView = new KeySchemaView(this);
  m_bytesView = new KeyBytesView(this);
  m_labSplitter = new QSplitter(Qt::Vertical, this);
  m_labSplitter->setObjectName(QStringLiteral("keyLabSplitter"));
  m_labSplitter->addWidget(m_schemaView);
  m_labSplitter->addWidget(m_bytesView);
  m_labSplitter->setChildrenCollapsible(false);
  m_labSplitter->setStretchFactor(0, 1);
  m_labSplitter->setStretchFactor(1, 1);
  connect(m_schemaView, &KeySchemaView::schemaChanged, this,
          [this] { m_bytesView->setSchema(m_schemaView->schema()); });
  connect(m_schemaView, &KeySchemaView::exampleTupleSuggested, m_bytesView,
          &KeyBytesView::setTupleJson);

  m_tabs = new QTabWidget(this);
  m_tabs->setObjectName(QStringLiteral("mainTabs"));
  m_tabs->setDocumentMode(true);
  // The main tabs, in order. Each view's key names it in settings, in
  // --tab and in showTab(); its View menu entry gets Ctrl+<position>.
  addView(QStringLiteral("data"), m_browser, tr("Data"), tr("&Data Browser"));
  m_console = new QueryConsole(jobs, m_settings.get(), this);
  addView(QStringLiteral("query"), m_console, tr("Query"), tr("&Query Console"));
  m_inspector = new KeyInspector(jobs, this);
  addView(QStringLiteral("inspector"), m_inspector, tr("Key inspector"), tr("Key &Inspector"));
  addView(QStringLiteral("lab"), m_labSplitter, tr("Key schema lab"), tr("&Key Schema Lab"));
  m_hotspots = new HotspotsView(jobs, this);
  m_hotspots->setObjectName(QStringLiteral("hotspots"));
  connect(m_hotspots, &HotspotsView::drillThroughRequested, this, &MainWindow::showDrillThrough);
  addView(QStringLiteral("hotspots"), m_hotspots, tr("Hotspots"), tr("&Hotspots"));
  m_regions = new RegionsView(jobs, this);
  m_regions->setObjectName(QStringLiteral("regions"));
  // A split, merge or balance from the view changes the tree's region counts and the heatmap's boundaries.
  connect(m_regions, &RegionsView::workspaceChanged, m_tree, &WorkspaceTree::refresh);
  connect(m_regions, &RegionsView::workspaceChanged, m_hotspots, &HotspotsView::refresh);
  addView(QStringLiteral("regions"), m_regions, tr("Regions"), tr("&Regions"));
  m_storage = new StorageView(jobs, this);
  m_storage->setObjectName(QStringLiteral("storage"));
  addView(QStringLiteral("storage"), m_storage, tr("Storage"), tr("&Storage"));
  m_workload = new WorkloadLab(jobs, this);
  m_workload->setObjectName(QStringLiteral("workload"));
  addView(QStringLiteral("workload"), m_workload, tr("Workload lab"), tr("&Workload Lab"));
  setCentralWidget(m_tabs);

  m_progressLabel = new QLabel(this);
  m_progressBar = new QProgressBar(this);
  m_progressBar->setRange(0, 0);  // busy: neither an open nor a demo build knows its length
  m_progressBar->setMaximumWidth(160);
  m_cancelButton = new QPushButton(tr("Cancel"), this);
  statusBar()->addPermanentWidget(m_progressLabel);
  statusBar()->addPermanentWidget(m_progressBar);
  statusBar()->addPermanentWidget(m_cancelButton);
  connect(m_cancelButton, &QPushButton::clicked, m_session, &Session::cancelPending);
  onBusyChanged(false);
}

void MainWindow::createMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(tr("&New Workspace…"), this, &MainWindow::chooseAndCreate)
      ->setShortcut(QKeySequence::New);
  file->addAction(tr("&Open Workspace…"), this, &MainWindow::chooseAndOpen)
      ->setShortcut(QKeySequence::Open);
  m_recentMenu = file->addMenu(tr("Open &Recent"));
  file->addAction(tr("Open &Demo Workspace"), this, &MainWindow::openDemoWorkspace);
  file->addSeparator();
  file->addAction(tr("&Export Table as CSV…"), this, [this] { exportTable(m_tree->selectedTable()); })
      ->setShortcut(QKeySequence(tr("Ctrl+E")));
  file->addSeparator();
  QAction* close = file->addAction(tr("&Close Workspace"), m_session, &Session::close);
  close->setShortcut(QKeySequence::Close);
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);
  quit->setMenuRole(QAction::QuitRole);
  rebuildRecentMenu();

  QMenu* view = menuBar()->addMenu(tr("&View"));
  view->addAction(tr("&Refresh Workspace Tree"), m_tree, &WorkspaceTree::refresh)
      ->setShortcut(QKeySequence::Refresh);
  view->addSeparator();
  for (int i = 0; i < m_views.size(); ++i) {
    const QString key = m_views[i].key;
    view->addAction(m_views[i].menuText, this, [this, key] { showTab(key); })
        ->setShortcut(QKeySequence(tr("Ctrl+%1").arg(i + 1)));
  }
  view->addSeparator();
  view->addAction(m_dock->toggleViewAction());
  view->addAction(m_historyDock->toggleViewAction());

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  QAction* about = help->addAction(tr("&About Keyscope"), this, &MainWindow::showAbout);
  about->setMenuRole(QAction::AboutRole);
  QAction* aboutQt = help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
  aboutQt->setMenuRole(QAction::AboutQtRole);
}

void MainWindow::rebuildRecentMenu() {
  m_recentMenu->clear();
  const QStringList files = m_recent->files();
  for (const QString& path : files) {
    QAction* action = m_recentMenu->addAction(QFileInfo(path).fileName(), this,
                                              [this, path] { openWorkspace(path); });
    action->setToolTip(path);
    action->setStatusTip(path);
  }
  if (files.isEmpty()) m_recentMenu->addAction(tr("(none)"))->setEnabled(false);
  m_recentMenu->addSeparator();
  m_recentMenu->addAction(tr("Clear Recent"), this, [this] {
    m_recent->clear();
    rebuildRecentMenu();
  });
}

void MainWindow::restoreSettings() {
  const ClassicDesign& first = classicDesigns()[kFirstStartDesign];
  QString schema = QString::fromUtf8(first.schema);
  QString tuple = QString::fromUtf8(first.exampleTuple);
  const bool restored = m_persistState && m_settings->contains(kGeometryKey);
  if (m_persistState) {
    restoreGeometry(m_settings->value(kGeometryKey).toByteArray());
    restoreState(m_settings->value(kStateKey).toByteArray());
    m_dockSplitter->restoreState(m_settings->value(kDockSplitterKey).toByteArray());
    m_labSplitter->restoreState(m_settings->value(kLabSplitterKey).toByteArray());
    showTab(m_settings->value(kTabKey, QStringLiteral("data")).toString());
    schema = m_settings->value(kSchemaKey, schema).toString();
    tuple = m_settings->value(kTupleKey, tuple).toString();
  }
  if (!restored) resize(1400, 900);
  m_schemaView->setSchemaText(schema);
  m_bytesView->setTupleJson(tuple);
}

void MainWindow::saveSettings() const {
  if (!m_persistState) return;
  m_settings->setValue(kGeometryKey, saveGeometry());
  m_settings->setValue(kStateKey, saveState());
  m_settings->setValue(kDockSplitterKey, m_dockSplitter->saveState());
  m_settings->setValue(kLabSplitterKey, m_labSplitter->saveState());
  m_settings->setValue(kTabKey, currentTab());
  m_settings->setValue(kSchemaKey, m_schemaView->schemaText());
  m_settings->setValue(kTupleKey, m_bytesView->tupleJson());
}

void MainWindow::openAtStart(const QStringList& arguments) {
  const StartupChoice choice =
      chooseStartupWorkspace(arguments, m_recent->files(), demoWorkspacePath());
  if (choice.path.isEmpty()) return;
  if (choice.buildDemo) {
    openDemoWorkspace();
  } else {
    openWorkspace(choice.path);
  }
}

void MainWindow::openWorkspace(const QString& path) {
  statusBar()->showMessage(tr("Opening %1…").arg(path));
  m_session->open(path);
}

void MainWindow::newWorkspace(const QString& path) {
  statusBar()->showMessage(tr("Creating %1…").arg(path));
  m_session->open(path, /*create=*/true);
}

void MainWindow::openDemoWorkspace() {
  const QString path = demoWorkspacePath();
  if (QFileInfo::exists(path)) {
    openWorkspace(path);
    return;
  }
  QDir().mkpath(QFileInfo(path).absolutePath());
  statusBar()->showMessage(
      tr("Building the demo workspace in %1 (a minute or two, once)…").arg(path));
  m_session->buildDemo(path);
}

void MainWindow::chooseAndOpen() {
  const QString path =
      QFileDialog::getOpenFileName(this, tr("Open Workspace"), QString(), kWorkspaceFilter);
  if (!path.isEmpty()) openWorkspace(path);
}

void MainWindow::chooseAndCreate() {
  QString path = QFileDialog::getSaveFileName(this, tr("New Workspace"),
                                              QStringLiteral("untitled.ksw"), kWorkspaceFilter);
  if (path.isEmpty()) return;
  if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".ksw");
  if (QFileInfo(path).absoluteFilePath() == m_session->path()) {
    showError(tr("New Workspace"), tr("%1 is the workspace open now").arg(path));
    return;
  }
  // The dialog asked before overwriting; a workspace is never overwritten in place.
  if (QFileInfo::exists(path) && !QFile::remove(path)) {
    showError(tr("New Workspace"), tr("Cannot replace %1").arg(path));
    return;
  }
  newWorkspace(path);
}

void MainWindow::addView(const QString& key, QWidget* view, const QString& tabTitle,
                         const QString& menuText) {
  view->setProperty("keyscopeViewKey", key);
  m_tabs->addTab(view, tabTitle);
  m_views.push_back({key, menuText});
}

void MainWindow::showCellHistory(const CellHistoryTarget& target) {
  if (!m_historyDock->isVisible()) {
    m_historyDock->show();
    resizeDocks({m_historyDock}, {height() * 2 / 5}, Qt::Vertical);
  }
  m_historyDock->raise();
  m_history->setAsOf(m_browser->asOf());
  m_history->showCell(target.table, target.row, target.family, target.qualifier, target.format);
}

bool MainWindow::showTab(const QString& key) {
  for (int i = 0; i < m_views.size(); ++i) {
    if (m_views[i].key != key) continue;
    m_tabs->setCurrentIndex(i);
    return true;
  }
  return false;
}

QString MainWindow::currentTab() const {
  const int index = m_tabs->currentIndex();
  return index >= 0 && index < m_views.size() ? m_views[index].key : QString();
}

QStringList MainWindow::tabKeys() const {
  QStringList keys;
  for (const View& view : m_views) keys.push_back(view.key);
  return keys;
}

bool MainWindow::isIdle() const {
  if (m_history->isLoading()) return false;
  if (m_inspector->isLoading()) return false;
  if (m_storage->isLoading()) return false;
  if (m_console->isRunning()) return false;
  if (m_workload->isRunning()) return false;
  return !m_session->isBusy() && !m_tree->isRefreshing() && !m_browser->model()->isLoading() &&
         !m_hotspots->isLoading() && !m_regions->isLoading();
}

ExportDialog* MainWindow::exportTable(const QString& table) {
  if (table.isEmpty()) {
    showError(tr("Export Table"), tr("Select a table in the workspace tree first."));
    return nullptr;
  }
  ExportSource source;
  source.table = table;
  source.description = tr("Table %1, the latest value of every column").arg(table);
  return openExportDialog(source);
}

ExportDialog* MainWindow::exportBrowserView() {
  if (m_browser->tableName().isEmpty()) {
    showError(tr("Export View"), tr("Select a table in the workspace tree first."));
    return nullptr;
  }
  ExportSource source;
  source.table = m_browser->tableName();
  source.scan = m_browser->currentScan();
  source.description = m_browser->currentViewDescription();
  return openExportDialog(source);
}

ExportDialog* MainWindow::openExportDialog(const ExportSource& source) {
  if (m_session->workspace() == nullptr) {
    showError(tr("Export"), tr("No workspace is open."));
    return nullptr;
  }
  auto* dialog = new ExportDialog(m_session->jobs(), m_session->workspace(), source, this,
                                  m_settings.get());
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  connect(m_session, &Session::aboutToClose, dialog, &ExportDialog::workspaceClosing);
  dialog->show();
  return dialog;
}

void MainWindow::onOpened(const QString& path) {
  Workspace* ws = m_session->workspace();
  m_tree->setWorkspace(ws);
  m_browser->setWorkspace(ws, path);
  m_history->setWorkspace(ws);
  m_inspector->setWorkspace(ws);
  m_hotspots->setWorkspace(ws);
  m_storage->setWorkspace(ws);
  m_workload->setWorkspace(ws, path);
  m_regions->setWorkspace(ws);
  m_console->setWorkspace(ws);
  m_tableInfo->setTable(std::nullopt);
  m_recent->add(path);
  rebuildRecentMenu();
  setWindowTitle(tr("%1 — Keyscope").arg(QFileInfo(path).fileName()));
  setWindowFilePath(path);
  statusBar()->showMessage(tr("Opened %1").arg(path), 5000);
}

void MainWindow::onAboutToClose() {
  m_browser->setWorkspace(nullptr, {});
  m_history->setWorkspace(nullptr);
  m_inspector->setWorkspace(nullptr);
  m_hotspots->setWorkspace(nullptr);
  m_storage->setWorkspace(nullptr);
  m_workload->setWorkspace(nullptr, {});
  m_regions->setWorkspace(nullptr);
  m_console->setWorkspace(nullptr);
  m_tree->setWorkspace(nullptr);
  m_tableInfo->setTable(std::nullopt);
  setWindowTitle(tr("Keyscope"));
}

void MainWindow::onOpenFailed(const QString& path, const QString& message) {
  if (!QFileInfo::exists(path)) {
    m_recent->remove(path);
    rebuildRecentMenu();
  }
  // The engine's messages mostly name the file already ("PATH is open in
  // another Keyscope process ..."): say it once.
  showError(tr("Cannot open %1").arg(QFileInfo(path).fileName()),
            message.contains(path) ? message : tr("%1\n\n%2").arg(path, message));
}

void MainWindow::onDemoProgress(const QString& line, int done, int /*total*/) {
  m_progressLabel->setText(tr("Building the demo (%1 steps done): %2").arg(done).arg(line));
}

void MainWindow::onBusyChanged(bool busy) {
  m_progressLabel->setVisible(busy);
  m_progressBar->setVisible(busy);
  m_cancelButton->setVisible(busy);
  if (busy) {
    m_progressLabel->setText(tr("Working…"));
  } else {
    statusBar()->clearMessage();
  }
}

void MainWindow::onTableSelected(const QString& table) {
  const std::optional<TableOptions> options = m_tree->tableOptions(table);
  m_tableInfo->setTable(options);
  m_inspector->setTable(options);
  m_console->setTable(table);
  if (options) {
    m_browser->showTable(*options);
    m_hotspots->showTable(*options);
    m_storage->showTable(*options);
    m_regions->showTable(*options);
  } else {
    m_browser->clearTable();
    m_hotspots->clearTable();
    m_storage->clearTable();
    m_regions->clearTable();
  }
}

void MainWindow::showDrillThrough(const QString& table, const ScanOptions& scan,
                                  const QString& shellLine) {
  if (m_tree->selectedTable() != table && !m_tree->selectTable(table)) {
    showError(tr("Show Rows"), tr("No table %1 in the workspace").arg(table));
    return;
  }
  // The browser's key fields read its key input kind; escaped text writes any key.
  if (!formatRowKeyInput(scan.startRow, m_browser->keyInputKind()) ||
      !formatRowKeyInput(scan.stopRow, m_browser->keyInputKind()))
    m_browser->setKeyInputKind(RowKeyInputKind::kEscaped);
  const RowKeyInputKind kind = m_browser->keyInputKind();
  m_browser->applyFilter(QString(), formatRowKeyInput(scan.startRow, kind).value_or(QString()),
                         formatRowKeyInput(scan.stopRow, kind).value_or(QString()));
  showTab(QStringLiteral("data"));
  // The browser shows these rows' latest values; the scan with its time
  // range waits in the Query tab, in its form and line, to be run there.
  m_console->line()->setText(shellLine);
  m_console->lineToForm();
  statusBar()->showMessage(tr("Rows of the heatmap's selection; the scan is ready in the Query tab: %1").arg(shellLine));
}

void MainWindow::showError(const QString& title, const QString& message) {
  m_lastError = message;
  statusBar()->showMessage(title, 10000);
  // Tests and screenshots run without a person to click a message box away.
  if (m_persistState) QMessageBox::warning(this, title, message);
}

void MainWindow::showAbout() {
  QMessageBox::about(
      this, tr("About Keyscope"),
      tr("<h3>Keyscope %1</h3>"
         "<p>A desktop explorer and design lab for HBase/Bigtable-style tables.</p>"
         "<p>Licensed under the GNU General Public License, version 3 or (at your option) any "
         "later version (GPL-3.0-or-later).</p>"
         "<p>Charts are drawn with <a href=\"https://www.qcustomplot.com/\">QCustomPlot</a> by "
         "Emanuel Eichhammer (GPL-3.0). Built with Qt %2.</p>")
          .arg(keyscopeVersion(), QString::fromLatin1(qVersion())));
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  const QList<QUrl> urls = event->mimeData()->urls();
  if (urls.size() == 1 && isWorkspaceFile(urls.first())) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const QList<QUrl> urls = event->mimeData()->urls();
  if (urls.size() != 1 || !isWorkspaceFile(urls.first())) return;
  event->acceptProposedAction();
  openWorkspace(urls.first().toLocalFile());
}

void MainWindow::closeEvent(QCloseEvent* event) {
  saveSettings();
  QMainWindow::closeEvent(event);
}

}  // namespace keyscope
