#include "engine/page_cache.h"

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

namespace keyscope::engine {

namespace {

// splitmix64's finalizer: file ids and block numbers are small and dense, so
// they need mixing before their bits choose a shard and a bucket.
uint64_t mix(int64_t fileId, uint32_t blockNo) {
  uint64_t z = (static_cast<uint64_t>(fileId) << 32) ^ static_cast<uint64_t>(fileId) ^ blockNo;
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// A block's buffer and the pool it goes back to when its last holder drops
// it, allocated together with the shared_ptr's control block: a cached
// block's reference count and its string's pointer and size then share a
// cache line, where a deleter-owned string was a second allocation and a
// second cache miss on every hit.
template <typename Pool>
struct Recycled {
  Recycled(std::string b, std::shared_ptr<Pool> p) : buffer(std::move(b)), pool(std::move(p)) {}
  Recycled(const Recycled&) = delete;
  Recycled& operator=(const Recycled&) = delete;
  ~Recycled() { pool->giveBack(std::move(buffer)); }

  std::string buffer;
  std::shared_ptr<Pool> pool;
};

template <typename Pool>
std::shared_ptr<std::string> recycled(std::string buffer, std::shared_ptr<Pool> pool) {
  auto holder = std::make_shared<Recycled<Pool>>(std::move(buffer), std::move(pool));
  return {holder, &holder->buffer};  // aliasing: shares the holder's count
}

}  // namespace

// A shard keeps its entries in one allocation each, linked both into its LRU
// ring and into its hash table's bucket chain, and an insert that evicts
// reuses the evicted entry. A scan inserts and evicts a block at every step,
// and a std::list plus std::unordered_map cost two allocations and two frees
// per step, with cold misses on each; this costs none once the shard is full.
struct PageCache::Shard {
  // One cache line each (64 bytes, so aligned): a lookup reads the key and
  // the chain, and a hit relinks and copies the block, all in the line
  // (the 72-byte entries before, fields in another order, took two).
  struct alignas(64) Entry {
    int64_t fileId = 0;
    uint32_t blockNo = 0;
    Form form = Form::kDecoded;
    Entry* chain = nullptr;  // the next entry of the same bucket
    // The LRU ring through the shard's sentinel: next is the next older
    // entry, prev the next newer one.
    Entry* next = nullptr;
    Entry* prev = nullptr;
    uint64_t hash = 0;
    Block block;
  };
  static_assert(sizeof(Entry) == 64);

  explicit Shard(size_t cap) : buckets(kInitialBuckets, nullptr), capacity(cap) { lru.next = lru.prev = &lru; }
  ~Shard() {
    for (Entry* e = lru.next; e != &lru;) delete std::exchange(e, e->next);
  }
  Shard(const Shard&) = delete;
  Shard& operator=(const Shard&) = delete;

  static constexpr size_t kInitialBuckets = 64;

  // The sentinel: lru.next is the most recently used entry, lru.prev the least.
  std::mutex mutex;
  Entry lru;
  std::vector<Entry*> buckets;  // a power of two of them
  size_t count = 0;
  size_t capacity;
  size_t usage = 0;

  Entry** slotOf(uint64_t hash, int64_t fileId, uint32_t blockNo) {
    Entry** slot = &buckets[hash & (buckets.size() - 1)];
    while (*slot != nullptr && ((*slot)->fileId != fileId || (*slot)->blockNo != blockNo)) slot = &(*slot)->chain;
    return slot;
  }

  void linkNewest(Entry* e) {
    e->next = lru.next;
    e->prev = &lru;
    lru.next->prev = e;
    lru.next = e;
  }
  static void unlinkLru(Entry* e) {
    e->prev->next = e->next;
    e->next->prev = e->prev;
  }

  // Takes e out of the ring and its bucket, its charge out of usage.
  void remove(Entry* e) {
    unlinkLru(e);
    Entry** slot = slotOf(e->hash, e->fileId, e->blockNo);
    *slot = e->chain;
    usage -= e->block->capacity();
    --count;
  }

  void add(Entry* e) {
    if (count >= buckets.size()) grow();
    Entry*& bucket = buckets[e->hash & (buckets.size() - 1)];
    e->chain = bucket;
    bucket = e;
    linkNewest(e);
    usage += e->block->capacity();
    ++count;
  }

  // Entries taken out under the shard's lock, deleted (their blocks freed)
  // after it is released; linked through their chain pointers.
  class Dropped {
   public:
    Dropped() = default;
    Dropped(const Dropped&) = delete;
    Dropped& operator=(const Dropped&) = delete;
    ~Dropped() {
      while (m_first != nullptr) delete std::exchange(m_first, m_first->chain);
    }
    void push(Entry* e) { e->chain = std::exchange(m_first, e); }
    Entry* pop() { return m_first == nullptr ? nullptr : std::exchange(m_first, m_first->chain); }

   private:
    Entry* m_first = nullptr;
  };

  void grow() {
    std::vector<Entry*> wider(buckets.size() * 2, nullptr);
    for (Entry* e = lru.next; e != &lru; e = e->next) {
      Entry*& bucket = wider[e->hash & (wider.size() - 1)];
      e->chain = bucket;
      bucket = e;
    }
    buckets.swap(wider);
  }
};

// The buffers of dropped blocks, kept for newBlock(): a few, enough for the
// blocks a scan drops between two it makes, and bounded in bytes so a burst
// of large blocks does not stay resident.
class PageCache::BufferRecycler : public std::enable_shared_from_this<BufferRecycler> {
 public:
  static constexpr size_t kMaxBytes = size_t{1} << 20;

  std::shared_ptr<std::string> make(size_t size) {
    std::string buffer;
    {
      std::lock_guard<std::mutex> lock(m_mutex);
      if (!m_free.empty()) {
        buffer = std::move(m_free.back());
        m_free.pop_back();
        m_bytes -= buffer.capacity();
      }
    }
    if (buffer.capacity() < size) {
      // Rounded up, so the buffer fits the file's other blocks: they are all
      // at most the target size and most just under it. clear() first: the
      // old bytes need no copying.
      buffer.clear();
      buffer.reserve((size + 1023) & ~size_t{1023});
    }
    buffer.resize(size);  // within the capacity: no allocation; fills only bytes past the old size
    return recycled(std::move(buffer), shared_from_this());
  }

  void giveBack(std::string&& buffer) {
    std::lock_guard<std::mutex> lock(m_mutex);
    if (m_bytes + buffer.capacity() > kMaxBytes) return;  // freed
    m_bytes += buffer.capacity();
    m_free.push_back(std::move(buffer));
  }

 private:
  std::mutex m_mutex;
  std::vector<std::string> m_free;
  size_t m_bytes = 0;  // the capacity of the buffers in m_free
};

// The buffers of dropped copies of stored blocks, by size class, so that a
// copy takes a buffer of about its own size: stored blocks' sizes vary, and
// the cache charges a buffer's capacity. Bounded in bytes as BufferRecycler.
class PageCache::StoredBuffers : public std::enable_shared_from_this<StoredBuffers> {
 public:
  static constexpr size_t kClassBytes = 64;  // capacities are multiples of it
  static constexpr size_t kClasses = 128;    // buffers up to 8 KiB are kept
  static constexpr size_t kMaxBytes = size_t{1} << 20;

  Block copy(std::string_view stored) {
    std::string buffer = take(stored.size());
    buffer.assign(stored);  // within the capacity: no allocation
    return recycled(std::move(buffer), shared_from_this());
  }

  std::shared_ptr<std::string> make(size_t size) {
    std::string buffer = take(size);
    buffer.resize(size);  // within the capacity: no allocation
    return recycled(std::move(buffer), shared_from_this());
  }

  void giveBack(std::string&& buffer) {
    const size_t c = buffer.capacity() / kClassBytes;
    std::lock_guard<std::mutex> lock(m_mutex);
    if (c >= kClasses || m_bytes + buffer.capacity() > kMaxBytes) return;  // freed
    m_bytes += buffer.capacity();
    m_free[c].push_back(std::move(buffer));
  }

 private:
  // An empty buffer with room for `size` bytes: a dropped one of its size
  // class or the next (at most 127 bytes charged beyond what it will hold),
  // else a new one.
  std::string take(size_t size) {
    const size_t wanted = (size + kClassBytes - 1) / kClassBytes;
    std::string buffer;
    if (wanted < kClasses) {
      std::lock_guard<std::mutex> lock(m_mutex);
      for (size_t c = wanted; c < std::min(wanted + 2, kClasses); ++c) {
        if (m_free[c].empty()) continue;
        buffer = std::move(m_free[c].back());
        m_free[c].pop_back();
        m_bytes -= buffer.capacity();
        buffer.clear();
        return buffer;
      }
    }
    buffer.reserve(std::max<size_t>(wanted, 1) * kClassBytes);
    return buffer;
  }

  std::mutex m_mutex;
  std::array<std::vector<std::string>, kClasses> m_free;
  size_t m_bytes = 0;  // the capacity of the buffers in m_free
};

PageCache::PageCache(size_t capacityBytes, int shardBits)
    : m_capacity(capacityBytes),
      m_shardBits(std::clamp(shardBits, 0, 8)),
      m_recycler(std::make_shared<BufferRecycler>()),
      m_storedBuffers(std::make_shared<StoredBuffers>()) {
  const size_t count = size_t{1} << m_shardBits;
  const size_t share = capacityBytes / count;
  m_shards.reserve(count);
  for (size_t i = 0; i < count; ++i) m_shards.push_back(std::make_unique<Shard>(share));
}

PageCache::~PageCache() = default;

PageCache::Shard& PageCache::shardFor(uint64_t hash) {
  // The top bits choose the shard; the buckets use the low ones.
  const size_t shard = m_shardBits == 0 ? 0 : static_cast<size_t>(hash >> (64 - m_shardBits));
  return *m_shards[shard];
}

PageCache::Block PageCache::lookup(int64_t fileId, uint32_t blockNo, Form* form) {
  const uint64_t hash = mix(fileId, blockNo);
  Shard& shard = shardFor(hash);
  {
    std::lock_guard<std::mutex> lock(shard.mutex);
    Shard::Entry* e = *shard.slotOf(hash, fileId, blockNo);
    if (e != nullptr) {
      Shard::unlinkLru(e);
      shard.linkNewest(e);
      m_hits.fetch_add(1, std::memory_order_relaxed);
      if (form != nullptr) *form = e->form;
      return e->block;
    }
  }
  m_misses.fetch_add(1, std::memory_order_relaxed);
  return nullptr;
}

void PageCache::insert(int64_t fileId, uint32_t blockNo, Block block, Form form) {
  const uint64_t hash = mix(fileId, blockNo);
  Shard& shard = shardFor(hash);
  const size_t charge = block->capacity();
  // Both declared before the lock, so what they free is freed after it.
  Shard::Dropped dropped;
  Block released;
  std::lock_guard<std::mutex> lock(shard.mutex);
  if (Shard::Entry* old = *shard.slotOf(hash, fileId, blockNo); old != nullptr) {
    shard.remove(old);
    dropped.push(old);
  }
  if (charge > shard.capacity) return;  // would evict the whole shard and still not fit
  while (shard.count > 0 && shard.usage > shard.capacity - charge) {
    Shard::Entry* victim = shard.lru.prev;
    shard.remove(victim);
    dropped.push(victim);
  }
  Shard::Entry* e = dropped.pop();
  if (e == nullptr) {
    e = new Shard::Entry;
  } else {
    released = std::exchange(e->block, nullptr);
  }
  e->fileId = fileId;
  e->blockNo = blockNo;
  e->hash = hash;
  e->block = std::move(block);
  e->form = form;
  shard.add(e);
}

std::shared_ptr<std::string> PageCache::newBlock(size_t size) { return m_recycler->make(size); }

PageCache::Block PageCache::copyStored(std::string_view stored) { return m_storedBuffers->copy(stored); }

std::shared_ptr<std::string> PageCache::newStored(size_t size) { return m_storedBuffers->make(size); }

void PageCache::eraseFile(int64_t fileId) {
  for (auto& shard : m_shards) {
    Shard::Dropped dropped;
    std::lock_guard<std::mutex> lock(shard->mutex);
    for (Shard::Entry* e = shard->lru.next; e != &shard->lru;) {
      Shard::Entry* const older = e->next;
      if (e->fileId == fileId) {
        shard->remove(e);
        dropped.push(e);
      }
      e = older;
    }
  }
}

size_t PageCache::usage() const {
  size_t total = 0;
  for (const auto& shard : m_shards) {
    std::lock_guard<std::mutex> lock(shard->mutex);
    total += shard->usage;
  }
  return total;
}

size_t PageCache::entryCount() const {
  size_t total = 0;
  for (const auto& shard : m_shards) {
    std::lock_guard<std::mutex> lock(shard->mutex);
    total += shard->count;
  }
  return total;
}

}  // namespace keyscope::engine
