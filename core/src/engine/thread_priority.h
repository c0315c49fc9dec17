// Background work that can wait runs below the writer's CPU priority.
//
// On two cores a load's writer shares the CPU with its flushes, compactions
// and splits. A compaction or a split's rewrite can run later without anyone
// waiting for it; the writer and the flushes that free its memory cannot. At
// equal priority the kernel gave them equal shares, and the writer ran slower
// for the whole of every merge. RocksDB offers the same for its compaction
// threads (Env::LowerThreadPoolCPUPriority).
#pragma once

#include <future>

namespace keyscope::engine {

// How much nicer than the process background merges run: at 10 the kernel
// gives such a thread about a tenth of a core another thread also wants, and
// idle cores in full.
constexpr int kBackgroundNiceIncrement = 10;

// Lowers the calling thread's CPU priority by kBackgroundNiceIncrement. A
// thread cannot raise it again without privileges, so only a thread of its
// own should call this. Linux sets nice per thread; elsewhere this does
// nothing.
void lowerThisThreadsPriority();

// Runs `work` on a thread of its own at the background priority and waits
// for its result.
template <typename Work>
auto runAtBackgroundPriority(Work&& work) -> decltype(work()) {
  return std::async(std::launch::async, [&work] {
           lowerThisThreadsPriority();
           return work();
         })
      .get();
}

}  // namespace keyscope::engine
