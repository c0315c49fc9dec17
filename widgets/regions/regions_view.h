// RegionsView: the Regions tab. A table's regions as a bar (RegionBar) over
// a sortable region table (hbtop's columns), the selected region's details
// and its split lineage (a tree over time), and the region actions:
//   - Split the selected region at its mid key, or at a row typed in the
//     data browser's key syntax (escaped, hex, or a schema tuple);
//   - Merge the selected region with the next one, or two selected
//     adjacent regions;
//   - Balance, the number of servers, the balancer on or off.
// Each action runs on the job runner (the same engine calls as the shell's,
// region_actions.h), asks first where it rewrites data (split, merge), shows
// an error in plain words, then refreshes the view and emits
// workspaceChanged (the window refreshes the workspace tree and hotspots).
// The load colours and rates cover the last N seconds of the workspace
// clock, or everything; Refresh, and Live (every kLiveIntervalMs while the
// tab is shown). Save image (PNG or PDF) and Export CSV (the table's numbers).
//
// Thread rules: GUI thread only. Every engine call runs on the job runner;
// the workspace pointer is dropped at setWorkspace(nullptr) (the session's
// aboutToClose), which cancels the jobs under way.
#pragma once

#include <QString>
#include <QWidget>

#include <optional>
#include <vector>

#include "async/job_runner.h"
#include "keyscope/options.h"
#include "keyscope/workspace.h"
#include "regions/region_bar.h"
#include "regions/region_snapshot.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QSpinBox;
class QTableView;
class QTimer;
class QTreeWidget;

class QShowEvent;

namespace keyscope {

class RegionTableModel;

class RegionsView : public QWidget {
  Q_OBJECT

 public:
  static constexpr int kLiveIntervalMs = 2000;

  // `runner` is not owned and must outlive the view.
  explicit RegionsView(JobRunner* runner, QWidget* parent = nullptr);
  ~RegionsView() override;

  // REQUIRES: `ws` stays open until the next setWorkspace() (nullptr detaches
  // and cancels the jobs under way).
  void setWorkspace(Workspace* ws);
  // Shows the table, its busiest region (by total load) selected.
  void showTable(const TableOptions& table);
  void clearTable();
  QString tableName() const { return m_table; }

  // Reads the regions again (after the one under way, if any).
  void refresh();
  void setWindow(RegionWindowChoice choice);
  void setLive(bool live);
  bool isLive() const;

  // Selects a region in the bar, the table and the details (nullopt: none).
  void selectRegion(std::optional<int64_t> regionId);
  std::optional<int64_t> selectedRegion() const { return m_selected; }
  // The regions selected in the table (one, or two to merge), in key order.
  std::vector<int64_t> selectedRegions() const;

  // The actions, without asking (the buttons ask first). Each runs on the
  // job runner; actionFinished follows.
  void splitSelected(const QString& rowText = {});
  void mergeSelected();
  void balance();
  void applyServerCount(int servers);
  void applyBalancerEnabled(bool enabled);

  // A read or an action is under way.
  bool isLoading() const { return m_loading || m_acting; }

  RegionBar* bar() const { return m_bar; }
  RegionTableModel* model() const { return m_model; }
  QSortFilterProxyModel* proxy() const { return m_proxy; }
  QTableView* table() const { return m_tableView; }
  QTreeWidget* lineageTree() const { return m_lineage; }
  const RegionSnapshot& snapshot() const { return m_snapshot; }
  QString statusText() const;
  QString detailsText() const;
  QLineEdit* splitRowEdit() const { return m_splitRow; }
  QComboBox* keyKindBox() const { return m_keyKind; }

  Status saveImage(const QString& path);
  Status exportCsv(const QString& path) const;

 signals:
  // An action changed the workspace's regions or servers.
  void workspaceChanged();
  void loadingChanged(bool loading);
  // An action ended: `ok` false when it failed (the message is the status).
  void actionFinished(bool ok, const QString& message);

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  void buildUi();
  void onSnapshot(RegionSnapshot snapshot);
  void showDetails();
  void fillLineage();
  void syncTableSelection();
  void onTableSelectionChanged();
  void updateControls();
  void setLoading(bool loading);
  void setStatus(const QString& text, bool error = false);
  RegionWindowChoice windowChoice() const;
  bool confirm(const QString& title, const QString& text);
  // Runs `work` (returning Result<QString>: the message) on the action
  // channel; selects `select` after the refresh when set.
  template <typename Work>
  void runAction(const QString& what, Work work);
  void chooseImageFile();
  void chooseCsvFile();

  JobRunner* m_runner;
  JobRunner::ChannelId m_loadChannel;
  JobRunner::ChannelId m_actionChannel;
  Workspace* m_ws = nullptr;
  QString m_table;
  RegionSnapshot m_snapshot;
  std::optional<int64_t> m_selected;
  std::optional<int64_t> m_selectAfterRefresh;
  QString m_actionMessage;  // the last action's, shown with the next refresh's summary
  bool m_loading = false;
  bool m_acting = false;
  bool m_refreshAgain = false;
  // A table was shown while the tab was hidden: computed when it is shown
  // (a click in the tree should not cost a query per tab nobody looks at).
  bool m_stale = false;
  bool m_syncing = false;  // selection being copied between bar and table
  bool m_selectBusiest = false;  // the next snapshot is a newly shown table's first

  QComboBox* m_window = nullptr;
  QSpinBox* m_seconds = nullptr;
  QComboBox* m_measure = nullptr;
  QComboBox* m_sizing = nullptr;
  QComboBox* m_colouring = nullptr;
  QComboBox* m_grouping = nullptr;
  QCheckBox* m_live = nullptr;
  QPushButton* m_refresh = nullptr;
  QPushButton* m_saveImage = nullptr;
  QPushButton* m_exportCsv = nullptr;
  QPushButton* m_split = nullptr;
  QComboBox* m_keyKind = nullptr;
  QLineEdit* m_splitRow = nullptr;
  QPushButton* m_merge = nullptr;
  QPushButton* m_balance = nullptr;
  QSpinBox* m_servers = nullptr;
  QPushButton* m_applyServers = nullptr;
  QCheckBox* m_balancer = nullptr;
  RegionBar* m_bar = nullptr;
  RegionTableModel* m_model = nullptr;
  QSortFilterProxyModel* m_proxy = nullptr;
  QTableView* m_tableView = nullptr;
  QLabel* m_details = nullptr;
  QTreeWidget* m_lineage = nullptr;
  QLabel* m_status = nullptr;
  QTimer* m_liveTimer = nullptr;
};

}  // namespace keyscope
