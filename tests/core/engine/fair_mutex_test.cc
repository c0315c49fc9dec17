// FairSharedMutex::try_lock, which a split uses to wait for the maintenance
// lock without keeping flushes out: it takes the lock only when nobody holds
// it, shared or not, and it never makes anyone wait.
#include "engine/fair_mutex.h"

#include <gtest/gtest.h>

#include <future>
#include <mutex>
#include <shared_mutex>

namespace keyscope::engine {
namespace {

TEST(FairSharedMutex, TryLockTakesAFreeMutexOnly) {
  FairSharedMutex mutex;
  ASSERT_TRUE(mutex.try_lock());
  EXPECT_FALSE(mutex.try_lock()) << "taken twice";
  // Another thread cannot get it either, shared or not, until it is let go.
  EXPECT_FALSE(std::async(std::launch::async, [&] { return mutex.try_lock(); }).get());
  mutex.unlock();
  EXPECT_TRUE(std::async(std::launch::async, [&] {
                const bool taken = mutex.try_lock();
                if (taken) mutex.unlock();
                return taken;
              }).get());
}

TEST(FairSharedMutex, TryLockFailsWhileAnotherHoldsItSharedAndLetsItBeSharedMeanwhile) {
  FairSharedMutex mutex;
  std::shared_lock reader(mutex);
  EXPECT_FALSE(std::async(std::launch::async, [&] { return mutex.try_lock(); }).get());
  // The failed attempt left nothing behind: a second reader comes in at once.
  EXPECT_TRUE(std::async(std::launch::async, [&] {
                std::shared_lock second(mutex);
                return second.owns_lock();
              }).get());
  reader.unlock();
  std::unique_lock writer(mutex, std::try_to_lock);
  EXPECT_TRUE(writer.owns_lock());
}

TEST(FairMutex, TryLockTakesAFreeMutexOnly) {
  FairMutex mutex;
  ASSERT_TRUE(mutex.try_lock());
  EXPECT_FALSE(std::async(std::launch::async, [&] { return mutex.try_lock(); }).get());
  mutex.unlock();
  std::lock_guard again(mutex);  // a failed try takes no ticket: this does not wait
}

}  // namespace
}  // namespace keyscope::engine
