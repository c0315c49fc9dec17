// The Checkpointer against a real SQLite database in WAL mode, written as
// the workspace writes it (one writer connection, commits under a FairMutex,
// the WAL hook feeding logCommitted): a steady writer's -wal file stays near
// the trigger, as it does not without a checkpointer; a round of the thread
// alone copies the log and lets commits reuse it; while commits wait for a
// round, its sync of the database writes back only what it copied then; a
// reader that holds a snapshot holds the log back only while it does; every
// row written is read back.
#include "engine/checkpointer.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "engine_test_util.h"
#include "raw_db.h"
#include "sync_watch_vfs.h"

namespace keyscope::engine {
namespace {

constexpr int kPageBytes = 8192;
constexpr int kTriggerPages = 100;                             // 800 KiB
constexpr int64_t kSizeLimit = 2 * kTriggerPages * kPageBytes;  // journal_size_limit
constexpr int kRowBytes = 64 * 1024;
constexpr int kRowsPerCommit = 4;  // about 32 pages a commit

// The writer side: a connection, its commits under `commits`, the WAL hook.
class LogWriter {
 public:
  explicit LogWriter(const std::string& path) : m_path(path), m_db(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) {
    m_db.exec("PRAGMA page_size = " + std::to_string(kPageBytes));
    m_db.exec("PRAGMA journal_mode = WAL");
    m_db.exec("PRAGMA synchronous = NORMAL");
    m_db.exec("PRAGMA journal_size_limit = " + std::to_string(kSizeLimit));
    m_db.exec("CREATE TABLE t(k INTEGER PRIMARY KEY, v BLOB NOT NULL)");
    // Nothing checkpoints until a Checkpointer is attached: the control.
    sqlite3_wal_hook(
        m_db.db(),
        [](void* self, sqlite3*, const char*, int pages) {
          auto* writer = static_cast<LogWriter*>(self);
          if (writer->m_checkpointer) writer->m_checkpointer->logCommitted(pages);
          return SQLITE_OK;
        },
        this);
  }
  ~LogWriter() { m_checkpointer.reset(); }  // before the mutex and the connection

  // vfs: the checkpoint connection's, SQLite's default when null.
  void attachCheckpointer(const char* vfs = nullptr) {
    sqlite3* connection = nullptr;
    ASSERT_EQ(sqlite3_open_v2(m_path.c_str(), &connection, SQLITE_OPEN_READWRITE, vfs), SQLITE_OK);
    m_checkpointer = std::make_unique<Checkpointer>(connection, &m_commits, [] {}, kTriggerPages);
  }

  // Commits rows [first, first + kRowsPerCommit) and returns the -wal file's size.
  int64_t commit(int64_t first) {
    {
      std::lock_guard lock(m_commits);
      m_db.exec("BEGIN");
      sqlite3_stmt* st = nullptr;
      EXPECT_EQ(sqlite3_prepare_v2(m_db.db(), "INSERT INTO t VALUES(?1, ?2)", -1, &st, nullptr), SQLITE_OK);
      for (int64_t k = first; k < first + kRowsPerCommit; ++k) {
        const std::string value(kRowBytes, static_cast<char>('a' + k % 26));
        sqlite3_bind_int64(st, 1, k);
        sqlite3_bind_blob(st, 2, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
        EXPECT_EQ(sqlite3_step(st), SQLITE_DONE) << sqlite3_errmsg(m_db.db());
        sqlite3_reset(st);
      }
      sqlite3_finalize(st);
      m_db.exec("COMMIT");
    }
    std::error_code error;
    const auto size = std::filesystem::file_size(m_path + "-wal", error);
    return error ? 0 : static_cast<int64_t>(size);
  }

  // Commits `commits` times from row `*next` on; the largest -wal file seen.
  int64_t commitMany(int commits, int64_t* next) {
    int64_t largest = 0;
    for (int i = 0; i < commits; ++i, *next += kRowsPerCommit) largest = std::max(largest, commit(*next));
    return largest;
  }

  const Checkpointer* checkpointer() const { return m_checkpointer.get(); }
  test::RawDb& db() { return m_db; }

 private:
  std::string m_path;
  test::RawDb m_db;
  FairMutex m_commits;
  std::unique_ptr<Checkpointer> m_checkpointer;
};

// 40 MiB through the log, 50 triggers' worth.
constexpr int kCommits = 160;
constexpr int64_t kWritten = int64_t{kCommits} * kRowsPerCommit * kRowBytes;
// What the -wal file may reach: 8 triggers, where a commit copies the log
// itself when the thread has fallen behind (checkpointer.h), a trigger more
// (the next such copy, should that one leave frames behind), and a commit.
constexpr int64_t kMostLogBytes = 10 * kTriggerPages * kPageBytes;

TEST(Checkpointer, ASteadyWriterKeepsTheLogNearTheTrigger) {
  test::TempDir dir;
  LogWriter writer(dir.file("db"));
  writer.attachCheckpointer();
  int64_t next = 0;
  const int64_t largest = writer.commitMany(kCommits, &next);
  EXPECT_LE(largest, kMostLogBytes) << "of " << kWritten << " bytes written";
  // The thread did the copying, or commits did where it fell behind.
  EXPECT_GE(writer.checkpointer()->finishedRounds() + writer.checkpointer()->commitCheckpoints(), 2u);
  EXPECT_EQ(writer.db().integer("SELECT count(*) FROM t"), next);
  EXPECT_EQ(writer.db().integer("SELECT sum(length(v)) FROM t"), kWritten);
}

// The thread's own work, where no commit ever copies: a log a little past
// the trigger is copied to its end by a round, and the commits after it
// reuse the file from its start instead of growing it.
TEST(Checkpointer, TheThreadCopiesTheLogAndCommitsReuseIt) {
  test::TempDir dir;
  LogWriter writer(dir.file("db"));
  writer.attachCheckpointer();
  int64_t next = 0;
  const int64_t grown = writer.commitMany(5, &next);  // about 1.5 triggers
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (writer.checkpointer()->finishedRounds() == 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_GE(writer.checkpointer()->finishedRounds(), 1u);
  EXPECT_EQ(writer.checkpointer()->commitCheckpoints(), 0u);
  EXPECT_LE(writer.commitMany(2, &next), grown);
  EXPECT_EQ(writer.db().integer("SELECT count(*) FROM t"), next);
}

// Step 2 of a round holds commits through a checkpoint whose last act is a
// sync of the database file. Step 1's passes copy most of the log but seldom
// reach its end, and only a pass that reaches it syncs the database, so
// what they copied is still unsynced then; the round syncs it beside
// commits first. Every sync the thread makes holding the log's write lock
// (step 2) finds nothing unsynced from before it took the lock.
TEST(Checkpointer, CommitsNeverWaitForTheDatabaseSyncOfPagesCopiedBesideThem) {
  test::SyncWatchVfs vfs;
  test::TempDir dir;
  const std::thread::id committing = std::this_thread::get_id();  // a commit's own checkpoint syncs here
  const auto roundSyncs = [&] {
    std::vector<test::SyncWatchVfs::Sync> syncs = vfs.databaseSyncs();
    std::erase_if(syncs, [&](const auto& sync) { return sync.thread == committing || !sync.underWriteLock; });
    return syncs;
  };
  std::vector<test::SyncWatchVfs::Sync> syncs;
  {
    LogWriter writer(dir.file("db"));
    writer.attachCheckpointer(test::SyncWatchVfs::kName);
    int64_t next = 0;
    // Bursts of commits, each a few triggers long, with a pause after each
    // so that the thread, not a commit, runs the rounds on a busy machine.
    constexpr int kRoundSyncsWanted = 3;
    for (int burst = 0; burst < 200 && roundSyncs().size() < kRoundSyncsWanted; ++burst) {
      writer.commitMany(10, &next);
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    syncs = roundSyncs();  // before the connections close and checkpoint
    ASSERT_GE(syncs.size(), kRoundSyncsWanted) << "rounds whose step 2 synced the database";
  }
  for (const test::SyncWatchVfs::Sync& sync : syncs)
    EXPECT_EQ(sync.unsyncedFromBeforeLock, 0) << "step 2's sync wrote back pages step 1 copied";
}

// The control: without the checkpointer (and with SQLite's automatic one
// replaced by the hook, as in a workspace) the log holds everything.
TEST(Checkpointer, WithoutItTheLogGrowsWithEverythingWritten) {
  test::TempDir dir;
  LogWriter writer(dir.file("db"));
  int64_t next = 0;
  EXPECT_GT(writer.commitMany(kCommits, &next), kMostLogBytes);
}

// A reader's open snapshot keeps the log from being copied past it and from
// starting again; commits go on meanwhile, and once it ends the log is cut
// back.
TEST(Checkpointer, AReaderHoldsTheLogBackOnlyWhileItReads) {
  test::TempDir dir;
  LogWriter writer(dir.file("db"));
  writer.attachCheckpointer();
  int64_t next = 0;
  writer.commitMany(8, &next);

  test::RawDb reader(dir.file("db"), SQLITE_OPEN_READONLY);
  reader.exec("BEGIN");
  EXPECT_EQ(reader.integer("SELECT count(*) FROM t"), next);  // the snapshot is taken here
  const int64_t pinned = writer.commitMany(kCommits, &next);
  EXPECT_GT(pinned, kMostLogBytes) << "the reader's snapshot did not hold the log back";
  EXPECT_EQ(reader.integer("SELECT count(*) FROM t"), 8 * kRowsPerCommit);  // still its snapshot
  reader.exec("COMMIT");

  // The reader gone, the next rounds copy the log and it starts again, cut
  // back to the size limit.
  int64_t size = pinned;
  for (int i = 0; i < 200 && size > kSizeLimit + kRowsPerCommit * kRowBytes * 2; ++i, next += kRowsPerCommit) {
    size = writer.commit(next);
    if (i % 20 == 19) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_LE(size, kSizeLimit + kRowsPerCommit * kRowBytes * 2);
  EXPECT_EQ(writer.db().integer("SELECT count(*) FROM t"), next);
}

}  // namespace
}  // namespace keyscope::engine
