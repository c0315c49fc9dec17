// MainWindow (see main_window.h). GUI thread only.
#include "main_window.h"

#include <QApplication>
#include <QCloseEvent>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>

#include "key_lab/classic_designs.h"
#include "key_lab/key_bytes_view.h"
#include "key_lab/key_schema_view.h"
#include "version.h"

namespace keyscope {

namespace {

// QSettings keys (organization "Keyscope", application "Keyscope").
constexpr char kGeometryKey[] = "mainWindow/geometry";
constexpr char kStateKey[] = "mainWindow/state";
constexpr char kLabSplitterKey[] = "keyLab/splitter";
constexpr char kSchemaKey[] = "keyLab/schema";
constexpr char kTupleKey[] = "keyLab/tuple";

// What a first start shows: the field-swap design, a good key to begin with.
constexpr size_t kFirstStartDesign = 1;

}  // namespace

MainWindow::MainWindow(bool persistState, QWidget* parent)
    : QMainWindow(parent), m_persistState(persistState) {
  setWindowTitle(tr("Keyscope"));

  m_schemaView = new KeySchemaView(this);
  m_bytesView = new KeyBytesView(this);
  m_labSplitter = new QSplitter(Qt::Vertical, this);
  m_labSplitter->setObjectName(QStringLiteral("keyLabSplitter"));
  m_labSplitter->addWidget(m_schemaView);
  m_labSplitter->addWidget(m_bytesView);
  m_labSplitter->setChildrenCollapsible(false);
  m_labSplitter->setStretchFactor(0, 1);
  m_labSplitter->setStretchFactor(1, 1);
  setCentralWidget(m_labSplitter);

  connect(m_schemaView, &KeySchemaView::schemaChanged, this,
          [this] { m_bytesView->setSchema(m_schemaView->schema()); });
  connect(m_schemaView, &KeySchemaView::exampleTupleSuggested, m_bytesView,
          &KeyBytesView::setTupleJson);

  createMenus();
  statusBar();

  const ClassicDesign& first = classicDesigns()[kFirstStartDesign];
  QString schema = QString::fromUtf8(first.schema);
  QString tuple = QString::fromUtf8(first.exampleTuple);
  if (m_persistState) {
    const QSettings settings;
    restoreGeometry(settings.value(kGeometryKey).toByteArray());
    restoreState(settings.value(kStateKey).toByteArray());
    m_labSplitter->restoreState(settings.value(kLabSplitterKey).toByteArray());
    schema = settings.value(kSchemaKey, schema).toString();
    tuple = settings.value(kTupleKey, tuple).toString();
  }
  if (!m_persistState || !QSettings().contains(kGeometryKey)) resize(1280, 860);
  m_schemaView->setSchemaText(schema);
  m_bytesView->setTupleJson(tuple);
}

void MainWindow::noteWorkspaceArgument(const QString& path) {
  statusBar()->showMessage(
      tr("The workspace window is not built yet; showing the key schema lab (not opened: %1)").arg(path));
}

void MainWindow::createMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);
  quit->setMenuRole(QAction::QuitRole);

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  QAction* about = help->addAction(tr("&About Keyscope"), this, &MainWindow::showAbout);
  about->setMenuRole(QAction::AboutRole);
  QAction* aboutQt = help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
  aboutQt->setMenuRole(QAction::AboutQtRole);
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

void MainWindow::saveSettings() const {
  if (!m_persistState) return;
  QSettings settings;
  settings.setValue(kGeometryKey, saveGeometry());
  settings.setValue(kStateKey, saveState());
  settings.setValue(kLabSplitterKey, m_labSplitter->saveState());
  settings.setValue(kSchemaKey, m_schemaView->schemaText());
  settings.setValue(kTupleKey, m_bytesView->tupleJson());
}

void MainWindow::closeEvent(QCloseEvent* event) {
  saveSettings();
  QMainWindow::closeEvent(event);
}

}  // namespace keyscope
