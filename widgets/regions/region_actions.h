// Region actions: split, merge, balance and the server settings, as the
// Regions tab runs them on the job runner. The same engine calls as the
// shell's split, merge_region, balancer, balance_switch and set_servers
// (core/src/shell/run_regions.cc), with the same checks, so a change made
// from the view is the change the shell would make.
//
// Threads: call from a job's worker thread (they write the workspace, which
// is thread-safe); plain values in and out.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "keyscope/bytes.h"
#include "keyscope/status.h"
#include "keyscope/workspace.h"

namespace keyscope {

// Splits a live region of `table` at `row` (nullopt: at its mid key). The
// row must lie inside the region and not be its start. The daughters' ids.
Result<std::vector<int64_t>> splitTableRegion(Workspace& ws, const std::string& table, int64_t regionId,
                                              const std::optional<Bytes>& row);
// Merges two adjacent regions of `table`; the merged region's id.
Result<int64_t> mergeTableRegions(Workspace& ws, const std::string& table, int64_t first, int64_t second);
// The region after `regionId` in key order (for "merge with the next").
Result<int64_t> nextRegion(const Workspace& ws, const std::string& table, int64_t regionId);

struct BalanceOutcome {
  bool ran = false;    // false: the balancer is switched off (as the shell's `balancer`)
  uint32_t moved = 0;  // regions moved
};
Result<BalanceOutcome> runBalancer(Workspace& ws);

}  // namespace keyscope
