// Background work: flushes do not wait behind compactions. A writer held
// back by memstore pressure waits for a flush; with one background thread
// that flush queued behind every compaction before it, however long. And a
// compaction beside a flush keeps no memstore alive.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <future>
#include <string>

#include "engine/sync_point.h"
#include "engine_test_util.h"

namespace keyscope::test {
namespace {

constexpr auto kPatience = std::chrono::seconds(30);

// Holds the first thread to pass a sync point until released.
class HeldPoint {
 public:
  explicit HeldPoint(std::string heldPoint)
      : m_points([this, heldPoint = std::move(heldPoint)](std::string_view point) {
          if (point != heldPoint || m_held.exchange(true)) return;
          m_reached.set_value();
          m_released.wait_for(kPatience);  // bounded: a failing test ends
        }) {}
  ~HeldPoint() { release(); }

  bool reached() { return m_reached.get_future().wait_for(kPatience) == std::future_status::ready; }
  void release() {
    if (!m_releasedOnce.exchange(true)) m_release.set_value();
  }

 private:
  std::atomic<bool> m_held{false};
  std::atomic<bool> m_releasedOnce{false};
  std::promise<void> m_reached;
  std::promise<void> m_release;
  std::shared_future<void> m_released = m_release.get_future().share();
  engine::ScopedSyncPoints m_points;
};

TEST(BackgroundWork, AFlushCompletesWhileAnotherTablesCompactionRuns) {
  EngineFixture fx;
  fx.createTable("busy", {familyOf("f")});
  fx.createTable("other", {familyOf("f")});
  for (int i = 0; i < 3; ++i) {
    fx.put("busy", "row" + std::to_string(i), "f:q", 1, "v");
    fx.flush("busy");
  }
  HeldPoint held("task:major-compaction");
  auto compaction = std::async(std::launch::async, [&] { return fx.ws().compact("busy", /*major=*/true); });
  ASSERT_TRUE(held.reached()) << "the major compaction never started";

  fx.put("other", "row", "f:q", 1, "written while busy compacts");
  auto flush = std::async(std::launch::async, [&] { return fx.ws().flush("other"); });
  const bool flushed = flush.wait_for(kPatience) == std::future_status::ready;
  held.release();
  EXPECT_TRUE(flushed) << "the flush waited for the other table's compaction";
  const Status flushStatus = flush.get();
  EXPECT_TRUE(flushStatus.isOk()) << flushStatus.toString();
  const Status compactionStatus = compaction.get();
  ASSERT_TRUE(compactionStatus.isOk()) << compactionStatus.toString();

  EXPECT_EQ(fx.storeFileCount("other"), 1u);
  EXPECT_EQ(fx.storeFileCount("busy"), 1u);
  fx.reopen();
  ASSERT_EQ(fx.getColumn("other", "row", "f:q").size(), 1u);
  EXPECT_EQ(fx.getColumn("other", "row", "f:q")[0].value, "written while busy compacts");
  for (int i = 0; i < 3; ++i) EXPECT_EQ(fx.getColumn("busy", "row" + std::to_string(i), "f:q").size(), 1u);
}

// A sanitizer's allocator keeps freed memory aside (ASan's quarantine grew
// the process by more than a memstore during one flush): resident memory
// then says nothing of the memstores.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kResidentMemoryIsTheEngines = false;
#else
constexpr bool kResidentMemoryIsTheEngines = true;
#endif

// This process's resident memory (Linux's /proc/self/statm: pages in all,
// then pages resident).
uint64_t residentBytes() {
  std::ifstream statm("/proc/self/statm");
  uint64_t pages = 0;
  uint64_t resident = 0;
  statm >> pages >> resident;
  return resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

// The workspace's memstore limit counts a memstore until its flush is
// installed; from then on nothing may keep its memory. A compaction that held
// the store's whole state for its merge kept the memstores of that moment
// alive to its end: a load beside its compactions went a memstore past the limit.
TEST(BackgroundWork, AMemstoreFlushedWhileItsRegionCompactsGoesBackToTheSystem) {
  EngineFixture fx;
  TableOptions table;
  table.name = "t";
  table.memstoreFlushSize = 1ull << 30;  // flushed here only when asked
  table.families = {familyOf("f")};
  ASSERT_TRUE(fx.ws().createTable(table).isOk());
  for (int i = 0; i < 2; ++i) {
    fx.put("t", "file" + std::to_string(i), "f:q", 1, "v");
    fx.flush("t");
  }

  // The compaction is held once it has chosen its files, before its merge;
  // the writes below and their flush happen meanwhile.
  HeldPoint held("compaction:merge");
  auto compaction = std::async(std::launch::async, [&] { return fx.ws().compact("t", /*major=*/true); });
  ASSERT_TRUE(held.reached()) << "the major compaction never started";

  constexpr uint64_t kWritten = 48ull << 20;
  constexpr int kValueBytes = 1000;
  constexpr int kCellsPerPut = 100;
  const std::string value(kValueBytes, 'x');
  for (uint64_t row = 0; row * kCellsPerPut * kValueBytes < kWritten; ++row) {
    Put put{"row" + std::to_string(1000000 + row), {}};
    for (int q = 0; q < kCellsPerPut; ++q) put.cells.push_back({"f", "q" + std::to_string(q), 1, value});
    ASSERT_TRUE(fx.ws().put("t", put).isOk());
  }
  const uint64_t beforeFlush = residentBytes();
  auto flush = std::async(std::launch::async, [&] { return fx.ws().flush("t"); });
  const bool flushed = flush.wait_for(kPatience) == std::future_status::ready;
  const uint64_t afterFlush = residentBytes();
  held.release();
  ASSERT_TRUE(flushed) << "the flush waited for the region's compaction";
  const Status flushStatus = flush.get();
  ASSERT_TRUE(flushStatus.isOk()) << flushStatus.toString();
  const Status compactionStatus = compaction.get();
  ASSERT_TRUE(compactionStatus.isOk()) << compactionStatus.toString();

  if (kResidentMemoryIsTheEngines) {
    EXPECT_LT(afterFlush + kWritten / 2, beforeFlush)
        << "resident before the flush " << beforeFlush << " bytes, after it " << afterFlush
        << ": the flushed memstore stayed in memory while the region compacted";
  }
  EXPECT_EQ(fx.storeFileCount("t"), 2u);  // the compaction's output and the flush's file
  EXPECT_EQ(fx.getColumn("t", "row1000000", "f:q7").size(), 1u);
  EXPECT_EQ(fx.getColumn("t", "file1", "f:q").size(), 1u);
}

}  // namespace
}  // namespace keyscope::test
