// HeatmapChart (see heatmap_chart.h). GUI thread only.
#include "hotspots/heatmap_chart.h"

#include <QDateTime>
#include <QFontMetrics>
#include <QKeyEvent>
#include <QLocale>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

#include "key_lab/lab_colors.h"

namespace keyscope {

namespace {

// The gradient: black for no load, through purple and red to pale yellow
// (after matplotlib's "inferno": perceptually even, and readable on light
// and dark windows alike, since the chart draws its own black).
struct Stop {
  double position;
  QColor color;
};
const Stop kStops[] = {
    {0.00, QColor(0x00, 0x00, 0x04)}, {0.15, QColor(0x28, 0x0b, 0x54)}, {0.30, QColor(0x65, 0x15, 0x6e)},
    {0.45, QColor(0x9f, 0x2a, 0x63)}, {0.60, QColor(0xd4, 0x48, 0x42)}, {0.75, QColor(0xf5, 0x7d, 0x15)},
    {0.90, QColor(0xfa, 0xc1, 0x27)}, {1.00, QColor(0xfc, 0xff, 0xa4)},
};
// Boundaries drawn in cyan: no colour of the gradient comes near it.
const QColor kBoundaryColor(0x30, 0xd5, 0xff);

// A log scale spans at most four decades below the maximum: finer than
// that is noise in one-second statistics.
constexpr double kLogDecades = 1e-4;

QString formatTime(int64_t millis) {
  return QDateTime::fromMSecsSinceEpoch(millis, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

QString formatValue(double value) {
  return value == std::floor(value) && std::abs(value) < 1e15 ? QLocale().toString(static_cast<qint64>(value))
                                                              : QLocale().toString(value, 'g', 4);
}

QString elided(const QString& text, int max) {
  return text.size() <= max ? text : text.left(max - 1) + QChar(0x2026);
}

}  // namespace

HeatmapChart::HeatmapChart(QWidget* parent) : QWidget(parent) {
  m_plot = new QCustomPlot(this);
  m_plot->setObjectName(QStringLiteral("heatmapPlot"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(m_plot);
  setFocusPolicy(Qt::StrongFocus);

  const bool dark = isDarkPalette(palette());
  const QColor text = palette().color(QPalette::WindowText);
  m_plot->setBackground(palette().color(QPalette::Window));
  m_plot->axisRect()->setBackground(QColor(0, 0, 0));
  for (QCPAxis* axis : {m_plot->xAxis, m_plot->yAxis}) {
    axis->setBasePen(QPen(text));
    axis->setTickPen(QPen(text));
    axis->setSubTickPen(QPen(text));
    axis->setTickLabelColor(text);
    axis->setLabelColor(text);
    axis->grid()->setVisible(false);
  }
  m_plot->xAxis->setLabel(tr("time (UTC, workspace clock)"));
  auto timeTicker = QSharedPointer<QCPAxisTickerDateTime>::create();
  timeTicker->setDateTimeSpec(Qt::UTC);
  timeTicker->setDateTimeFormat(QStringLiteral("HH:mm:ss\nyyyy-MM-dd"));
  m_plot->xAxis->setTicker(timeTicker);
  m_timeTicker = timeTicker;
  m_keyTicker = QSharedPointer<QCPAxisTickerText>::create();
  m_plot->yAxis->setTicker(m_keyTicker);
  m_plot->yAxis->setRangeReversed(true);  // the first key at the top
  m_plot->yAxis->setSubTicks(false);
  m_plot->yAxis->setTickLength(0, 4);

  m_map = new QCPColorMap(m_plot->xAxis, m_plot->yAxis);
  m_map->setInterpolate(false);
  m_map->setTightBoundary(false);
  m_scale = new QCPColorScale(m_plot);
  m_plot->plotLayout()->addElement(0, 1, m_scale);
  m_scale->setType(QCPAxis::atRight);
  m_scale->axis()->setBasePen(QPen(text));
  m_scale->axis()->setTickPen(QPen(text));
  m_scale->axis()->setSubTickPen(QPen(text));
  m_scale->axis()->setTickLabelColor(text);
  m_scale->axis()->setLabelColor(text);
  m_scale->setBarWidth(14);
  m_map->setColorScale(m_scale);
  auto* margins = new QCPMarginGroup(m_plot);
  m_plot->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
  m_scale->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
  Q_UNUSED(dark);

  m_pinRect = new QCPItemRect(m_plot);
  m_pinRect->setPen(QPen(Qt::white, 2, Qt::DashLine));
  m_pinRect->setBrush(Qt::NoBrush);
  m_pinRect->setVisible(false);
  m_pinRect->setSelectable(false);

  m_plot->setInteractions(QCP::iRangeZoom);
  m_plot->axisRect()->setRangeZoom(Qt::Horizontal | Qt::Vertical);
  m_plot->setSelectionRectMode(QCP::srmCustom);
  m_plot->selectionRect()->setPen(QPen(Qt::white, 1, Qt::DashLine));
  m_plot->selectionRect()->setBrush(QColor(255, 255, 255, 40));
  m_plot->setMouseTracking(true);
  connect(m_plot, &QCustomPlot::mousePress, this, &HeatmapChart::onMousePress);
  connect(m_plot, &QCustomPlot::mouseMove, this, &HeatmapChart::onMouseMove);
  connect(m_plot, &QCustomPlot::mouseRelease, this, &HeatmapChart::onMouseRelease);
  connect(m_plot, &QCustomPlot::mouseWheel, this, [this] {
    if (!m_lastZoomWasWheel) pushZoomHistory();
    m_lastZoomWasWheel = true;
  });
  connect(m_plot->selectionRect(), &QCPSelectionRect::accepted, this,
          [this](const QRect& rect, QMouseEvent*) { onRectAccepted(rect); });
  connect(m_plot->yAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
          [this] { updateKeyTicks(); });
  applyScale();
}

HeatmapChart::~HeatmapChart() = default;

void HeatmapChart::setSnapshot(std::shared_ptr<const HotspotSnapshot> snapshot) {
  const bool sameAxis = m_snapshot && snapshot && m_snapshot->table == snapshot->table &&
                        m_snapshot->request.axis == snapshot->request.axis &&
                        m_snapshot->request.foldSalt == snapshot->request.foldSalt &&
                        m_snapshot->request.component == snapshot->request.component &&
                        m_snapshot->grid.buckets.size() == snapshot->grid.buckets.size();
  m_snapshot = std::move(snapshot);
  if (!sameAxis) m_pinned.reset();
  if (m_pinned && (m_pinned->lastBucket >= m_snapshot->grid.buckets.size() ||
                   m_pinned->lastColumn >= m_snapshot->grid.columns))
    m_pinned.reset();
  fillMap();
  drawBoundaries();
  applyScale();
  if (!sameAxis || m_zoomHistory.empty()) {
    m_zoomHistory.clear();
    setRange(fullRange());
  }
  drawPin();
  updateKeyTicks();
  m_plot->replot(QCustomPlot::rpQueuedReplot);
  emit zoomChanged();
}

void HeatmapChart::clear() {
  m_snapshot.reset();
  m_pinned.reset();
  m_zoomHistory.clear();
  m_map->data()->clear();
  drawBoundaries();
  drawPin();
  m_keyTicker->clear();
  m_plot->replot(QCustomPlot::rpQueuedReplot);
  emit zoomChanged();
}

double HeatmapChart::secondsOf(int64_t millis) const { return static_cast<double>(millis) / 1000.0; }

void HeatmapChart::fillMap() {
  QCPColorMapData* cells = m_map->data();
  if (!m_snapshot || m_snapshot->grid.buckets.empty() || m_snapshot->grid.columns == 0) {
    cells->clear();
    return;
  }
  const HeatGrid& grid = m_snapshot->grid;
  const int columns = static_cast<int>(grid.columns);
  const int buckets = static_cast<int>(grid.buckets.size());
  const double columnSeconds = secondsOf(grid.columnMillis);
  const double x0 = secondsOf(grid.window.fromMillis) + columnSeconds / 2;
  // QCPColorMap places cell centres at the range's ends, and a range of one
  // cell has no width: a single column or bucket is drawn as two half cells.
  const int keySize = std::max(columns, 2);
  const int valueSize = std::max(buckets, 2);
  cells->setSize(keySize, valueSize);
  const QCPRange keyRange = columns > 1 ? QCPRange(x0, x0 + (columns - 1) * columnSeconds)
                                        : QCPRange(x0 - columnSeconds / 4, x0 + columnSeconds / 4);
  const QCPRange valueRange = buckets > 1 ? QCPRange(0, buckets - 1) : QCPRange(-0.25, 0.25);
  cells->setRange(keyRange, valueRange);
  const bool log = m_scaleMode == HeatScaleMode::kLogarithmic;
  double floor = 0;
  if (log) {
    floor = std::numeric_limits<double>::max();
    for (double v : grid.values)
      if (v > 0) floor = std::min(floor, v);
    floor = std::max(floor == std::numeric_limits<double>::max() ? 1.0 : floor, grid.maxValue * kLogDecades);
  }
  for (int k = 0; k < keySize; ++k) {
    for (int b = 0; b < valueSize; ++b) {
      const double v = grid.at(static_cast<size_t>(std::min(b, buckets - 1)), static_cast<size_t>(std::min(k, columns - 1)));
      // A log scale has no zero: empty cells take its lowest colour.
      cells->setCell(k, b, log ? std::max(v, floor) : v);
    }
  }
}

void HeatmapChart::applyScale() {
  QCPColorGradient gradient;
  gradient.clearColorStops();
  for (const Stop& stop : kStops)
    gradient.setColorStopAt(std::pow(stop.position, m_brightness), stop.color);
  gradient.setLevelCount(350);
  m_map->setGradient(gradient);
  const double max = m_snapshot ? m_snapshot->grid.maxValue : 0;
  const char* metric = loadMetricName(m_snapshot ? m_snapshot->grid.metric : LoadMetric::kOperations);
  const QString perColumn = m_snapshot && m_snapshot->grid.columnMillis > 0
                                ? tr(" per %1 s").arg(QLocale().toString(static_cast<double>(m_snapshot->grid.columnMillis) / 1000.0))
                                : QString();
  switch (m_scaleMode) {
    case HeatScaleMode::kRelative:
      m_map->setDataScaleType(QCPAxis::stLinear);
      m_map->setDataRange(QCPRange(0, max > 0 ? max : 1));
      m_scale->axis()->setLabel(tr("%1%2 (relative)").arg(QString::fromLatin1(metric), perColumn));
      break;
    case HeatScaleMode::kAbsolute:
      m_map->setDataScaleType(QCPAxis::stLinear);
      m_map->setDataRange(QCPRange(0, m_hotValue));
      m_scale->axis()->setLabel(tr("%1%2 (hot at %3)").arg(QString::fromLatin1(metric), perColumn, formatValue(m_hotValue)));
      break;
    case HeatScaleMode::kLogarithmic: {
      double floor = 1;
      if (m_snapshot) {
        floor = std::numeric_limits<double>::max();
        for (double v : m_snapshot->grid.values)
          if (v > 0) floor = std::min(floor, v);
        floor = std::max(floor == std::numeric_limits<double>::max() ? 1.0 : floor, max * kLogDecades);
      }
      m_map->setDataScaleType(QCPAxis::stLogarithmic);
      m_map->setDataRange(QCPRange(floor, std::max(max, floor * 10)));
      m_scale->axis()->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
      m_scale->axis()->setLabel(tr("%1%2 (logarithmic)").arg(QString::fromLatin1(metric), perColumn));
      break;
    }
  }
  if (m_scaleMode != HeatScaleMode::kLogarithmic && m_logTicker) m_scale->axis()->setTicker(QSharedPointer<QCPAxisTicker>::create());
  m_logTicker = m_scaleMode == HeatScaleMode::kLogarithmic;
}

void HeatmapChart::setScaleMode(HeatScaleMode mode) {
  m_scaleMode = mode;
  fillMap();  // the log scale stores empty cells at its floor
  applyScale();
  m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapChart::setHotValue(double value) {
  if (!(value > 0)) return;
  m_hotValue = value;
  applyScale();
  m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapChart::setBrightness(double brightness) {
  m_brightness = std::clamp(brightness, 0.25, 4.0);
  applyScale();
  m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapChart::drawBoundaries() {
  for (QCPItemLine* line : m_boundaryLines) m_plot->removeItem(line);
  m_boundaryLines.clear();
  if (!m_snapshot) return;
  for (const BoundarySegment& segment : m_snapshot->boundaries) {
    const std::optional<double> y = boundaryAxisPosition(m_snapshot->grid, segment.row);
    if (!y) continue;
    auto* line = new QCPItemLine(m_plot);
    line->setSelectable(false);
    line->setPen(QPen(kBoundaryColor, 1.5));
    line->start->setCoords(secondsOf(segment.fromMillis), *y);
    line->end->setCoords(secondsOf(segment.toMillis), *y);
    if (segment.fromSplit) line->setTail(QCPLineEnding::esBar);  // a tick where the split happened
    m_boundaryLines.push_back(line);
  }
}

void HeatmapChart::drawPin() {
  if (!m_snapshot || !m_pinned) {
    m_pinRect->setVisible(false);
    return;
  }
  const HeatGrid& grid = m_snapshot->grid;
  const double columnSeconds = secondsOf(grid.columnMillis);
  const double x0 = secondsOf(grid.window.fromMillis);
  m_pinRect->topLeft->setCoords(x0 + static_cast<double>(m_pinned->firstColumn) * columnSeconds,
                                static_cast<double>(m_pinned->firstBucket) - 0.5);
  m_pinRect->bottomRight->setCoords(x0 + static_cast<double>(m_pinned->lastColumn + 1) * columnSeconds,
                                    static_cast<double>(m_pinned->lastBucket) + 0.5);
  m_pinRect->setVisible(true);
}

void HeatmapChart::updateKeyTicks() {
  m_keyTicker->clear();
  if (!m_snapshot || m_snapshot->grid.buckets.empty()) return;
  const auto& buckets = m_snapshot->grid.buckets;
  const QCPRange range = m_plot->yAxis->range();
  const int first = std::max(0, static_cast<int>(std::ceil(range.lower)));
  const int last = std::min(static_cast<int>(buckets.size()) - 1, static_cast<int>(std::floor(range.upper)));
  if (last < first) return;
  const int lineHeight = QFontMetrics(m_plot->yAxis->tickLabelFont()).height();
  const int height = std::max(m_plot->axisRect()->height(), 100);
  const int fits = std::max(1, height / (lineHeight * 3 / 2));
  const int step = std::max(1, (last - first + 1 + fits - 1) / fits);
  // The prefix hierarchy: a label repeats no component its predecessor on
  // the axis already showed ("salt=3 › ts=…", then "› ts=…").
  QStringList previous;
  for (int b = first - first % step; b <= last; b += step) {
    if (b < first) continue;
    const HeatGridBucket& bucket = buckets[static_cast<size_t>(b)];
    const QStringList parts = bucketLabelParts(bucket);
    int shared = 0;
    while (shared < parts.size() - 1 && shared < previous.size() && parts[shared] == previous[shared]) ++shared;
    QStringList shown = parts.mid(shared, 2);
    QString text = shown.join(QStringLiteral(" \u203a "));
    if (shared > 0) text = QStringLiteral("\u203a ") + text;
    if (bucket.regionId) text = tr("r%1  %2").arg(*bucket.regionId).arg(text);
    m_keyTicker->addTick(b, elided(text, 44));
    previous = parts;
  }
}

QStringList HeatmapChart::keyAxisLabels() const {
  QStringList out;
  const QMap<double, QString>& ticks = m_keyTicker->ticks();
  for (auto it = ticks.begin(); it != ticks.end(); ++it) out << it.value();
  return out;
}

HeatmapChart::ViewRange HeatmapChart::currentRange() const {
  return {m_plot->xAxis->range().lower, m_plot->xAxis->range().upper, m_plot->yAxis->range().lower,
          m_plot->yAxis->range().upper};
}

void HeatmapChart::setRange(const ViewRange& range) {
  m_plot->xAxis->setRange(range.xLower, range.xUpper);
  m_plot->yAxis->setRange(range.yLower, range.yUpper);
}

HeatmapChart::ViewRange HeatmapChart::fullRange() const {
  if (!m_snapshot || m_snapshot->grid.buckets.empty()) return {0, 1, -0.5, 0.5};
  const HeatGrid& grid = m_snapshot->grid;
  return {secondsOf(grid.window.fromMillis),
          secondsOf(grid.window.fromMillis + static_cast<int64_t>(grid.columns) * grid.columnMillis), -0.5,
          static_cast<double>(grid.buckets.size()) - 0.5};
}

void HeatmapChart::pushZoomHistory() {
  m_zoomHistory.push_back(currentRange());
  emit zoomChanged();
}

void HeatmapChart::zoomTo(double fromSeconds, double toSeconds, double firstBucket, double lastBucket) {
  pushZoomHistory();
  m_lastZoomWasWheel = false;
  setRange({fromSeconds, toSeconds, firstBucket, lastBucket});
  m_plot->replot(QCustomPlot::rpQueuedReplot);
}

bool HeatmapChart::zoomBack() {
  m_lastZoomWasWheel = false;
  if (m_zoomHistory.empty()) return false;
  setRange(m_zoomHistory.back());
  m_zoomHistory.pop_back();
  m_plot->replot(QCustomPlot::rpQueuedReplot);
  emit zoomChanged();
  return true;
}

void HeatmapChart::resetZoom() {
  m_lastZoomWasWheel = false;
  m_zoomHistory.clear();
  setRange(fullRange());
  m_plot->replot(QCustomPlot::rpQueuedReplot);
  emit zoomChanged();
}

std::optional<std::pair<size_t, size_t>> HeatmapChart::cellAt(QPointF pixel) const {
  if (!m_snapshot || m_snapshot->grid.buckets.empty() || m_snapshot->grid.columns == 0) return std::nullopt;
  if (!m_plot->axisRect()->rect().contains(pixel.toPoint())) return std::nullopt;
  const HeatGrid& grid = m_snapshot->grid;
  const double x = m_plot->xAxis->pixelToCoord(pixel.x());
  const double y = m_plot->yAxis->pixelToCoord(pixel.y());
  const double column = std::floor((x - secondsOf(grid.window.fromMillis)) / secondsOf(grid.columnMillis));
  const double bucket = std::floor(y + 0.5);
  if (column < 0 || column >= grid.columns || bucket < 0 || bucket >= static_cast<double>(grid.buckets.size()))
    return std::nullopt;
  return std::pair(static_cast<size_t>(bucket), static_cast<size_t>(column));
}

std::optional<GridArea> HeatmapChart::areaAt(QRectF pixels) const {
  if (!m_snapshot || m_snapshot->grid.buckets.empty() || m_snapshot->grid.columns == 0) return std::nullopt;
  const HeatGrid& grid = m_snapshot->grid;
  const QRectF r = pixels.normalized();
  const double x0 = secondsOf(grid.window.fromMillis);
  const double columnSeconds = secondsOf(grid.columnMillis);
  auto columnOf = [&](double px) { return (m_plot->xAxis->pixelToCoord(px) - x0) / columnSeconds; };
  auto bucketOf = [&](double py) { return m_plot->yAxis->pixelToCoord(py) + 0.5; };
  double c1 = columnOf(r.left()), c2 = columnOf(r.right());
  double b1 = bucketOf(r.top()), b2 = bucketOf(r.bottom());
  if (c1 > c2) std::swap(c1, c2);
  if (b1 > b2) std::swap(b1, b2);
  const double maxColumn = grid.columns - 1;
  const double maxBucket = static_cast<double>(grid.buckets.size()) - 1;
  if (c2 < 0 || c1 >= grid.columns || b2 < 0 || b1 > maxBucket + 1) return std::nullopt;
  GridArea area;
  area.firstColumn = static_cast<size_t>(std::clamp(std::floor(c1), 0.0, maxColumn));
  area.lastColumn = static_cast<size_t>(std::clamp(std::ceil(c2) - 1, 0.0, maxColumn));
  area.firstBucket = static_cast<size_t>(std::clamp(std::floor(b1), 0.0, maxBucket));
  area.lastBucket = static_cast<size_t>(std::clamp(std::ceil(b2) - 1, 0.0, maxBucket));
  area.lastColumn = std::max(area.lastColumn, area.firstColumn);
  area.lastBucket = std::max(area.lastBucket, area.firstBucket);
  return area;
}

QString HeatmapChart::cellText(size_t bucket, size_t column) const {
  return areaText({bucket, bucket, column, column});
}

QString HeatmapChart::areaText(const GridArea& area) const {
  if (!m_snapshot) return {};
  const HeatGrid& grid = m_snapshot->grid;
  double sum = 0, bucketTotal = 0, columnTotal = 0;
  for (size_t b = area.firstBucket; b <= area.lastBucket; ++b)
    for (size_t c = area.firstColumn; c <= area.lastColumn; ++c) sum += grid.at(b, c);
  for (size_t b = 0; b < grid.buckets.size(); ++b)
    for (size_t c = area.firstColumn; c <= area.lastColumn; ++c) columnTotal += grid.at(b, c);
  for (size_t b = area.firstBucket; b <= area.lastBucket; ++b)
    for (size_t c = 0; c < grid.columns; ++c) bucketTotal += grid.at(b, c);
  const int64_t from = grid.window.fromMillis + static_cast<int64_t>(area.firstColumn) * grid.columnMillis;
  const int64_t to = std::min(grid.window.toMillis,
                              grid.window.fromMillis + static_cast<int64_t>(area.lastColumn + 1) * grid.columnMillis);
  const HeatGridBucket& first = grid.buckets[area.firstBucket];
  const HeatGridBucket& last = grid.buckets[area.lastBucket];
  const QString metric = QString::fromLatin1(loadMetricName(grid.metric));
  QString keys = area.firstBucket == area.lastBucket
                     ? tr("keys: %1").arg(QString::fromStdString(first.label))
                     : tr("keys: %1\n  to: %2").arg(QString::fromStdString(first.label), QString::fromStdString(last.label));
  if (first.keyRange && last.keyRange)
    keys += tr("\nrows: [%1, %2)")
                .arg(first.startRow.empty() ? tr("table start") : QString::fromStdString(toStringBinary(first.startRow)),
                     last.endRow.empty() ? tr("table end") : QString::fromStdString(toStringBinary(last.endRow)));
  const QString share = columnTotal > 0 ? tr(" (%1% of the time's %2)").arg(std::lround(100 * sum / columnTotal)).arg(metric)
                                        : QString();
  return tr("%1\ntime: %2 to %3 (%4 s)\n%5: %6%7\nthese keys over the whole window: %8")
      .arg(keys, formatTime(from), formatTime(to))
      .arg(QLocale().toString(static_cast<double>(to - from) / 1000.0))
      .arg(metric, formatValue(sum), share, formatValue(bucketTotal));
}

void HeatmapChart::pin(const GridArea& area) {
  if (!m_snapshot) return;
  m_pinned = area;
  drawPin();
  m_plot->replot(QCustomPlot::rpQueuedReplot);
  emit pinned(area, areaText(area));
}

void HeatmapChart::unpin() {
  if (!m_pinned) return;
  m_pinned.reset();
  drawPin();
  m_plot->replot(QCustomPlot::rpQueuedReplot);
  emit unpinned();
}

void HeatmapChart::onMousePress(QMouseEvent* event) {
  m_pressPos = event->pos();
  m_brushing = event->modifiers() & Qt::ShiftModifier;
  m_plot->selectionRect()->setPen(m_brushing ? QPen(kBoundaryColor, 1.5) : QPen(Qt::white, 1, Qt::DashLine));
}

void HeatmapChart::onMouseMove(QMouseEvent* event) {
  const auto cell = cellAt(event->pos());
  if (!cell) {
    QToolTip::hideText();
    return;
  }
  QToolTip::showText(event->globalPosition().toPoint(), cellText(cell->first, cell->second) + tr("\n(click to pin)"),
                     m_plot);
}

void HeatmapChart::onMouseRelease(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return;
  if ((event->pos() - m_pressPos).manhattanLength() > 3) return;  // a drag: the rectangle handles it
  const auto cell = cellAt(event->pos());
  if (!cell) {
    unpin();
    return;
  }
  pin({cell->first, cell->first, cell->second, cell->second});
}

void HeatmapChart::onRectAccepted(const QRect& rect) {
  if (m_brushing) {
    if (const std::optional<GridArea> area = areaAt(rect)) pin(*area);
    return;
  }
  if (rect.width() < 4 || rect.height() < 4) return;
  pushZoomHistory();
  m_lastZoomWasWheel = false;
  m_plot->axisRect()->zoom(QRectF(rect));
  m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapChart::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  // The plot's own area is the widget less the key labels and the legend;
  // its last layout is close enough. Why 140 px: a "yyyy-MM-dd" label with
  // room on both sides.
  const int plotWidth = std::min(width(), m_plot->axisRect()->width() > 0 ? m_plot->axisRect()->width() : width());
  m_timeTicker->setTickCount(std::max(2, plotWidth / 140));
}

void HeatmapChart::keyPressEvent(QKeyEvent* event) {
  if (event->key() == Qt::Key_Escape) {
    unpin();
    return;
  }
  if (event->key() == Qt::Key_Backspace) {
    zoomBack();
    return;
  }
  QWidget::keyPressEvent(event);
}

bool HeatmapChart::savePng(const QString& path, int width, int height) {
  return m_plot->savePng(path, width, height);
}

bool HeatmapChart::savePdf(const QString& path) { return m_plot->savePdf(path); }

}  // namespace keyscope
