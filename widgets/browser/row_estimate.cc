// Row estimate (see row_estimate.h). Pure functions.
#include "browser/row_estimate.h"

#include <algorithm>
#include <cmath>

namespace keyscope {

namespace {

// [a0, a1) and [b0, b1) with empty ends unbounded.
bool startsBeforeOrAt(const Bytes& a, const Bytes& b) { return a.empty() || (!b.empty() && a <= b); }
bool endsAtOrAfter(const Bytes& a, const Bytes& b) { return a.empty() || (!b.empty() && a >= b); }

}  // namespace

RangeCells cellsInRange(const std::vector<RegionInfo>& regions, const RowRange& range) {
  RangeCells out;
  if (range.isEmpty) return out;
  uint64_t storedCells = 0;
  uint64_t rawBytes = 0;
  for (const RegionInfo& region : regions) {
    storedCells += region.cells;
    rawBytes += region.rawBytes;
  }
  const double bytesPerCell = storedCells > 0 ? static_cast<double>(rawBytes) / static_cast<double>(storedCells)
                                              : static_cast<double>(kAssumedCellBytes);
  for (const RegionInfo& region : regions) {
    // Disjoint: the region ends at or before the range starts, or starts at or after it stops.
    const bool before = !region.endRow.empty() && !range.start.empty() && region.endRow <= range.start;
    const bool after = !range.stop.empty() && !region.startRow.empty() && region.startRow >= range.stop;
    if (before || after) continue;
    const auto memstoreCells = static_cast<uint64_t>(
        std::llround(static_cast<double>(region.memstoreBytes) / std::max(1.0, bytesPerCell)));
    const uint64_t cells = region.cells + memstoreCells;
    const bool inside = startsBeforeOrAt(range.start, region.startRow) &&
                        endsAtOrAfter(range.stop, region.endRow);
    (inside ? out.cells : out.uncertain) += cells;
  }
  return out;
}

std::optional<uint64_t> estimateRows(const RangeCells& cells, uint64_t cellsLoaded,
                                     uint64_t rowsLoaded, bool versionsCapped) {
  if (rowsLoaded == 0 || cellsLoaded == 0 || versionsCapped) return std::nullopt;
  const uint64_t total = cells.cells + cells.uncertain;
  if (total == 0 || cells.uncertain * 4 > total) return std::nullopt;
  const double cellsPerRow = static_cast<double>(cellsLoaded) / static_cast<double>(rowsLoaded);
  const auto rows = static_cast<uint64_t>(std::llround(static_cast<double>(total) / cellsPerRow));
  return std::max(rows, rowsLoaded);
}

}  // namespace keyscope
