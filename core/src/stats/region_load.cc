// queryRegionLoad (stats_queries.h): the region table's load columns.
#include <algorithm>
#include <unordered_map>

#include "stats/stats_queries.h"
#include "stats/stats_store.h"
#include "stats/stats_time.h"

namespace keyscope::stats {

namespace {

// Why at least a second: counters come in whole seconds, so a region that
// lived 10 ms of a second with 5 writes in it did not write at 500/s.
constexpr int64_t kMinRateMillis = kStatsBucketMillis;

double perSecond(uint64_t count, int64_t millis) {
  return static_cast<double>(count) * 1000.0 / static_cast<double>(std::max(millis, kMinRateMillis));
}

}  // namespace

Result<std::vector<RegionLoad>> queryRegionLoad(sqlite3* db, const TableContext& table, const TimeWindow& window) {
  if (Status s = checkWindow(window, "region load"); !s) return s;
  std::unordered_map<int64_t, const RegionSpan*> spanOf;
  for (const RegionSpan& r : table.history) spanOf[r.regionId] = &r;

  const BucketRange range = bucketsIn(window);
  StatsReader reader(db);
  std::vector<RegionLoad> out;
  std::vector<RegionBucketRow> rows;
  for (const RegionSize& size : table.live) {
    const auto found = spanOf.find(size.regionId);
    if (found == spanOf.end())
      return Status::invalidArgument("region load: live region " + std::to_string(size.regionId) +
                                     " is not in the table's region history");
    const RegionSpan& span = *found->second;
    RegionLoad load;
    load.regionId = size.regionId;
    load.startRow = span.startRow;
    load.endRow = span.endRow;
    load.server = span.server;
    load.rawBytes = size.rawBytes;
    load.storedBytes = size.storedBytes;
    load.memstoreBytes = size.memstoreBytes;
    load.cells = size.cells;
    load.storeFiles = size.storeFiles;
    Result<LoadCounters> total = reader.regionTotal(size.regionId);
    if (!total) return total.status();
    load.total = *total;
    rows.clear();
    if (Status s = reader.regionBuckets(size.regionId, range, &rows); !s) return s;
    for (const RegionBucketRow& row : rows) load.window.add(row.counters);

    // The window clipped to the region's life.
    const int64_t from = std::max(window.fromMillis, span.createdMillis);
    int64_t to = window.toMillis;
    if (span.retiredMillis) to = std::min(to, *span.retiredMillis);
    if (table.nowMillis) to = std::min(to, *table.nowMillis);
    if (to == std::numeric_limits<int64_t>::max())
      to = rows.empty() ? from : bucketStart(rows.back().bucket + 1);
    const int64_t lived = to > from ? to - from : 0;
    load.readsPerSecond = perSecond(load.window.reads, lived);
    load.writesPerSecond = perSecond(load.window.writes, lived);
    out.push_back(std::move(load));
  }
  std::sort(out.begin(), out.end(), [](const RegionLoad& a, const RegionLoad& b) { return a.startRow < b.startRow; });
  return out;
}

}  // namespace keyscope::stats
