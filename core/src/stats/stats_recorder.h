// StatsRecorder: counts the load charged to regions and servers, per time
// bucket (kStatsBucketMillis of the workspace clock), and keeps a weighted
// sample of the row keys touched per table and bucket, until persist()
// writes them to the workspace's statistics tables (stats_schema.h).
//
// Threads: every method is thread-safe. record*() are called on the write
// path (under the workspace's writer lock) and by any number of readers; they
// take one short mutex and allocate only when a new (region, bucket, server)
// or a new sample slot appears.
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

  // One write (a mutation of one row in one region, or an increment).
  void recordWrite(const ChargeTarget& target, BytesView row, uint64_t cells, uint64_t bytes, int64_t nowMillis);
  // Reads: `rows` gets or scanned rows, with their cells and bytes returned.
  // `sampleRows` are some of those rows (all of them for a get; a scanner
  // passes a few it kept), each standing for rows / sampleRows.size() reads.
  void recordReads(const ChargeTarget& target, uint64_t rows, uint64_t cells, uint64_t bytes,
                   std::span<const BytesView> sampleRows, int64_t nowMillis);

  // Writes everything recorded so far to the statistics tables and forgets
  // it (counters are added to rows already stored for the same bucket).
  // The caller owns the connection and runs this inside its own transaction.
  Status persist(sqlite3* db);
  bool empty() const;

 private:
  struct State;
  mutable std::mutex m_mutex;
  std::unique_ptr<State> m_state;
};

}  // namespace keyscope::stats
