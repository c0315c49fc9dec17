#include "engine/arena_block_pool.h"

#include <sys/mman.h>

#include <cstdint>

namespace keyscope::engine {

ArenaBlockPool::ArenaBlockPool(size_t maxBytes) : m_maxBlocks(maxBytes / kBlockBytes) {}

ArenaBlockPool::~ArenaBlockPool() {
  for (char* block : m_kept) unmapBlock(block, kBlockBytes);
}

char* ArenaBlockPool::take() {
  std::lock_guard lock(m_mutex);
  m_lastAsk = Clock::now();
  if (m_kept.empty()) return nullptr;
  char* block = m_kept.back();
  m_kept.pop_back();
  return block;
}

void ArenaBlockPool::give(char* block, size_t roomBytes) {
  {
    std::lock_guard lock(m_mutex);
    if (m_kept.size() < m_maxBlocks && m_kept.size() < roomBytes / kBlockBytes) {
      m_kept.push_back(block);
      return;
    }
  }
  unmapBlock(block, kBlockBytes);
}

void ArenaBlockPool::releaseIfIdle(Clock::time_point now, Clock::duration idle) {
  {
    std::lock_guard lock(m_mutex);
    if (m_kept.empty() || now - m_lastAsk < idle) return;
  }
  releaseAll();
}

void ArenaBlockPool::releaseAll() {
  std::vector<char*> released;
  {
    std::lock_guard lock(m_mutex);
    released.swap(m_kept);
  }
  for (char* block : released) unmapBlock(block, kBlockBytes);
}

size_t ArenaBlockPool::keptBytes() const {
  std::lock_guard lock(m_mutex);
  return m_kept.size() * kBlockBytes;
}

ArenaBlockPool::Clock::time_point ArenaBlockPool::lastAsk() const {
  std::lock_guard lock(m_mutex);
  return m_lastAsk;
}

namespace {

char* mapAnonymous(size_t bytes) {
  void* mem = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return mem == MAP_FAILED ? nullptr : static_cast<char*>(mem);
}

}  // namespace

char* ArenaBlockPool::mapBlock(size_t bytes) {
  if (bytes == 0 || bytes % kHugePageBytes != 0) return mapAnonymous(bytes);
  // mmap promises only page alignment: map a huge page more than asked and
  // unmap what lies outside the aligned range.
  const size_t padded = bytes + kHugePageBytes;
  char* const mapped = mapAnonymous(padded);
  if (mapped == nullptr) return nullptr;
  const uintptr_t at = reinterpret_cast<uintptr_t>(mapped);
  char* const block = mapped + (((at + kHugePageBytes - 1) & ~uintptr_t{kHugePageBytes - 1}) - at);
  if (block != mapped) munmap(mapped, static_cast<size_t>(block - mapped));
  char* const end = block + bytes;
  if (end != mapped + padded) munmap(end, static_cast<size_t>(mapped + padded - end));
  // Advice only: without it (THP "never") the block still works.
  (void)madvise(block, bytes, MADV_HUGEPAGE);
  return block;
}

void ArenaBlockPool::unmapBlock(char* block, size_t bytes) {
  munmap(block, bytes);
}

}  // namespace keyscope::engine
