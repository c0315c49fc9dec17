// History layout (see history_layout.h). Pure functions; any thread.
#include "history/history_layout.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <utility>

#include "browser/value_format.h"
#include "keyscope/byte_format.h"

namespace keyscope {

namespace {

// Axis geometry, in x units: a segment of several timestamps is 1 wide, one
// of a single timestamp narrower (it has nothing to spread), and segments
// are this far apart (where the break mark is drawn).
constexpr double kSegmentWidth = 1.0;
constexpr double kSinglePointWidth = 0.3;
constexpr double kBreakWidth = 0.3;
// Points keep this share of a segment's width from its edges.
constexpr double kSegmentPadding = 0.06;

const QString kFamilyLane = QStringLiteral("(family)");

bool masksPut(const Cell& marker, const Cell& put) {
  switch (marker.type) {
    case CellType::kDelete:
      return marker.qualifier == put.qualifier && put.timestamp == marker.timestamp;
    case CellType::kDeleteColumn:
      return marker.qualifier == put.qualifier && put.timestamp <= marker.timestamp;
    case CellType::kDeleteFamily:
      return put.timestamp <= marker.timestamp;
    case CellType::kDeleteFamilyVersion:
      return put.timestamp == marker.timestamp;
    case CellType::kPut:
      return false;
  }
  return false;
}

// Whether a get over `range` applies the marker (HBASE-SEMANTICS.md B3):
// without KEEP_DELETED_CELLS a marker within or after the range applies
// ("delete markers extend back to the beginning of time"); with it, only
// markers inside the range do, so a read in the past sees deleted cells.
bool markerApplies(const FamilyOptions& family, const TimeRange& range, int64_t markerTs) {
  if (family.keepDeletedCells == KeepDeletedCells::kFalse) return markerTs >= range.min;
  return range.contains(markerTs);
}

int64_t ttlCutoff(const FamilyOptions& family, int64_t now) {
  if (family.ttlSeconds >= kTtlForever || family.ttlSeconds <= 0) return 0;
  const int64_t ttlMillis = family.ttlSeconds * 1000;
  return now > ttlMillis ? now - ttlMillis : 0;
}

}  // namespace

std::vector<AxisSegment> axisSegments(std::vector<int64_t> timestamps) {
  std::sort(timestamps.begin(), timestamps.end());
  timestamps.erase(std::unique(timestamps.begin(), timestamps.end()), timestamps.end());
  std::vector<AxisSegment> segments;
  if (timestamps.empty()) return segments;

  // Clusters as [first, last] index ranges; split the one whose widest gap
  // is most outstanding until no gap is kAxisGapFactor times wider than the
  // spans beside it.
  std::vector<std::pair<size_t, size_t>> clusters{{0, timestamps.size() - 1}};
  while (clusters.size() < kMaxAxisSegments) {
    double bestScore = 0;
    size_t bestCluster = 0;
    size_t bestAt = 0;
    for (size_t c = 0; c < clusters.size(); ++c) {
      const auto [first, last] = clusters[c];
      // Two lone timestamps are never squashed: each sits at an end.
      if (last - first < 2) continue;
      size_t at = first;
      for (size_t i = first; i < last; ++i) {
        if (timestamps[i + 1] - timestamps[i] > timestamps[at + 1] - timestamps[at]) at = i;
      }
      const auto gap = static_cast<double>(timestamps[at + 1] - timestamps[at]);
      const auto left = static_cast<double>(timestamps[at] - timestamps[first]);
      const auto right = static_cast<double>(timestamps[last] - timestamps[at + 1]);
      const double score = gap / (kAxisGapFactor * std::max({1.0, left, right}));
      if (score >= 1 && score > bestScore) {
        bestScore = score;
        bestCluster = c;
        bestAt = at;
      }
    }
    if (bestScore < 1) break;
    const auto [first, last] = clusters[bestCluster];
    clusters[bestCluster] = {first, bestAt};
    clusters.insert(clusters.begin() + static_cast<std::ptrdiff_t>(bestCluster) + 1,
                    {bestAt + 1, last});
  }

  double x = 0;
  for (const auto& [first, last] : clusters) {
    AxisSegment segment;
    segment.first = timestamps[first];
    segment.last = timestamps[last];
    segment.x0 = x;
    segment.x1 = x + (first == last ? kSinglePointWidth : kSegmentWidth);
    segment.epochLike = segment.first >= kEpochLikeMillis;
    segments.push_back(segment);
    x = segment.x1 + kBreakWidth;
  }
  return segments;
}

double HistoryLayout::xOf(int64_t timestamp) const {
  if (segments.empty()) return (xMin + xMax) / 2;
  for (size_t i = 0; i < segments.size(); ++i) {
    const AxisSegment& s = segments[i];
    if (timestamp < s.first) {
      return i == 0 ? xMin : (segments[i - 1].x1 + s.x0) / 2;  // in the gap before it
    }
    if (timestamp <= s.last) {
      const double width = s.x1 - s.x0;
      if (s.first == s.last) return s.x0 + width / 2;
      const double pad = width * kSegmentPadding;
      const double share = static_cast<double>(timestamp - s.first) /
                           static_cast<double>(s.last - s.first);
      return s.x0 + pad + share * (width - 2 * pad);
    }
  }
  return xMax;
}

QString timestampLabel(int64_t timestamp) {
  if (timestamp < kEpochLikeMillis) return QString::number(timestamp);
  // "2024-03-01 10:05:00.000 UTC" -> "2024-03-01 10:05:00" (milliseconds when not zero).
  QString text = formatEpochMillis(timestamp);
  text.chop(4);  // " UTC"
  if (text.endsWith(QStringLiteral(".000"))) text.chop(4);
  return text;
}

HistoryLayout layoutHistory(const HistoryInput& input) {
  HistoryLayout layout;
  const TimeRange range = input.get.effectiveRange();
  layout.ttlCutoff = ttlCutoff(input.family, input.now);

  // Lanes: the family markers' first, then each column in order.
  std::map<Bytes, int> laneOf;
  bool familyMarkers = false;
  for (const Cell& cell : input.raw) {
    if (isFamilyDeleteType(cell.type)) familyMarkers = true;
  }
  if (familyMarkers) layout.lanes.push_back(kFamilyLane);
  for (const Cell& cell : input.raw) {
    if (isFamilyDeleteType(cell.type)) continue;
    if (laneOf.try_emplace(cell.qualifier, static_cast<int>(layout.lanes.size())).second) {
      layout.lanes.push_back(QString::fromStdString(toStringBinary(cell.qualifier)));
    }
  }

  // Versions in the engine's order (the raw read's), family markers first.
  std::vector<const Cell*> order;
  for (const Cell& cell : input.raw) {
    if (isFamilyDeleteType(cell.type)) order.push_back(&cell);
  }
  for (const Cell& cell : input.raw) {
    if (!isFamilyDeleteType(cell.type)) order.push_back(&cell);
  }
  std::set<std::pair<Bytes, int64_t>> returned;
  for (const Cell& cell : input.returned) returned.insert({cell.qualifier, cell.timestamp});

  std::vector<int> markers;
  for (const Cell* cell : order) {
    HistoryVersion version;
    version.qualifier = cell->qualifier;
    version.lane = isFamilyDeleteType(cell->type) ? 0 : laneOf[cell->qualifier];
    version.timestamp = cell->timestamp;
    version.type = cell->type;
    version.value = cell->value;
    if (isDeleteType(cell->type)) {
      version.fate = VersionFate::kMarker;
      markers.push_back(static_cast<int>(layout.versions.size()));
    }
    layout.versions.push_back(std::move(version));
  }

  // The mask relation, whatever the get.
  for (size_t p = 0; p < layout.versions.size(); ++p) {
    HistoryVersion& put = layout.versions[p];
    if (put.type != CellType::kPut) continue;
    const Cell& putCell = *order[p];
    for (int m : markers) {
      if (!masksPut(*order[static_cast<size_t>(m)], putCell)) continue;
      put.maskedBy.push_back(m);
      layout.versions[static_cast<size_t>(m)].masks.push_back(static_cast<int>(p));
    }
  }

  // What the get makes of each put, column by column, newest first
  // (HBASE-SEMANTICS.md B2's order of checks).
  const int32_t maxVersions = std::max(1, std::min(input.get.maxVersions, input.family.maxVersions));
  std::map<Bytes, int32_t> counted;        // versions counted per column
  std::set<std::pair<Bytes, int64_t>> seen;  // (column, ts) already met: older writes are hidden
  for (HistoryVersion& put : layout.versions) {
    if (put.type != CellType::kPut) continue;
    put.returnedByGet = returned.count({put.qualifier, put.timestamp}) > 0;
    if (!seen.insert({put.qualifier, put.timestamp}).second) {
      put.fate = VersionFate::kOverwritten;
      put.returnedByGet = false;  // the get returned the newer write at this timestamp
      continue;
    }
    const bool expired = layout.ttlCutoff > 0 && put.timestamp < layout.ttlCutoff;
    const bool masked = std::any_of(put.maskedBy.begin(), put.maskedBy.end(), [&](int m) {
      return markerApplies(input.family, range, layout.versions[static_cast<size_t>(m)].timestamp);
    });
    if (expired && input.family.minVersions == 0) {
      put.fate = VersionFate::kExpired;
    } else if (masked) {
      put.fate = VersionFate::kMasked;
    } else if (!range.contains(put.timestamp)) {
      put.fate = VersionFate::kOutsideRange;
    } else {
      const int32_t count = ++counted[put.qualifier];
      if (count > maxVersions) {
        put.fate = VersionFate::kBeyondVersions;
      } else if (count <= input.family.minVersions || !expired) {
        put.fate = VersionFate::kReturned;
      } else {
        put.fate = VersionFate::kExpired;
      }
    }
  }
  for (const HistoryVersion& v : layout.versions) {
    if (v.type != CellType::kPut) continue;
    if (v.fate == VersionFate::kReturned) ++layout.predictedReturned;
    if (v.returnedByGet) ++layout.returnedByGet;
    if ((v.fate == VersionFate::kReturned) != v.returnedByGet) ++layout.disagreements;
  }

  // The axis, then every version's place on it and the mask spans.
  std::vector<int64_t> timestamps;
  timestamps.reserve(layout.versions.size());
  for (const HistoryVersion& v : layout.versions) timestamps.push_back(v.timestamp);
  layout.segments = axisSegments(std::move(timestamps));
  if (!layout.segments.empty()) {
    layout.xMin = layout.segments.front().x0 - kBreakWidth / 2;
    layout.xMax = layout.segments.back().x1 + kBreakWidth / 2;
  }
  for (HistoryVersion& v : layout.versions) v.x = layout.xOf(v.timestamp);
  for (int m : markers) {
    const HistoryVersion& marker = layout.versions[static_cast<size_t>(m)];
    MaskSpan span;
    span.marker = m;
    span.lane = isFamilyDeleteType(marker.type) ? -1 : marker.lane;
    span.x1 = marker.x;
    const bool upTo =
        marker.type == CellType::kDeleteColumn || marker.type == CellType::kDeleteFamily;
    span.x0 = upTo ? layout.xMin : marker.x;
    layout.masks.push_back(span);
  }
  for (const AxisSegment& s : layout.segments) {
    layout.ticks.push_back({layout.xOf(s.first), timestampLabel(s.first)});
    if (s.last != s.first) layout.ticks.push_back({layout.xOf(s.last), timestampLabel(s.last)});
  }
  return layout;
}

QString fateText(const HistoryLayout& layout, const HistoryVersion& version) {
  switch (version.fate) {
    case VersionFate::kReturned:
      return QStringLiteral("returned");
    case VersionFate::kMasked: {
      QStringList by;
      for (int m : version.maskedBy) {
        const HistoryVersion& marker = layout.versions[static_cast<size_t>(m)];
        by << QStringLiteral("%1 @ %2")
                  .arg(QString::fromLatin1(cellTypeName(marker.type)),
                       timestampLabel(marker.timestamp));
      }
      return QStringLiteral("masked by %1").arg(by.join(QStringLiteral(", ")));
    }
    case VersionFate::kOutsideRange:
      return QStringLiteral("outside TIMERANGE");
    case VersionFate::kBeyondVersions:
      return QStringLiteral("beyond VERSIONS");
    case VersionFate::kExpired:
      return QStringLiteral("expired (TTL)");
    case VersionFate::kOverwritten:
      return QStringLiteral("overwritten (same timestamp written again)");
    case VersionFate::kMarker:
      if (version.masks.empty()) return QStringLiteral("delete marker: masks nothing");
      return QStringLiteral("delete marker: masks %1 %2")
          .arg(version.masks.size())
          .arg(version.masks.size() == 1 ? QStringLiteral("put") : QStringLiteral("puts"));
  }
  return {};
}

}  // namespace keyscope
