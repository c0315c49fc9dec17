// Region boundaries over time, for the hotspot heatmap: a boundary between
// two regions exists at row R from the moment a region starting at R is
// created (a split's upper daughter, a pre-split region) until no region
// starts at R any more (a merge across it). Drawn as a line along the time
// axis that begins at the split, so a user sees each split happen.
//
// Pure functions over Workspace::regionHistory's entries; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "keyscope/bytes.h"
#include "keyscope/statistics.h"
#include "keyscope/workspace.h"

namespace keyscope {

struct BoundarySegment {
  Bytes row;                 // the first row of the region above the boundary
  int64_t fromMillis = 0;    // clipped to the window
  int64_t toMillis = 0;      // exclusive, clipped to the window
  bool fromSplit = false;    // appeared inside the window (not there at its start)
};

// The boundaries alive inside `window`, by row then time. The table's start
// (the empty row) is no boundary.
std::vector<BoundarySegment> boundarySegments(const std::vector<RegionHistoryEntry>& history,
                                              const TimeWindow& window);

// Where a boundary at `row` lies on the grid's key axis (bucket b's centre is
// at b; the boundary sits on the edge below the first bucket starting at or
// after `row`, so b - 0.5). nullopt when the grid's buckets are not key
// ranges (folded salt, a later component) or the row is past every bucket.
std::optional<double> boundaryAxisPosition(const HeatGrid& grid, BytesView row);

}  // namespace keyscope
