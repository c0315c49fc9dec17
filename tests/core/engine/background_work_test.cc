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
#include <thread>

#include "engine/memstore.h"
#include "engine/sync_point.h"
#include "engine_test_util.h"
#include "held_point.h"

namespace keyscope::test {
namespace {

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

// A table "t" that splits and flushes only when asked.
void createQuietTable(EngineFixture& fx) {
  TableOptions table;
  table.name = "t";
  table.memstoreFlushSize = 1ull << 30;
  table.splitPolicy = SplitPolicy::kDisabled;
  table.families = {familyOf("f")};
  const Status created = fx.ws().createTable(table);
  ASSERT_TRUE(created.isOk()) << created.toString();
}

// `files` flushes of `rows` rows each, interleaved so that every file spans
// the others' key range (the engine leaves files of disjoint ranges alone).
void writeInterleavedFiles(EngineFixture& fx, int files, int rows) {
  for (int file = 0; file < files; ++file) {
    for (int i = 0; i < rows; ++i) fx.put("t", "row" + std::to_string(100000 + files * i + file), "f:q", 1, "v");
    fx.flush("t");
  }
}

// Holds the first compaction at its merge until released, tells when a
// split has asked for the maintenance lock, and whether a compaction gave
// its merge up.
class MergeAndSplitPoints {
 public:
  MergeAndSplitPoints()
      : m_points([this](std::string_view point) {
          if (point == "compaction:merge" && !m_held.exchange(true)) {
            m_mergeReached.set_value();
            m_released.wait_for(kPatience);
          } else if (point == "split:waiting" && !m_waitingSeen.exchange(true)) {
            m_splitWaiting.set_value();
          } else if (point == "compaction:given-up") {
            m_gaveUp.store(true);
          }
        }) {}
  ~MergeAndSplitPoints() { release(); }

  bool mergeReached() { return m_mergeReached.get_future().wait_for(kPatience) == std::future_status::ready; }
  bool splitWaiting() { return m_splitWaiting.get_future().wait_for(kPatience) == std::future_status::ready; }
  bool gaveUp() const { return m_gaveUp.load(); }
  void release() {
    if (!m_releasedOnce.exchange(true)) m_release.set_value();
  }

 private:
  std::atomic<bool> m_held{false}, m_waitingSeen{false}, m_gaveUp{false}, m_releasedOnce{false};
  std::promise<void> m_mergeReached, m_splitWaiting, m_release;
  std::shared_future<void> m_released = m_release.get_future().share();
  engine::ScopedSyncPoints m_points;
};

// A split waits for the maintenance lock, and while it waits no flush can
// start (the lock lets no shared locker pass a waiting exclusive one), so the
// writer waited out whatever compaction ran. A compaction the engine started
// on the region being split now gives up its merge, which the split's rewrite
// makes moot, as HBase's compactions stop when their region closes to split.
TEST(BackgroundWork, ACompactionTheEngineStartedGivesWayToASplitOfItsRegion) {
  EngineFixture fx;
  createQuietTable(fx);
  MergeAndSplitPoints points;
  // The third flush has the engine queue a minor compaction, which merges
  // enough cells to look at its region's flag on the way.
  constexpr int kRowsPerFile = 3000;
  writeInterleavedFiles(fx, 3, kRowsPerFile);
  ASSERT_TRUE(points.mergeReached()) << "the engine started no compaction";
  auto split = std::async(std::launch::async, [&] { return fx.ws().split("t", Bytes("row104500")); });
  const bool splitAsked = points.splitWaiting();
  points.release();
  ASSERT_TRUE(splitAsked) << "the split never asked for the lock";
  ASSERT_EQ(split.wait_for(kPatience), std::future_status::ready) << "the split waited for the compaction";
  const Result<std::vector<int64_t>> daughters = split.get();
  ASSERT_TRUE(daughters.isOk()) << daughters.status().toString();
  EXPECT_TRUE(points.gaveUp()) << "the compaction ran its merge to the end";
  const Status background = fx.ws().waitForBackgroundWork();
  EXPECT_TRUE(background.isOk()) << "giving way was reported as a failure: " << background.toString();
  EXPECT_EQ(fx.rawCells("t").size(), 3u * kRowsPerFile);
  fx.reopen();
  EXPECT_EQ(fx.rawCells("t").size(), 3u * kRowsPerFile);
}

// While a split waits for the maintenance lock, flushes go on: it only tries
// the lock, as waiting in it would keep every flush out (and the writer with
// them) for as long as the compaction it waits for runs. One asked for runs
// to its end.
TEST(BackgroundWork, AFlushRunsWhileASplitWaitsForACompaction) {
  EngineFixture fx;
  createQuietTable(fx);
  writeInterleavedFiles(fx, 2, 100);
  MergeAndSplitPoints points;
  auto compaction = std::async(std::launch::async, [&] { return fx.ws().compact("t", /*major=*/true); });
  ASSERT_TRUE(points.mergeReached()) << "no compaction started";
  auto split = std::async(std::launch::async, [&] { return fx.ws().split("t", Bytes("row100100")); });
  ASSERT_TRUE(points.splitWaiting()) << "the split never asked for the lock";

  fx.put("t", "row999999", "f:q", 1, "written while the split waits");
  auto flush = std::async(std::launch::async, [&] { return fx.ws().flush("t"); });
  const bool flushed = flush.wait_for(kPatience) == std::future_status::ready;
  points.release();
  EXPECT_TRUE(flushed) << "the flush waited behind the split, which waited for the compaction";
  const Status flushStatus = flush.get();
  EXPECT_TRUE(flushStatus.isOk()) << flushStatus.toString();
  const Status compactionStatus = compaction.get();
  EXPECT_TRUE(compactionStatus.isOk()) << compactionStatus.toString();
  const Result<std::vector<int64_t>> daughters = split.get();
  ASSERT_TRUE(daughters.isOk()) << daughters.status().toString();
  EXPECT_FALSE(points.gaveUp()) << "a compaction asked for gave way";
  EXPECT_EQ(fx.rawCells("t").size(), 201u);
  fx.reopen();
  EXPECT_EQ(fx.rawCells("t").size(), 201u);
  EXPECT_EQ(fx.getColumn("t", "row999999", "f:q").size(), 1u);
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
  // The writes are over. Within kPoolQuiet of the last block a memstore
  // asked for, a flushed memstore's blocks would go to the pool kept for
  // writes under way (memstore.h), legitimately resident; a flush faster
  // than that failed this test on a fast machine.
  std::this_thread::sleep_for(engine::MemstoreBudget::kPoolQuiet + std::chrono::milliseconds(50));
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
