// WorkspaceTree (see workspace_tree.h). GUI thread only.
#include "workspace/workspace_tree.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMenu>
#include <QSet>
#include <QTreeView>
#include <QVBoxLayout>

#include "workspace/workspace_tree_model.h"

namespace keyscope {

WorkspaceTree::WorkspaceTree(JobRunner* runner, QWidget* parent)
    : QWidget(parent),
      m_runner(runner),
      m_channel(runner->newChannel()),
      m_model(new WorkspaceTreeModel(this)) {
  m_view = new QTreeView(this);
  m_view->setObjectName(QStringLiteral("workspaceTree"));
  m_view->setModel(m_model);
  m_view->setUniformRowHeights(true);
  m_view->setAlternatingRowColors(false);
  m_view->header()->setStretchLastSection(true);
  // Names are short (tables, families, "region 12"): always show them whole.
  m_view->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  m_message = new QLabel(this);
  m_message->setWordWrap(true);
  m_message->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  m_message->setContentsMargins(4, 2, 4, 2);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(m_message);
  layout->addWidget(m_view, 1);
  m_view->hide();
  showNoWorkspace();
  connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this,
          &WorkspaceTree::onCurrentChanged);
  m_view->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(m_view, &QTreeView::customContextMenuRequested, this, &WorkspaceTree::showContextMenu);
}

void WorkspaceTree::showContextMenu(const QPoint& at) {
  const QString table =
      m_view->indexAt(at).data(WorkspaceTreeModel::TableNameRole).toString();
  if (table.isEmpty()) return;
  QMenu menu(this);
  menu.addAction(tr("Export %1 as CSV…").arg(table), this,
                 [this, table] { emit exportTableRequested(table); });
  menu.exec(m_view->viewport()->mapToGlobal(at));
}

WorkspaceTree::~WorkspaceTree() {
  m_runner->cancel(m_channel);
}

void WorkspaceTree::showNoWorkspace() {
  m_message->setText(
      tr("No workspace is open: use File > Open, or drop a .ksw file on the window."));
  m_message->show();
}

void WorkspaceTree::setWorkspace(const Workspace* ws) {
  m_runner->cancel(m_channel);
  m_ws = ws;
  m_outline = {};
  m_currentTable.clear();
  m_model->clearOutline();
  m_refreshing = false;
  m_firstOutline = true;
  m_view->setVisible(m_ws != nullptr);
  if (m_ws) {
    m_message->hide();
    refresh();
  } else {
    showNoWorkspace();
  }
}

void WorkspaceTree::refresh() {
  if (!m_ws) return;
  const Workspace* ws = m_ws;
  m_refreshing = true;
  m_runner->submit(
      m_channel, this, [ws](JobControl& job) { return loadOutline(*ws, *job.cancelToken()); },
      [this](Result<WorkspaceOutline> outline) { showOutline(std::move(outline)); });
}

void WorkspaceTree::showOutline(Result<WorkspaceOutline> outline) {
  m_refreshing = false;
  if (!outline) {
    m_message->setText(tr("Cannot read the workspace: %1")
                           .arg(QString::fromStdString(outline.status().toString())));
    m_message->show();
    emit refreshed();
    return;
  }
  m_message->hide();
  // Rebuilding loses the view's state: keep which tables were open.
  QSet<QString> expanded;
  for (int row = 0; row < m_model->rowCount(); ++row) {
    const QModelIndex table = m_model->index(row, 0);
    if (m_view->isExpanded(table))
      expanded.insert(table.data(WorkspaceTreeModel::TableNameRole).toString());
    for (int child = 0; child < m_model->rowCount(table); ++child) {
      const QModelIndex group = m_model->index(child, 0, table);
      if (m_view->isExpanded(group)) {
        expanded.insert(table.data(WorkspaceTreeModel::TableNameRole).toString() +
                        QLatin1Char('/') + QString::number(child));
      }
    }
  }
  // The first outline of a workspace selects its first table, so a window
  // never opens on an empty browser.
  const QString current = m_currentTable.isEmpty() && m_firstOutline && !outline->tables.empty()
                              ? QString::fromStdString(outline->tables.front().options.name)
                              : m_currentTable;
  m_firstOutline = false;
  m_outline = std::move(outline).value();
  {
    const QSignalBlocker blocker(m_view->selectionModel());
    m_model->setOutline(m_outline);
    for (int row = 0; row < m_model->rowCount(); ++row) {
      const QModelIndex table = m_model->index(row, 0);
      const QString name = table.data(WorkspaceTreeModel::TableNameRole).toString();
      if (expanded.contains(name)) m_view->expand(table);
      for (int child = 0; child < m_model->rowCount(table); ++child) {
        if (expanded.contains(name + QLatin1Char('/') + QString::number(child))) {
          m_view->expand(m_model->index(child, 0, table));
        }
      }
    }
    const QModelIndex selected = m_model->tableIndex(current);
    if (selected.isValid()) m_view->setCurrentIndex(selected);
  }
  const QString previous = m_currentTable;
  m_currentTable = m_model->tableIndex(current).isValid() ? current : QString();
  if (m_outline.tables.empty()) {
    m_message->setText(tr("This workspace has no tables yet."));
    m_message->show();
  }
  if (m_currentTable != previous) emit tableSelected(m_currentTable);
  emit refreshed();
}

bool WorkspaceTree::selectTable(const QString& table) {
  const QModelIndex index = m_model->tableIndex(table);
  if (!index.isValid()) return false;
  m_view->setCurrentIndex(index);
  return true;
}

QString WorkspaceTree::selectedTable() const {
  return m_currentTable;
}

std::optional<TableOptions> WorkspaceTree::tableOptions(const QString& table) const {
  for (const TableOutline& outline : m_outline.tables) {
    if (QString::fromStdString(outline.options.name) == table && outline.error.empty())
      return outline.options;
  }
  return std::nullopt;
}

void WorkspaceTree::onCurrentChanged() {
  const QString table = m_view->currentIndex().data(WorkspaceTreeModel::TableNameRole).toString();
  if (table.isEmpty() || table == m_currentTable) return;
  m_currentTable = table;
  emit tableSelected(table);
}

}  // namespace keyscope
