// WorkspaceTree: the dock's tree of tables → families → regions
// (WorkspaceTreeModel), refreshed off the GUI thread: refresh() reads a
// WorkspaceOutline on the job runner and rebuilds the model from it,
// keeping which tables were expanded and which was selected. A workspace's
// first outline selects its first table.
//
// Thread rules: GUI thread only; loadOutline runs on the runner with a
// pointer to the Workspace, which its owner keeps open until the runner
// has finished (setWorkspace(nullptr) cancels first).
#pragma once

#include <QString>
#include <QWidget>

#include <optional>

#include "async/job_runner.h"
#include "keyscope/options.h"
#include "keyscope/workspace.h"
#include "workspace/workspace_outline.h"

class QLabel;
class QTreeView;

namespace keyscope {

class WorkspaceTreeModel;

class WorkspaceTree : public QWidget {
  Q_OBJECT

 public:
  // `runner` is not owned and must outlive the tree.
  explicit WorkspaceTree(JobRunner* runner, QWidget* parent = nullptr);
  ~WorkspaceTree() override;

  // REQUIRES: `ws` stays open until the next setWorkspace(). Refreshes.
  void setWorkspace(const Workspace* ws);
  // Reads the outline again (regions split, tables created).
  void refresh();

  // Selects a table as a click does (emits tableSelected).
  bool selectTable(const QString& table);
  QString selectedTable() const;
  // The options of a table as last read; nullopt when unknown.
  std::optional<TableOptions> tableOptions(const QString& table) const;

  WorkspaceTreeModel* model() const { return m_model; }
  QTreeView* view() const { return m_view; }
  bool isRefreshing() const { return m_refreshing; }

 signals:
  // A table (or one of its families or regions) became the current item.
  // Empty: the table selected is gone (a refresh no longer lists it).
  void tableSelected(const QString& table);
  // An outline arrived and the tree shows it.
  void refreshed();
  // The context menu's "Export Table as CSV…" on a table (or its family or region).
  void exportTableRequested(const QString& table);

 private:
  void showOutline(Result<WorkspaceOutline> outline);
  void onCurrentChanged();
  void showNoWorkspace();
  void showContextMenu(const QPoint& at);

  JobRunner* m_runner;
  JobRunner::ChannelId m_channel;
  const Workspace* m_ws = nullptr;
  WorkspaceTreeModel* m_model = nullptr;
  QTreeView* m_view = nullptr;
  QLabel* m_message = nullptr;
  WorkspaceOutline m_outline;
  QString m_currentTable;
  bool m_refreshing = false;
  bool m_firstOutline = true;  // the next outline is the workspace's first
};

}  // namespace keyscope
