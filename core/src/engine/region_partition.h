// The invariant of a table's regions: sorted by start row they partition the
// key space, the first starting at the empty row, the last ending at the
// empty row (no end), each ending where the next starts, none empty. Checked
// when a workspace opens and by keyscope-cli check.
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "keyscope/bytes.h"

namespace keyscope::engine {

struct RegionBounds {
  int64_t id = 0;
  BytesView startRow;  // inclusive; empty: the beginning of the table
  BytesView endRow;    // exclusive; empty: the end of the table
};

// Empty when the regions (sorted by start row) partition the key space;
// otherwise what is wrong, to follow "its regions ": "leave a gap or overlap
// between region 3 and region 4".
inline std::string regionPartitionProblem(std::span<const RegionBounds> regions) {
  if (regions.empty()) return "are missing";
  if (!regions.front().startRow.empty())
    return "do not start at the first row (region " + std::to_string(regions.front().id) + ")";
  if (!regions.back().endRow.empty())
    return "do not reach the last row (region " + std::to_string(regions.back().id) + ")";
  for (size_t i = 0; i + 1 < regions.size(); ++i) {
    const RegionBounds& r = regions[i];
    if (r.endRow != regions[i + 1].startRow)
      return "leave a gap or overlap between region " + std::to_string(r.id) + " and region " +
             std::to_string(regions[i + 1].id);
    if (!r.startRow.empty() && r.startRow >= r.endRow) return "include an empty range (region " + std::to_string(r.id) + ")";
  }
  return {};
}

}  // namespace keyscope::engine
