// Reads keep their SQLite snapshot warm for a moment between gets
// (reader_pool.h): a get right after a flush still finds the new store file,
// and once reads stop, no pooled connection holds a snapshot that keeps a
// checkpoint from resetting the WAL.
#include <sqlite3.h>

#include <chrono>
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

TEST(ReaderSnapshots, AGetRightAfterAFlushFindsTheNewStoreFile) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("d").options});
  for (int round = 0; round < 50; ++round) {
    const std::string row = "r" + std::to_string(round);
    fx.put("t", row, "d:q", 1, "v" + std::to_string(round));
    fx.flush("t");
    // Gets of the earlier files keep a snapshot warm; the new file's pages
    // were committed after it began.
    ASSERT_EQ(describeFull(getRow(fx, "r0")), std::vector<std::string>{"r0/d:q@1=v0"});
    ASSERT_EQ(describeFull(getRow(fx, row)), std::vector<std::string>{row + "/d:q@1=v" + std::to_string(round)})
        << "round " << round;
  }
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

  RawDb db(fx.path());
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  int busy = -1;
  while (std::chrono::steady_clock::now() < deadline) {
    sqlite3_stmt* st = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db.db(), "PRAGMA wal_checkpoint(TRUNCATE)", -1, &st, nullptr), SQLITE_OK);
    busy = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
    sqlite3_finalize(st);
    if (busy == 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(busy, 0) << "a pooled reader still held a snapshot after 10 s";
  // Reads go on after the checkpoint.
  EXPECT_EQ(describeFull(getRow(fx, "r7")), std::vector<std::string>{"r7/d:q@1=" + std::string(100, 'v')});
}

}  // namespace
}  // namespace keyscope::test
