// RunPanel: one workload run as the lab shows it live - a title (the design
// and its key schema), the progress, the hotspot heatmap (HeatmapChart, by
// equal key counts, region boundaries appearing at splits), operations per
// second per server (a QCustomPlot line per server, x = seconds since the run
// started) and the regions as a bar (RegionBar, coloured by load).
//
// It computes nothing: setSnapshot takes a WorkloadSnapshot computed off the
// GUI thread. Two panels of an A/B run are synchronized from outside
// (setTimeSpan, setScales) so that their axes and colours compare.
//
// GUI thread only.
#pragma once

#include <QString>
#include <QWidget>

#include <cstdint>
#include <optional>

#include "keyscope/status.h"
#include "workload/workload_jobs.h"

class QCustomPlot;
class QLabel;
class QProgressBar;

namespace keyscope {

class HeatmapChart;
class RegionBar;

class RunPanel : public QWidget {
  Q_OBJECT

 public:
  explicit RunPanel(QWidget* parent = nullptr);

  void setTitle(const QString& title, const QString& keySchema);
  // The run's progress, from its RunControl.
  void setProgress(const RunControl& control);
  void setStatusText(const QString& text);
  void setSnapshot(WorkloadSnapshot snapshot);
  void clear();
  const WorkloadSnapshot& snapshot() const { return m_snapshot; }
  bool hasSnapshot() const { return m_snapshot.heat != nullptr; }

  // The run's planned span: both charts' time axes show it whole, so a run
  // fills them as it goes and two panels line up. Seconds; 0: fit the data.
  void setTimeSpan(int64_t runStartMillis, double seconds);
  // Shared scales (an A/B run): the heatmap's hot value, the server chart's
  // top, the region bar's top (per second). nullopt: each its own.
  void setScales(std::optional<double> heatMaximum, std::optional<double> serverMaximum,
                 std::optional<double> regionMaximum);
  // The largest values shown, for a shared scale.
  double heatMaximum() const;
  double serverMaximum() const;
  double regionMaximum() const;

  // Saves the three charts as BASE-heatmap.EXT, BASE-servers.EXT and
  // BASE-regions.EXT (PNG or PDF by `suffix`), or their numbers as CSV.
  Status saveImages(const QString& base, const QString& suffix);
  Status exportCsv(const QString& base) const;

  HeatmapChart* heatmap() const { return m_heatmap; }
  QCustomPlot* serverChart() const { return m_servers; }
  RegionBar* regionBar() const { return m_regions; }
  QString statusText() const;

 private:
  void drawServers();
  void applyTimeSpan();

  QLabel* m_title = nullptr;
  QLabel* m_status = nullptr;
  QProgressBar* m_progress = nullptr;
  HeatmapChart* m_heatmap = nullptr;
  QCustomPlot* m_servers = nullptr;
  RegionBar* m_regions = nullptr;
  WorkloadSnapshot m_snapshot;
  int64_t m_spanStartMillis = 0;
  double m_spanSeconds = 0;
  std::optional<double> m_serverMaximum;
  double m_serverPeak = 0;
};

}  // namespace keyscope
