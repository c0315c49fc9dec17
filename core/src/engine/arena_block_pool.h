// ArenaBlockPool: the full-size arena blocks of flushed memstores, kept
// mapped for the memstores that take writes next.
//
// A memstore's arena is mapped from the kernel, block by block, and its
// blocks went back to the kernel when the memstore died after its flush. The
// next memstore then wrote into memory new to the process, and on the
// benchmark's virtual machines a page of it cost about 11 us at its first
// write (its page fault), against 0.03 us for a page already mapped.
// Reusing every flushed block took a quarter off the writing thread's time
// in a key-ordered load of 5 million cells. Kept blocks are reused as they
// are, already resident.
//
// The pool holds only blocks that were in use, and a memstore takes from it
// before it maps anything new. It holds at most maxBytes, and no more than
// the room its giver names: the workspace's memstore budget gives the room
// its limit leaves beside the memstores' full-size blocks, so memstores and
// pool together stay within the limit (MemstoreBudget::giveBlock). What it keeps
// is for writes under way: when none are (MemstoreBudget::writesUnderWay),
// a dying memstore unmaps its blocks instead of giving them back, and
// MemstoreBudget::trimPool (after each flush or compaction and when idle)
// lets go of everything, so memory kept for writes that stopped goes back to
// the kernel soon after.
//
// Kept blocks hold the bytes of the memstore that used them last: the arena
// initializes everything it hands out.
//
// Threads: every member may be called from any thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace keyscope::engine {

class ArenaBlockPool {
 public:
  // The size of every block the pool keeps: a memstore's arena blocks grow
  // to this size, and all but the first few of a large memstore have it.
  // A transparent huge page on x86-64, and on arm64 with 4 KiB base pages.
  static constexpr size_t kHugePageBytes = size_t{2} << 20;
  // One huge page, so mapBlock can give each block one.
  static constexpr size_t kBlockBytes = kHugePageBytes;

  explicit ArenaBlockPool(size_t maxBytes);
  ~ArenaBlockPool();  // unmaps the blocks it keeps
  ArenaBlockPool(const ArenaBlockPool&) = delete;
  ArenaBlockPool& operator=(const ArenaBlockPool&) = delete;

  // A kept block of kBlockBytes, or nullptr when none is kept. The caller
  // owns it: it goes back through give() or unmapBlock().
  char* take();

  // Keeps a block of kBlockBytes that take() or mapBlock() made, or unmaps
  // it when keeping it would take the pool past maxBytes or past roomBytes.
  void give(char* block, size_t roomBytes = SIZE_MAX);

  using Clock = std::chrono::steady_clock;

  // Unmaps every kept block when take() was last called (whether it found a
  // block or not) at least `idle` before `now`, or never.
  void releaseIfIdle(Clock::time_point now, Clock::duration idle);
  void releaseAll();

  size_t keptBytes() const;
  // When take() was last called; the clock's epoch if never.
  Clock::time_point lastAsk() const;

  // A fresh, zeroed mapping of `bytes`; nullptr when the kernel refuses.
  // A multiple of kHugePageBytes is mapped at that alignment and advised for
  // transparent huge pages: its first write then maps 2 MiB at once where it
  // faulted 512 pages one by one. A page fault cost about 11 us on the
  // benchmark's virtual machines, whatever the memory's past, and the
  // key-ordered load of 5 million cells faulted about 90,000 arena pages
  // (16,000 faults in all with huge pages, writer's time -20 to -30%). Where
  // the kernel has no huge pages for it (THP "never", or none free) the
  // mapping works as before, a page at a time.
  static char* mapBlock(size_t bytes);
  static void unmapBlock(char* block, size_t bytes);

 private:
  const size_t m_maxBlocks;
  mutable std::mutex m_mutex;
  std::vector<char*> m_kept;
  Clock::time_point m_lastAsk{};  // the epoch: never asked
};

}  // namespace keyscope::engine
