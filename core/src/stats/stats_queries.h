// Statistics queries: the region table, server load, the heat grid and the
// key-space histogram, computed from the statistics tables (stats_schema.h)
// plus what the engine knows now (its regions and a sample of stored keys).
//
// Costs: every query reads statistic rows for the window only, through the
// (table, bucket) and (region, bucket) keys; none of them reads cells. The
// heat grid's cost grows with the window's buckets and samples and the
// grid's size, not with the data stored.
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
  std::vector<RegionSpan> history;       // by start row, then creation
  std::vector<RegionSize> live;          // the live regions
  std::vector<KeySample> keys;           // in key order
};

Result<std::vector<RegionLoad>> queryRegionLoad(sqlite3* db, const TableContext& table, const TimeWindow& window);
// `regionsPerServer[s]`: regions assigned to server s now (every table).
Result<std::vector<ServerLoad>> queryServerLoad(sqlite3* db, const std::vector<uint32_t>& regionsPerServer,
                                                const TimeWindow& window);
Result<LoadSeries> queryServerLoadSeries(sqlite3* db, int32_t servers, const TimeWindow& window, uint32_t columns);
Result<HeatGrid> queryHeatGrid(sqlite3* db, const TableContext& table, const HeatGridRequest& request);
// From table.keys alone (no statistics rows).
Result<KeyHistogram> computeKeyHistogram(const TableContext& table, const KeyHistogramRequest& request);

}  // namespace keyscope::stats
