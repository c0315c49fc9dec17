// PageCache: store-file blocks kept in memory for hot reads.
//
// An LRU cache keyed by (store file id, block number within the file), with a
// capacity in bytes: each block is charged the bytes its buffer holds (its
// capacity, which a reused buffer may have beyond its size). Values are
// shared_ptr<const std::string>, so an iterator keeps the block it is reading
// alive after the cache evicts or erases it.
//
// A block is kept in one of two forms: decoded (its raw entries) or as
// stored (checked, still compressed). Store files keep framed blocks
// (store_file_format.h, format 6) as stored: the cache then holds about twice
// the cells, and a get decodes just the frame it needs. One key holds one
// form at a time.
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
#include <string_view>
#include <vector>

namespace keyscope::engine {

class PageCache {
 public:
  using Block = std::shared_ptr<const std::string>;
  enum class Form : uint8_t { kDecoded, kStored };

  static constexpr int kDefaultShardBits = 4;  // 16 shards: more than the cores of a desktop

  // shardBits in [0, 8]: 2^shardBits shards.
  explicit PageCache(size_t capacityBytes, int shardBits = kDefaultShardBits);
  ~PageCache();
  PageCache(const PageCache&) = delete;
  PageCache& operator=(const PageCache&) = delete;

  // The block in whichever form it is kept (*form, when given, says which),
  // now the most recently used of its shard; nullptr when absent. Counts a
  // hit or a miss.
  Block lookup(int64_t fileId, uint32_t blockNo, Form* form = nullptr);

  // Adds or replaces the block (in either form), evicting the least recently
  // used blocks of its shard until the shard fits its share.
  // REQUIRES: block != nullptr.
  void insert(int64_t fileId, uint32_t blockNo, Block block, Form form = Form::kDecoded);

  // A buffer of `size` bytes (contents unspecified) for a block about to be
  // decoded, reusing one a dropped block gave back when there is one.
  std::shared_ptr<std::string> newBlock(size_t size);

  // A copy of `stored`, a block as stored, to insert as Form::kStored: in a
  // buffer of about its size that a dropped copy gave back when there is
  // one. Blocks kept as stored come and go at every step of a scan, and
  // malloc serves their ~2 KiB slowly (on the scan's thread: 6% of it in a
  // profile of keyscope-read-probe's scans).
  Block copyStored(std::string_view stored);

  // A buffer of `size` bytes (contents unspecified) from the same buffers
  // as copyStored(), to read a block into as stored and insert without the
  // copy.
  std::shared_ptr<std::string> newStored(size_t size);

  // Drops every block of a store file (after the file is deleted). Costs a
  // walk of the cache: files are dropped rarely (compaction), reads are not.
  void eraseFile(int64_t fileId);

  size_t capacity() const { return m_capacity; }
  size_t usage() const;       // bytes charged, summed over the shards
  size_t entryCount() const;
  uint64_t hits() const { return m_hits.load(std::memory_order_relaxed); }
  uint64_t misses() const { return m_misses.load(std::memory_order_relaxed); }

 private:
  struct Shard;
  class BufferRecycler;
  class StoredBuffers;
  Shard& shardFor(uint64_t hash);

  size_t m_capacity;
  int m_shardBits;
  std::vector<std::unique_ptr<Shard>> m_shards;
  std::shared_ptr<BufferRecycler> m_recycler;  // shared with the blocks it made, which may outlive the cache
  std::shared_ptr<StoredBuffers> m_storedBuffers;  // the same, for copyStored()
  std::atomic<uint64_t> m_hits{0};
  std::atomic<uint64_t> m_misses{0};
};

}  // namespace keyscope::engine
