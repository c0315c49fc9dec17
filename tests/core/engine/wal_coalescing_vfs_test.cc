// WalCoalescingVfs (wal_coalescing_vfs.h) over a VFS that counts and can
// fail the writes reaching -wal files: a commit's frames arrive in one write,
// a commit whose write fails publishes nothing, and a transaction that
// spilled pages and rewrote their checksums survives SQLite's recovery of
// the log from the file alone.
#include "engine/wal_coalescing_vfs.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <atomic>
#include <filesystem>
#include <string>

#include "engine_test_util.h"
#include "keyscope/put_batch.h"
#include "pass_through_vfs.h"

namespace keyscope::engine {
namespace {

// Passes everything to the default VFS; counts the writes to -wal files and
// fails them with SQLITE_FULL while failWrites is set.
class LogWriteWatch final : public test::PassThroughVfs {
 public:
  LogWriteWatch() : PassThroughVfs("log-write-watch") {}

  std::atomic<int> writes{0};
  std::atomic<int> headerOnlyWrites{0};  // 24 bytes: a frame header alone
  std::atomic<bool> failWrites{false};

 private:
  int onWrite(File& file, const void* p, int n, sqlite3_int64 at) override {
    if (file.isWal()) {
      if (failWrites) return SQLITE_FULL;
      ++writes;
      if (n == 24) ++headerOnlyWrites;
    }
    return PassThroughVfs::onWrite(file, p, n, at);
  }
};

class WalCoalescingVfsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    m_path = m_dir.file("db.sqlite");
    m_db = open(m_path, m_coalescing.name());
    exec(m_db, "PRAGMA page_size = 8192; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;");
    // Frames stay in the log (no automatic checkpoint), where the tests
    // look for them.
    sqlite3_wal_autocheckpoint(m_db, 0);
    exec(m_db, "CREATE TABLE t(id INTEGER PRIMARY KEY, v BLOB NOT NULL)");
  }
  void TearDown() override {
    if (m_db != nullptr) sqlite3_close(m_db);
  }

  static sqlite3* open(const std::string& path, const char* vfs) {
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, vfs),
              SQLITE_OK);
    return db;
  }
  static void exec(sqlite3* db, const std::string& sql) {
    char* error = nullptr;
    const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
    EXPECT_EQ(rc, SQLITE_OK) << sql << ": " << (error != nullptr ? error : "");
    sqlite3_free(error);
  }
  static int execRc(sqlite3* db, const std::string& sql) {
    return sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr);
  }
  static int64_t scalar(sqlite3* db, const std::string& sql) {
    sqlite3_stmt* st = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr), SQLITE_OK)
        << sqlite3_errmsg(db);
    int64_t value = -1;
    if (sqlite3_step(st) == SQLITE_ROW) value = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return value;
  }

  LogWriteWatch m_watch;
  WalCoalescingVfs m_coalescing{"wal-coalescing-test", m_watch.vfs()};
  test::TempDir m_dir;
  std::string m_path;
  sqlite3* m_db = nullptr;
};

TEST_F(WalCoalescingVfsTest, ACommitReachesTheLogInOneWriteAndIsReadableAtOnce) {
  // A 50,000-byte value spans seven 8 KiB pages, as a batch's log record does.
  const int before = m_watch.writes;
  exec(m_db, "INSERT INTO t(id, v) VALUES(1, zeroblob(50000))");
  EXPECT_EQ(m_watch.writes - before, 1) << "frames of one commit, written apart";
  EXPECT_GE(m_coalescing.bufferedWrites(), 14u);  // a header and a page per frame

  // Another connection, on the default VFS, reads it from the log.
  sqlite3* reader = open(m_path, nullptr);
  EXPECT_EQ(scalar(reader, "SELECT length(v) FROM t WHERE id = 1"), 50000);
  sqlite3_close(reader);
  EXPECT_EQ(m_coalescing.lateFlushes(), 0u);
}

TEST_F(WalCoalescingVfsTest, ACommitWhoseWriteFailsFailsAndPublishesNothing) {
  exec(m_db, "INSERT INTO t(id, v) VALUES(1, randomblob(30000))");
  const int64_t kept = scalar(m_db, "SELECT sum(length(v)) FROM t");

  m_watch.failWrites = true;
  EXPECT_EQ(execRc(m_db, "INSERT INTO t(id, v) VALUES(2, randomblob(30000))"), SQLITE_FULL);
  m_watch.failWrites = false;

  sqlite3* reader = open(m_path, nullptr);
  EXPECT_EQ(scalar(reader, "SELECT count(*) FROM t"), 1);
  EXPECT_EQ(scalar(reader, "SELECT sum(length(v)) FROM t"), kept);
  sqlite3_close(reader);

  // The connection goes on: the next commit lands, and the file is whole.
  exec(m_db, "INSERT INTO t(id, v) VALUES(3, randomblob(30000))");
  EXPECT_EQ(scalar(m_db, "SELECT count(*) FROM t"), 2);
  sqlite3* checker = open(m_path, nullptr);
  sqlite3_stmt* st = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(checker, "PRAGMA integrity_check", -1, &st, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)), "ok");
  sqlite3_finalize(st);
  sqlite3_close(checker);
}

TEST_F(WalCoalescingVfsTest, ASpilledTransactionSurvivesRecoveryOfTheLogFromTheFile) {
  // A cache of a few pages makes the transaction spill pages into the log
  // before its commit; changing them again makes SQLite rewrite those frames
  // in place and then their checksums, which recovery checks frame by frame.
  exec(m_db, "PRAGMA cache_size = 4");
  const int headersBefore = m_watch.headerOnlyWrites;
  exec(m_db, "BEGIN");
  for (int i = 0; i < 60; ++i)
    exec(m_db, "INSERT INTO t(id, v) VALUES(" + std::to_string(i) + ", randomblob(3000))");
  exec(m_db, "UPDATE t SET v = zeroblob(2000 + id)");
  exec(m_db, "COMMIT");
  // A crash now, before the connection touches the log again: copy the
  // database and its log as they are on disk, and open the copy, which
  // recovers the log from its frames' checksums.
  const std::string copy = m_dir.file("copy.sqlite");
  std::filesystem::copy_file(m_path, copy);
  std::filesystem::copy_file(m_path + "-wal", copy + "-wal");
  EXPECT_GT(m_watch.headerOnlyWrites - headersBefore, 0)
      << "no checksum was rewritten: the test did not spill";

  const int64_t bytes = 60 * 2000 + 59 * 60 / 2;
  EXPECT_EQ(scalar(m_db, "SELECT sum(length(v)) FROM t"), bytes);
  sqlite3* recovered = open(copy, nullptr);
  EXPECT_EQ(scalar(recovered, "SELECT count(*) FROM t"), 60);
  EXPECT_EQ(scalar(recovered, "SELECT sum(length(v)) FROM t"), bytes);
  sqlite3_close(recovered);
  EXPECT_EQ(m_coalescing.lateFlushes(), 0u);
}

// A workspace's commits of every kind - batches, flushes' store-file pages
// (transactions larger than the buffer), a major compaction - go through
// the VFS, none leaves bytes for the backstop, and everything reads back
// after a reopen.
TEST(WalCoalescingVfsInstance, AWorkspaceWritesThroughItAndLeavesNothingForTheBackstop) {
  WalCoalescingVfs& vfs = WalCoalescingVfs::instance();
  ASSERT_NE(vfs.name(), nullptr);
  const uint64_t bufferedBefore = vfs.bufferedWrites();
  const uint64_t flushesBefore = vfs.flushes();
  const uint64_t lateBefore = vfs.lateFlushes();

  test::EngineFixture fx;
  TableOptions table;
  table.name = "t";
  table.memstoreFlushSize = 1 << 20;
  FamilyOptions family;
  family.name = "f";
  family.compression = Compression::kNone;  // store files as large as their cells
  table.families = {family};
  ASSERT_TRUE(fx.ws().createTable(table).isOk());
  const std::string value(300, 'v');
  constexpr int kBatches = 60;
  constexpr int kCells = 200;
  for (int b = 0; b < kBatches; ++b) {
    PutBatch batch;
    for (int c = 0; c < kCells; ++c)
      batch.add("row" + std::to_string(b * kCells + c + 100000), "f", "q", kLatestTimestamp, value);
    ASSERT_TRUE(fx.ws().mutate("t", batch).isOk());
  }
  fx.flush("t");
  fx.majorCompact("t");
  EXPECT_GE(vfs.bufferedWrites() - bufferedBefore, static_cast<uint64_t>(kBatches) * 14);
  EXPECT_GE(vfs.flushes() - flushesBefore, static_cast<uint64_t>(kBatches));
  EXPECT_EQ(vfs.lateFlushes() - lateBefore, 0u);

  fx.reopen();
  ScanOptions all;
  EXPECT_EQ(fx.scanCells("t", all).size(), static_cast<size_t>(kBatches * kCells));
}

}  // namespace
}  // namespace keyscope::engine
