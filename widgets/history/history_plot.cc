// HistoryPlot (see history_plot.h). GUI thread only.
#include "history/history_plot.h"

#include <map>
#include <memory>

#include "history/history_colors.h"

namespace keyscope {

namespace {

// Markers sit this far above their lane's line, so a Delete and the put it
// masks at the same timestamp are both visible.
constexpr double kMarkerLift = 0.25;
// Half the height of a lane's mask band.
constexpr double kBandHalf = 0.4;
constexpr double kScatterSize = 9;

QString fateLegend(VersionFate fate) {
  switch (fate) {
    case VersionFate::kReturned:
      return QStringLiteral("returned");
    case VersionFate::kMasked:
      return QStringLiteral("masked");
    case VersionFate::kOutsideRange:
      return QStringLiteral("outside range");
    case VersionFate::kBeyondVersions:
      return QStringLiteral("beyond VERSIONS");
    case VersionFate::kExpired:
      return QStringLiteral("expired (TTL)");
    case VersionFate::kOverwritten:
      return QStringLiteral("overwritten");
    case VersionFate::kMarker:
      return QStringLiteral("delete marker");
  }
  return {};
}

}  // namespace

HistoryPlot::HistoryPlot(QWidget* parent) : QCustomPlot(parent) {
  setObjectName(QStringLiteral("historyPlot"));
  setMinimumHeight(160);
  setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  axisRect()->setRangeDrag(Qt::Horizontal);
  axisRect()->setRangeZoom(Qt::Horizontal);
  // The legend in a row of its own above the chart, so it never hides a lane.
  plotLayout()->insertRow(0);
  plotLayout()->addElement(0, 0, legend);
  plotLayout()->setRowStretchFactor(0, 0.001);
  legend->setVisible(true);
  legend->setFillOrder(QCPLegend::foColumnsFirst);
  legend->setWrap(7);
  xAxis->setTicker(QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText));
  yAxis->setTicker(QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText));
  xAxis->grid()->setVisible(false);
  render(nullptr, {});
}

void HistoryPlot::clearAll() {
  clearGraphs();
  clearItems();
  m_points = 0;
  m_breaks = 0;
  m_maskItems = 0;
}

QCPGraph* HistoryPlot::addPoints(const QString& name, const QColor& color,
                                 QCPScatterStyle::ScatterShape shape, bool filled) {
  QCPGraph* graph = addGraph();
  graph->setName(name);
  graph->setLineStyle(QCPGraph::lsNone);
  QPen pen(color);
  pen.setWidthF(1.6);
  graph->setPen(pen);
  graph->setScatterStyle(
      QCPScatterStyle(shape, pen, filled ? QBrush(color) : QBrush(Qt::NoBrush), kScatterSize));
  return graph;
}

void HistoryPlot::render(const HistoryLayout* layout, const TimeRange& range) {
  clearAll();
  const QPalette pal = palette();
  const bool dark = isDarkPalette(pal);
  const QColor text = pal.color(QPalette::WindowText);
  const QColor base = pal.color(QPalette::Base);
  setBackground(pal.color(QPalette::Window));
  axisRect()->setBackground(base);
  for (QCPAxis* axis : {xAxis, yAxis}) {
    axis->setBasePen(QPen(text));
    axis->setTickPen(QPen(text));
    axis->setSubTickPen(Qt::NoPen);
    axis->setTickLabelColor(text);
    axis->setLabelColor(text);
    QPen grid(dark ? QColor(0x45, 0x45, 0x45) : QColor(0xdd, 0xdd, 0xdd));
    grid.setStyle(Qt::DotLine);
    axis->grid()->setPen(grid);
    axis->grid()->setZeroLinePen(grid);  // lane 0 is a lane like the others
  }
  legend->setBrush(base);
  legend->setTextColor(text);
  legend->setBorderPen(QPen(dark ? QColor(0x60, 0x60, 0x60) : QColor(0xb0, 0xb0, 0xb0)));

  auto xTicker = qSharedPointerCast<QCPAxisTickerText>(xAxis->ticker());
  auto yTicker = qSharedPointerCast<QCPAxisTickerText>(yAxis->ticker());
  xTicker->clear();
  yTicker->clear();
  if (!layout || layout->versions.empty()) {
    legend->setVisible(false);
    xAxis->setRange(0, 1);
    yAxis->setRange(-0.5, 0.5);
    replot(QCustomPlot::rpQueuedReplot);
    return;
  }
  legend->setVisible(true);
  const int lanes = static_cast<int>(layout->lanes.size());
  for (int lane = 0; lane < lanes; ++lane) yTicker->addTick(lane, layout->lanes[static_cast<size_t>(lane)]);
  for (const AxisTick& tick : layout->ticks) {
    // Two lines: date over time, so neighbouring labels do not collide.
    QString label = tick.label;
    label.replace(QLatin1Char(' '), QLatin1Char('\n'));
    xTicker->addTick(tick.x, label);
  }
  xAxis->setRange(layout->xMin, layout->xMax);
  yAxis->setRange(-0.6, lanes - 0.4);
  xAxis->setLabel(tr("timestamp (broken axis: each segment linear)"));

  // The get's time range, shaded behind everything.
  if (!range.isAllTime()) {
    auto* rect = new QCPItemRect(this);
    rect->setLayer(QStringLiteral("background"));
    rect->topLeft->setTypeX(QCPItemPosition::ptPlotCoords);
    rect->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
    rect->bottomRight->setTypeX(QCPItemPosition::ptPlotCoords);
    rect->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
    rect->topLeft->setCoords(layout->xOf(range.min), 0);
    rect->bottomRight->setCoords(layout->xOf(range.max), 1);
    QColor fill = pal.color(QPalette::Highlight);
    fill.setAlpha(dark ? 50 : 30);
    rect->setBrush(fill);
    rect->setPen(Qt::NoPen);
  }

  // Mask spans: bands up to the marker, connectors at its exact timestamp.
  const QColor maskColor = fateColor(VersionFate::kMarker, dark);
  for (const MaskSpan& span : layout->masks) {
    if (m_maskItems >= kMaxMaskItems) break;
    const double low = span.lane < 0 ? -0.5 : span.lane - kBandHalf;
    const double high = span.lane < 0 ? lanes - 0.5 : span.lane + kBandHalf;
    if (span.x1 > span.x0) {
      auto* band = new QCPItemRect(this);
      band->topLeft->setCoords(span.x0, high);
      band->bottomRight->setCoords(span.x1, low);
      band->setBrush(maskFill(dark));
      QPen edge(maskColor);
      edge.setStyle(Qt::DotLine);
      band->setPen(edge);
    } else {
      auto* line = new QCPItemLine(this);
      line->start->setCoords(span.x0, low);
      line->end->setCoords(span.x0, high);
      QPen pen(maskColor);
      pen.setWidthF(1.5);
      pen.setStyle(Qt::DashLine);
      line->setPen(pen);
    }
    ++m_maskItems;
  }

  // Breaks between axis segments.
  QPen breakPen(text);
  breakPen.setWidthF(1.4);
  QPen breakLine(dark ? QColor(0x80, 0x80, 0x80) : QColor(0x90, 0x90, 0x90));
  breakLine.setStyle(Qt::DotLine);
  for (size_t i = 1; i < layout->segments.size(); ++i) {
    const double x = (layout->segments[i - 1].x1 + layout->segments[i].x0) / 2;
    auto* across = new QCPItemLine(this);
    across->start->setTypeY(QCPItemPosition::ptAxisRectRatio);
    across->end->setTypeY(QCPItemPosition::ptAxisRectRatio);
    across->start->setCoords(x, 0);
    across->end->setCoords(x, 1);
    across->setPen(breakLine);
    for (double offset : {-0.03, 0.03}) {  // "//" across the x axis
      auto* mark = new QCPItemLine(this);
      mark->setClipToAxisRect(false);
      mark->start->setTypeY(QCPItemPosition::ptAxisRectRatio);
      mark->end->setTypeY(QCPItemPosition::ptAxisRectRatio);
      mark->start->setCoords(x + offset - 0.02, 1.025);
      mark->end->setCoords(x + offset + 0.02, 0.975);
      mark->setPen(breakPen);
    }
    ++m_breaks;
  }

  if (layout->ttlCutoff > 0) {
    const double x = layout->xOf(layout->ttlCutoff);
    auto* cutoff = new QCPItemLine(this);
    cutoff->start->setTypeY(QCPItemPosition::ptAxisRectRatio);
    cutoff->end->setTypeY(QCPItemPosition::ptAxisRectRatio);
    cutoff->start->setCoords(x, 0);
    cutoff->end->setCoords(x, 1);
    QPen pen(fateColor(VersionFate::kExpired, dark));
    pen.setStyle(Qt::DashLine);
    cutoff->setPen(pen);
    auto* label = new QCPItemText(this);
    label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords(x, 0.02);
    label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    label->setText(tr(" TTL cutoff"));
    label->setColor(fateColor(VersionFate::kExpired, dark));
  }

  // The versions, one graph per fate (so the legend explains the colours).
  std::map<VersionFate, QCPGraph*> graphs;
  for (const HistoryVersion& v : layout->versions) {
    QCPGraph*& graph = graphs[v.fate];
    if (!graph) {
      const bool marker = v.fate == VersionFate::kMarker;
      graph = addPoints(fateLegend(v.fate), fateColor(v.fate, dark),
                        marker ? QCPScatterStyle::ssCross : QCPScatterStyle::ssCircle,
                        v.fate == VersionFate::kReturned);
    }
    const double y = v.fate == VersionFate::kMarker ? v.lane + kMarkerLift : v.lane;
    graph->addData(v.x, y);
    ++m_points;
  }
  replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace keyscope
