// Background merges run below the writer's CPU priority, on their own thread
// only: the thread that asks keeps its priority, and so does the process.
#include "engine/thread_priority.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <thread>

namespace keyscope::engine {
namespace {

int niceOf(pid_t thread) { return getpriority(PRIO_PROCESS, static_cast<id_t>(thread)); }

TEST(ThreadPriority, AMergeRunsNicerThanTheThreadThatAsksForIt) {
  const pid_t asking = gettid();
  const int before = niceOf(asking);
  int inside = before;
  pid_t worker = asking;
  const int result = runAtBackgroundPriority([&] {
    worker = gettid();
    inside = niceOf(worker);
    return 7;
  });
  EXPECT_EQ(result, 7);
  EXPECT_NE(worker, asking) << "the work ran on the asking thread, which could never get its priority back";
  EXPECT_EQ(inside, std::min(before + kBackgroundNiceIncrement, 19));
  EXPECT_EQ(niceOf(asking), before);
  EXPECT_EQ(getpriority(PRIO_PROCESS, 0), before) << "the process's own priority changed";
}

}  // namespace
}  // namespace keyscope::engine
