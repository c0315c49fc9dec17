// StatsWriter and StatsReader (stats_store.h).
#include "stats/stats_store.h"

#include <cmath>
#include <string>

namespace keyscope::stats {

namespace {

// Counters are stored as SQLite integers (int64); a counter past 2^63 would
// take centuries of a desktop workload.
int64_t stored(uint64_t v) { return static_cast<int64_t>(v); }
uint64_t loaded(int64_t v) { return v < 0 ? 0 : static_cast<uint64_t>(v); }

void bindCounters(engine::Statement& st, int first, const LoadCounters& c) {
  st.bindInt(first, stored(c.reads));
  st.bindInt(first + 1, stored(c.writes));
  st.bindInt(first + 2, stored(c.cellsRead));
  st.bindInt(first + 3, stored(c.cellsWritten));
  st.bindInt(first + 4, stored(c.bytesRead));
  st.bindInt(first + 5, stored(c.bytesWritten));
}

LoadCounters countersAt(const engine::Statement& st, int first) {
  LoadCounters c;
  c.reads = loaded(st.columnInt(first));
  c.writes = loaded(st.columnInt(first + 1));
  c.cellsRead = loaded(st.columnInt(first + 2));
  c.cellsWritten = loaded(st.columnInt(first + 3));
  c.bytesRead = loaded(st.columnInt(first + 4));
  c.bytesWritten = loaded(st.columnInt(first + 5));
  return c;
}

#define KEYSCOPE_COUNTER_COLUMNS "reads, writes, cells_read, cells_written, bytes_read, bytes_written"
#define KEYSCOPE_ADD_COUNTERS                                                                              \
  " ON CONFLICT DO UPDATE SET reads = reads + excluded.reads, writes = writes + excluded.writes,"          \
  " cells_read = cells_read + excluded.cells_read, cells_written = cells_written + excluded.cells_written," \
  " bytes_read = bytes_read + excluded.bytes_read, bytes_written = bytes_written + excluded.bytes_written"

}  // namespace

// --- StatsWriter --------------------------------------------------------------

Status StatsWriter::addRegionBucket(int64_t regionId, int64_t bucket, int32_t server, const LoadCounters& c) {
  if (Status s = m_regionBucket.prepareOnce(m_db,
                                            "INSERT INTO region_stats(region_id, bucket, server, " KEYSCOPE_COUNTER_COLUMNS
                                            ") VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)" KEYSCOPE_ADD_COUNTERS);
      !s)
    return s;
  m_regionBucket.bindInt(1, regionId);
  m_regionBucket.bindInt(2, bucket);
  m_regionBucket.bindInt(3, server);
  bindCounters(m_regionBucket, 4, c);
  return m_regionBucket.run("storing region statistics");
}

Status StatsWriter::addRegionTotal(int64_t tableId, int64_t regionId, const LoadCounters& c) {
  if (Status s = m_regionTotal.prepareOnce(m_db, "INSERT INTO region_totals(region_id, table_id, " KEYSCOPE_COUNTER_COLUMNS
                                                 ") VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)" KEYSCOPE_ADD_COUNTERS);
      !s)
    return s;
  m_regionTotal.bindInt(1, regionId);
  m_regionTotal.bindInt(2, tableId);
  bindCounters(m_regionTotal, 3, c);
  return m_regionTotal.run("storing region statistics");
}

Status StatsWriter::addServerBucket(int64_t bucket, int32_t server, const LoadCounters& c) {
  if (Status s = m_serverBucket.prepareOnce(m_db, "INSERT INTO server_stats(bucket, server, " KEYSCOPE_COUNTER_COLUMNS
                                                  ") VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)" KEYSCOPE_ADD_COUNTERS);
      !s)
    return s;
  m_serverBucket.bindInt(1, bucket);
  m_serverBucket.bindInt(2, server);
  bindCounters(m_serverBucket, 3, c);
  return m_serverBucket.run("storing server statistics");
}

Status StatsWriter::mergeSamples(int64_t tableId, int64_t bucket, const Reservoir& pending) {
  if (Status s = m_selectSet.prepareOnce(
          m_db, "SELECT threshold FROM key_sample_sets WHERE table_id = ?1 AND bucket = ?2");
      !s)
    return s;
  m_selectSet.bindInt(1, tableId);
  m_selectSet.bindInt(2, bucket);
  bool stored = false;
  double storedThreshold = Reservoir::kNoThreshold;
  if (Status s = m_selectSet.eachRow("reading a key sample",
                                     [&] {
                                       stored = true;
                                       if (!m_selectSet.columnIsNull(0)) storedThreshold = m_selectSet.columnDouble(0);
                                     });
      !s)
    return s;

  const Reservoir* result = &pending;
  if (stored) {
    // The bucket was persisted in part before: its sample is the merge of both parts.
    m_merged.clear();
    if (Status s = m_selectSamples.prepareOnce(m_db,
                                               "SELECT region_id, row, kind, weight, cells, bytes, rank"
                                               " FROM key_samples WHERE table_id = ?1 AND bucket = ?2");
        !s)
      return s;
    m_selectSamples.bindInt(1, tableId);
    m_selectSamples.bindInt(2, bucket);
    const engine::Statement& row = m_selectSamples;
    if (Status s = m_selectSamples.eachRow("reading a key sample",
                                           [&] {
                                             m_merged.offer(row.columnDouble(6), row.columnBlob(1), row.columnInt(0),
                                                            row.columnDouble(3), row.columnDouble(4),
                                                            row.columnDouble(5), row.columnInt(2) != 0);
                                           });
        !s)
      return s;
    m_merged.lowerThreshold(storedThreshold);
    m_merged.merge(pending);
    result = &m_merged;

    if (Status s =
            m_deleteSamples.prepareOnce(m_db, "DELETE FROM key_samples WHERE table_id = ?1 AND bucket = ?2");
        !s)
      return s;
    m_deleteSamples.bindInt(1, tableId);
    m_deleteSamples.bindInt(2, bucket);
    if (Status s = m_deleteSamples.run("replacing a key sample"); !s) return s;
  }

  if (Status s = m_insertSample.prepareOnce(m_db,
                                            "INSERT INTO key_samples(table_id, bucket, slot, region_id, row, kind,"
                                            " weight, cells, bytes, rank) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)");
      !s)
    return s;
  int64_t slot = 0;
  for (const OperationSample& sample : result->samples()) {
    m_insertSample.bindInt(1, tableId);
    m_insertSample.bindInt(2, bucket);
    m_insertSample.bindInt(3, slot++);
    m_insertSample.bindInt(4, sample.regionId);
    m_insertSample.bindBlob(5, sample.row);
    m_insertSample.bindInt(6, sample.write ? 1 : 0);
    m_insertSample.bindDouble(7, sample.weight);
    m_insertSample.bindDouble(8, sample.cells);
    m_insertSample.bindDouble(9, sample.bytes);
    m_insertSample.bindDouble(10, sample.rank);
    if (Status s = m_insertSample.run("storing a key sample"); !s) return s;
  }

  if (Status s = m_upsertSet.prepareOnce(
          m_db, "INSERT OR REPLACE INTO key_sample_sets(table_id, bucket, threshold) VALUES(?1, ?2, ?3)");
      !s)
    return s;
  m_upsertSet.bindInt(1, tableId);
  m_upsertSet.bindInt(2, bucket);
  if (std::isfinite(result->threshold()))
    m_upsertSet.bindDouble(3, result->threshold());
  else
    m_upsertSet.bindNull(3);
  return m_upsertSet.run("storing a key sample");
}

// --- StatsReader --------------------------------------------------------------

Status StatsReader::regionBuckets(int64_t regionId, BucketRange range, std::vector<RegionBucketRow>* out) {
  if (range.first >= range.end) return Status::ok();
  if (Status s = m_regionBuckets.prepareOnce(m_db, "SELECT bucket, server, " KEYSCOPE_COUNTER_COLUMNS
                                                   " FROM region_stats WHERE region_id = ?1 AND bucket >= ?2"
                                                   " AND bucket < ?3 ORDER BY bucket, server");
      !s)
    return s;
  m_regionBuckets.bindInt(1, regionId);
  m_regionBuckets.bindInt(2, range.first);
  m_regionBuckets.bindInt(3, range.end);
  const engine::Statement& row = m_regionBuckets;
  return m_regionBuckets.eachRow("reading region statistics", [&] {
    ++m_rowsRead;
    out->push_back({row.columnInt(0), static_cast<int32_t>(row.columnInt(1)), countersAt(row, 2)});
  });
}

Result<LoadCounters> StatsReader::regionTotal(int64_t regionId) {
  if (Status s = m_regionTotal.prepareOnce(
          m_db, "SELECT " KEYSCOPE_COUNTER_COLUMNS " FROM region_totals WHERE region_id = ?1");
      !s)
    return s;
  m_regionTotal.bindInt(1, regionId);
  LoadCounters total;
  if (Status s = m_regionTotal.eachRow("reading region statistics",
                                       [&] {
                                         ++m_rowsRead;
                                         total = countersAt(m_regionTotal, 0);
                                       });
      !s)
    return s;
  return total;
}

Status StatsReader::serverBuckets(BucketRange range, std::vector<ServerBucketRow>* out) {
  if (range.first >= range.end) return Status::ok();
  if (Status s = m_serverBuckets.prepareOnce(m_db, "SELECT bucket, server, " KEYSCOPE_COUNTER_COLUMNS
                                                   " FROM server_stats WHERE bucket >= ?1 AND bucket < ?2"
                                                   " ORDER BY bucket, server");
      !s)
    return s;
  m_serverBuckets.bindInt(1, range.first);
  m_serverBuckets.bindInt(2, range.end);
  const engine::Statement& row = m_serverBuckets;
  return m_serverBuckets.eachRow("reading server statistics", [&] {
    ++m_rowsRead;
    out->push_back({row.columnInt(0), static_cast<int32_t>(row.columnInt(1)), countersAt(row, 2)});
  });
}

Status StatsReader::samples(int64_t tableId, BucketRange range, std::vector<StoredSample>* out,
                            std::vector<SampleThreshold>* thresholds) {
  if (range.first >= range.end) return Status::ok();
  if (Status s = m_thresholds.prepareOnce(m_db,
                                          "SELECT bucket, threshold FROM key_sample_sets WHERE table_id = ?1"
                                          " AND bucket >= ?2 AND bucket < ?3 ORDER BY bucket");
      !s)
    return s;
  m_thresholds.bindInt(1, tableId);
  m_thresholds.bindInt(2, range.first);
  m_thresholds.bindInt(3, range.end);
  const engine::Statement& set = m_thresholds;
  if (Status s = m_thresholds.eachRow("reading key samples",
                                      [&] {
                                        ++m_rowsRead;
                                        thresholds->push_back({set.columnInt(0), set.columnIsNull(1)
                                                                                     ? Reservoir::kNoThreshold
                                                                                     : set.columnDouble(1)});
                                      });
      !s)
    return s;

  if (Status s = m_samples.prepareOnce(m_db,
                                       "SELECT bucket, region_id, row, kind, weight, cells, bytes, rank"
                                       " FROM key_samples WHERE table_id = ?1 AND bucket >= ?2 AND bucket < ?3"
                                       " ORDER BY bucket, slot");
      !s)
    return s;
  m_samples.bindInt(1, tableId);
  m_samples.bindInt(2, range.first);
  m_samples.bindInt(3, range.end);
  const engine::Statement& row = m_samples;
  return m_samples.eachRow("reading key samples", [&] {
    ++m_rowsRead;
    StoredSample s;
    s.bucket = row.columnInt(0);
    s.sample.regionId = row.columnInt(1);
    s.sample.row = Bytes(row.columnBlob(2));
    s.sample.write = row.columnInt(3) != 0;
    s.sample.weight = row.columnDouble(4);
    s.sample.cells = row.columnDouble(5);
    s.sample.bytes = row.columnDouble(6);
    s.sample.rank = row.columnDouble(7);
    out->push_back(std::move(s));
  });
}

#undef KEYSCOPE_ADD_COUNTERS
#undef KEYSCOPE_COUNTER_COLUMNS

}  // namespace keyscope::stats
