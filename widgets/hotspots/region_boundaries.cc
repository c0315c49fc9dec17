// Region boundaries over time (see region_boundaries.h). Pure functions.
#include "hotspots/region_boundaries.h"

#include <algorithm>
#include <limits>
#include <map>

namespace keyscope {

std::vector<BoundarySegment> boundarySegments(const std::vector<RegionHistoryEntry>& history,
                                              const TimeWindow& window) {
  // Every region's life, by its start row.
  std::map<Bytes, std::vector<std::pair<int64_t, int64_t>>> lives;
  for (const RegionHistoryEntry& region : history) {
    if (region.startRow.empty()) continue;
    lives[region.startRow].emplace_back(region.createdMillis,
                                        region.retiredMillis.value_or(std::numeric_limits<int64_t>::max()));
  }
  std::vector<BoundarySegment> out;
  for (auto& [row, spans] : lives) {
    std::sort(spans.begin(), spans.end());
    // Merge the lives that touch: a region starting at R that splits again
    // keeps a daughter starting at R, born as its parent retires.
    std::vector<std::pair<int64_t, int64_t>> merged;
    for (const auto& span : spans) {
      if (!merged.empty() && span.first <= merged.back().second)
        merged.back().second = std::max(merged.back().second, span.second);
      else
        merged.push_back(span);
    }
    for (const auto& [from, to] : merged) {
      const int64_t clippedFrom = std::max(from, window.fromMillis);
      const int64_t clippedTo = std::min(to, window.toMillis);
      if (clippedFrom >= clippedTo) continue;
      out.push_back({row, clippedFrom, clippedTo, from > window.fromMillis});
    }
  }
  return out;
}

std::optional<double> boundaryAxisPosition(const HeatGrid& grid, BytesView row) {
  if (grid.buckets.empty()) return std::nullopt;
  for (const HeatGridBucket& bucket : grid.buckets)
    if (!bucket.keyRange) return std::nullopt;
  const auto first = std::lower_bound(grid.buckets.begin(), grid.buckets.end(), row,
                                      [](const HeatGridBucket& b, BytesView r) { return BytesView(b.startRow) < r; });
  if (first == grid.buckets.begin()) return std::nullopt;  // at or before the table's start
  if (first == grid.buckets.end()) {
    // Inside the last bucket (it ends at the table's end): its middle.
    const HeatGridBucket& last = grid.buckets.back();
    if (!last.endRow.empty() && BytesView(last.endRow) <= row) return std::nullopt;
    return static_cast<double>(grid.buckets.size() - 1);
  }
  return static_cast<double>(first - grid.buckets.begin()) - 0.5;
}

}  // namespace keyscope
