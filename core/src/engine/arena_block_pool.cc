#include "engine/arena_block_pool.h"

#include <sys/mman.h>

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

void ArenaBlockPool::give(char* block) {
  {
    std::lock_guard lock(m_mutex);
    if (m_kept.size() < m_maxBlocks) {
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

char* ArenaBlockPool::mapBlock(size_t bytes) {
  void* mem = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return mem == MAP_FAILED ? nullptr : static_cast<char*>(mem);
}

void ArenaBlockPool::unmapBlock(char* block, size_t bytes) {
  munmap(block, bytes);
}

}  // namespace keyscope::engine
