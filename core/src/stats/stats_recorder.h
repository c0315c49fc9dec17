// StatsRecorder: counts the load charged to regions and servers, per time
// bucket (kStatsBucketMillis of the workspace clock), and keeps a weighted
// sample of the operations per table and bucket (key_reservoir.h), until
// persist() adds them to the workspace's statistics tables (stats_schema.h).
//
// Counters are exact: every record call is counted once, and persisting in
// several parts adds up to the same rows as persisting once. Samples are
// reproducible: the same seed and the same sequence of calls (persists
// included, at the same points) keep the same samples.
//
// Threads: every method is thread-safe. record*() are called on the write
// path (under the workspace's writer lock) and by any number of readers; they
// take one short mutex and allocate only when a new (region, bucket, server)
// or (table, bucket) appears, or a sample slot takes a row longer than any it
// held. persist() holds the mutex only to take what is pending, so recording
// goes on while it writes.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include <sqlite3.h>

#include "keyscope/bytes.h"
#include "keyscope/statistics.h"
#include "keyscope/status.h"

namespace keyscope::stats {

// Where a charge lands.
struct ChargeTarget {
  int64_t tableId = 0;
  int64_t regionId = 0;
  int32_t server = 0;
};

class StatsRecorder {
 public:
  // `seed` makes the key samples reproducible for a reproducible sequence of
  // calls (a seeded, single-threaded workload).
  explicit StatsRecorder(uint64_t seed = 0x4b657973636f7065ull);
  ~StatsRecorder();
  StatsRecorder(const StatsRecorder&) = delete;
  StatsRecorder& operator=(const StatsRecorder&) = delete;

  // One write (a mutation of one row in one region, or an increment).
  void recordWrite(const ChargeTarget& target, BytesView row, uint64_t cells, uint64_t bytes, int64_t nowMillis);
  // Reads: `rows` gets or scanned rows, with their cells and bytes returned.
  // `sampleRows` are some of those rows (all of them for a get; a scanner
  // passes a few it kept), each standing for rows / sampleRows.size() reads.
  // With no sample rows the load is counted but not placed finer than its
  // region (the heat grid spreads it over the region). Nothing happens when
  // rows, cells and bytes are all zero.
  void recordReads(const ChargeTarget& target, uint64_t rows, uint64_t cells, uint64_t bytes,
                   std::span<const BytesView> sampleRows, int64_t nowMillis);

  // Adds everything recorded so far to the statistics tables and forgets it:
  // counters are added to the rows already stored for the same key, and a
  // bucket's stored sample is merged with the pending one. The caller owns
  // the connection and runs this inside its own write transaction (the
  // catalog's schema must include statsSchemaSql()). On failure what was
  // taken is put back to be persisted again; the caller should roll back.
  // A committed persist cannot be undone: a transaction rolled back after a
  // successful persist loses that part of the statistics (never data).
  // Cost: a few row writes per pending (region, bucket, server), and about
  // 2 x kReservoirCapacity per pending (table, bucket), so call it about
  // once per bucket (a second), and before a statistics query.
  Status persist(sqlite3* db);
  // True when nothing is pending.
  bool empty() const;

 private:
  struct State;
  struct Pending;
  mutable std::mutex m_mutex;
  std::unique_ptr<State> m_state;  // under m_mutex
};

}  // namespace keyscope::stats
