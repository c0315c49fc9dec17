// RegionBar: a table's key space as one horizontal bar of regions, drawn
// with QCustomPlot. Each region is a segment; its width follows the region's
// stored bytes or its share of the key range, its colour its load (reads/s,
// writes or both within the window, with a colour scale legend) or its server (a distinct
// hue per server). Segments run in key order, or grouped by server (server
// by server, key order inside each, the servers named under the bar).
//
// It computes nothing from the workspace: setRegions takes the regionLoad()
// rows a job computed off the GUI thread and the table's key schema (for the
// hover text: keys decoded by the schema where they decode, escaped as
// Bytes.toStringBinary where they do not).
//
// Interaction: hover shows the region's id, [start, end), server, sizes and
// load; a click selects the region under the cursor (regionSelected), and
// selectRegion() marks one from outside (a table row) without emitting.
//
// Two bars side by side (the workload lab's A/B) can share one colour scale:
// setLoadScaleMaximum fixes the scale's top instead of each bar's own maximum.
//
// GUI thread only.
#pragma once

#include <QColor>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <cstdint>
#include <optional>
#include <vector>

#include "keyscope/key_schema.h"
#include "keyscope/statistics.h"

class QCustomPlot;
class QCPColorScale;
class QCPItemRect;
class QCPItemText;
class QMouseEvent;

namespace keyscope {

// What a segment's width follows.
enum class RegionSizing : uint8_t {
  kStoredBytes,  // the region's stored (compressed) bytes, memstore included
  kKeyRange,     // the region's share of the key space between the table's boundaries
};

// What a segment's colour follows.
enum class RegionColouring : uint8_t {
  kLoad,    // the load measure on the colour scale
  kServer,  // one hue per server
};

// The order of the segments.
enum class RegionGrouping : uint8_t {
  kKeyOrder,  // the table's key order
  kByServer,  // server by server (ascending), key order within each
};

// The load the colour scale shows: counts within the window.
enum class RegionLoadMeasure : uint8_t { kReads, kWrites, kOperations };

// One drawn segment, for tests and the view: [left, right) in bar units
// (the whole bar is [0, 1)).
struct RegionSegment {
  int64_t regionId = 0;
  int32_t server = 0;
  double left = 0;
  double right = 0;
  double load = 0;  // the load measure (a count within the window)
  QColor colour;
};

class RegionBar : public QWidget {
  Q_OBJECT

 public:
  // No segment is drawn narrower than this share of the bar (an empty
  // region still has to be seen, hovered and clicked); the others shrink
  // in proportion to make room.
  static constexpr double kMinimumShare = 0.004;

  explicit RegionBar(QWidget* parent = nullptr);
  ~RegionBar() override;

  // The regions to draw (any order; drawn in key order or by server). The
  // selection is kept while its region is among them.
  void setRegions(std::vector<RegionLoad> regions, std::optional<KeySchema> schema = std::nullopt);
  void clear();
  const std::vector<RegionLoad>& regions() const { return m_regions; }

  void setSizing(RegionSizing sizing);
  RegionSizing sizing() const { return m_sizing; }
  void setColouring(RegionColouring colouring);
  RegionColouring colouring() const { return m_colouring; }
  void setGrouping(RegionGrouping grouping);
  RegionGrouping grouping() const { return m_grouping; }
  void setLoadMeasure(RegionLoadMeasure measure);
  RegionLoadMeasure loadMeasure() const { return m_measure; }
  // The colour scale's top; nullopt: the largest load shown.
  void setLoadScaleMaximum(std::optional<double> maximum);
  double loadScaleMaximum() const;  // the top now in use (at least 1)

  // Marks a region as selected (nullopt: none). Does not emit.
  void selectRegion(std::optional<int64_t> regionId);
  std::optional<int64_t> selectedRegion() const { return m_selected; }

  // What is drawn, in drawing order (left to right).
  const std::vector<RegionSegment>& segments() const { return m_segments; }
  // The region under a pixel of the plot widget.
  std::optional<int64_t> regionAt(QPointF pixel) const;
  // The hover text of a region (empty when it is not shown).
  QString regionText(int64_t regionId) const;
  // The server labels under the bar when grouped by server, left to right.
  QStringList serverLabels() const;
  // The colour of a load value on the scale, and of a server.
  QColor loadColour(double load) const;
  static QColor serverColour(int32_t server);
  // A key as the hover text shows it: decoded by the schema or escaped.
  static QString keyText(const Bytes& key, const std::optional<KeySchema>& schema);

  bool savePng(const QString& path, int width = 0, int height = 0);
  bool savePdf(const QString& path);
  QCustomPlot* plot() const { return m_plot; }
  QCPColorScale* colorScale() const { return m_scale; }

  QSize minimumSizeHint() const override;
  QSize sizeHint() const override;

 signals:
  // A click selected a region.
  void regionSelected(int64_t regionId);

 private:
  double loadOf(const RegionLoad& region) const;
  void rebuild();
  void layoutSegments();
  void drawSegments();
  void drawSelection();
  const RegionLoad* findRegion(int64_t regionId) const;
  void onMouseMove(QMouseEvent* event);
  void onMousePress(QMouseEvent* event);

  QCustomPlot* m_plot = nullptr;
  QCPColorScale* m_scale = nullptr;
  QCPItemRect* m_selectionRect = nullptr;
  std::vector<QCPItemRect*> m_rects;
  std::vector<QCPItemText*> m_serverTexts;

  std::vector<RegionLoad> m_regions;  // in key order
  std::optional<KeySchema> m_schema;
  std::vector<RegionSegment> m_segments;
  QStringList m_serverLabels;
  RegionSizing m_sizing = RegionSizing::kStoredBytes;
  RegionColouring m_colouring = RegionColouring::kLoad;
  RegionGrouping m_grouping = RegionGrouping::kKeyOrder;
  RegionLoadMeasure m_measure = RegionLoadMeasure::kOperations;
  std::optional<double> m_fixedMaximum;
  std::optional<int64_t> m_selected;
};

}  // namespace keyscope
