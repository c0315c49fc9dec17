// queryServerLoad and queryServerLoadSeries (stats_queries.h): the load of
// the simulated servers, from server_stats (servers x seconds rows).
#include <algorithm>
#include <map>

#include "stats/stats_queries.h"
#include "stats/stats_store.h"
#include "stats/stats_time.h"

namespace keyscope::stats {

namespace {
constexpr uint32_t kMaxColumns = 2000;
constexpr int32_t kMaxServers = 1000;
}  // namespace

Result<std::vector<ServerLoad>> queryServerLoad(sqlite3* db, const std::vector<uint32_t>& regionsPerServer,
                                                const TimeWindow& window) {
  if (Status s = checkWindow(window, "server load"); !s) return s;
  StatsReader reader(db);
  std::vector<ServerBucketRow> rows;
  if (Status s = reader.serverBuckets(bucketsIn(window), &rows); !s) return s;
  std::map<int32_t, ServerLoad> byServer;
  for (size_t i = 0; i < regionsPerServer.size(); ++i) {
    ServerLoad& load = byServer[static_cast<int32_t>(i)];
    load.server = static_cast<int32_t>(i);
    load.regions = regionsPerServer[i];
  }
  for (const ServerBucketRow& row : rows) {
    ServerLoad& load = byServer[row.server];
    load.server = row.server;
    load.window.add(row.counters);
  }
  std::vector<ServerLoad> out;
  out.reserve(byServer.size());
  for (auto& [server, load] : byServer) out.push_back(load);
  return out;
}

Result<LoadSeries> queryServerLoadSeries(sqlite3* db, int32_t servers, const TimeWindow& window, uint32_t columns) {
  if (Status s = checkFiniteWindow(window, "server load series"); !s) return s;
  if (columns < 1 || columns > kMaxColumns)
    return Status::invalidArgument("server load series: columns must be 1 ... " + std::to_string(kMaxColumns) +
                                   ", not " + std::to_string(columns));
  if (servers < 1 || servers > kMaxServers)
    return Status::invalidArgument("server load series: servers must be 1 ... " + std::to_string(kMaxServers) +
                                   ", not " + std::to_string(servers));
  StatsReader reader(db);
  std::vector<ServerBucketRow> rows;
  if (Status s = reader.serverBuckets(bucketsIn(window), &rows); !s) return s;

  const TimeColumns grid(window, columns);
  LoadSeries series;
  series.window = grid.covered();
  series.columnMillis = grid.columnMillis();
  series.columns = columns;
  for (int32_t s = 0; s < servers; ++s) series.series.push_back(s);
  for (const ServerBucketRow& row : rows)
    if (row.server < 0 || row.server >= servers) series.series.push_back(row.server);
  std::sort(series.series.begin(), series.series.end());
  series.series.erase(std::unique(series.series.begin(), series.series.end()), series.series.end());
  series.values.assign(series.series.size() * columns, LoadCounters{});
  for (const ServerBucketRow& row : rows) {
    const auto index = static_cast<size_t>(
        std::lower_bound(series.series.begin(), series.series.end(), row.server) - series.series.begin());
    series.values[index * columns + grid.columnOf(row.bucket)].add(row.counters);
  }
  return series;
}

}  // namespace keyscope::stats
