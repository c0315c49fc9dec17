// HeatmapChart: the hotspot heatmap drawn with QCustomPlot. Time runs along
// x (the workspace clock, UTC), the key space down y (the table's first key
// at the top, as Bigtable's Key Visualizer), one QCPColorMap cell per grid
// cell, a QCPColorScale legend that is always shown, and the region
// boundaries as lines that begin where each split happened.
//
// It computes nothing: setSnapshot takes a snapshot computed off the GUI
// thread (hotspot_snapshot.h), fills the colour map and replots.
//
// Interaction:
//   - wheel: zoom both axes at the cursor; drag: zoom to the box;
//     zoomBack() and resetZoom() undo them (the view's Back and Reset);
//   - hover: a tooltip with the cell's key range, time span and value;
//   - click: pins the cell (pinned()); Shift+drag: brushes an area (pinned());
//     Escape or unpin() drops the pin.
// Colour scales: relative (0 to the grid's maximum), absolute (0 to a "hot"
// value; hotter cells saturate), logarithmic (the smallest non-zero value, or
// a ten-thousandth of the maximum, to the maximum; empty cells show the
// lowest colour). Brightness lifts (>1) or darkens (<1) the low values
// without changing the numbers: it bends the gradient, legend included.
//
// GUI thread only.
#pragma once

#include <QPointF>
#include <QRectF>
#include <QSharedPointer>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

#include "hotspots/drill_through.h"
#include "hotspots/hotspot_snapshot.h"

class QCustomPlot;
class QCPColorMap;
class QCPColorScale;
class QCPItemLine;
class QCPItemRect;
class QCPAxisTickerDateTime;
class QCPAxisTickerText;
class QMouseEvent;
class QResizeEvent;
struct QCPRange;

namespace keyscope {

enum class HeatScaleMode { kRelative, kAbsolute, kLogarithmic };

class HeatmapChart : public QWidget {
  Q_OBJECT

 public:
  explicit HeatmapChart(QWidget* parent = nullptr);
  ~HeatmapChart() override;

  // Draws the snapshot. A snapshot of the same table and key axis as the one
  // shown keeps the user's zoom (a live refresh); any other resets it. The
  // pin is kept while its cells still exist.
  void setSnapshot(std::shared_ptr<const HotspotSnapshot> snapshot);
  // Empties the chart.
  void clear();
  const HotspotSnapshot* snapshot() const { return m_snapshot.get(); }

  void setScaleMode(HeatScaleMode mode);
  HeatScaleMode scaleMode() const { return m_scaleMode; }
  // The absolute scale's top: cells at or above it are drawn hottest. > 0.
  void setHotValue(double value);
  double hotValue() const { return m_hotValue; }
  // 0.25 (darker) ... 4 (brighter); 1 leaves the gradient as it is.
  void setBrightness(double brightness);
  double brightness() const { return m_brightness; }

  // Zoom: to a time range (seconds of the workspace clock) and a range of
  // key buckets; back to the previous view; back to the whole grid.
  void zoomTo(double fromSeconds, double toSeconds, double firstBucket, double lastBucket);
  bool zoomBack();
  void resetZoom();
  bool canZoomBack() const { return !m_zoomHistory.empty(); }

  // The grid cell (bucket, column) under a point of the plot widget.
  std::optional<std::pair<size_t, size_t>> cellAt(QPointF pixel) const;
  // The cells a rectangle of the plot widget covers (clipped to the grid).
  std::optional<GridArea> areaAt(QRectF pixels) const;
  // The tooltip of a cell and the description of an area: key range, time span, value.
  QString cellText(size_t bucket, size_t column) const;
  QString areaText(const GridArea& area) const;

  // Pins a cell or an area (as a click or a brush does) and emits pinned().
  void pin(const GridArea& area);
  void unpin();
  std::optional<GridArea> pinnedArea() const { return m_pinned; }

  bool savePng(const QString& path, int width = 0, int height = 0);
  bool savePdf(const QString& path);

  // For tests and the view.
  QCustomPlot* plot() const { return m_plot; }
  QCPColorMap* colorMap() const { return m_map; }
  QCPColorScale* colorScale() const { return m_scale; }
  int boundaryLineCount() const { return static_cast<int>(m_boundaryLines.size()); }
  // The key axis's tick labels now shown, top to bottom.
  QStringList keyAxisLabels() const;

 signals:
  void pinned(const keyscope::GridArea& area, const QString& description);
  void unpinned();
  void zoomChanged();

 protected:
  void keyPressEvent(QKeyEvent* event) override;
  // Fewer time ticks on a narrow chart, so their labels never overlap.
  void resizeEvent(QResizeEvent* event) override;

 private:
  struct ViewRange {
    double xLower, xUpper, yLower, yUpper;
  };
  void fillMap();
  void applyScale();
  void drawBoundaries();
  void drawPin();
  void updateKeyTicks();
  void pushZoomHistory();
  ViewRange currentRange() const;
  void setRange(const ViewRange& range);
  ViewRange fullRange() const;
  double secondsOf(int64_t millis) const;
  void onMousePress(QMouseEvent* event);
  void onMouseMove(QMouseEvent* event);
  void onMouseRelease(QMouseEvent* event);
  void onRectAccepted(const QRect& rect);

  QCustomPlot* m_plot = nullptr;
  QSharedPointer<QCPAxisTickerDateTime> m_timeTicker;
  QCPColorMap* m_map = nullptr;
  QCPColorScale* m_scale = nullptr;
  QCPItemRect* m_pinRect = nullptr;
  QSharedPointer<QCPAxisTickerText> m_keyTicker;
  std::vector<QCPItemLine*> m_boundaryLines;
  std::shared_ptr<const HotspotSnapshot> m_snapshot;

  HeatScaleMode m_scaleMode = HeatScaleMode::kRelative;
  double m_hotValue = 100;
  double m_brightness = 1;
  bool m_logTicker = false;  // the legend's axis has a log ticker
  std::vector<ViewRange> m_zoomHistory;
  bool m_lastZoomWasWheel = false;
  bool m_brushing = false;
  QPoint m_pressPos;
  std::optional<GridArea> m_pinned;
};

}  // namespace keyscope
