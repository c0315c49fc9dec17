// ReaderPool: read-only SQLite connections for gets and scans, so reads never
// queue behind the writer's connection. LeasedPageSource borrows one lazily
// (on the first page that misses the page cache) and gives it back at
// release().
//
// Warm snapshots: a connection goes back to the pool with its page source's
// BLOB handle still open, so its read transaction (WAL snapshot) stays open,
// and the next read borrows it as it is when that snapshot is at most
// kWarmSnapshot old. Beginning a read transaction (the WAL index's locks and
// header, a file lock call) was about a fifth of a cached get's cost. An old
// snapshot reads the same bytes, as store-file pages are immutable and file
// ids are not reused while the workspace is open; a page committed after the
// snapshot is looked up again in a fresh one (SqlitePageSource). A held
// snapshot keeps checkpoints from passing it, so dropIdleSnapshots() ends
// those of idle connections; the workspace's worker calls it whenever it has
// nothing else to do (at least every half second) and after every task.
//
// Threads: the pool is thread-safe. A LeasedPageSource belongs to one read;
// its readahead() view may be used by a pool thread reading ahead for that
// read at the same time (the two take turns on the connection).
#pragma once

#include <sqlite3.h>

#include <atomic>
#include <chrono>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/sqlite_pages.h"
#include "engine/store_file.h"

namespace keyscope::engine {

class Catalog;
class LeasedPageSource;

// How old a snapshot a read may start from.
inline constexpr std::chrono::milliseconds kWarmSnapshot{2};
// How long a LeasedPageSource keeps one connection (and its snapshot): the
// first read after that gives it back and borrows again, so a compaction or
// a split reading for seconds does not hold the log's checkpoints back.
inline constexpr std::chrono::milliseconds kMaxLeaseHold{2};
// How long a lease that lasts across its owner's calls (a scanner's) may
// keep a connection unused before the pool takes it back
// (ReaderPool::dropIdleSnapshots()).
inline constexpr std::chrono::milliseconds kIdleLease{100};

// A pooled connection with its page source; `since` is when the source's
// snapshot began (or the connection was last handed out without one).
struct PooledReader {
  sqlite3* db = nullptr;
  std::unique_ptr<SqlitePageSource> pages;
  std::chrono::steady_clock::time_point since;
};

class ReaderPool {
 public:
  explicit ReaderPool(const Catalog* catalog) : m_catalog(catalog) {}
  ~ReaderPool();
  ReaderPool(const ReaderPool&) = delete;
  ReaderPool& operator=(const ReaderPool&) = delete;

  // A connection for page reads: with a warm snapshot when one is young
  // enough, else none (the first read begins one).
  Result<PooledReader> acquireReader();
  // Back to the pool, its snapshot kept warm.
  void releaseReader(PooledReader reader);

  // A connection for queries of its own (statistics), without a snapshot.
  Result<sqlite3*> acquire();
  void release(sqlite3* db);

  // Ends the snapshot of every idle connection, the connections of tracked
  // leases unused for kIdleLease included.
  void dropIdleSnapshots();

  // Leases that last across their owner's calls (LeasedPageSource::Span).
  void trackLease(LeasedPageSource* lease);
  void untrackLease(LeasedPageSource* lease);

 private:
  const Catalog* m_catalog;
  // Locks are taken in this order: m_leasesMutex, a lease's own, m_mutex.
  std::mutex m_leasesMutex;
  std::vector<LeasedPageSource*> m_leases;
  std::mutex m_mutex;
  std::vector<PooledReader> m_idle;
};

class LeasedPageSource final : public PageSource {
 public:
  // kOneCall: the lease of a read that ends before its caller regains
  // control (a get, a split's read), given back by then. kAcrossCalls: a
  // scanner's, which its caller may leave idle between two next() calls
  // while the lease holds a connection; the pool then takes the connection
  // back once it has lain unused for kIdleLease, so an idle scanner does
  // not hold checkpoints back.
  enum class Span { kOneCall, kAcrossCalls };

  explicit LeasedPageSource(ReaderPool* pool, Span span = Span::kOneCall);
  ~LeasedPageSource() override;
  LeasedPageSource(const LeasedPageSource&) = delete;
  LeasedPageSource& operator=(const LeasedPageSource&) = delete;

  // Borrows a connection if none is held, or again if the one held was
  // borrowed longer than kMaxLeaseHold ago.
  Status readRange(int64_t fileId, uint32_t pageNo, uint32_t offset, uint32_t length, std::string* out) override;
  // Returns the connection to the pool; the next read borrows one again.
  void release();
  // Whether a connection has been borrowed for longer than `limit` at `now`.
  // Without the lock: the scanner asks after every row.
  bool heldLongerThan(std::chrono::steady_clock::duration limit,
                      std::chrono::steady_clock::time_point now = std::chrono::steady_clock::now()) const {
    const auto acquired = m_acquiredTicks.load(std::memory_order_relaxed);
    return acquired != kNotHeld && now.time_since_epoch().count() - acquired > limit.count();
  }

  // The same reads for a pool thread fetching the blocks a scan reads ahead
  // (ReadContext::readaheadPages), safe beside the owner's own. A connection
  // borrowed for such a read is given back after it unless the owner held
  // one, so a scanner that released its connection between two next() calls
  // holds no snapshot while it is idle, whatever its readahead still fetches.
  PageSource* readahead() { return &m_readahead; }

  // For the pool: gives the connection back if it was last read more than
  // `unused` before `now`. Skips a lease whose read is under way.
  void releaseIfUnusedFor(std::chrono::steady_clock::duration unused, std::chrono::steady_clock::time_point now);

 private:
  class ReadaheadView final : public PageSource {
   public:
    explicit ReadaheadView(LeasedPageSource* owner) : m_owner(owner) {}
    Status readRange(int64_t fileId, uint32_t pageNo, uint32_t offset, uint32_t length,
                     std::string* out) override;

   private:
    LeasedPageSource* m_owner;
  };

  Status readLocked(int64_t fileId, uint32_t pageNo, uint32_t offset, uint32_t length, std::string* out);
  void releaseLocked();

  ReaderPool* m_pool;
  const Span m_span;
  ReadaheadView m_readahead;
  std::mutex m_mutex;  // the owner's and the readahead's turns on m_reader
  PooledReader m_reader;
  // When m_reader was borrowed, in steady_clock ticks; kNotHeld when none
  // is. Written under m_mutex.
  static constexpr std::chrono::steady_clock::rep kNotHeld = std::numeric_limits<std::chrono::steady_clock::rep>::min();
  std::atomic<std::chrono::steady_clock::rep> m_acquiredTicks{kNotHeld};
  std::chrono::steady_clock::time_point m_lastRead;  // under m_mutex
};

}  // namespace keyscope::engine
