// Statistics queries: the region table, server load, the heat grid and the
// key-space histogram, computed from the statistics tables (stats_schema.h)
// plus what the engine knows now (its regions and a sample of stored keys).
//
// Costs: every query reads statistic rows by key ranges only - (region,
// bucket), (table, bucket), (bucket, server) for the window's seconds, and
// one total per live region - and none of them reads cells. The heat grid
// reads at most regions x seconds counter rows and kReservoirCapacity
// samples per second, so its cost grows with the window and the grid, not
// with the data stored (HeatGrid::statRowsRead counts the rows). Its key
// axes also walk table.keys once, which the engine builds from block
// indexes (a key per block).
//
// Threads: pure functions over a read connection owned by the caller.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <sqlite3.h>

#include "keyscope/bytes.h"
#include "keyscope/statistics.h"
#include "keyscope/status.h"

namespace keyscope::stats {

// A region as it lived: every region of the table that ever existed.
struct RegionSpan {
  int64_t regionId = 0;
  Bytes startRow;
  Bytes endRow;                          // empty: the end of the table
  int64_t createdMillis = 0;
  std::optional<int64_t> retiredMillis;  // nullopt: live
  int32_t server = 0;                    // its server now (live) or when retired
  bool merged = false;                   // created by a merge (else by a split or create)
};

// A stored key with the data it stands for: one per store-file block (the
// block's last row, its raw bytes and estimated cells) and one per memstore row.
struct KeySample {
  Bytes row;
  uint64_t cells = 0;
  uint64_t bytes = 0;
};

// What a live region holds now (from the engine).
struct RegionSize {
  int64_t regionId = 0;
  uint64_t rawBytes = 0;
  uint64_t storedBytes = 0;
  uint64_t memstoreBytes = 0;
  uint64_t cells = 0;
  uint32_t storeFiles = 0;
};

struct TableContext {
  int64_t tableId = 0;
  std::string keySchema;                 // the table's row-key schema text; empty: none
  std::vector<RegionSpan> history;       // every region, live and retired (any order)
  std::vector<RegionSize> live;          // the live regions
  std::vector<KeySample> keys;           // in key order (only the heat grid's key axes and the histogram use them)
  // The workspace clock when the context was taken: a live region's life
  // ends here for its rates. nullopt: at the window's end (or, for a window
  // without one, the end of the region's last second with load).
  std::optional<int64_t> nowMillis;
};

// Windows: a second of statistics counts toward a window when it starts in
// the window (stats_time.h), so windows on whole seconds are exact.

// One entry per live region, by start row: sizes from table.live, `total`
// since its creation, `window` in the window, and reads and writes per
// second over the window clipped to the region's life (at least one second).
// InvalidArgument for an empty window or a live region missing from the
// history. Reads one row per live region plus its rows in the window.
Result<std::vector<RegionLoad>> queryRegionLoad(sqlite3* db, const TableContext& table, const TimeWindow& window);
// `regionsPerServer[s]`: regions assigned to server s now (every table).
// One entry per server, plus any server beyond them that had load in the
// window (a server count lowered since), by server.
Result<std::vector<ServerLoad>> queryServerLoad(sqlite3* db, const std::vector<uint32_t>& regionsPerServer,
                                                const TimeWindow& window);
// Servers 0 ... servers-1 (plus any beyond with load in the window) by
// column: each second's load lands in the column holding its start. The
// window must be finite; columns 1 ... 2000.
Result<LoadSeries> queryServerLoadSeries(sqlite3* db, int32_t servers, const TimeWindow& window, uint32_t columns);
// The heat grid (statistics.h HeatGridRequest; heat_grid.cc and key_axis.h
// say how load is placed). The grid's window is the request's, its end
// rounded up to whole columns of whole milliseconds. A second split by
// columns narrower than a second is spread over them in proportion.
// InvalidArgument, naming what is wrong, for: a window not finite or empty,
// columns or key buckets out of range, an unknown metric or axis, foldSalt
// on kRegions or without a schema starting with a salt or md5 component,
// kSchemaComponent without a schema, without a component, or with one the
// schema lacks.
Result<HeatGrid> queryHeatGrid(sqlite3* db, const TableContext& table, const HeatGridRequest& request);
// From table.keys alone (no statistics rows): groups by the first
// prefixLength bytes (1 ... 4096), or by the decoded value of `component`.
// The skew figures (largestShare, quartiles) are over every group, before
// the smallest beyond maxBuckets - 1 merge into "other" (the last bucket).
// Keys whose component does not decode form a group of their own.
Result<KeyHistogram> computeKeyHistogram(const TableContext& table, const KeyHistogramRequest& request);

}  // namespace keyscope::stats
