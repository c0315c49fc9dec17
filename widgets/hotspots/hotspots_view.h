// HotspotsView: the Hotspots tab. A heatmap of a table's key space against
// time for a chosen metric (HeatmapChart), with
//   - the metric, the key axis (by region, equal key counts, or a key-schema
//     component), the number of key buckets, and "Fold the salt";
//   - the colour scale (relative, absolute with a hot value, logarithmic)
//     and the brightness; Back and Reset for the zoom;
//   - the diagnostics above the chart, naming the guilty key component;
//   - a pinned cell or brushed area below it, with "Show these rows" (the
//     drill-through: drillThroughRequested) and "Copy scan";
//   - Save image (PNG or PDF) and Export CSV;
//   - Live: a refresh every kLiveIntervalMs while the view is shown, so a
//     running workload's load appears as it happens.
//
// Thread rules: GUI thread only. Every grid is computed on the job runner
// (hotspot_snapshot.h); a new one replaces the one shown only when it is
// complete, and a refresh never starts while one is running.
#pragma once

#include <QString>
#include <QWidget>

#include <memory>
#include <optional>

#include "async/job_runner.h"
#include "hotspots/drill_through.h"
#include "hotspots/heatmap_chart.h"
#include "keyscope/key_schema.h"
#include "keyscope/options.h"
#include "keyscope/workspace.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSlider;
class QTimer;
class QToolButton;

class QShowEvent;

namespace keyscope {

class HotspotsView : public QWidget {
  Q_OBJECT

 public:
  // Why two seconds: statistics are persisted about once a second, and a
  // grid of a few hundred columns takes tens of milliseconds; a refresh
  // every two seconds follows a workload closely without keeping a core busy.
  static constexpr int kLiveIntervalMs = 2000;

  // `runner` is not owned and must outlive the view.
  explicit HotspotsView(JobRunner* runner, QWidget* parent = nullptr);
  ~HotspotsView() override;

  // REQUIRES: `ws` stays open until the next setWorkspace() (nullptr detaches
  // and cancels the job under way).
  void setWorkspace(const Workspace* ws);
  // Shows the table's heatmap (computed off the GUI thread).
  void showTable(const TableOptions& table);
  void clearTable();
  QString tableName() const { return m_table; }

  // Recomputes the grid now (no-op while one is being computed, or with no table).
  void refresh();
  // Choices, as the controls make them.
  void setMetric(LoadMetric metric);
  void setKeyAxis(KeyAxis axis, const QString& component = {});
  void setFoldSalt(bool fold);
  void setKeyBuckets(uint32_t buckets);
  void setLive(bool live);
  bool isLive() const;

  HeatmapChart* chart() const { return m_chart; }
  HeatGridRequest request() const;
  // A grid is being computed.
  bool isLoading() const { return m_loading; }
  QString statusText() const;
  QString diagnosticsText() const;
  // The drill-through of the pinned cell or area, or why there is none.
  Result<DrillThrough> pinnedDrillThrough() const;

  // Writes the chart (PNG or PDF by the file's suffix) or the grid's CSV.
  Status saveImage(const QString& path);
  Status exportCsv(const QString& path) const;

 signals:
  // "Show these rows": the table, the scan over exactly the rows and time of
  // the pinned cell or area, and that scan as a shell line.
  void drillThroughRequested(const QString& table, const keyscope::ScanOptions& scan, const QString& shellLine);
  void loadingChanged(bool loading);

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  void buildUi();
  void onSnapshot(HotspotSnapshot snapshot);
  void updateControls();
  void updateDiagnostics();
  void onPinned(const GridArea& area, const QString& description);
  void onUnpinned();
  void requestDrillThrough();
  void copyScan();
  void chooseImageFile();
  void chooseCsvFile();
  void setLoading(bool loading);
  void setStatus(const QString& text, bool error = false);

  JobRunner* m_runner;
  JobRunner::ChannelId m_channel;
  const Workspace* m_ws = nullptr;
  QString m_table;
  std::optional<KeySchema> m_schema;
  bool m_loading = false;
  bool m_refreshAgain = false;
  // A table was shown while the tab was hidden: computed when it is shown
  // (a click in the tree should not cost a query per tab nobody looks at).
  bool m_stale = false;  // a choice changed while a grid was being computed

  QComboBox* m_metric = nullptr;
  QComboBox* m_axis = nullptr;
  QComboBox* m_component = nullptr;
  QToolButton* m_fold = nullptr;
  QComboBox* m_buckets = nullptr;
  QCheckBox* m_live = nullptr;
  QPushButton* m_refresh = nullptr;
  QComboBox* m_scale = nullptr;
  QDoubleSpinBox* m_hot = nullptr;
  QSlider* m_brightness = nullptr;
  QPushButton* m_back = nullptr;
  QPushButton* m_reset = nullptr;
  QPushButton* m_saveImage = nullptr;
  QPushButton* m_exportCsv = nullptr;
  QLabel* m_diagnostics = nullptr;
  HeatmapChart* m_chart = nullptr;
  QLabel* m_pinnedText = nullptr;
  QPushButton* m_showRows = nullptr;
  QPushButton* m_copyScan = nullptr;
  QLabel* m_status = nullptr;
  QTimer* m_liveTimer = nullptr;
};

}  // namespace keyscope
