// RegionBar (see region_bar.h). GUI thread only.
#include "regions/region_bar.h"

#include <QLocale>
#include <QMouseEvent>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "key_lab/lab_colors.h"
#include "keyscope/key_codec.h"
#include "keyscope/key_json.h"

namespace keyscope {

namespace {

// The bar fills [kBarBottom, kBarTop] of the y axis; the selection frame
// stands out a little above and below it.
constexpr double kBarBottom = 0.12;
constexpr double kBarTop = 0.88;
constexpr double kFrameBottom = 0.03;
constexpr double kFrameTop = 0.97;

// Key-range sizing reads this many bytes after the boundaries' common
// prefix: 7 bytes (56 bits) is as much as a double holds exactly.
constexpr size_t kPositionBytes = 7;

// The load scale: pale yellow for idle through orange and red to dark
// purple for the hottest (after matplotlib's "inferno", reversed so that an
// idle table is light and the hot spot is the dark one on either palette).
QCPColorGradient loadGradient() {
  QCPColorGradient gradient;
  gradient.clearColorStops();
  gradient.setColorStopAt(0.00, QColor(0xfc, 0xf5, 0xc0));
  gradient.setColorStopAt(0.25, QColor(0xfa, 0xc1, 0x27));
  gradient.setColorStopAt(0.45, QColor(0xf5, 0x7d, 0x15));
  gradient.setColorStopAt(0.65, QColor(0xd4, 0x48, 0x42));
  gradient.setColorStopAt(0.85, QColor(0x9f, 0x2a, 0x63));
  gradient.setColorStopAt(1.00, QColor(0x4a, 0x0c, 0x6b));
  gradient.setLevelCount(256);
  return gradient;
}

bool keyLess(const Bytes& a, const Bytes& b) { return BytesView(a) < BytesView(b); }

// Regions in key order: the one with the empty start first.
std::vector<RegionLoad> inKeyOrder(std::vector<RegionLoad> regions) {
  std::sort(regions.begin(), regions.end(),
            [](const RegionLoad& a, const RegionLoad& b) { return keyLess(a.startRow, b.startRow); });
  return regions;
}

// Shares that sum to 1, none below `minimum` (unless all are equal because
// there are too many to give each the minimum).
std::vector<double> withMinimum(std::vector<double> weights, double minimum) {
  const size_t n = weights.size();
  if (n == 0) return weights;
  double total = std::accumulate(weights.begin(), weights.end(), 0.0);
  if (total <= 0 || minimum * static_cast<double>(n) >= 1) return std::vector<double>(n, 1.0 / static_cast<double>(n));
  std::vector<double> shares(n);
  for (size_t i = 0; i < n; ++i) shares[i] = weights[i] / total;
  // Clamping one share can push another below the minimum: repeat until
  // nothing changes (at most n rounds).
  std::vector<bool> clamped(n, false);
  for (size_t round = 0; round < n; ++round) {
    size_t clampedCount = 0;
    double freeTotal = 0;
    for (size_t i = 0; i < n; ++i) {
      if (clamped[i]) ++clampedCount;
      else freeTotal += weights[i];
    }
    const double room = 1.0 - minimum * static_cast<double>(clampedCount);
    bool changed = false;
    for (size_t i = 0; i < n; ++i) {
      if (clamped[i]) {
        shares[i] = minimum;
        continue;
      }
      shares[i] = freeTotal > 0 ? weights[i] / freeTotal * room : minimum;
      if (shares[i] < minimum) {
        clamped[i] = true;
        changed = true;
      }
    }
    if (!changed) break;
  }
  return shares;
}

QString bytesText(uint64_t bytes) { return QLocale().formattedDataSize(static_cast<qint64>(bytes)); }

QString rateText(double perSecond) { return QLocale().toString(perSecond, 'f', perSecond < 10 ? 2 : 1); }

}  // namespace

RegionBar::RegionBar(QWidget* parent) : QWidget(parent) {
  m_plot = new QCustomPlot(this);
  m_plot->setObjectName(QStringLiteral("regionBarPlot"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(m_plot);

  const QColor text = palette().color(QPalette::WindowText);
  m_plot->setBackground(palette().color(QPalette::Window));
  m_plot->axisRect()->setBackground(palette().color(QPalette::Base));
  for (QCPAxis* axis : {m_plot->xAxis, m_plot->yAxis}) {
    axis->setBasePen(QPen(text));
    axis->setTickPen(QPen(text));
    axis->setSubTickPen(Qt::NoPen);
    axis->setTickLabelColor(text);
    axis->setLabelColor(text);
    axis->grid()->setVisible(false);
  }
  m_plot->yAxis->setVisible(false);
  m_plot->yAxis->setRange(0, 1);
  m_plot->xAxis->setRange(0, 1);
  m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
  m_plot->axisRect()->setMinimumMargins(QMargins(8, 4, 8, 4));

  m_scale = new QCPColorScale(m_plot);
  m_scale->setType(QCPAxis::atRight);
  m_scale->setGradient(loadGradient());
  m_scale->setBarWidth(10);
  m_scale->axis()->setBasePen(QPen(text));
  m_scale->axis()->setTickPen(QPen(text));
  m_scale->axis()->setSubTickPen(QPen(text));
  m_scale->axis()->setTickLabelColor(text);
  m_scale->axis()->setLabelColor(text);
  m_plot->plotLayout()->addElement(0, 1, m_scale);

  // The server colours' legend takes the colour scale's place (column 1)
  // when the bar is coloured by server. Both are QObject children of the
  // plot, so the one out of the layout is still deleted with it.
  m_plot->legend->setVisible(false);
  m_plot->axisRect()->insetLayout()->take(m_plot->legend);
  m_plot->legend->setFillOrder(QCPLayoutGrid::foRowsFirst);
  m_plot->legend->setWrap(6);
  m_plot->legend->setBrush(palette().color(QPalette::Window));
  m_plot->legend->setBorderPen(Qt::NoPen);
  m_plot->legend->setTextColor(text);

  m_selectionRect = new QCPItemRect(m_plot);
  m_selectionRect->setPen(QPen(palette().color(QPalette::Highlight), 3));
  m_selectionRect->setBrush(Qt::NoBrush);
  m_selectionRect->setVisible(false);
  m_selectionRect->setLayer(QStringLiteral("overlay"));

  m_plot->setMouseTracking(true);
  connect(m_plot, &QCustomPlot::mouseMove, this, &RegionBar::onMouseMove);
  connect(m_plot, &QCustomPlot::mousePress, this, &RegionBar::onMousePress);
  rebuild();
}

RegionBar::~RegionBar() = default;

QSize RegionBar::minimumSizeHint() const { return QSize(320, 90); }
QSize RegionBar::sizeHint() const { return QSize(800, 150); }

void RegionBar::setRegions(std::vector<RegionLoad> regions, std::optional<KeySchema> schema) {
  m_regions = inKeyOrder(std::move(regions));
  m_schema = std::move(schema);
  if (m_selected && findRegion(*m_selected) == nullptr) m_selected.reset();
  rebuild();
}

void RegionBar::clear() {
  m_regions.clear();
  m_schema.reset();
  m_selected.reset();
  rebuild();
}

void RegionBar::setSizing(RegionSizing sizing) {
  m_sizing = sizing;
  rebuild();
}

void RegionBar::setColouring(RegionColouring colouring) {
  m_colouring = colouring;
  rebuild();
}

void RegionBar::setGrouping(RegionGrouping grouping) {
  m_grouping = grouping;
  rebuild();
}

void RegionBar::setLoadMeasure(RegionLoadMeasure measure) {
  m_measure = measure;
  rebuild();
}

void RegionBar::setLoadScaleMaximum(std::optional<double> maximum) {
  m_fixedMaximum = maximum && *maximum > 0 ? maximum : std::nullopt;
  rebuild();
}

double RegionBar::loadScaleMaximum() const {
  if (m_fixedMaximum) return *m_fixedMaximum;
  double maximum = 0;
  for (const RegionLoad& region : m_regions) maximum = std::max(maximum, loadOf(region));
  // An idle table still gets a scale (0 to 1 per second), all of it idle.
  return std::max(maximum, 1.0);
}

void RegionBar::selectRegion(std::optional<int64_t> regionId) {
  m_selected = regionId && findRegion(*regionId) != nullptr ? regionId : std::nullopt;
  drawSelection();
  m_plot->replot();
}

double RegionBar::loadOf(const RegionLoad& region) const {
  // Counts in the window, not rates: over a long window (everything) a
  // past burst still shows, where its per-second rate rounds to nothing.
  switch (m_measure) {
    case RegionLoadMeasure::kReads: return static_cast<double>(region.window.reads);
    case RegionLoadMeasure::kWrites: return static_cast<double>(region.window.writes);
    case RegionLoadMeasure::kOperations: return static_cast<double>(region.window.reads + region.window.writes);
  }
  return 0;
}

const RegionLoad* RegionBar::findRegion(int64_t regionId) const {
  for (const RegionLoad& region : m_regions)
    if (region.regionId == regionId) return &region;
  return nullptr;
}

QColor RegionBar::loadColour(double load) const {
  return QColor::fromRgba(m_scale->gradient().color(load, QCPRange(0, loadScaleMaximum())));
}

QColor RegionBar::serverColour(int32_t server) {
  // The golden angle between neighbours keeps any number of servers apart.
  const int hue = static_cast<int>(std::fmod(static_cast<double>(server) * 137.508 + 200.0, 360.0));
  return QColor::fromHsv(hue, 150 + (server % 3) * 30, 215 - (server % 2) * 35);
}

void RegionBar::layoutSegments() {
  m_segments.clear();
  m_serverLabels.clear();
  const size_t n = m_regions.size();
  if (n == 0) return;

  std::vector<double> weights(n);
  if (m_sizing == RegionSizing::kStoredBytes) {
    for (size_t i = 0; i < n; ++i)
      weights[i] = static_cast<double>(m_regions[i].storedBytes + m_regions[i].memstoreBytes);
  } else {
    // Positions in the key space: the bytes after the common prefix of
    // every boundary, read as a fraction (the empty start 0, the empty end 1).
    std::vector<const Bytes*> boundaries;
    for (const RegionLoad& region : m_regions) {
      if (!region.startRow.empty()) boundaries.push_back(&region.startRow);
      if (!region.endRow.empty()) boundaries.push_back(&region.endRow);
    }
    size_t prefix = 0;
    if (boundaries.size() > 1) {
      prefix = boundaries.front()->size();
      for (const Bytes* key : boundaries) {
        size_t same = 0;
        const size_t limit = std::min(prefix, key->size());
        while (same < limit && (*key)[same] == (*boundaries.front())[same]) ++same;
        prefix = same;
      }
    } else if (boundaries.size() == 1) {
      prefix = 0;
    }
    auto position = [&](const Bytes& key, bool isEnd) {
      if (key.empty()) return isEnd ? 1.0 : 0.0;
      double value = 0;
      double scale = 1.0 / 256.0;
      for (size_t i = prefix; i < key.size() && i < prefix + kPositionBytes; ++i) {
        value += static_cast<double>(static_cast<unsigned char>(key[i])) * scale;
        scale /= 256.0;
      }
      return value;
    };
    for (size_t i = 0; i < n; ++i)
      weights[i] = std::max(0.0, position(m_regions[i].endRow, true) - position(m_regions[i].startRow, false));
  }

  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  if (m_grouping == RegionGrouping::kByServer)
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return m_regions[a].server < m_regions[b].server; });
  std::vector<double> ordered(n);
  for (size_t i = 0; i < n; ++i) ordered[i] = weights[order[i]];
  const std::vector<double> shares = withMinimum(ordered, kMinimumShare);

  double left = 0;
  for (size_t i = 0; i < n; ++i) {
    const RegionLoad& region = m_regions[order[i]];
    RegionSegment segment;
    segment.regionId = region.regionId;
    segment.server = region.server;
    segment.left = left;
    segment.right = i + 1 == n ? 1.0 : left + shares[i];
    segment.load = loadOf(region);
    segment.colour =
        m_colouring == RegionColouring::kLoad ? loadColour(segment.load) : serverColour(region.server);
    left = segment.right;
    m_segments.push_back(segment);
  }
}

void RegionBar::rebuild() {
  layoutSegments();
  drawSegments();
  drawSelection();
  m_plot->replot();
}

void RegionBar::drawSegments() {
  for (QCPItemRect* rect : m_rects) m_plot->removeItem(rect);
  m_rects.clear();
  m_plot->clearGraphs();  // the server legend's entries

  const QColor gap = palette().color(QPalette::Base);
  for (const RegionSegment& segment : m_segments) {
    auto* rect = new QCPItemRect(m_plot);
    rect->topLeft->setCoords(segment.left, kBarTop);
    rect->bottomRight->setCoords(segment.right, kBarBottom);
    rect->setPen(QPen(gap, 1));
    rect->setBrush(segment.colour);
    rect->setSelectable(false);
    m_rects.push_back(rect);
  }

  // The x axis names what the bar shows: the table's ends in key order,
  // each server's group when grouped.
  auto ticker = qSharedPointerCast<QCPAxisTickerText>(m_plot->xAxis->ticker());
  ticker->clear();
  if (m_grouping == RegionGrouping::kByServer && !m_segments.empty()) {
    size_t first = 0;
    for (size_t i = 1; i <= m_segments.size(); ++i) {
      if (i < m_segments.size() && m_segments[i].server == m_segments[first].server) continue;
      const int32_t server = m_segments[first].server;
      const size_t count = i - first;
      const QString label = count == 1 ? tr("server %1\n1 region").arg(server)
                                       : tr("server %1\n%2 regions").arg(server).arg(count);
      ticker->addTick((m_segments[first].left + m_segments[i - 1].right) / 2, label);
      m_serverLabels.push_back(label);
      first = i;
    }
    m_plot->xAxis->setLabel(tr("regions grouped by server, key order within each"));
  } else {
    // No tick labels: "start" and "end" at the bar's very ends would be clipped.
    m_plot->xAxis->setLabel(
        m_regions.empty()
            ? tr("no regions")
            : tr("%n region(s) in key order, from the table's start (left) to its end (right)", nullptr,
                 static_cast<int>(m_regions.size())));
  }
  m_plot->xAxis->setTickLength(0, 4);

  const bool byLoad = m_colouring == RegionColouring::kLoad;
  QCPLayoutElement* shown = byLoad ? static_cast<QCPLayoutElement*>(m_scale) : m_plot->legend;
  QCPLayoutElement* hidden = byLoad ? static_cast<QCPLayoutElement*>(m_plot->legend) : m_scale;
  QCPLayoutGrid* grid = m_plot->plotLayout();
  if (grid->element(0, 1) != shown) {
    if (grid->hasElement(0, 1)) grid->take(grid->element(0, 1));
    grid->addElement(0, 1, shown);
  }
  hidden->setVisible(false);
  shown->setVisible(true);
  m_scale->setDataRange(QCPRange(0, loadScaleMaximum()));
  m_scale->axis()->setLabel(m_measure == RegionLoadMeasure::kReads    ? tr("reads in the window")
                            : m_measure == RegionLoadMeasure::kWrites ? tr("writes in the window")
                                                                      : tr("operations in the window"));

  // Server colours get a legend: one entry per server shown, in order.
  if (!byLoad) {
    std::vector<int32_t> servers;
    for (const RegionSegment& segment : m_segments) servers.push_back(segment.server);
    std::sort(servers.begin(), servers.end());
    servers.erase(std::unique(servers.begin(), servers.end()), servers.end());
    for (int32_t server : servers) {
      QCPGraph* entry = m_plot->addGraph();
      entry->setName(tr("server %1").arg(server));
      entry->setPen(QPen(serverColour(server), 8));
    }
  }
}

void RegionBar::drawSelection() {
  for (const RegionSegment& segment : m_segments) {
    if (m_selected && segment.regionId == *m_selected) {
      m_selectionRect->topLeft->setCoords(segment.left, kFrameTop);
      m_selectionRect->bottomRight->setCoords(segment.right, kFrameBottom);
      m_selectionRect->setVisible(true);
      return;
    }
  }
  m_selectionRect->setVisible(false);
}

std::optional<int64_t> RegionBar::regionAt(QPointF pixel) const {
  if (!m_plot->axisRect()->rect().contains(pixel.toPoint())) return std::nullopt;
  const double x = m_plot->xAxis->pixelToCoord(pixel.x());
  const double y = m_plot->yAxis->pixelToCoord(pixel.y());
  if (y < kFrameBottom || y > kFrameTop) return std::nullopt;
  for (const RegionSegment& segment : m_segments)
    if (x >= segment.left && x < segment.right) return segment.regionId;
  return std::nullopt;
}

QStringList RegionBar::serverLabels() const { return m_serverLabels; }

QString RegionBar::keyText(const Bytes& key, const std::optional<KeySchema>& schema) {
  const QString escaped = QString::fromStdString(toStringBinary(key));
  if (!schema || key.empty()) return escaped;
  const DecodedKey decoded = decodeKey(*schema, key);
  if (decoded.values.empty()) return escaped;
  QStringList parts;
  size_t decodedEnd = 0;
  for (size_t i = 0; i < decoded.values.size(); ++i) {
    decodedEnd = decoded.spans[i].second;
    parts.push_back(QString::fromStdString((*schema)[i].name + "=" + valueToJson((*schema)[i], decoded.values[i])));
  }
  // A boundary is often a prefix (a pre-split at a salt): what did not
  // decode follows as bytes.
  if (decoded.error && decodedEnd < key.size())
    parts.push_back(QString::fromStdString(toStringBinary(BytesView(key).substr(decodedEnd))));
  return parts.join(QStringLiteral(" \u203a "));
}

QString RegionBar::regionText(int64_t regionId) const {
  const RegionLoad* region = findRegion(regionId);
  if (region == nullptr) return {};
  auto end = [&](const Bytes& key, const QString& none) {
    if (key.empty()) return none;
    const QString decoded = keyText(key, m_schema);
    const QString escaped = QString::fromStdString(toStringBinary(key));
    return decoded == escaped ? QStringLiteral("'%1'").arg(escaped)
                              : QStringLiteral("%1 ('%2')").arg(decoded, escaped);
  };
  QStringList lines;
  lines << tr("Region %1 on server %2").arg(region->regionId).arg(region->server);
  lines << tr("from %1").arg(end(region->startRow, tr("the start of the table")));
  lines << tr("up to %1").arg(end(region->endRow, tr("the end of the table")));
  lines << tr("%1 stored, %2 raw, %3 in the memstore")
               .arg(bytesText(region->storedBytes), bytesText(region->rawBytes), bytesText(region->memstoreBytes));
  lines << tr("%1 cells in %n store file(s)", nullptr, static_cast<int>(region->storeFiles))
               .arg(QLocale().toString(static_cast<qulonglong>(region->cells)));
  lines << tr("%1 reads, %2 writes in the window (%3 reads/s, %4 writes/s)")
               .arg(QLocale().toString(static_cast<qulonglong>(region->window.reads)),
                    QLocale().toString(static_cast<qulonglong>(region->window.writes)),
                    rateText(region->readsPerSecond), rateText(region->writesPerSecond));
  lines << tr("%1 reads, %2 writes since it was created")
               .arg(QLocale().toString(static_cast<qulonglong>(region->total.reads)),
                    QLocale().toString(static_cast<qulonglong>(region->total.writes)));
  return lines.join(QLatin1Char('\n'));
}

void RegionBar::onMouseMove(QMouseEvent* event) {
  const std::optional<int64_t> region = regionAt(event->position());
  if (!region) {
    QToolTip::hideText();
    return;
  }
  QToolTip::showText(event->globalPosition().toPoint(), regionText(*region), m_plot);
}

void RegionBar::onMousePress(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return;
  const std::optional<int64_t> region = regionAt(event->position());
  if (!region) return;
  selectRegion(region);
  emit regionSelected(*region);
}

bool RegionBar::savePng(const QString& path, int width, int height) { return m_plot->savePng(path, width, height); }

bool RegionBar::savePdf(const QString& path) { return m_plot->savePdf(path); }

}  // namespace keyscope
