// StatsRecorder's hot path: recording into seconds and tables already seen
// allocates nothing. This file replaces the global operator new of the
// statistics test binary to count allocations while a flag is on.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "stats/stats_recorder.h"
#include "stats_test_util.h"

namespace {
std::atomic<bool> g_counting{false};
std::atomic<uint64_t> g_allocations{0};

void* counted(std::size_t size) noexcept {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(size == 0 ? 1 : size);
}
}  // namespace

// Every plain form is replaced, so that each allocation and its release go
// through the same pair (ASan checks that). Not inlined: GCC 12 would then
// see free() of what `new` returned and warn (-Wmismatched-new-delete), not
// knowing that these replace both sides.
[[gnu::noinline]] void* operator new(std::size_t size) {
  if (void* p = counted(size)) return p;
  throw std::bad_alloc();
}
[[gnu::noinline]] void* operator new[](std::size_t size) {
  if (void* p = counted(size)) return p;
  throw std::bad_alloc();
}
[[gnu::noinline]] void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return counted(size); }
[[gnu::noinline]] void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return counted(size); }
[[gnu::noinline]] void operator delete(void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete[](void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

namespace keyscope::test {
namespace {

TEST(StatsRecorder, RecordingIntoASecondAlreadySeenAllocatesNothing) {
  stats::StatsRecorder recorder;
  std::vector<std::string> rows;
  for (int i = 0; i < 1000; ++i) rows.push_back(rowKey(i) + "-with-a-longer-tail");  // past the short-string buffer
  // Warm up: the second, both regions and a full reservoir.
  for (int i = 0; i < 2000; ++i) recorder.recordWrite(at(1, 1 + i % 2), rows[static_cast<size_t>(i) % 1000], 1, 10, 100);
  g_allocations = 0;
  g_counting = true;
  for (int i = 0; i < 20000; ++i) {
    const std::string_view sample[] = {rows[static_cast<size_t>(i * 7) % 1000]};
    if (i % 3 == 0)
      recorder.recordReads(at(1, 1 + i % 2), 1, 2, 20, sample, 900);
    else
      recorder.recordWrite(at(1, 1 + i % 2), sample[0], 1, 10, 900);
  }
  g_counting = false;
  EXPECT_EQ(g_allocations.load(), 0u);
}

}  // namespace
}  // namespace keyscope::test
