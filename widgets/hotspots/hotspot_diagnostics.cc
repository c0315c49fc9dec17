// Hotspot diagnostics (see hotspot_diagnostics.h). Pure functions.
#include "hotspots/hotspot_diagnostics.h"

#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "keyscope/key_codec.h"

namespace keyscope {

namespace {

// The thresholds. A band is "narrow" at a tenth of the key axis; a column is
// concentrated when that band holds 60% of its load; a diagonal needs most
// columns concentrated, a band that travels over a quarter of the axis, and
// a rank correlation of 0.8 with time (a staircase of splits still passes, a
// random walk does not). Eight salt buckets written at once put at most an
// eighth of a column in one band, far below 60%.
constexpr double kBandFraction = 0.1;
constexpr double kConcentratedShare = 0.6;
constexpr double kConcentratedColumns = 0.6;
constexpr double kMinTravel = 0.25;
constexpr double kMinCorrelation = 0.8;
// A hot row: one bucket with a quarter of all load (and at least four times
// its even share), four times either neighbour.
constexpr double kHotRowShare = 0.25;
constexpr double kHotRowOverEven = 4;
constexpr double kHotRowOverNeighbour = 4;
// A hot range: a quarter of the buckets, or fewer, with 60% of the load.
constexpr double kHotRangeBuckets = 0.25;
constexpr double kHotRangeShare = 0.6;
// Below this many buckets or active columns nothing is judged.
constexpr size_t kMinBuckets = 4;
constexpr size_t kMinColumns = 4;

const QString kSeparator = QStringLiteral(" \u203a ");

QString percent(double share) { return QStringLiteral("%1%").arg(std::lround(share * 100)); }

// Ranks with ties averaged, for Spearman's correlation.
std::vector<double> ranks(const std::vector<double>& values) {
  std::vector<size_t> order(values.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return values[a] < values[b]; });
  std::vector<double> out(values.size());
  for (size_t i = 0; i < order.size();) {
    size_t j = i;
    while (j + 1 < order.size() && values[order[j + 1]] == values[order[i]]) ++j;
    const double rank = (static_cast<double>(i) + static_cast<double>(j)) / 2;
    for (size_t k = i; k <= j; ++k) out[order[k]] = rank;
    i = j + 1;
  }
  return out;
}

double correlation(const std::vector<double>& x, const std::vector<double>& y) {
  const double n = static_cast<double>(x.size());
  const double mx = std::accumulate(x.begin(), x.end(), 0.0) / n;
  const double my = std::accumulate(y.begin(), y.end(), 0.0) / n;
  double sxy = 0, sxx = 0, syy = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
    syy += (y[i] - my) * (y[i] - my);
  }
  if (sxx == 0 || syy == 0) return 0;
  return sxy / std::sqrt(sxx * syy);
}

// What can be said of the key components over a set of buckets.
class ComponentNamer {
 public:
  ComponentNamer(const HeatGrid& grid, const HeatGridRequest& request, const std::optional<KeySchema>& schema)
      : m_grid(grid), m_request(request), m_schema(schema) {
    for (const HeatGridBucket& bucket : grid.buckets) m_parts.push_back(bucketLabelParts(bucket));
  }

  // The component the axis orders keys by first: the one that varies
  // between the buckets (foldSalt: the one after the salt; an axis by
  // component: that component).
  QString lead() const {
    if (!m_schema) return {};
    if (m_request.axis == KeyAxis::kSchemaComponent && !m_request.foldSalt)
      return QString::fromStdString(m_request.component);
    const size_t first = m_request.foldSalt ? 1 : 0;
    for (size_t i = first; i < m_schema->size(); ++i)
      if (varies(i, 0, m_grid.buckets.size() - 1)) return name(i);
    return m_schema->size() > first ? name(first) : QString();
  }

  // For buckets [first, last]: the first component that holds one value
  // across them but varies over the grid ("user=user0042"), else the first
  // that varies within them; the component's name and a description.
  std::pair<QString, QString> shared(size_t first, size_t last) const {
    if (!m_schema || !keyOrdered()) return {};
    for (size_t i = 0; i < m_schema->size(); ++i) {
      if (!varies(i, 0, m_grid.buckets.size() - 1)) continue;
      if (!varies(i, first, last) && static_cast<qsizetype>(i) < m_parts[first].size())
        return {name(i), m_parts[first][static_cast<qsizetype>(i)]};
      return {name(i), QString()};
    }
    return {};
  }

 private:
  // Labels decode components from the row's start only on key-ordered axes.
  bool keyOrdered() const { return !m_request.foldSalt && m_request.axis != KeyAxis::kSchemaComponent; }
  QString name(size_t i) const { return QString::fromStdString((*m_schema)[i].name); }
  bool varies(size_t component, size_t first, size_t last) const {
    std::optional<QString> seen;
    for (size_t b = first; b <= last && b < m_parts.size(); ++b) {
      const auto index = static_cast<qsizetype>(component);
      if (m_parts[b].size() <= index) continue;
      if (seen && *seen != m_parts[b][index]) return true;
      seen = m_parts[b][index];
    }
    return false;
  }

  const HeatGrid& m_grid;
  const HeatGridRequest& m_request;
  const std::optional<KeySchema>& m_schema;
  std::vector<QStringList> m_parts;
};

QString quoted(const QString& component) { return QStringLiteral("'%1'").arg(component); }

QString label(const HeatGrid& grid, size_t bucket) { return QString::fromStdString(grid.buckets[bucket].label); }

}  // namespace

QStringList bucketLabelParts(const HeatGridBucket& bucket) {
  QString text = QString::fromStdString(bucket.label);
  static const QRegularExpression regionPrefix(QStringLiteral("^region \\d+: "));
  text.remove(regionPrefix);
  return text.split(kSeparator);
}

std::vector<HotspotDiagnostic> diagnoseHotspots(const HeatGrid& grid, const HeatGridRequest& request,
                                                const std::optional<KeySchema>& schema) {
  std::vector<HotspotDiagnostic> out;
  const size_t n = grid.buckets.size();
  const ComponentNamer namer(grid, request, schema);

  if (request.axis == KeyAxis::kEqualKeyCounts && request.keyBuckets >= 2 && n * 2 <= request.keyBuckets) {
    HotspotDiagnostic d;
    d.kind = HotspotDiagnostic::Kind::kTooFewKeys;
    d.severity = HotspotDiagnostic::Severity::kInfo;
    d.component = n > 1 ? namer.lead() : QString();
    d.title = QStringLiteral("Key space too small to bucket evenly");
    d.text = QStringLiteral("The stored keys give only %1 distinct key buckets of the %2 asked for").arg(n).arg(request.keyBuckets);
    d.text += d.component.isEmpty() ? QStringLiteral(": each bucket is a handful of rows.")
                                    : QStringLiteral(" (the lead component %1 takes few values): each bucket is a "
                                                     "handful of rows.").arg(quoted(d.component));
    out.push_back(d);
  }
  if (n < kMinBuckets || grid.columns == 0) return out;

  // Per bucket and per column totals.
  std::vector<double> byBucket(n, 0.0);
  std::vector<double> byColumn(grid.columns, 0.0);
  for (size_t b = 0; b < n; ++b)
    for (size_t c = 0; c < grid.columns; ++c) {
      byBucket[b] += grid.at(b, c);
      byColumn[c] += grid.at(b, c);
    }
  const double total = std::accumulate(byBucket.begin(), byBucket.end(), 0.0);
  if (total <= 0) return out;
  const char* metric = loadMetricName(grid.metric);

  // 1. The diagonal: each active column's narrowest hot band, and how it moves.
  const size_t band = std::max<size_t>(1, static_cast<size_t>(std::ceil(static_cast<double>(n) * kBandFraction)));
  size_t active = 0;
  std::vector<double> times, centres;
  for (size_t c = 0; c < grid.columns; ++c) {
    if (byColumn[c] <= 0) continue;
    ++active;
    double sum = 0, best = -1;
    size_t bestStart = 0;
    for (size_t b = 0; b < n; ++b) {
      sum += grid.at(b, c);
      if (b >= band) sum -= grid.at(b - band, c);
      if (b + 1 >= band && sum > best) {
        best = sum;
        bestStart = b + 1 - band;
      }
    }
    if (best / byColumn[c] < kConcentratedShare) continue;
    double weighted = 0;
    for (size_t b = bestStart; b < bestStart + band; ++b) weighted += grid.at(b, c) * static_cast<double>(b);
    times.push_back(static_cast<double>(c));
    centres.push_back(weighted / best);
  }
  bool diagonal = false;
  if (active >= kMinColumns && static_cast<double>(times.size()) >= kConcentratedColumns * static_cast<double>(active)) {
    const auto [lo, hi] = std::minmax_element(centres.begin(), centres.end());
    const double travel = (*hi - *lo) / static_cast<double>(n);
    const double rho = correlation(ranks(times), ranks(centres));
    if (travel >= kMinTravel && std::abs(rho) >= kMinCorrelation) {
      diagonal = true;
      HotspotDiagnostic d;
      d.kind = HotspotDiagnostic::Kind::kMonotonicDiagonal;
      d.component = namer.lead();
      const QString who = d.component.isEmpty() ? QStringLiteral("The row key's leading bytes")
                                                : QStringLiteral("The lead key component %1").arg(quoted(d.component));
      const QString direction = rho > 0 ? QStringLiteral("grows") : QStringLiteral("falls");
      if (request.foldSalt) {
        d.severity = HotspotDiagnostic::Severity::kInfo;
        d.title = QStringLiteral("Monotonic key behind the salt: %1").arg(d.component);
        d.text = QStringLiteral("Inside every salt bucket %1 %2 with time, so each bucket is written at one "
                                "end; the salt is what spreads the %3 over the buckets and their regions.")
                     .arg(d.component.isEmpty() ? QStringLiteral("the key") : quoted(d.component), direction,
                          QString::fromLatin1(metric));
      } else {
        d.title = QStringLiteral("Monotonic lead key%1").arg(d.component.isEmpty() ? QString() : QStringLiteral(" ") + quoted(d.component));
        d.text = QStringLiteral("%1 %2 with time: in %3 of %4 active time columns the %5 sit in one band of "
                                "keys that moves across the key space (the diagonal). Every write goes to "
                                "the region at its end, so one server takes them all; a salt, a hash or a "
                                "field in front of it would spread them.")
                     .arg(who, direction)
                     .arg(times.size())
                     .arg(active)
                     .arg(QString::fromLatin1(metric));
      }
      out.push_back(d);
    }
  }
  if (diagonal) return out;

  // 2. A single hot row (bucket): isolated and large.
  const size_t top = static_cast<size_t>(std::max_element(byBucket.begin(), byBucket.end()) - byBucket.begin());
  const double topShare = byBucket[top] / total;
  const double neighbour = std::max(top > 0 ? byBucket[top - 1] : 0.0, top + 1 < n ? byBucket[top + 1] : 0.0);
  if (topShare >= kHotRowShare && topShare >= kHotRowOverEven / static_cast<double>(n) &&
      byBucket[top] >= kHotRowOverNeighbour * neighbour) {
    HotspotDiagnostic d;
    d.kind = HotspotDiagnostic::Kind::kHotRow;
    const auto [component, value] = namer.shared(top, top);
    d.component = component;
    d.title = value.isEmpty() ? QStringLiteral("One hot key") : QStringLiteral("One hot key: %1").arg(value);
    d.text = QStringLiteral("The key bucket at %1 takes %2 of the %3 (an even spread would give it %4); its "
                            "neighbours take a quarter of that or less.")
                 .arg(label(grid, top), percent(topShare), QString::fromLatin1(metric),
                      percent(1.0 / static_cast<double>(n)));
    if (!component.isEmpty())
      d.text += QStringLiteral(" The rows share %1: one value of %2 is read or written far more than the others.")
                    .arg(value.isEmpty() ? quoted(component) : value, quoted(component));
    out.push_back(d);
    return out;
  }

  // 3. A hot range: the narrowest run of buckets holding most of the load.
  size_t bestWidth = n + 1, bestFirst = 0;
  double run = 0;
  for (size_t first = 0, last = 0; last < n; ++last) {
    run += byBucket[last];
    while (first < last && run - byBucket[first] >= kHotRangeShare * total) run -= byBucket[first++];
    if (run >= kHotRangeShare * total && last - first + 1 < bestWidth) {
      bestWidth = last - first + 1;
      bestFirst = first;
    }
  }
  if (n >= 2 * kMinBuckets && bestWidth <= static_cast<size_t>(kHotRangeBuckets * static_cast<double>(n))) {
    double share = 0;
    for (size_t b = bestFirst; b < bestFirst + bestWidth; ++b) share += byBucket[b];
    share /= total;
    HotspotDiagnostic d;
    d.kind = HotspotDiagnostic::Kind::kHotRange;
    const auto [component, value] = namer.shared(bestFirst, bestFirst + bestWidth - 1);
    d.component = component;
    d.title = value.isEmpty() ? QStringLiteral("Hot key range") : QStringLiteral("Hot key range: %1").arg(value);
    const QString end = bestFirst + bestWidth < n ? label(grid, bestFirst + bestWidth) : QStringLiteral("the end");
    d.text = QStringLiteral("%1 of the %2 go to %3 of %4 key buckets, from %5 up to %6.")
                 .arg(percent(share), QString::fromLatin1(metric))
                 .arg(bestWidth)
                 .arg(n)
                 .arg(label(grid, bestFirst), end);
    if (!component.isEmpty())
      d.text += value.isEmpty() ? QStringLiteral(" The range is ordered by %1: its values there draw the load.").arg(quoted(component))
                                : QStringLiteral(" Its rows share %1.").arg(value);
    out.push_back(d);
  }
  return out;
}

}  // namespace keyscope
