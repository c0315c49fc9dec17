// No SQLite connection of a workspace is ever used by two threads at once,
// while everything that runs on threads of its own runs together: a
// writer's commits (puts, deletes, increments), readers' gets and scans,
// flushes, minor and major compactions, splits, merges and the
// checkpointer. (connection_use_watch.h says why that matters and how it is
// watched.)
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <span>
#include <thread>

#include "connection_use_watch.h"
#include "engine/catalog.h"
#include "engine/reader_pool.h"
#include "engine/sqlite_pages.h"
#include "engine_test_util.h"
#include "keyscope/put_batch.h"

namespace keyscope::test {
namespace {

constexpr const char* kTable = "t";
constexpr int kRows = 2000;
constexpr int kBatches = 1500;
constexpr int kCellsPerBatch = 20;

std::string rowName(int i) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "row%05d", i);
  return buf;
}

TEST(ConnectionUse, NoConnectionIsUsedByTwoThreadsAtOnce) {
  EngineFixture fx;
  TableOptions table;
  table.name = kTable;
  table.memstoreFlushSize = 64 << 10;  // a flush (and so a store-file write) every ~300 cells
  FamilyOptions family;
  family.name = "d";
  family.compression = Compression::kZstd;
  family.blockSize = 4096;
  table.families = {family};
  ASSERT_TRUE(fx.ws().createTable(table).isOk());

  // The first finalizes of each statement stay inside their connection for
  // 1 ms: a store-file write finalizes its page insert once, and a commit of
  // the writer's running meanwhile is caught (it commits 1,500 batches in
  // the second or so the test runs).
  connection_use::start(std::chrono::milliseconds(1));
  std::atomic<bool> stop{false};
  std::atomic<int> failures{0};
  std::thread writer([&] {
    const std::string value(200, 'v');
    PutBatch batch;
    for (int b = 0; b < kBatches; ++b) {
      batch.clear();
      for (int c = 0; c < kCellsPerBatch; ++c)
        batch.add(rowName((b * 7919 + c * 104729) % kRows), "d", "q", kLatestTimestamp, value);
      if (!fx.ws().mutate(kTable, batch, WriteOptions{}).isOk()) ++failures;
      if (b % 50 == 0) {
        if (!fx.ws().increment(kTable, Increment{"counter", {{"d", "n", 1}}}, WriteOptions{}))
          ++failures;
        Delete del;
        del.row = rowName(b % kRows);
        const Mutation mutation = del;
        if (!fx.ws().mutate(kTable, std::span(&mutation, 1), WriteOptions{}).isOk()) ++failures;
      }
    }
    stop.store(true);
  });
  std::thread reader([&] {
    for (int i = 0; !stop.load(); ++i) {
      GetOptions get;
      get.row = rowName(i * 31 % kRows);
      if (!fx.ws().get(kTable, get)) ++failures;
      if (i % 50 == 0) {
        ScanOptions scan;
        scan.limit = 200;
        auto scanner = fx.ws().scan(kTable, scan);
        if (!scanner) {
          ++failures;
          continue;
        }
        RowResult row;
        while ((*scanner)->next(&row)) {
        }
        if (!(*scanner)->status().isOk()) ++failures;
      }
    }
  });
  std::thread maintenance([&] {
    for (int i = 0; !stop.load(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      if (i % 4 == 1) {
        // Nothing to split yet, or a split of a region too small, is fine.
        (void)fx.ws().split(kTable);
      } else if (i % 4 == 3) {
        auto regions = fx.ws().regions(kTable);
        if (!regions) {
          ++failures;
        } else if (regions->size() >= 2 &&
                   !fx.ws().mergeRegions((*regions)[0].id, (*regions)[1].id)) {
          ++failures;
        }
      } else if (!fx.ws().compact(kTable, i % 8 == 0).isOk()) {
        ++failures;
      }
    }
  });
  writer.join();
  reader.join();
  maintenance.join();
  ASSERT_TRUE(fx.ws().waitForBackgroundWork());
  // sqlite_pages.cc's page insert: one finalize per store file written.
  const uint64_t filesWritten =
      connection_use::finalizesOf("INSERT INTO pages(page_id, data) VALUES(?1, ?2)");
  const uint64_t steps = connection_use::calls("sqlite3_step");
  const std::vector<std::string> overlaps = connection_use::stop();

  EXPECT_EQ(failures.load(), 0);
  EXPECT_THAT(overlaps, ::testing::IsEmpty());
  // The watch saw the work it is about: store files written while the
  // writer committed.
  EXPECT_GE(filesWritten, 20u);
  EXPECT_GE(steps, static_cast<uint64_t>(kBatches));
}

// A scan's lease on a connection is read by the scanning thread and by the
// readahead pool's thread at once (LeasedPageSource::readahead()): the two
// take turns, and every read returns its page's bytes. The scan above
// covers it among everything else; this covers it alone, with the owner
// giving its connection back now and then as a scanner does between rows.
TEST(ConnectionUse, AScansLeaseAndItsReadaheadTakeTurns) {
  TempDir dir;
  auto catalog = engine::Catalog::open(dir.file("w.keyscope"), /*createIfMissing=*/true);
  ASSERT_TRUE(catalog.isOk()) << catalog.status().toString();
  const auto pageBytes = [](uint32_t page) { return std::string(1000, static_cast<char>('a' + page)); };
  {
    engine::SqlitePageSink sink((*catalog)->db());
    for (uint32_t page = 0; page < 4; ++page) ASSERT_TRUE(sink.writePage(5, page, pageBytes(page)).isOk());
  }
  engine::ReaderPool pool(catalog->get());
  engine::LeasedPageSource source(&pool);
  std::atomic<int> wrong{0};
  const auto reads = [&](engine::PageSource* pages, bool releases) {
    std::string out;
    for (int i = 0; i < 3000; ++i) {
      const auto page = static_cast<uint32_t>(i % 4);
      const auto offset = static_cast<uint32_t>(i % 900);
      if (!pages->readRange(5, page, offset, 100, &out).isOk() || out != pageBytes(page).substr(offset, 100))
        wrong.fetch_add(1);
      if (releases && i % 50 == 0) source.release();
    }
  };
  connection_use::start(std::chrono::microseconds(0));
  std::thread ahead(reads, source.readahead(), false);
  reads(&source, true);
  ahead.join();
  source.release();
  const uint64_t blobReads = connection_use::calls("sqlite3_blob_read");
  const std::vector<std::string> overlaps = connection_use::stop();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_THAT(overlaps, ::testing::IsEmpty());
  EXPECT_EQ(blobReads, 6000u) << "the watch saw every read";
}

}  // namespace
}  // namespace keyscope::test
