// Durability per write, as HBase's: what survives a SIGKILL of the writing
// process. A child process writes and reports; the parent kills it and reopens.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "engine/wal_record.h"
#include "engine_test_util.h"
#include "log_on_disk.h"
#include "raw_db.h"

namespace keyscope::test {
namespace {

// Runs `body` in a child process that opens the workspace at `path`, then
// writes one byte to the pipe and waits to be killed; returns after the kill.
template <typename Body>
void writeInChildAndKill(const std::string& path, Body body) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    close(fds[0]);
    auto ws = Workspace::open(path);
    if (!ws || !body(**ws)) _exit(3);
    const char done = 'A';
    if (write(fds[1], &done, 1) != 1) _exit(4);
    while (true) pause();
  }
  close(fds[1]);
  char ack = 0;
  const ssize_t n = read(fds[0], &ack, 1);
  close(fds[0]);
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_EQ(n, 1) << "the child failed before acknowledging";
  ASSERT_TRUE(WIFSIGNALED(status));
}

bool putWith(Workspace& ws, const std::string& row, Durability durability) {
  WriteOptions options;
  options.durability = durability;
  return ws.put("t", Put{row, {{"f", "q", 1, row}}}, options).isOk();
}

class DurabilityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto ws = Workspace::open(path());
    ASSERT_TRUE(ws.isOk());
    TableOptions table;
    table.name = "t";
    table.families = {FamilyOptions{.name = "f"}};
    ASSERT_TRUE((*ws)->createTable(table).isOk());
  }
  std::string path() const { return m_dir.file("d.ksw"); }
  std::vector<std::string> rowsAfterReopen() {
    auto ws = Workspace::open(path());
    EXPECT_TRUE(ws.isOk());
    std::vector<std::string> rows;
    auto scanner = (*ws)->scan("t", {});
    RowResult row;
    while ((*scanner)->next(&row)) rows.push_back(row.row);
    return rows;
  }

 private:
  TempDir m_dir;
};

TEST_F(DurabilityTest, SyncAndFsyncWritesSurviveAKillAndSkippedOnesDoNot) {
  writeInChildAndKill(path(), [](Workspace& ws) {
    return putWith(ws, "sync", Durability::kSyncWal) && putWith(ws, "fsync", Durability::kFsyncWal) &&
           putWith(ws, "skip", Durability::kSkipWal);
  });
  EXPECT_THAT(rowsAfterReopen(), ::testing::ElementsAre("fsync", "sync"));
}

TEST_F(DurabilityTest, AsyncWritesReachTheLogWithinASecondOrTwo) {
  writeInChildAndKill(path(), [](Workspace& ws) {
    if (!putWith(ws, "async", Durability::kAsyncWal)) return false;
    std::this_thread::sleep_for(std::chrono::seconds(2));
    return true;
  });
  EXPECT_THAT(rowsAfterReopen(), ::testing::ElementsAre("async"));
}

TEST_F(DurabilityTest, ASyncWriteCommitsTheAsyncOnesBeforeIt) {
  writeInChildAndKill(path(), [](Workspace& ws) {
    return putWith(ws, "async", Durability::kAsyncWal) && putWith(ws, "sync", Durability::kSyncWal);
  });
  EXPECT_THAT(rowsAfterReopen(), ::testing::ElementsAre("async", "sync"));
}

TEST_F(DurabilityTest, SkippedWritesSurviveOnceFlushed) {
  writeInChildAndKill(path(), [](Workspace& ws) {
    return putWith(ws, "skip", Durability::kSkipWal) && ws.flush("t").isOk();
  });
  EXPECT_THAT(rowsAfterReopen(), ::testing::ElementsAre("skip"));
}

TEST_F(DurabilityTest, ACleanCloseKeepsAsyncWrites) {
  {
    auto ws = Workspace::open(path());
    ASSERT_TRUE(ws.isOk());
    ASSERT_TRUE(putWith(**ws, "async", Durability::kAsyncWal));
  }
  EXPECT_THAT(rowsAfterReopen(), ::testing::ElementsAre("async"));
}

// A batch's log record lists its cells in key order per family, each key
// coded against the one before (wal_record.h); replay must give back the
// batch as written: every cell, the later of two writes to one cell
// winning, in two families.
TEST_F(DurabilityTest, ABatchInAnyOrderReplaysAsWritten) {
  {
    auto ws = Workspace::open(path());
    ASSERT_TRUE(ws.isOk());
    TableOptions table;
    table.name = "two";
    table.families = {FamilyOptions{.name = "b"}, FamilyOptions{.name = "a"}};
    ASSERT_TRUE((*ws)->createTable(table).isOk());
  }
  writeInChildAndKill(path(), [](Workspace& ws) {
    std::vector<Mutation> batch;
    for (const char* row : {"row-9", "row-10", "row-1", "row-5"}) {
      batch.push_back(Put{row, {{"b", "z", 7, std::string("b-") + row}, {"a", "q2", 7, std::string("a2-") + row},
                                {"a", "q1", 7, std::string("a1-") + row}}});
    }
    batch.push_back(Put{"row-5", {{"a", "q1", 7, "a1-row-5, written again"}}});
    return ws.mutate("two", batch).isOk();
  });
  {
    RawDb db(path());
    const std::vector<StoredLogRecord> log = storedLogRecords(db);
    ASSERT_FALSE(log.empty());
    Result<std::vector<engine::LogEntry>> entries = engine::decodeLogRecord(log.back().seq, log.back().data);
    ASSERT_TRUE(entries.isOk()) << entries.status().toString();
    ASSERT_EQ(entries->size(), 13u);
    for (size_t i = 1; i < entries->size(); ++i) {
      const engine::LogEntry& a = (*entries)[i - 1];
      const engine::LogEntry& b = (*entries)[i];
      EXPECT_TRUE(a.family < b.family || (a.family == b.family && a.key <= b.key)) << "entry " << i;
    }
  }
  auto ws = Workspace::open(path());
  ASSERT_TRUE(ws.isOk());
  ScanOptions scan;
  scan.maxVersions = 5;
  auto scanner = (*ws)->scan("two", scan);
  ASSERT_TRUE(scanner.isOk());
  std::vector<std::string> cells;
  RowResult row;
  while ((*scanner)->next(&row)) {
    for (const Cell& cell : row.cells) cells.push_back(row.row + " " + cell.family + ":" + cell.qualifier + " " + cell.value);
  }
  EXPECT_THAT(cells, ::testing::ElementsAre(
                         "row-1 a:q1 a1-row-1", "row-1 a:q2 a2-row-1", "row-1 b:z b-row-1",
                         "row-10 a:q1 a1-row-10", "row-10 a:q2 a2-row-10", "row-10 b:z b-row-10",
                         "row-5 a:q1 a1-row-5, written again", "row-5 a:q2 a2-row-5", "row-5 b:z b-row-5",
                         "row-9 a:q1 a1-row-9", "row-9 a:q2 a2-row-9", "row-9 b:z b-row-9"));
}

}  // namespace
}  // namespace keyscope::test
