// Row estimate: about how many rows the data browser's range holds, from
// region statistics, without counting (DESIGN.md: never a full count).
//
//   cells in the range  = store-file cells of the regions inside it, plus
//                         their memstores (bytes / the table's raw bytes
//                         per stored cell);
//   rows                = those cells / the cells per row of the pages loaded.
//
// Regions the range covers only in part add "uncertain" cells: nothing says
// how many of their cells fall inside. When they are more than a quarter of
// the whole, or when the loaded pages cut a column at kVersionsCounted (so
// cells per row is only a lower bound), there is no honest estimate and none
// is given. Stored cells include versions, markers and expired cells a major
// compaction would drop, so the estimate leans high until then.
//
// Pure functions over values; any thread (the browser reads the regions on
// the job runner).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "browser/browse_query.h"
#include "keyscope/workspace.h"

namespace keyscope {

struct RangeCells {
  uint64_t cells = 0;      // in regions wholly inside the range
  uint64_t uncertain = 0;  // in regions partly inside it
};

// Why 64: a cell's key and value in a memstore of a table with no store
// file yet to measure (a short row, qualifier and value, plus the key's
// timestamp and type).
constexpr uint64_t kAssumedCellBytes = 64;

RangeCells cellsInRange(const std::vector<RegionInfo>& regions, const RowRange& range);

// nullopt: no honest estimate (see the top of this file).
std::optional<uint64_t> estimateRows(const RangeCells& cells, uint64_t cellsLoaded,
                                     uint64_t rowsLoaded, bool versionsCapped);

}  // namespace keyscope
