#include "engine/memstore.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <new>

#include "engine/internal_key.h"

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
  const std::atomic<Node*>* nextArray() const { return reinterpret_cast<const std::atomic<Node*>*>(this + 1); }
  Node* next(int level) const { return nextArray()[level].load(std::memory_order_acquire); }
  void setNext(int level, Node* node) { nextArray()[level].store(node, std::memory_order_release); }
  const char* keyData() const {
    return reinterpret_cast<const char*>(reinterpret_cast<const std::atomic<Node*>*>(this + 1) + height);
  }
  BytesView key() const { return {keyData(), keySize}; }
  BytesView value() const { return {keyData() + keySize, valueSize}; }
};

namespace {
// Arena blocks start small (a region may hold a handful of cells) and double
// up to 1 MiB, so a big memstore costs few allocations and a small one little memory.
constexpr size_t kMaxArenaBlock = 1 << 20;
}  // namespace

// Arena blocks are mapped from the kernel, not taken from malloc: a flushed
// memstore's memory then goes back to the system when it dies. From malloc's
// heap it stayed resident as free space (tens of MiB after a load, since
// glibc's trim threshold rises with the sizes it has seen), which the page
// cache and the next memstores did not reuse.
Memstore::Block::Block(size_t bytes) : size(bytes) {
  void* mem = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) throw std::bad_alloc();
  data = static_cast<char*>(mem);
}

Memstore::Block::~Block() {
  if (data != nullptr) munmap(data, size);
}

Memstore::Memstore(std::shared_ptr<MemstoreBudget> budget) : m_budget(std::move(budget)) {
  char* mem = allocate(sizeof(Node) + sizeof(std::atomic<Node*>) * kMaxHeight);
  m_head = new (mem) Node{0, 0, 0, kMaxHeight};
  for (int i = 0; i < kMaxHeight; ++i) new (&m_head->nextArray()[i]) std::atomic<Node*>(nullptr);
  std::fill(m_finger, m_finger + kMaxHeight, m_head);
}

Memstore::~Memstore() {
  if (m_budget == nullptr) return;
  const uint64_t bytes = approximateBytes();
  if (m_budgetState == BudgetState::kActive) m_budget->active.fetch_sub(bytes, std::memory_order_relaxed);
  if (m_budgetState == BudgetState::kFlushing) m_budget->flushing.fetch_sub(bytes, std::memory_order_relaxed);
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
    m_blocks.emplace_back(blockSize);
    m_allocPtr = m_blocks.back().data;
    m_allocRemaining = blockSize;
  }
  // Bytes in use, not blocks reserved: this is what triggers flushes.
  m_bytes.fetch_add(bytes, std::memory_order_relaxed);
  if (m_budget != nullptr) m_budget->active.fetch_add(bytes, std::memory_order_relaxed);
  char* result = m_allocPtr;
  m_allocPtr += bytes;
  m_allocRemaining -= bytes;
  return result;
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
  const int c = a->key().compare(key);
  if (c != 0) return c;
  if (a->mvcc == mvcc) return 0;
  return a->mvcc > mvcc ? -1 : 1;  // newer first
}

Memstore::Node* Memstore::findGreaterOrEqual(BytesView key, uint64_t mvcc, Node** prev) const {
  Node* x = m_head;
  int level = m_maxHeight.load(std::memory_order_relaxed) - 1;
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

Memstore::Node* Memstore::findLessThan(BytesView key) const {
  Node* x = m_head;
  int level = m_maxHeight.load(std::memory_order_relaxed) - 1;
  while (true) {
    Node* next = x->next(level);
    if (next != nullptr && next->key().compare(key) < 0) {
      x = next;
    } else {
      if (level == 0) return x == m_head ? nullptr : x;
      --level;
    }
  }
}

void Memstore::add(BytesView key, BytesView value, uint64_t mvcc) {
  Node* prev[kMaxHeight];
  const int maxHeight = m_maxHeight.load(std::memory_order_relaxed);
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
    findGreaterOrEqual(key, mvcc, prev);
  }
  const int height = randomHeight();
  if (height > maxHeight) {
    for (int i = maxHeight; i < height; ++i) prev[i] = m_head;
    // Readers that see the new height before the node find nullptr at the
    // new levels of the head, which is fine.
    m_maxHeight.store(height, std::memory_order_relaxed);
  }
  const size_t size = sizeof(Node) + sizeof(std::atomic<Node*>) * static_cast<size_t>(height) + key.size() + value.size();
  char* mem = allocate(size);
  Node* node = new (mem) Node{mvcc, static_cast<uint32_t>(key.size()), static_cast<uint32_t>(value.size()), height};
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
  m_entries.fetch_add(1, std::memory_order_relaxed);
  // Keys come from the write path or the log, both well formed.
  if (key.size() >= kKeyTrailerSize) {
    const int64_t ts = timestampOfValidKey(key);
    if (ts < m_minTs.load(std::memory_order_relaxed)) m_minTs.store(ts, std::memory_order_relaxed);
    if (ts > m_maxTs.load(std::memory_order_relaxed)) m_maxTs.store(ts, std::memory_order_relaxed);
    const auto type = static_cast<CellType>(static_cast<uint8_t>(~static_cast<uint8_t>(key.back())));
    if (type == CellType::kDeleteFamily || type == CellType::kDeleteFamilyVersion)
      m_familyMarkers.fetch_add(1, std::memory_order_relaxed);
  }
}

bool Memstore::levelsInOrder() const {
  for (int level = 0; level < m_maxHeight.load(std::memory_order_relaxed); ++level) {
    const Node* x = m_head->next(level);
    while (x != nullptr) {
      const Node* next = x->next(level);
      if (next != nullptr && compare(x, next->key(), next->mvcc) >= 0) return false;
      x = next;
    }
  }
  return true;
}

class MemstoreIterator final : public InternalIterator {
 public:
  MemstoreIterator(const Memstore* memstore, uint64_t readPoint) : m_memstore(memstore), m_readPoint(readPoint) {}

  bool valid() const override { return m_node != nullptr; }
  void seekToFirst() override {
    m_node = m_memstore->m_head->next(0);
    settle();
  }
  void seek(BytesView target) override {
    // mvcc UINT64_MAX sorts first among equal keys, so this lands on the newest.
    m_node = m_memstore->findGreaterOrEqual(target, UINT64_MAX, nullptr);
    settle();
  }
  void seekToLastRowBefore(BytesView bound) override {
    Memstore::Node* last = m_memstore->findLessThan(bound);
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
    while (m_node != nullptr && m_node->key() == current) m_node = m_node->next(0);
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

  const Memstore* m_memstore;
  uint64_t m_readPoint;
  Memstore::Node* m_node = nullptr;
};

std::unique_ptr<InternalIterator> Memstore::newIterator(uint64_t readPoint) const {
  return std::make_unique<MemstoreIterator>(this, readPoint);
}

}  // namespace keyscope::engine
