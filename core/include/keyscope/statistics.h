// Statistics: the load the engine records per region and per time bucket,
// and the queries the region table, the hotspot heatmap and the key-space
// histogram are computed from (DESIGN.md "Statistics").
//
// What is recorded. Every write (one per mutation and region), every get and
// every row a scan returns is charged to its region and to the simulated
// server that region was assigned to at that moment, in buckets of
// kStatsBucketMillis of the workspace clock (Workspace::now(), which a
// workload simulation may drive). Besides the exact counters, each table
// keeps a sample of the row keys touched per bucket (weighted reservoir
// sampling), which places load finer than a region: the heatmap's key
// buckets. Both are persisted in the workspace (a crash loses at most the
// last second of statistics, never data) and survive restarts and splits: a
// daughter's history starts at its split; the parent's stays.
//
// Plain values; the queries live on Workspace (workspace.h).
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "keyscope/bytes.h"

namespace keyscope {

// Why one second: workloads on a desktop run for seconds to minutes, and a
// heatmap wants tens to hundreds of time columns over that; coarser windows
// are sums of these. Stored in the workspace: DO NOT CHANGE.
constexpr int64_t kStatsBucketMillis = 1000;

// [fromMillis, toMillis) of the workspace clock.
struct TimeWindow {
  int64_t fromMillis = 0;
  int64_t toMillis = std::numeric_limits<int64_t>::max();
};

// Counters for one region (or server, or grid cell) over some time.
struct LoadCounters {
  uint64_t reads = 0;          // gets, plus rows returned by scans
  uint64_t writes = 0;         // mutations (one per row and region), increments
  uint64_t cellsRead = 0;
  uint64_t cellsWritten = 0;
  uint64_t bytesRead = 0;      // key + value bytes of the cells returned
  uint64_t bytesWritten = 0;   // key + value bytes of the cells written

  void add(const LoadCounters& other);
  bool operator==(const LoadCounters&) const = default;
};

enum class LoadMetric : uint8_t {
  kReads,
  kWrites,
  kOperations,  // reads + writes
  kCellsRead,
  kCellsWritten,
  kBytesRead,
  kBytesWritten,
};
double metricValue(const LoadCounters& counters, LoadMetric metric);
const char* loadMetricName(LoadMetric metric);  // "reads", "writes", "operations", ...

// One region as the region table shows it (hbtop's columns and more).
struct RegionLoad {
  int64_t regionId = 0;
  Bytes startRow;
  Bytes endRow;
  int32_t server = 0;
  uint64_t rawBytes = 0;
  uint64_t storedBytes = 0;
  uint64_t memstoreBytes = 0;
  uint64_t cells = 0;
  uint32_t storeFiles = 0;
  LoadCounters total;          // since the region was created
  LoadCounters window;         // within the window asked for
  double readsPerSecond = 0;   // window.reads / the window's length (clipped to the region's life)
  double writesPerSecond = 0;
};

struct ServerLoad {
  int32_t server = 0;
  uint32_t regions = 0;        // regions of every table assigned to it now
  LoadCounters window;
};

// Load per server (or any other series) per time column.
struct LoadSeries {
  TimeWindow window;
  int64_t columnMillis = 0;
  uint32_t columns = 0;
  std::vector<int32_t> series;        // the servers, 0..n-1
  std::vector<LoadCounters> values;   // series.size() x columns, row-major by series

  const LoadCounters& at(size_t index, size_t column) const { return values[index * columns + column]; }
};

// Where the heat grid's rows (key buckets) come from.
enum class KeyAxis : uint8_t {
  kRegions,          // one bucket per region (regions alive in the window, by start key)
  kEqualKeyCounts,   // buckets holding equal numbers of keys, as Bigtable's Key Visualizer
  kSchemaComponent,  // by the decoded value of one key-schema component
};

struct HeatGridRequest {
  TimeWindow window;                  // required: both ends finite
  uint32_t timeColumns = 500;         // 1 ... 2000; the window is cut into equal columns
  uint32_t keyBuckets = 1000;         // 1 ... 5000 (kRegions ignores it)
  KeyAxis axis = KeyAxis::kEqualKeyCounts;
  LoadMetric metric = LoadMetric::kOperations;
  // kSchemaComponent: the component (by name, per the table's key schema)
  // whose values make the buckets; foldSalt instead orders keys by the
  // components after a leading salt or hash, so the fronts inside every salt
  // bucket line up ("fold the salt").
  std::string component;
  bool foldSalt = false;
};

struct HeatGridBucket {
  Bytes startRow;                     // first row key of the bucket (inclusive)
  Bytes endRow;                       // exclusive; empty: the end of the table
  std::string label;                  // decoded by the key schema when there is one
  std::optional<int64_t> regionId;    // kRegions only
  // False when the bucket is not one range of row keys: foldSalt buckets, and
  // kSchemaComponent buckets of a component after the first, gather rows from
  // many ranges. startRow and endRow then bound the bucket's axis keys (the
  // key after its salt, the component's encoded value) instead.
  bool keyRange = true;
};

// A region boundary appearing or vanishing inside the window (a split, a merge).
struct HeatGridBoundary {
  int64_t atMillis = 0;
  Bytes row;                          // the split or merge key
  enum class Kind : uint8_t { kSplit, kMerge } kind = Kind::kSplit;
};

struct HeatGrid {
  TimeWindow window;
  int64_t columnMillis = 0;           // width of one time column
  LoadMetric metric = LoadMetric::kOperations;
  std::vector<HeatGridBucket> buckets;       // key axis, in key order (rows of the grid)
  std::vector<double> values;                // buckets.size() x columns, row-major by bucket
  uint32_t columns = 0;
  double maxValue = 0;
  std::vector<HeatGridBoundary> boundaries;
  uint64_t statRowsRead = 0;                 // stored statistic rows the query read

  double at(size_t bucket, size_t column) const { return values[bucket * columns + column]; }
};

// The key-space histogram: stored data by key prefix or schema component.
struct KeyHistogramRequest {
  uint32_t prefixLength = 1;          // group by the first N bytes of the row key...
  std::string component;              // ...or, when set, by this schema component's value
  uint32_t maxBuckets = 256;          // the smallest groups beyond this merge into "other"
};

struct KeyHistogramBucket {
  Bytes prefix;                       // the group's key prefix (or the component's encoded bytes)
  std::string label;                  // printable form (decoded component, or escaped bytes)
  uint64_t cells = 0;                 // estimated from samples (see `sampled`)
  uint64_t bytes = 0;
};

struct KeyHistogram {
  std::vector<KeyHistogramBucket> buckets;   // in key order
  uint64_t totalCells = 0;
  uint64_t totalBytes = 0;
  double largestShare = 0;            // largest bucket's share of the cells, 0..1
  double quartiles[3] = {0, 0, 0};    // cells per bucket at the 25th, 50th and 75th percentile
  bool sampled = false;               // true when store files were sampled by block index
};

}  // namespace keyscope
