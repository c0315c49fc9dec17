// The memory memstores hold: each memstore's part in the workspace's budget,
// and the workspace-wide limit (OpenOptions::memstoreLimitBytes, HBase's
// global memstore limit) that flushes the region holding the most when many
// regions each stay below their own flush size.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "engine/internal_key.h"
#include "engine/memstore.h"
#include "engine/workspace_impl.h"
#include "engine_test_util.h"
#include "raw_db.h"

namespace keyscope::test {
namespace {

using engine::Memstore;
using engine::MemstoreBudget;

void addCell(Memstore& memstore, const std::string& row, uint64_t mvcc) {
  const std::string key = engine::internalKey(row, "q", 1, CellType::kPut);
  memstore.add(key, std::string(100, 'v'), mvcc);
}

TEST(MemstoreBudget, CountsAMemstoreAsActiveThenFlushingThenNotAtAll) {
  auto budget = std::make_shared<MemstoreBudget>();
  Memstore memstore(budget);
  const uint64_t empty = memstore.approximateBytes();  // the skip list's head
  EXPECT_EQ(budget->active.load(), empty);
  for (uint64_t i = 0; i < 100; ++i) addCell(memstore, "row" + std::to_string(i), i + 1);
  EXPECT_GT(memstore.approximateBytes(), 100u * 100u);
  EXPECT_EQ(budget->active.load(), memstore.approximateBytes());
  EXPECT_EQ(budget->flushing.load(), 0u);

  memstore.markFlushing();
  EXPECT_EQ(budget->active.load(), 0u);
  EXPECT_EQ(budget->flushing.load(), memstore.approximateBytes());

  memstore.markFlushed();
  EXPECT_EQ(budget->held(), 0u) << "written to a store file: no longer the budget's, though readers may hold it";
}

TEST(MemstoreBudget, AMemstoreThatDiesTakesItsBytesOutWhateverItsState) {
  auto budget = std::make_shared<MemstoreBudget>();
  {
    Memstore active(budget);
    auto flushing = std::make_unique<Memstore>(budget);
    for (uint64_t i = 0; i < 50; ++i) {
      addCell(active, "a" + std::to_string(i), i + 1);
      addCell(*flushing, "f" + std::to_string(i), i + 1);
    }
    flushing->markFlushing();
    EXPECT_GT(budget->active.load(), 0u);
    EXPECT_GT(budget->flushing.load(), 0u);
    flushing.reset();  // a dropped table's memstore, say
    EXPECT_EQ(budget->flushing.load(), 0u);
  }
  EXPECT_EQ(budget->held(), 0u);
}

// Rows with a value of 1 KiB each: about 1,000 fill one full-size arena block.
void addRows(Memstore& memstore, const std::string& prefix, int rows, uint64_t* mvcc) {
  for (int i = 0; i < rows; ++i) {
    const std::string key = engine::internalKey(prefix + std::to_string(i), "q", 1, CellType::kPut);
    memstore.add(key, std::string(1024, static_cast<char>('a' + i % 26)), ++*mvcc);
  }
}

// Every row addRows() wrote, in key order, with its own value.
void expectRows(const Memstore& memstore, const std::string& prefix, int rows, uint64_t mvcc) {
  std::map<std::string, std::string> expected;
  for (int i = 0; i < rows; ++i) {
    expected[engine::internalKey(prefix + std::to_string(i), "q", 1, CellType::kPut)] =
        std::string(1024, static_cast<char>('a' + i % 26));
  }
  std::map<std::string, std::string> seen;
  auto it = memstore.newIterator(mvcc);
  for (it->seekToFirst(); it->valid(); it->next()) {
    if (it->key().substr(0, prefix.size()) == prefix) seen[std::string(it->key())] = std::string(it->value());
  }
  EXPECT_TRUE(seen == expected) << seen.size() << " rows read back, " << expected.size() << " written";
}

// A memstore that took `rows` rows, then was flushed and died: its arena
// goes to the budget's pool or back to the kernel.
void flushAndDrop(const std::shared_ptr<MemstoreBudget>& budget, const std::string& prefix, int rows,
                  uint64_t* mvcc) {
  Memstore flushed(budget);
  addRows(flushed, prefix, rows, mvcc);
  flushed.markFlushing();
  flushed.markFlushed();
}

TEST(MemstoreBudget, AFlushedMemstoresArenaGoesToTheMemstoreTakingWrites) {
  auto budget = std::make_shared<MemstoreBudget>(/*poolBytes=*/64 << 20);
  uint64_t mvcc = 0;
  Memstore next(budget);
  addRows(next, "new", 2000, &mvcc);  // taking writes: two blocks of them
  flushAndDrop(budget, "old", 8000, &mvcc);  // about 8 MiB: full-size blocks
  const size_t kept = budget->pool.keptBytes();
  EXPECT_GE(kept, size_t{6} << 20) << "the flushed memstore's full-size blocks";

  // The next memstore's writes go into the kept blocks, over what the last
  // one left in them, and read back as written.
  addRows(next, "more", 4000, &mvcc);
  EXPECT_LE(budget->pool.keptBytes(), kept - (size_t{3} << 20));
  expectRows(next, "more", 4000, mvcc);
  EXPECT_TRUE(next.levelsInOrder());
}

TEST(MemstoreBudget, TheLastFlushedMemstoreGivesItsArenaBackToTheKernel) {
  auto budget = std::make_shared<MemstoreBudget>(/*poolBytes=*/64 << 20);
  uint64_t mvcc = 0;
  auto flushed = std::make_unique<Memstore>(budget);
  addRows(*flushed, "old", 4000, &mvcc);
  flushed->markFlushing();
  flushed->markFlushed();
  Memstore next(budget);
  addRows(next, "new", 100, &mvcc);  // a memstore just started: less than a block
  // No memstore has asked for a block since, and no writer waits.
  std::this_thread::sleep_for(MemstoreBudget::kPoolQuiet + std::chrono::milliseconds(50));
  flushed.reset();  // no writes under way to keep the arena for
  EXPECT_EQ(budget->pool.keptBytes(), 0u);
}

TEST(MemstoreBudget, AFlushedMemstoresArenaIsKeptForWritesThatGoOn) {
  // The moments a load's memstores hold less than a block of writes: one
  // just took over from the memstore switched out for its flush, or the
  // writer waits for a flush with every memstore switched out.
  auto budget = std::make_shared<MemstoreBudget>(/*poolBytes=*/64 << 20);
  uint64_t mvcc = 0;
  Memstore next(budget);
  addRows(next, "new", 100, &mvcc);
  flushAndDrop(budget, "old", 4000, &mvcc);  // it asked for blocks just now
  EXPECT_GE(budget->pool.keptBytes(), size_t{2} << 20)
      << "a memstore asked for a block within the quiet time";

  auto flushed = std::make_unique<Memstore>(budget);
  addRows(*flushed, "older", 4000, &mvcc);
  flushed->markFlushing();
  next.markFlushing();  // nothing takes writes
  budget->waitingWriters = 1;
  std::this_thread::sleep_for(MemstoreBudget::kPoolQuiet + std::chrono::milliseconds(50));
  const size_t before = budget->pool.keptBytes();
  flushed->markFlushed();
  flushed.reset();
  EXPECT_GT(budget->pool.keptBytes(), before) << "a writer waits for room";
  budget->trimPool(engine::ArenaBlockPool::Clock::now());
  EXPECT_GT(budget->pool.keptBytes(), before);
  budget->waitingWriters = 0;
  budget->trimPool(engine::ArenaBlockPool::Clock::now());
  EXPECT_EQ(budget->pool.keptBytes(), 0u) << "nobody writes, waits, or asked within the quiet time";
}

TEST(MemstoreBudget, ThePoolKeepsOnlyWhatTheLimitLeavesRoomFor) {
  // The same memstores with and without a limit of 4 MiB: a flushed
  // memstore of about 8 MiB gives back more full-size blocks than fit.
  const auto keptWith = [](uint64_t limit, size_t* blocksInUse) {
    auto budget = std::make_shared<MemstoreBudget>(/*poolBytes=*/64 << 20, limit);
    uint64_t mvcc = 0;
    Memstore next(budget);
    addRows(next, "new", 3000, &mvcc);  // about 3 MiB taking writes
    flushAndDrop(budget, "old", 8000, &mvcc);
    *blocksInUse = budget->blocksInUse.load();
    return budget->pool.keptBytes();
  };
  constexpr uint64_t kLimit = 4 << 20;
  size_t inUse = 0;
  const size_t limited = keptWith(kLimit, &inUse);
  size_t unlimitedInUse = 0;
  const size_t unlimited = keptWith(0, &unlimitedInUse);
  EXPECT_EQ(inUse, unlimitedInUse);
  EXPECT_LT(limited, unlimited);
  EXPECT_LE(limited + inUse * engine::ArenaBlockPool::kBlockBytes, kLimit)
      << "full-size blocks in memstores and pool together within the limit";
}

TEST(MemstoreBudget, TrimKeepsThePoolOnlyForWritesUnderWay) {
  auto budget = std::make_shared<MemstoreBudget>(/*poolBytes=*/64 << 20);
  uint64_t mvcc = 0;
  Memstore next(budget);
  addRows(next, "new", 2000, &mvcc);  // taking writes: two blocks of them
  flushAndDrop(budget, "old", 4000, &mvcc);
  const size_t kept = budget->pool.keptBytes();
  ASSERT_GT(kept, 0u);
  const auto now = engine::ArenaBlockPool::Clock::now();
  budget->trimPool(now);  // the writer asked for blocks just now
  EXPECT_EQ(budget->pool.keptBytes(), kept);
  budget->trimPool(now + MemstoreBudget::kPoolIdle + std::chrono::seconds(1));
  EXPECT_EQ(budget->pool.keptBytes(), 0u) << "no memstore asked for a block for the idle time";

  // Kept again, then the memstore taking writes is switched out for its
  // flush: once no memstore has asked for a block for the quiet time,
  // nothing holds writes, and the next trim lets go at once.
  flushAndDrop(budget, "again", 3000, &mvcc);
  ASSERT_GT(budget->pool.keptBytes(), 0u);
  next.markFlushing();
  const auto later = engine::ArenaBlockPool::Clock::now();
  budget->trimPool(later);
  EXPECT_GT(budget->pool.keptBytes(), 0u) << "a memstore asked for a block within the quiet time";
  budget->trimPool(later + MemstoreBudget::kPoolQuiet + std::chrono::milliseconds(1));
  EXPECT_EQ(budget->pool.keptBytes(), 0u);
}

// A table pre-split into eight regions, each with a flush size it never
// reaches: only the workspace-wide limit can flush anything.
class MemstoreLimitTest : public ::testing::Test {
 protected:
  static constexpr uint64_t kLimit = 512 << 10;
  static constexpr int kRegions = 8;
  static constexpr int kRowsPerBatch = 40;  // of 8 regions' rows, about 4 KiB each
  static constexpr int kBatches = 50;       // about 8 MiB in all: 16 times the limit

  static OpenOptions options(uint64_t limit) {
    OpenOptions o;
    o.memstoreLimitBytes = limit;
    o.backgroundCompaction = false;
    return o;
  }

  static std::string rowKey(int i) {
    // The first byte spreads rows over the regions ('a'..'h').
    return std::string(1, static_cast<char>('a' + i % kRegions)) + std::to_string(100000 + i);
  }

  static std::vector<Mutation> batchOfRows(int first, int count) {
    std::vector<Mutation> batch;
    for (int i = first; i < first + count; ++i)
      batch.push_back(Put{rowKey(i), {{"f", "q", kLatestTimestamp, std::string(4000, 'x')}}});
    return batch;
  }

  void createTable(EngineFixture& f) { createTable(f.ws()); }
  void createTable(Workspace& ws) {
    std::vector<Bytes> splits;
    for (int r = 1; r < kRegions; ++r) splits.emplace_back(1, static_cast<char>('a' + r));
    FamilyOptions family = familyOf("f").options;
    TableOptions table;
    table.name = "t";
    table.families = {family};
    table.memstoreFlushSize = 64ull << 20;
    table.maxFileSize = 1ull << 40;  // no splits: the regions stay as created
    ASSERT_TRUE(ws.createTable(table, splits));
  }

  // Writes every batch; returns the largest total of the regions' memstores
  // seen after a write, as RegionInfo reports them.
  uint64_t writeAllBatches(EngineFixture& f) {
    uint64_t largest = 0;
    int row = 0;
    for (int b = 0; b < kBatches; ++b) {
      EXPECT_TRUE(f.ws().mutate("t", batchOfRows(row, kRowsPerBatch)));
      row += kRowsPerBatch;
      Result<std::vector<RegionInfo>> regions = f.ws().regions("t");
      EXPECT_TRUE(regions);
      uint64_t total = 0;
      for (const RegionInfo& region : *regions) total += region.memstoreBytes;
      largest = std::max(largest, total);
    }
    return largest;
  }
};

TEST_F(MemstoreLimitTest, ManyRegionsBelowTheirFlushSizeAreFlushedLargestFirstToStayUnderTheLimit) {
  EngineFixture f(options(kLimit));
  createTable(f);
  const uint64_t largest = writeAllBatches(f);
  constexpr uint64_t kBatchBytes = kRowsPerBatch * 4200;
  EXPECT_LE(largest, kLimit + kBatchBytes) << "the memstores together stay within the limit and one batch";
  ASSERT_TRUE(f.ws().waitForBackgroundWork());
  Result<std::vector<RegionInfo>> regions = f.ws().regions("t");
  ASSERT_TRUE(regions);
  ASSERT_THAT(*regions, ::testing::SizeIs(kRegions));
  for (const RegionInfo& region : *regions)
    EXPECT_GT(region.storeFiles, 0u) << "region " << region.id << " was flushed for memory, though below its flush size";
  Result<uint64_t> rows = f.ws().count("t", ScanOptions{});
  ASSERT_TRUE(rows);
  EXPECT_EQ(*rows, static_cast<uint64_t>(kRowsPerBatch * kBatches)) << "nothing lost by the flushes";
}

TEST_F(MemstoreLimitTest, WithoutALimitEachRegionWaitsForItsOwnFlushSize) {
  EngineFixture f(options(0));
  createTable(f);
  const uint64_t largest = writeAllBatches(f);
  EXPECT_GT(largest, 4 * kLimit) << "the control: nothing but the limit flushes these regions";
  EXPECT_EQ(f.storeFileCount("t"), 0u);
}

// A region whose store file's metadata is damaged is not flushed (its writes
// stay in the memstore and the log until keyscope-cli check --repair): when
// it is the one holding the most, writes stop at the limit and say why.
TEST_F(MemstoreLimitTest, WhenTheFlushForMemoryFailsWritesStopSayingWhyWithNothingApplied) {
  TempDir dir;
  const std::string path = dir.file("ws.ksw");
  {
    Result<std::unique_ptr<Workspace>> ws = Workspace::open(path, options(kLimit));
    ASSERT_TRUE(ws);
    createTable(**ws);
    ASSERT_TRUE((*ws)->mutate("t", batchOfRows(0, 1)));  // row 0 is in region 'a'
    ASSERT_TRUE((*ws)->flush("t"));
  }
  {
    RawDb db(path);
    db.exec("UPDATE store_files SET meta = substr(meta, 1, 12)");
  }
  Result<std::unique_ptr<Workspace>> ws = Workspace::open(path, options(kLimit));
  ASSERT_TRUE(ws) << ws.status().toString();
  Status refused;
  int applied = 0;
  for (int b = 0; b < 100 && refused; ++b) {
    // Rows 8, 16, 24, ...: all in region 'a', far below its flush size.
    std::vector<Mutation> batch;
    for (int i = 0; i < kRowsPerBatch; ++i) {
      const int row = (b * kRowsPerBatch + i + 1) * kRegions;
      batch.push_back(Put{rowKey(row), {{"f", "q", kLatestTimestamp, std::string(4000, 'x')}}});
    }
    refused = (*ws)->mutate("t", batch);
    if (refused) ++applied;
  }
  ASSERT_FALSE(refused) << "writes went on past the limit";
  EXPECT_GE(applied * kRowsPerBatch * 4000, static_cast<int>(kLimit) / 2) << "the limit, not something before it";
  EXPECT_THAT(refused.message(),
              ::testing::AllOf(::testing::HasSubstr("the workspace takes no more writes until its memstores can be "
                                                    "flushed"),
                               ::testing::HasSubstr("nothing of this write was applied"),
                               ::testing::HasSubstr("store file metadata")));
}

// While a writer waits for a flush to make room it is counted, so the
// memstores' block pool keeps its blocks for the writes that resume
// (MemstoreBudget::writesUnderWay); once it returns it is not. Another
// connection holds SQLite's write lock, so no flush can finish: the writer,
// whose writes skip the log and so need no lock, fills the memstores past
// the limit and then waits for room at every write.
TEST_F(MemstoreLimitTest, AWriterWaitingForRoomIsCountedWhileItWaits) {
  TempDir dir;
  const std::string path = dir.file("ws.ksw");
  Result<std::unique_ptr<Workspace>> ws = Workspace::open(path, options(kLimit));
  ASSERT_TRUE(ws) << ws.status().toString();
  createTable(**ws);
  const auto* impl = dynamic_cast<const engine::WorkspaceImpl*>(ws->get());
  ASSERT_NE(impl, nullptr);
  const MemstoreBudget& budget = impl->memstoreBudget();

  auto lock = std::make_unique<RawDb>(path);
  lock->exec("BEGIN IMMEDIATE");
  std::atomic<bool> stop{false};
  std::atomic<int> written{0};
  Status writeStatus;
  std::thread writer([&] {
    WriteOptions skipLog;
    skipLog.durability = Durability::kSkipWal;
    for (int b = 0; b < kBatches && !stop; ++b) {
      writeStatus = (*ws)->mutate("t", batchOfRows(b * kRowsPerBatch, kRowsPerBatch), skipLog);
      if (!writeStatus) return;
      ++written;
    }
  });
  bool sawWaiting = false;
  const auto giveUp = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!sawWaiting && std::chrono::steady_clock::now() < giveUp) {
    sawWaiting = budget.waitingWriters.load() == 1;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_GT(budget.held(), kLimit) << "the writer waits because the memstores passed the limit";
  stop = true;
  lock->exec("COMMIT");  // the flushes go on, and the writer with them
  lock.reset();
  writer.join();
  EXPECT_TRUE(sawWaiting) << "the writer waited for room without being counted";
  EXPECT_TRUE(writeStatus) << writeStatus.toString();
  EXPECT_EQ(budget.waitingWriters.load(), 0) << "a writer that returned is still counted";
  ASSERT_TRUE((*ws)->waitForBackgroundWork());
  Result<uint64_t> rows = (*ws)->count("t", ScanOptions{});
  ASSERT_TRUE(rows);
  EXPECT_EQ(*rows, static_cast<uint64_t>(written.load() * kRowsPerBatch)) << "nothing lost while the writer waited";
}

}  // namespace
}  // namespace keyscope::test
