// Region lineage: one region's ancestors (back to the table's first regions)
// and descendants, from the table's region history, as a forest in time
// order - what the Regions tab's lineage tree shows. A merge's region has
// two parents and so appears under both.
//
// Pure function of its arguments; thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "keyscope/workspace.h"

namespace keyscope {

struct LineageNode {
  RegionHistoryEntry entry;
  std::vector<size_t> children;  // indices into RegionLineage::nodes, oldest first
  bool subject = false;          // the region asked about
};

struct RegionLineage {
  std::vector<LineageNode> nodes;  // the subject, its ancestors and descendants, oldest first
  std::vector<size_t> roots;       // nodes without a parent among them, oldest first
};

// Empty when `regionId` is not in `history`.
RegionLineage regionLineage(const std::vector<RegionHistoryEntry>& history, int64_t regionId);

}  // namespace keyscope
