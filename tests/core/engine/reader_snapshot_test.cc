// Reads keep their SQLite snapshot warm for a moment between gets
// (reader_pool.h): gets across a flush still find the new store file,
// and once reads stop, no pooled connection holds a snapshot that keeps a
// checkpoint from resetting the WAL.
#include <sqlite3.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "engine_test_util.h"
#include "raw_db.h"

namespace keyscope::test {
namespace {

std::vector<Cell> getRow(EngineFixture& fx, const std::string& row) {
  GetOptions get;
  get.row = row;
  return fx.get("t", get);
}

// A reader in a tight loop keeps its snapshot warm across each flush's
// commit, so its gets read the new store file's pages from a snapshot that
// predates them: they must be looked up again, never reported missing.
TEST(ReaderSnapshots, GetsAcrossAFlushFindTheNewStoreFile) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("d").options});
  std::atomic<int> written{-1};
  std::atomic<bool> stop{false};
  std::atomic<int> failures{0};
  std::string firstFailure;
  std::thread reader([&] {
    while (!stop.load()) {
      const int round = written.load();
      if (round < 0) continue;
      // r0, once flushed, keeps a page open (a snapshot is held only while
      // a page is); then the newest row, which a flush may have just moved
      // into a store file that snapshot does not have.
      for (const int row : {0, round}) {
        GetOptions get;
        get.row = "r" + std::to_string(row);
        auto result = fx.ws().get("t", get);
        if (!result || result->cells.size() != 1) {
          if (failures.fetch_add(1) == 0) firstFailure = get.row + ": " + (result ? "no cell" : result.status().toString());
        }
      }
    }
  });
  for (int round = 0; round < 100; ++round) {
    fx.put("t", "r" + std::to_string(round), "d:q", 1, "v" + std::to_string(round));
    written.store(round);
    fx.flush("t");
  }
  stop.store(true);
  reader.join();
  EXPECT_EQ(failures.load(), 0) << firstFailure;
  EXPECT_EQ(describeFull(getRow(fx, "r99")), std::vector<std::string>{"r99/d:q@1=v99"});
}

// The result of PRAGMA wal_checkpoint(TRUNCATE), tried for up to 10 s: 0
// once no connection's snapshot holds the log back.
int checkpointWithin10s(const std::string& path) {
  RawDb db(path);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  int busy = -1;
  while (std::chrono::steady_clock::now() < deadline) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db.db(), "PRAGMA wal_checkpoint(TRUNCATE)", -1, &st, nullptr) != SQLITE_OK) return -1;
    busy = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
    sqlite3_finalize(st);
    if (busy == 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return busy;
}

// PRAGMA wal_checkpoint(TRUNCATE) resets the WAL only when no connection
// reads from it; the workspace's worker ends idle snapshots within about half
// a second.
TEST(ReaderSnapshots, IdleReadersDoNotHoldCheckpointsBack) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("d").options});
  for (int i = 0; i < 200; ++i) fx.put("t", "r" + std::to_string(i), "d:q", 1, std::string(100, 'v'));
  fx.flush("t");
  for (int i = 0; i < 200; ++i) ASSERT_EQ(getRow(fx, "r" + std::to_string(i)).size(), 1u);

  EXPECT_EQ(checkpointWithin10s(fx.path()), 0) << "a pooled reader still held a snapshot after 10 s";
  // Reads go on after the checkpoint.
  EXPECT_EQ(describeFull(getRow(fx, "r7")), std::vector<std::string>{"r7/d:q@1=" + std::string(100, 'v')});
}

// A scanner its caller leaves open between two next() calls (a client
// paging through a table) holds no snapshot for long: the workspace's
// worker takes back a scan's connection once it has lain unused for a
// moment, and the scan reads on from a fresh one.
TEST(ReaderSnapshots, AnIdleScannerDoesNotHoldCheckpointsBack) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("d").options});
  for (int i = 0; i < 200; ++i) fx.put("t", "r" + std::to_string(1000 + i), "d:q", 1, std::string(100, 'v'));
  fx.flush("t");
  fx.put("t", "r0", "d:q", 1, "in the log");  // the log is not empty: a snapshot holds it back

  auto scanner = fx.ws().scan("t", ScanOptions{});
  ASSERT_TRUE(scanner.isOk()) << scanner.status().toString();
  RowResult row;
  ASSERT_TRUE((*scanner)->next(&row));  // reads the store file: borrows a connection
  ASSERT_TRUE((*scanner)->next(&row));
  EXPECT_EQ(checkpointWithin10s(fx.path()), 0) << "an idle scanner still held a snapshot after 10 s";
  int rows = 2;
  while ((*scanner)->next(&row)) ++rows;
  EXPECT_TRUE((*scanner)->status().isOk()) << (*scanner)->status().toString();
  EXPECT_EQ(rows, 201);
}

}  // namespace
}  // namespace keyscope::test
