#include "engine/page_cache.h"

#include <algorithm>
#include <list>
#include <unordered_map>

namespace keyscope::engine {

namespace {

struct CacheKey {
  int64_t fileId;
  uint32_t blockNo;
  bool operator==(const CacheKey&) const = default;
};

// splitmix64's finalizer: file ids and block numbers are small and dense, so
// they need mixing before their bits choose a shard and a bucket.
uint64_t mix(int64_t fileId, uint32_t blockNo) {
  uint64_t z = (static_cast<uint64_t>(fileId) << 32) ^ static_cast<uint64_t>(fileId) ^ blockNo;
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

struct KeyHash {
  size_t operator()(const CacheKey& k) const { return static_cast<size_t>(mix(k.fileId, k.blockNo)); }
};

}  // namespace

struct PageCache::Shard {
  struct Entry {
    CacheKey key;
    Block block;
  };

  explicit Shard(size_t cap) : capacity(cap) {}

  // The front of `lru` is the most recently used entry.
  std::mutex mutex;
  std::list<Entry> lru;
  std::unordered_map<CacheKey, std::list<Entry>::iterator, KeyHash> index;
  size_t capacity;
  size_t usage = 0;

  // Moves least recently used entries to *dropped (freed by the caller after
  // the lock is released) until usage <= limit. REQUIRES: mutex held.
  void evictTo(size_t limit, std::list<Entry>* dropped) {
    while (usage > limit && !lru.empty()) {
      const auto victim = std::prev(lru.end());
      usage -= victim->block->size();
      index.erase(victim->key);
      dropped->splice(dropped->end(), lru, victim);
    }
  }
};

PageCache::PageCache(size_t capacityBytes, int shardBits)
    : m_capacity(capacityBytes), m_shardBits(std::clamp(shardBits, 0, 8)) {
  const size_t count = size_t{1} << m_shardBits;
  const size_t share = capacityBytes / count;
  m_shards.reserve(count);
  for (size_t i = 0; i < count; ++i) m_shards.push_back(std::make_unique<Shard>(share));
}

PageCache::~PageCache() = default;

PageCache::Shard& PageCache::shardFor(int64_t fileId, uint32_t blockNo) {
  const uint64_t hash = mix(fileId, blockNo);
  // The top bits choose the shard; the hash map uses the low ones.
  const size_t shard = m_shardBits == 0 ? 0 : static_cast<size_t>(hash >> (64 - m_shardBits));
  return *m_shards[shard];
}

PageCache::Block PageCache::lookup(int64_t fileId, uint32_t blockNo) {
  Shard& shard = shardFor(fileId, blockNo);
  {
    std::lock_guard<std::mutex> lock(shard.mutex);
    const auto it = shard.index.find(CacheKey{fileId, blockNo});
    if (it != shard.index.end()) {
      shard.lru.splice(shard.lru.begin(), shard.lru, it->second);
      m_hits.fetch_add(1, std::memory_order_relaxed);
      return it->second->block;
    }
  }
  m_misses.fetch_add(1, std::memory_order_relaxed);
  return nullptr;
}

void PageCache::insert(int64_t fileId, uint32_t blockNo, Block block) {
  Shard& shard = shardFor(fileId, blockNo);
  const size_t charge = block->size();
  std::list<Shard::Entry> dropped;  // freed after the lock is released
  std::lock_guard<std::mutex> lock(shard.mutex);
  const CacheKey key{fileId, blockNo};
  const auto it = shard.index.find(key);
  if (it != shard.index.end()) {
    shard.usage -= it->second->block->size();
    dropped.splice(dropped.end(), shard.lru, it->second);
    shard.index.erase(it);
  }
  if (charge > shard.capacity) return;  // would evict the whole shard and still not fit
  shard.evictTo(shard.capacity - charge, &dropped);
  shard.lru.push_front(Shard::Entry{key, std::move(block)});
  shard.index.emplace(key, shard.lru.begin());
  shard.usage += charge;
}

void PageCache::eraseFile(int64_t fileId) {
  for (auto& shard : m_shards) {
    std::list<Shard::Entry> dropped;
    std::lock_guard<std::mutex> lock(shard->mutex);
    for (auto it = shard->lru.begin(); it != shard->lru.end();) {
      const auto next = std::next(it);
      if (it->key.fileId == fileId) {
        shard->usage -= it->block->size();
        shard->index.erase(it->key);
        dropped.splice(dropped.end(), shard->lru, it);
      }
      it = next;
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
    total += shard->lru.size();
  }
  return total;
}

}  // namespace keyscope::engine
