#include "engine/memstore.h"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <new>

#include "engine/bloom_filter.h"
#include "engine/internal_key.h"
#include "engine/key_compare.h"
#include "engine/merging_iterator.h"

namespace keyscope::engine {

// A node: its entry and `height` next pointers, allocated in one arena chunk.
//   Node header | key bytes | value bytes
struct Memstore::Node {
  uint64_t mvcc;
  uint32_t keySize;
  uint32_t valueSize;
  int height;
  // Followed in memory by std::atomic<Node*> next[height], then key, then value.

  std::atomic<Node*>* nextArray() { return reinterpret_cast<std::atomic<Node*>*>(this + 1); }
  const std::atomic<Node*>* nextArray() const {
    return reinterpret_cast<const std::atomic<Node*>*>(this + 1);
  }
  Node* next(int level) const { return nextArray()[level].load(std::memory_order_acquire); }
  void setNext(int level, Node* node) { nextArray()[level].store(node, std::memory_order_release); }
  const char* keyData() const {
    return reinterpret_cast<const char*>(reinterpret_cast<const std::atomic<Node*>*>(this + 1) +
                                         height);
  }
  BytesView key() const { return {keyData(), keySize}; }
  BytesView value() const { return {keyData() + keySize, valueSize}; }
};

// One skip list: its head (kMaxHeight levels) and the height in use. Lives in
// the arena; its nodes only ever gain successors.
struct Memstore::SkipList {
  Node* head;
  std::atomic<int> maxHeight{1};
};

namespace {

// A blocked bloom filter over the escaped rows of a segment (Putze, Sanders
// and Singler, "Cache-, Hash- and Space-Efficient Bloom Filters"): all probes
// of a row fall in one 64-byte block, so checking a segment costs one cache
// miss. 10 bits and 6 probes per row: about 1% false positives.
constexpr size_t kFilterBitsPerRow = 10;
constexpr int kFilterProbes = 6;
constexpr size_t kFilterBlockWords = 8;  // 512 bits

size_t filterBlock(uint64_t hash, size_t blockCount) {
  return static_cast<size_t>(((hash >> 32) * blockCount) >> 32);
}

template <typename Visit>
void forEachProbe(uint64_t hash, Visit&& visit) {
  auto bits = static_cast<uint32_t>(hash);
  const uint32_t delta = (bits >> 17) | (bits << 15);
  for (int i = 0; i < kFilterProbes; ++i) {
    visit(bits % (kFilterBlockWords * 64));
    bits += delta;
  }
}

}  // namespace

// A frozen skip list: its entries in order (key asc, mvcc desc), as an array
// in the arena, and the filter of its rows. Immutable.
struct Memstore::FrozenSegment {
  const Node* const* entries;
  size_t count;
  const uint64_t* filter;  // filterBlocks blocks of kFilterBlockWords words
  size_t filterBlocks;

  bool mayHoldRow(uint64_t rowHash) const {
    const uint64_t* block = filter + filterBlock(rowHash, filterBlocks) * kFilterBlockWords;
    bool all = true;
    forEachProbe(rowHash,
                 [&](uint32_t bit) { all = all && (block[bit / 64] >> (bit % 64) & 1) != 0; });
    return all;
  }
};

namespace {
// Arena blocks start small (a region may hold a handful of cells) and double
// up to 2 MiB (ArenaBlockPool::kBlockBytes, a huge page), so a big memstore costs few allocations
// and a small one little memory. The full-size ones are what the budget's pool keeps.
constexpr size_t kMaxArenaBlock = ArenaBlockPool::kBlockBytes;
// The arena's pages are mapped ahead of the writes in chunks this size
// (populateThrough): one call maps 16 pages, where the writes faulted each
// page in alone (about 145,000 faults in the benchmark's key-ordered load,
// run by keyscope-read-probe); in a full-size block given a huge page, the
// first call maps the whole block. A chunk is small next to a memstore, so
// mapping ahead adds little to the resident set.
constexpr size_t kPopulateChunk = 64 << 10;
}  // namespace

// Arena blocks are mapped from the kernel, not taken from malloc: a flushed
// memstore's memory then goes to the next memstores through the budget's
// pool, and back to the system when writes stop. From malloc's heap it stayed
// resident as free space (tens of MiB after a load, since glibc's trim
// threshold rises with the sizes it has seen).
Memstore::Block::Block(size_t bytes, MemstoreBudget* blockBudget)
    : size(bytes), budget(bytes == ArenaBlockPool::kBlockBytes ? blockBudget : nullptr) {
  data = budget != nullptr ? budget->pool.take() : nullptr;
  resident = data != nullptr;
  if (data == nullptr) data = ArenaBlockPool::mapBlock(bytes);
  if (data == nullptr) throw std::bad_alloc();
  if (budget != nullptr) budget->blocksInUse.fetch_add(1, std::memory_order_relaxed);
}

Memstore::Block::~Block() {
  if (data == nullptr) return;
  if (budget != nullptr) budget->blocksInUse.fetch_sub(1, std::memory_order_relaxed);
  if (budget != nullptr && toPool) {
    budget->giveBlock(data);
  } else {
    ArenaBlockPool::unmapBlock(data, size);
  }
}

Memstore::Memstore(std::shared_ptr<MemstoreBudget> budget, size_t segmentEntries)
    : m_budget(std::move(budget)), m_segmentEntries(std::max<size_t>(segmentEntries, 1)) {
  m_active = newSkipList();  // here, once the arena's members are initialized
  std::fill(m_finger, m_finger + kMaxHeight, m_active->head);
}

Memstore::SkipList* Memstore::newSkipList() {
  char* mem = allocate(sizeof(Node) + sizeof(std::atomic<Node*>) * kMaxHeight);
  Node* head = new (mem) Node{0, 0, 0, kMaxHeight};
  for (int i = 0; i < kMaxHeight; ++i) new (&head->nextArray()[i]) std::atomic<Node*>(nullptr);
  auto* list = new (allocate(sizeof(SkipList))) SkipList{head};
  m_lists.push_back(list);
  return list;
}

void Memstore::freezeActive() {
  // Its level 0 is the entries in order already: copy the node pointers out.
  auto** entries = reinterpret_cast<const Node**>(allocate(sizeof(const Node*) * m_activeEntries));
  size_t count = 0;
  for (const Node* x = m_active->head->next(0); x != nullptr; x = x->next(0)) entries[count++] = x;
  // The filter: one hash per row (a row's entries are adjacent).
  std::vector<uint64_t> rowHashes;
  BytesView lastRow;
  for (size_t i = 0; i < count; ++i) {
    const BytesView key = entries[i]->key();
    const BytesView row = key.substr(0, escapedRowLength(key));
    if (i > 0 && row == lastRow) continue;
    rowHashes.push_back(bloomHash(row));
    lastRow = row;
  }
  const size_t blocks = std::max<size_t>(1, (rowHashes.size() * kFilterBitsPerRow + 511) / 512);
  auto* filter =
      reinterpret_cast<uint64_t*>(allocate(blocks * kFilterBlockWords * sizeof(uint64_t)));
  std::fill(filter, filter + blocks * kFilterBlockWords, 0);
  for (const uint64_t hash : rowHashes) {
    uint64_t* block = filter + filterBlock(hash, blocks) * kFilterBlockWords;
    forEachProbe(hash, [&](uint32_t bit) { block[bit / 64] |= uint64_t{1} << (bit % 64); });
  }
  auto* segment =
      new (allocate(sizeof(FrozenSegment))) FrozenSegment{entries, count, filter, blocks};
  SkipList* next = newSkipList();
  {
    std::lock_guard lock(m_segmentsMutex);
    m_frozen.push_back(segment);
    m_active = next;
  }
  m_activeEntries = 0;
  m_last = nullptr;
  std::fill(m_finger, m_finger + kMaxHeight, m_active->head);
}

size_t Memstore::frozenSegmentCount() const {
  std::lock_guard lock(m_segmentsMutex);
  return m_frozen.size();
}

Memstore::~Memstore() {
  if (m_budget == nullptr) return;
  const uint64_t bytes = approximateBytes();
  const uint64_t ownActive = m_budgetState == BudgetState::kActive ? bytes : 0;
  // No writes under way for the pool to keep the arena for (the flush that
  // ended this one was the last of a load, say): it goes back to the kernel.
  if (!m_budget->writesUnderWay(ArenaBlockPool::Clock::now(), ownActive)) {
    for (Block& block : m_blocks) block.toPool = false;
  }
  if (m_budgetState == BudgetState::kActive)
    m_budget->active.fetch_sub(bytes, std::memory_order_relaxed);
  if (m_budgetState == BudgetState::kFlushing)
    m_budget->flushing.fetch_sub(bytes, std::memory_order_relaxed);
}

void Memstore::markFlushing() {
  if (m_budget == nullptr || m_budgetState != BudgetState::kActive) return;
  m_budgetState = BudgetState::kFlushing;
  const uint64_t bytes = approximateBytes();
  m_budget->flushing.fetch_add(bytes, std::memory_order_relaxed);
  m_budget->active.fetch_sub(bytes, std::memory_order_relaxed);
}

void Memstore::markFlushed() {
  if (m_budget == nullptr || m_budgetState != BudgetState::kFlushing) return;
  m_budgetState = BudgetState::kFlushed;
  m_budget->flushing.fetch_sub(approximateBytes(), std::memory_order_relaxed);
}

char* Memstore::allocate(size_t bytes) {
  bytes = (bytes + 7) & ~size_t{7};
  if (bytes > m_allocRemaining) {
    m_nextBlock = std::min(m_nextBlock * 2, kMaxArenaBlock);
    const size_t blockSize = std::max(bytes, m_nextBlock);
    m_blocks.emplace_back(blockSize, m_budget.get());
    m_allocPtr = m_blocks.back().data;
    m_allocRemaining = blockSize;
    m_populatedEnd = m_blocks.back().resident ? m_allocPtr + blockSize : m_allocPtr;
  }
  populateThrough(m_allocPtr + bytes);
  // Bytes in use, not blocks reserved: this is what triggers flushes. One
  // thread adds (add()'s contract), so a plain store does, not a locked add;
  // the shared budget takes a locked one (a flush moves bytes out of it).
  m_bytes.store(m_bytes.load(std::memory_order_relaxed) + bytes, std::memory_order_relaxed);
  if (m_budget != nullptr) m_budget->active.fetch_add(bytes, std::memory_order_relaxed);
  char* result = m_allocPtr;
  m_allocPtr += bytes;
  m_allocRemaining -= bytes;
  return result;
}

// Maps the current block's pages up to `end` with MADV_POPULATE_WRITE
// (Linux 5.14), a chunk at a time. Advice only: where the kernel lacks it or
// refuses (no memory), the writes fault the pages in as before.
void Memstore::populateThrough(const char* end) {
  if (end <= m_populatedEnd) return;
  static std::atomic<bool> unsupported{false};
  const char* blockEnd = m_allocPtr + m_allocRemaining;
  while (m_populatedEnd < end) {
    const size_t chunk =
        std::min<size_t>(kPopulateChunk, static_cast<size_t>(blockEnd - m_populatedEnd));
    if (!unsupported.load(std::memory_order_relaxed) &&
        madvise(m_populatedEnd, chunk, MADV_POPULATE_WRITE) != 0 && errno == EINVAL)
      unsupported.store(true, std::memory_order_relaxed);
    m_populatedEnd += chunk;
  }
}

int Memstore::randomHeight() {
  // Branching factor 4, as LevelDB; xorshift32 is plenty for this.
  int height = 1;
  while (height < kMaxHeight) {
    m_random ^= m_random << 13;
    m_random ^= m_random >> 17;
    m_random ^= m_random << 5;
    if ((m_random & 3) != 0) break;
    ++height;
  }
  return height;
}

int Memstore::compare(const Node* a, BytesView key, uint64_t mvcc) {
  const int c = compareKeys(a->key(), key);
  if (c != 0) return c;
  if (a->mvcc == mvcc) return 0;
  return a->mvcc > mvcc ? -1 : 1;  // newer first
}

Memstore::Node* Memstore::findGreaterOrEqual(const SkipList& list, BytesView key, uint64_t mvcc,
                                             Node** prev) {
  Node* x = list.head;
  int level = list.maxHeight.load(std::memory_order_relaxed) - 1;
  while (true) {
    Node* next = x->next(level);
    if (next != nullptr && compare(next, key, mvcc) < 0) {
      x = next;
    } else {
      if (prev != nullptr) prev[level] = x;
      if (level == 0) return next;
      --level;
    }
  }
}

Memstore::Node* Memstore::findLessThan(const SkipList& list, BytesView key) {
  Node* x = list.head;
  int level = list.maxHeight.load(std::memory_order_relaxed) - 1;
  while (true) {
    Node* next = x->next(level);
    if (next != nullptr && compareKeys(next->key(), key) < 0) {
      x = next;
    } else {
      if (level == 0) return x == list.head ? nullptr : x;
      --level;
    }
  }
}

void Memstore::add(BytesView key, BytesView value, uint64_t mvcc) {
  if (m_activeEntries >= m_segmentEntries) freezeActive();
  SkipList& list = *m_active;
  Node* prev[kMaxHeight];
  const int maxHeight = list.maxHeight.load(std::memory_order_relaxed);
  if (m_last != nullptr && compare(m_last, key, mvcc) < 0) {
    // After the last entry added (a key-ordered load, its replay, a sorted
    // batch): its predecessors at each level are this entry's too, up to the
    // lowest level whose next node is not before the key, so the search
    // climbs to that level and goes down from there. Appending at the end
    // takes one comparison; a batch's sorted keys spread over n entries take
    // about the levels of the gap between neighbours, not of all n.
    int level = 0;
    while (level < maxHeight - 1) {
      const Node* next = m_finger[level]->next(level);
      if (next == nullptr || compare(next, key, mvcc) >= 0) break;
      ++level;
    }
    std::copy(m_finger + level + 1, m_finger + maxHeight, prev + level + 1);
    Node* x = m_finger[level];
    while (true) {
      Node* next = x->next(level);
      if (next != nullptr && compare(next, key, mvcc) < 0) {
        x = next;
      } else {
        prev[level] = x;
        if (level == 0) break;
        --level;
      }
    }
  } else {
    findGreaterOrEqual(list, key, mvcc, prev);
  }
  const int height = randomHeight();
  if (height > maxHeight) {
    for (int i = maxHeight; i < height; ++i) prev[i] = list.head;
    // Readers that see the new height before the node find nullptr at the
    // new levels of the head, which is fine.
    list.maxHeight.store(height, std::memory_order_relaxed);
  }
  const size_t size = sizeof(Node) + sizeof(std::atomic<Node*>) * static_cast<size_t>(height) +
                      key.size() + value.size();
  char* mem = allocate(size);
  Node* node = new (mem)
      Node{mvcc, static_cast<uint32_t>(key.size()), static_cast<uint32_t>(value.size()), height};
  for (int i = 0; i < height; ++i) new (&node->nextArray()[i]) std::atomic<Node*>(nullptr);
  char* data = const_cast<char*>(node->keyData());
  std::memcpy(data, key.data(), key.size());
  // A marker's empty value may be a view with null data, which memcpy must not get.
  if (!value.empty()) std::memcpy(data + key.size(), value.data(), value.size());
  for (int i = 0; i < height; ++i) {
    node->nextArray()[i].store(prev[i]->next(i), std::memory_order_relaxed);
    prev[i]->setNext(i, node);
  }
  m_last = node;
  std::fill(m_finger, m_finger + height, node);
  std::copy(prev + height, prev + std::max(height, maxHeight), m_finger + height);
  ++m_activeEntries;
  m_entries.store(m_entries.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  // Keys come from the write path or the log, both well formed.
  if (key.size() >= kKeyTrailerSize) {
    const int64_t ts = timestampOfValidKey(key);
    if (ts < m_minTs.load(std::memory_order_relaxed)) m_minTs.store(ts, std::memory_order_relaxed);
    if (ts > m_maxTs.load(std::memory_order_relaxed)) m_maxTs.store(ts, std::memory_order_relaxed);
    const auto type =
        static_cast<CellType>(static_cast<uint8_t>(~static_cast<uint8_t>(key.back())));
    if (type == CellType::kDeleteFamily || type == CellType::kDeleteFamilyVersion)
      m_familyMarkers.fetch_add(1, std::memory_order_relaxed);
  }
}

bool Memstore::levelsInOrder() const {
  for (const SkipList* list : m_lists) {
    for (int level = 0; level < list->maxHeight.load(std::memory_order_relaxed); ++level) {
      const Node* x = list->head->next(level);
      while (x != nullptr) {
        const Node* next = x->next(level);
        if (next != nullptr && compare(x, next->key(), next->mvcc) >= 0) return false;
        x = next;
      }
    }
  }
  std::lock_guard lock(m_segmentsMutex);
  for (const FrozenSegment* segment : m_frozen) {
    for (size_t i = 1; i < segment->count; ++i) {
      const Node* next = segment->entries[i];
      if (compare(segment->entries[i - 1], next->key(), next->mvcc) >= 0) return false;
    }
  }
  return true;
}

// One skip list's entries visible at a read point.
class MemstoreIterator final : public InternalIterator {
 public:
  MemstoreIterator(const Memstore::SkipList* list, uint64_t readPoint)
      : m_list(list), m_readPoint(readPoint) {}

  bool valid() const override { return m_node != nullptr; }
  void seekToFirst() override {
    m_node = m_list->head->next(0);
    settle();
  }
  void seek(BytesView target) override {
    // mvcc UINT64_MAX sorts first among equal keys, so this lands on the newest.
    m_node = Memstore::findGreaterOrEqual(*m_list, target, UINT64_MAX, nullptr);
    settle();
  }
  void seekToLastRowBefore(BytesView bound) override {
    Memstore::Node* last = Memstore::findLessThan(*m_list, bound);
    if (last == nullptr) {
      m_node = nullptr;
      return;
    }
    const size_t rowLength = escapedRowLength(last->key());
    seek(last->key().substr(0, rowLength));
  }
  void next() override {
    const BytesView current = m_node->key();
    m_node = m_node->next(0);
    // Older entries of the same key are shadowed by the one just yielded.
    while (m_node != nullptr && keysEqual(m_node->key(), current)) m_node = m_node->next(0);
    settle();
  }
  BytesView key() const override { return m_node->key(); }
  BytesView value() const override { return m_node->value(); }
  Status status() const override { return Status::ok(); }

 private:
  // Moves past entries the read point cannot see; the first visible entry of
  // a key is its newest visible one because equal keys sort newest first.
  void settle() {
    while (m_node != nullptr && m_node->mvcc > m_readPoint) m_node = m_node->next(0);
  }

  const Memstore::SkipList* m_list;
  uint64_t m_readPoint;
  Memstore::Node* m_node = nullptr;
};

// One frozen segment's entries visible at a read point: as MemstoreIterator,
// over the array by binary search.
class FrozenSegmentIterator final : public InternalIterator {
 public:
  FrozenSegmentIterator(const Memstore::FrozenSegment* segment, uint64_t readPoint)
      : m_segment(segment), m_readPoint(readPoint), m_pos(segment->count) {}

  bool valid() const override { return m_pos < m_segment->count; }
  void seekToFirst() override {
    m_pos = 0;
    settle();
  }
  void seek(BytesView target) override {
    m_pos = lowerBound(target);
    settle();
  }
  void seekToLastRowBefore(BytesView bound) override {
    const size_t end = lowerBound(bound);
    if (end == 0) {
      m_pos = m_segment->count;
      return;
    }
    const BytesView last = m_segment->entries[end - 1]->key();
    seek(last.substr(0, escapedRowLength(last)));
  }
  void next() override {
    const BytesView current = key();
    ++m_pos;
    while (m_pos < m_segment->count && keysEqual(m_segment->entries[m_pos]->key(), current)) {
      ++m_pos;
    }
    settle();
  }
  BytesView key() const override { return m_segment->entries[m_pos]->key(); }
  BytesView value() const override { return m_segment->entries[m_pos]->value(); }
  Status status() const override { return Status::ok(); }

 private:
  // The first entry whose key is >= target.
  size_t lowerBound(BytesView target) const {
    const Memstore::Node* const* begin = m_segment->entries;
    const Memstore::Node* const* found = std::lower_bound(
        begin, begin + m_segment->count, target,
        [](const Memstore::Node* node, BytesView key) { return node->key() < key; });
    return static_cast<size_t>(found - begin);
  }
  void settle() {
    while (m_pos < m_segment->count && m_segment->entries[m_pos]->mvcc > m_readPoint) ++m_pos;
  }

  const Memstore::FrozenSegment* m_segment;
  uint64_t m_readPoint;
  size_t m_pos;
};

std::unique_ptr<InternalIterator> Memstore::newIterator(uint64_t readPoint,
                                                        BytesView getRow) const {
  std::vector<const FrozenSegment*> frozen;
  const SkipList* active = nullptr;
  {
    std::lock_guard lock(m_segmentsMutex);
    frozen = m_frozen;
    active = m_active;
  }
  auto activeIterator = std::make_unique<MemstoreIterator>(active, readPoint);
  if (frozen.empty()) return activeIterator;
  // Newest first: where segments hold the same key, the newer one's entry
  // (the higher mvcc) is the one the merge yields.
  const uint64_t rowHash = getRow.empty() ? 0 : bloomHash(getRow);
  std::vector<std::unique_ptr<InternalIterator>> children;
  children.reserve(frozen.size() + 1);
  children.push_back(std::move(activeIterator));
  for (auto it = frozen.rbegin(); it != frozen.rend(); ++it) {
    if (!getRow.empty() && !(*it)->mayHoldRow(rowHash)) continue;
    children.push_back(std::make_unique<FrozenSegmentIterator>(*it, readPoint));
  }
  if (children.size() == 1) return std::move(children.front());
  return newMergingIterator(std::move(children));
}

}  // namespace keyscope::engine
