// The statistics tables' rows (stats_schema.cc): StatsWriter adds to them,
// StatsReader reads them by key ranges only (region and bucket, table and
// bucket, bucket and server), so a read costs the rows of its window.
// Every SQL statement of the statistics module is here.
//
// Threads: neither class is thread-safe; each belongs to the thread using
// its connection, and lives no longer than the connection.
#pragma once

#include <cstdint>
#include <vector>

#include <sqlite3.h>

#include "keyscope/statistics.h"
#include "keyscope/status.h"
#include "stats/key_reservoir.h"
#include "engine/sqlite_util.h"
#include "stats/stats_time.h"

namespace keyscope::stats {

class StatsWriter {
 public:
  explicit StatsWriter(sqlite3* db) : m_db(db) {}

  // Each adds `counters` to the stored row of its key (creating it).
  Status addRegionBucket(int64_t regionId, int64_t bucket, int32_t server, const LoadCounters& counters);
  Status addRegionTotal(int64_t tableId, int64_t regionId, const LoadCounters& counters);
  Status addServerBucket(int64_t bucket, int32_t server, const LoadCounters& counters);
  // Replaces the stored sample of (table, bucket) by its merge with `pending`.
  Status mergeSamples(int64_t tableId, int64_t bucket, const Reservoir& pending);

 private:

  sqlite3* m_db;
  engine::Statement m_regionBucket;
  engine::Statement m_regionTotal;
  engine::Statement m_serverBucket;
  engine::Statement m_selectSamples;
  engine::Statement m_selectSet;
  engine::Statement m_deleteSamples;
  engine::Statement m_insertSample;
  engine::Statement m_upsertSet;
  Reservoir m_merged;
};

struct RegionBucketRow {
  int64_t bucket = 0;
  int32_t server = 0;
  LoadCounters counters;
};

struct ServerBucketRow {
  int64_t bucket = 0;
  int32_t server = 0;
  LoadCounters counters;
};

struct StoredSample {
  int64_t bucket = 0;
  OperationSample sample;
};

struct SampleThreshold {
  int64_t bucket = 0;
  double threshold = Reservoir::kNoThreshold;
};

class StatsReader {
 public:
  explicit StatsReader(sqlite3* db) : m_db(db) {}

  // Appends the region's rows in `range`, by bucket then server.
  Status regionBuckets(int64_t regionId, BucketRange range, std::vector<RegionBucketRow>* out);
  // Zero counters for a region with none stored.
  Result<LoadCounters> regionTotal(int64_t regionId);
  // Appends every server's rows in `range`, by bucket then server.
  Status serverBuckets(BucketRange range, std::vector<ServerBucketRow>* out);
  // Appends the table's samples in `range` (by bucket) and the thresholds of
  // their buckets (by bucket).
  Status samples(int64_t tableId, BucketRange range, std::vector<StoredSample>* out,
                 std::vector<SampleThreshold>* thresholds);

  // Stored rows read so far.
  uint64_t rowsRead() const { return m_rowsRead; }

 private:
  sqlite3* m_db;
  engine::Statement m_regionBuckets;
  engine::Statement m_regionTotal;
  engine::Statement m_serverBuckets;
  engine::Statement m_samples;
  engine::Statement m_thresholds;
  uint64_t m_rowsRead = 0;
};

}  // namespace keyscope::stats
