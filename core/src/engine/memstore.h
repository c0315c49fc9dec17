// Memstore: the in-memory sorted buffer of one region's family, between the
// write-ahead log and the next flush.
//
// Entries go into a skip list over an arena, after LevelDB's db/skiplist.h:
// entries are only ever added, never changed or removed, so readers need no
// lock. Each entry carries an mvcc number; a reader passes its read point and
// sees only entries at or below it, which is what makes a batch appear all at
// once. The same internal key added twice keeps both entries; iterators yield
// the newest visible one (HBase: "only the last written is fetchable").
//
// Segments, as HBase's in-memory flush (CompactingMemStore): when the skip
// list taking adds holds segmentEntries entries, it is frozen into a sorted
// array of its entries and a new, empty skip list takes the adds. A random
// write searches a skip list of a few thousand entries, whose nodes stay in
// the CPU's caches, instead of one of a whole memstore (hundreds of thousands
// of nodes, a cache miss at nearly every step): measured, 2.0 us per add into
// one skip list of 600,000 entries against 0.4 us with 16,384-entry segments.
// Readers merge the segments (a heap, MergingIterator), newest first; what
// stays in order is the entries' (key asc, mvcc desc), so a merge yields the
// same as one skip list would. Each frozen segment keeps a bloom filter of its
// rows, so a get searches only the segments that may hold its row: without
// them a get over a full memstore (36 segments) took 57 us, against 3.3 us
// in one skip list.
//
// Threads: add() by one writer at a time (the workspace's write lock);
// iterators and approximateBytes() from any thread, concurrently with add().
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "engine/arena_block_pool.h"
#include "engine/internal_iterator.h"
#include "keyscope/bytes.h"

namespace keyscope::engine {

// The arena bytes of a workspace's memstores, for its memory limit: those still
// taking writes (active) and those switched out for a flush that has not yet
// been installed (flushing). A memstore that dies uncounted-out (a dropped
// table's, say) takes its bytes out itself.
//
// It also keeps the arena blocks of flushed memstores for the next ones
// (ArenaBlockPool); a budget made with poolBytes 0 keeps none.
struct MemstoreBudget {
  // limitBytes: the workspace's memstore limit (OpenOptions), 0 for none.
  explicit MemstoreBudget(size_t poolBytes = 0, uint64_t limitBytes = 0)
      : pool(poolBytes), limit(limitBytes) {}
  std::atomic<uint64_t> active{0};
  std::atomic<uint64_t> flushing{0};
  // Full-size arena blocks that live memstores hold, used or not.
  std::atomic<size_t> blocksInUse{0};
  // Writers waiting for a flush to make room (the workspace's backpressure).
  std::atomic<int> waitingWriters{0};
  uint64_t held() const { return active.load(std::memory_order_relaxed) + flushing.load(std::memory_order_relaxed); }

  // Whether writes are under way for the pool to keep blocks for: the
  // memstores taking writes hold a block of them or more (besides
  // `ownActive`, a dying memstore's own), a writer waits for room, or a
  // memstore asked the pool for a block within kPoolQuiet. The last two
  // matter: a load's writer that outruns its flushes waits with every
  // memstore switched out (none active), and a memstore that just took over
  // from a flushed one holds less than a block. Asking only the active
  // bytes, the pool let its blocks go at those moments: the benchmark's
  // key-ordered load mapped about 180 new huge pages for its memstores,
  // where 64 hold all it ever has in memory at once
  // (docs/PERFORMANCE-HISTORY.md, 2026-11-30).
  static constexpr std::chrono::milliseconds kPoolQuiet{250};
  bool writesUnderWay(ArenaBlockPool::Clock::time_point now, uint64_t ownActive = 0) const {
    return active.load(std::memory_order_relaxed) >= ownActive + ArenaBlockPool::kBlockBytes ||
           waitingWriters.load(std::memory_order_relaxed) > 0 || now - pool.lastAsk() < kPoolQuiet;
  }

  // Gives a dying memstore's full-size block (no longer counted in
  // blocksInUse) to the pool, which keeps it only while the memstores'
  // full-size blocks and the pool's together stay within the limit: kept
  // blocks never take the arena past what the limit lets memstores map.
  void giveBlock(char* block) {
    const uint64_t inUse =
        uint64_t{blocksInUse.load(std::memory_order_relaxed)} * ArenaBlockPool::kBlockBytes;
    pool.give(block, limit == 0       ? SIZE_MAX
                     : inUse >= limit ? 0
                                      : static_cast<size_t>(limit - inUse));
  }

  // Lets the pool's blocks go when no writes are under way (at once), or
  // once no memstore has asked for a block for kPoolIdle (longer than a
  // writer waits for a flush to make room, in the benchmark's loads). The
  // workspace calls it after each background task and when idle.
  static constexpr std::chrono::seconds kPoolIdle{2};
  void trimPool(ArenaBlockPool::Clock::time_point now) {
    if (!writesUnderWay(now)) {
      pool.releaseAll();
    } else {
      pool.releaseIfIdle(now, kPoolIdle);
    }
  }
  ArenaBlockPool pool;
  const uint64_t limit;
};

class Memstore {
 public:
  static constexpr size_t kDefaultSegmentEntries = 16384;

  // budget: shared, as a scanner may keep a memstore beyond its workspace.
  // segmentEntries: the adds a skip list takes before it is frozen (tests
  // lower it to exercise many segments).
  explicit Memstore(std::shared_ptr<MemstoreBudget> budget = nullptr,
                    size_t segmentEntries = kDefaultSegmentEntries);
  ~Memstore();
  Memstore(const Memstore&) = delete;
  Memstore& operator=(const Memstore&) = delete;

  // REQUIRES: a well-formed internal key; mvcc greater than any added before.
  void add(BytesView key, BytesView value, uint64_t mvcc);

  // The budget's part in a flush: switched out (no more adds), then written.
  // Each once, in that order, by the one writer or the flush holding it.
  void markFlushing();
  void markFlushed();

  // Entries with mvcc <= readPoint, newest first among equal keys, each key
  // once. getRow: for a get, the row's rowStartKey(); frozen segments whose
  // filter rules it out are left out (the iterator then holds that row's
  // entries, and maybe others). Empty: every entry.
  std::unique_ptr<InternalIterator> newIterator(uint64_t readPoint, BytesView getRow = {}) const;

  // Arena bytes in use: what a flush is triggered by.
  uint64_t approximateBytes() const { return m_bytes.load(std::memory_order_relaxed); }
  uint64_t entryCount() const { return m_entries.load(std::memory_order_relaxed); }
  bool empty() const { return entryCount() == 0; }
  int64_t minTimestamp() const { return m_minTs.load(std::memory_order_relaxed); }
  int64_t maxTimestamp() const { return m_maxTs.load(std::memory_order_relaxed); }
  // Whether a DeleteFamily or DeleteFamilyVersion marker was ever added.
  // Counted before the write's read point is published, so a reader that
  // can see a marker sees this too.
  bool hasFamilyMarkers() const { return m_familyMarkers.load(std::memory_order_relaxed) != 0; }

  // True when every level of every skip list is in entry order and every
  // frozen segment too. Searches stay correct over a disordered upper level
  // (level 0 decides), only slower, so tests of what reads return cannot see
  // that kind of damage; this can.
  bool levelsInOrder() const;
  // Frozen segments so far (tests).
  size_t frozenSegmentCount() const;

  struct Node;
  struct SkipList;
  struct FrozenSegment;

 private:
  friend class MemstoreIterator;
  friend class FrozenSegmentIterator;
  static constexpr int kMaxHeight = 12;

  void populateThrough(const char* end);  // maps the arena's pages ahead of the writes
  char* allocate(size_t bytes);
  SkipList* newSkipList();
  int randomHeight();
  // Freezes the skip list taking adds into a segment and starts a new one.
  void freezeActive();
  // Compares entry a (key, mvcc) with b: key asc, then mvcc desc.
  static int compare(const Node* a, BytesView key, uint64_t mvcc);
  static Node* findGreaterOrEqual(const SkipList& list, BytesView key, uint64_t mvcc, Node** prev);
  static Node* findLessThan(const SkipList& list, BytesView key);

  // One arena block: pages mapped for this memstore alone, zeroed or, when
  // taken from the pool, as the memstore before left them. A block of the
  // pool's size is counted in the budget's blocksInUse while it lives, and
  // goes back to the budget's pool when the memstore dies.
  struct Block {
    // Takes a block from `budget`'s pool when it keeps one of this size,
    // else maps one; throws std::bad_alloc when the kernel refuses.
    Block(size_t bytes, MemstoreBudget* budget);
    ~Block();
    Block(Block&& other) noexcept
        : data(std::exchange(other.data, nullptr)),
          size(other.size),
          budget(other.budget),
          toPool(other.toPool),
          resident(other.resident) {}
    Block(const Block&) = delete;
    Block& operator=(const Block&) = delete;
    Block& operator=(Block&&) = delete;
    char* data;
    size_t size;
    MemstoreBudget* budget;  // set for a full-size block of a budgeted memstore
    bool toPool = true;      // false: unmapped when the memstore dies
    bool resident = false;  // taken from the pool: its pages are mapped already
  };

  enum class BudgetState { kActive, kFlushing, kFlushed };

  std::shared_ptr<MemstoreBudget> m_budget;
  BudgetState m_budgetState = BudgetState::kActive;
  size_t m_segmentEntries;
  // The skip list taking adds, and the frozen segments, oldest first. Both
  // live in the arena, so they last as long as the memstore; readers take
  // them under m_segmentsMutex (a freeze changes both at once).
  SkipList* m_active = nullptr;
  std::vector<const FrozenSegment*> m_frozen;
  mutable std::mutex m_segmentsMutex;
  std::vector<const SkipList*> m_lists;  // every skip list, for levelsInOrder()
  size_t m_activeEntries = 0;            // add() only
  // add() only: the entry added last and, at each level, the node after which
  // an entry just after it would go (itself up to its height, its
  // predecessors above): where the search for an entry after it starts.
  Node* m_last = nullptr;
  Node* m_finger[kMaxHeight];
  std::vector<Block> m_blocks;
  char* m_allocPtr = nullptr;
  size_t m_allocRemaining = 0;
  char* m_populatedEnd = nullptr;  // the current block's pages before here are mapped
  size_t m_nextBlock = 2 << 10;  // doubled before each new block: the first is 4 KiB
  uint32_t m_random = 0xdeadbeef;
  std::atomic<uint64_t> m_bytes{0};
  std::atomic<uint64_t> m_entries{0};
  std::atomic<int64_t> m_minTs{INT64_MAX};
  std::atomic<int64_t> m_maxTs{INT64_MIN};
  std::atomic<uint64_t> m_familyMarkers{0};
};

}  // namespace keyscope::engine
