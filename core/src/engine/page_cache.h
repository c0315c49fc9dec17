// PageCache: store-file blocks kept in memory for hot reads.
//
// An LRU cache keyed by (store file id, block number within the file), with a
// capacity in bytes: each block is charged the bytes its buffer holds (its
// capacity, which a reused buffer may have beyond its size) plus
// kEntryOverhead for the entry's bookkeeping. Values are
// shared_ptr<const std::string>, so an iterator keeps the block it is reading
// alive after the cache evicts or erases it.
//
// A block is cached in one of two forms: decoded (decompressed, ready to
// read), or as stored (its checksummed, compressed bytes, to be decoded at
// each read, but in less than half the room). Gets cache the blocks they
// read as stored: a random get rarely meets its block again soon, so the
// room buys more blocks rather than cheaper hits (with the benchmark's 5 M
// cells and a 64 MiB cache, about twice the blocks). A stored block read
// again while it is still among the most recently read of its shard (within
// the last 1/kHotWindow of its entries' reads) is hot: its reader caches it
// decoded in its place, so hot reads cost no decompression. Scans cache the
// blocks they decode, decoded.
//
// Blocks made with newBlock() give their buffer back to the cache when their
// last holder drops them, and the next newBlock() reuses it: a scan makes and
// drops a block at every step, and a fresh 4 KiB buffer from malloc cost it
// more than the cache's bookkeeping (malloc's slow path, a page fault, the
// zero-fill).
//
// Threads: every method is thread-safe. The cache is split into shards
// (16 by default), each an independent LRU with its own mutex and an equal
// share of the capacity, so concurrent readers rarely wait on one another. A
// block larger than a shard's share is not kept.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace keyscope::engine {

class PageCache {
 public:
  using Block = std::shared_ptr<const std::string>;

  enum class Form : uint8_t { kDecoded, kStored };

  struct Found {
    Block block;  // null when absent
    Form form = Form::kDecoded;
    // A stored block read again soon (see above): its reader should insert
    // the block decoded.
    bool hot = false;
  };

  static constexpr int kDefaultShardBits = 4;  // 16 shards: more than the cores of a desktop
  // What an entry holds besides its buffer's bytes: the entry (64 bytes),
  // the shared_ptr's control block and the std::string, and malloc's
  // headers of the three allocations. Charged so that a cache of small
  // stored blocks keeps to its budget in memory as well as in bytes.
  static constexpr size_t kEntryOverhead = 160;
  // A stored block read again within the last count/kHotWindow reads and
  // inserts of its shard is hot (within the last one, in a shard of fewer
  // than kHotWindow entries). With uniformly random gets a block is read
  // again after about as many reads as the cache has entries, so few of
  // those turn hot.
  static constexpr size_t kHotWindow = 16;

  // shardBits in [0, 8]: 2^shardBits shards. entryOverhead: charged per
  // entry besides its bytes (0 lets a test count bytes alone).
  explicit PageCache(size_t capacityBytes, int shardBits = kDefaultShardBits,
                     size_t entryOverhead = kEntryOverhead);
  ~PageCache();
  PageCache(const PageCache&) = delete;
  PageCache& operator=(const PageCache&) = delete;

  // The block in whichever form it is cached, now the most recently used of
  // its shard; a null block when absent. Counts a hit or a miss.
  Found lookup(int64_t fileId, uint32_t blockNo);

  // Adds or replaces the block, evicting the least recently used blocks of its
  // shard until the shard fits its share. REQUIRES: block != nullptr.
  void insert(int64_t fileId, uint32_t blockNo, Block block, Form form = Form::kDecoded);

  // A buffer of `size` bytes (contents unspecified) for a block about to be
  // decoded, reusing one a dropped block gave back when there is one.
  std::shared_ptr<std::string> newBlock(size_t size);

  // Drops every block of a store file (after the file is deleted). Costs a
  // walk of the cache: files are dropped rarely (compaction), reads are not.
  void eraseFile(int64_t fileId);

  size_t capacity() const { return m_capacity; }
  size_t usage() const;       // bytes charged (overheads included), summed over the shards
  size_t entryCount() const;
  uint64_t hits() const { return m_hits.load(std::memory_order_relaxed); }
  uint64_t misses() const { return m_misses.load(std::memory_order_relaxed); }

 private:
  struct Shard;
  class BufferRecycler;
  Shard& shardFor(uint64_t hash);

  size_t m_capacity;
  int m_shardBits;
  size_t m_entryOverhead;
  std::vector<std::unique_ptr<Shard>> m_shards;
  std::shared_ptr<BufferRecycler> m_recycler;  // shared with the blocks it made, which may outlive the cache
  std::atomic<uint64_t> m_hits{0};
  std::atomic<uint64_t> m_misses{0};
};

}  // namespace keyscope::engine
