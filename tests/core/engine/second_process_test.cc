// One process at a time, for real: a fork()ed child opens a workspace and
// keeps writing to it while the test process tries to open the same file
// (refused: Busy, naming the file and the child's pid), reads it with plain
// SQLite beside the writer, or kills the child with SIGKILL (the lock goes
// with the process). Afterwards the workspace holds exactly what the child
// acknowledged.
//
// The child writes until a "stop" file appears in the test's directory, so the
// parent decides when it has seen enough.
#include <signal.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "acked_rows.h"
#include "child_process.h"
#include "engine_test_util.h"

namespace keyscope::test {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

constexpr size_t kValueBytes = 1 << 10;
constexpr int kRowsPerBatch = 4;

// In the child: opens the workspace ("R" once open), then writes batches of
// rows, flushing every 25th, until `stopFile` exists ("D" then, and the
// workspace closes) or a write fails ("E ...").
int writeUntilStopped(const std::string& path, const std::string& stopFile,
                      const ChildReporter& out) {
  OpenOptions options;
  options.createIfMissing = false;
  Result<std::unique_ptr<Workspace>> ws = Workspace::open(path, options);
  if (!ws) {
    out.say("E open: " + ws.status().toString());
    return 1;
  }
  out.say("R");
  for (int batch = 0; !std::filesystem::exists(stopFile); ++batch) {
    const int first = batch * kRowsPerBatch;
    if (Status s = putAckedRows(**ws, first, first + kRowsPerBatch, kValueBytes); !s) {
      out.say("E put: " + s.toString());
      return 1;
    }
    out.say(ackLine(first, first + kRowsPerBatch));
    if (batch % 25 == 24) {
      if (Status s = (*ws)->flush(kAckedTable); !s) {
        out.say("E flush: " + s.toString());
        return 1;
      }
    }
  }
  out.say("D");
  return 0;
}

class SecondProcess : public ::testing::Test {
 protected:
  // The workspace and its table exist before any child starts; the test
  // process holds nothing open (and runs no engine thread) when it forks.
  void SetUp() override {
    Result<std::unique_ptr<Workspace>> ws = Workspace::open(path());
    ASSERT_TRUE(ws) << ws.status().toString();
    ASSERT_TRUE((*ws)->createTable(ackedTable(256 << 10)));
  }

  std::string path() const { return m_dir.file("ws.ksw"); }
  std::string stopFile() const { return m_dir.file("stop"); }
  std::unique_ptr<ChildProcess> startWriter() {
    auto child = std::make_unique<ChildProcess>(
        [this](const ChildReporter& out) { return writeUntilStopped(path(), stopFile(), out); });
    EXPECT_EQ(child->waitFor("R"), "R") << ::testing::PrintToString(child->lines());
    return child;
  }
  // Waits until the child has acknowledged `batches` more batches.
  void letItWrite(ChildProcess& child, int batches) {
    for (int i = 0; i < batches; ++i)
      ASSERT_TRUE(child.waitFor("A ")) << ::testing::PrintToString(child.lines());
  }
  void stop(ChildProcess& child) {
    std::ofstream(stopFile()).put('\n');
    EXPECT_EQ(child.finish(), 0) << ::testing::PrintToString(child.lines());
    EXPECT_EQ(child.linesStartingWith("E "), std::vector<std::string>());
  }
  void expectExactlyTheAcknowledgedRows(const ChildProcess& child) {
    Result<std::unique_ptr<Workspace>> ws = Workspace::open(path());
    ASSERT_TRUE(ws) << ws.status().toString();
    EXPECT_EQ(checkAckedRows(**ws, ackedRows(child.lines()), kValueBytes), "");
  }

 private:
  TempDir m_dir;
};

TEST_F(SecondProcess, AnOpenWhileAnotherProcessWritesIsRefusedNamingTheFileAndTheProcess) {
  std::unique_ptr<ChildProcess> writer = startWriter();
  for (int attempt = 0; attempt < 5; ++attempt) {
    letItWrite(*writer, 3);
    Result<std::unique_ptr<Workspace>> second = Workspace::open(path());
    ASSERT_FALSE(second) << "a second process opened a workspace that is open";
    EXPECT_EQ(second.status().code(), Status::Code::kBusy);
    EXPECT_THAT(
        second.status().message(),
        AllOf(HasSubstr(path() + " is open in another Keyscope process ("),
              HasSubstr("pid " + std::to_string(writer->pid()) + "); close it there first")));
  }
  const size_t ackedBefore = ackedRows(writer->lines()).size();
  letItWrite(*writer, 10);  // the refused opens disturbed nothing
  stop(*writer);
  EXPECT_GT(ackedRows(writer->lines()).size(), ackedBefore);
  expectExactlyTheAcknowledgedRows(*writer);
}

TEST_F(SecondProcess, ASecondOpenInTheSameProcessIsRefused) {
  Result<std::unique_ptr<Workspace>> first = Workspace::open(path());
  ASSERT_TRUE(first);
  Result<std::unique_ptr<Workspace>> second = Workspace::open(path());
  ASSERT_FALSE(second);
  EXPECT_EQ(second.status().code(), Status::Code::kBusy);
  EXPECT_EQ(second.status().message(), path() + " is already open in this process; close it first");
  first.value().reset();
  EXPECT_TRUE(Workspace::open(path())) << "closing the first lets the next one in";
}

TEST_F(SecondProcess, AKilledProcessReleasesTheWorkspaceAndLosesNothingItAcknowledged) {
  ChildProcess* last = nullptr;
  std::vector<std::unique_ptr<ChildProcess>> writers;
  for (int round = 0; round < 3; ++round) {
    // Each writer starts its rows where the last one's acknowledged rows end.
    writers.push_back(startWriter());
    last = writers.back().get();
    letItWrite(*last, 20 + 7 * round);
    last->kill(SIGKILL);
    EXPECT_EQ(last->finish(), 128 + SIGKILL);
    // Opening at once works: the kernel dropped the lock with the process.
    Result<std::unique_ptr<Workspace>> ws = Workspace::open(path());
    ASSERT_TRUE(ws) << ws.status().toString();
    const std::set<int> acked = ackedRows(last->lines());
    // The batch in flight at the kill is all there or not at all.
    std::set<int> withInFlight = acked;
    const int next = acked.empty() ? 0 : *acked.rbegin() + 1;
    for (int i = next; i < next + kRowsPerBatch; ++i) withInFlight.insert(i);
    const std::string exact = checkAckedRows(**ws, acked, kValueBytes);
    if (!exact.empty()) {
      EXPECT_EQ(checkAckedRows(**ws, withInFlight, kValueBytes), "") << exact;
    }
    // Start over clean for the next round: the rows are rewritten from 0.
    ASSERT_TRUE((*ws)->truncateTable(kAckedTable));
  }
}

// Runs `sql` on a plain SQLite connection; the first column of each row.
std::vector<std::string> query(sqlite3* db, const char* sql) {
  std::vector<std::string> rows;
  char* error = nullptr;
  const int rc = sqlite3_exec(
      db, sql,
      [](void* out, int, char** values, char**) {
        static_cast<std::vector<std::string>*>(out)->push_back(values[0] != nullptr ? values[0]
                                                                                    : "NULL");
        return 0;
      },
      &rows, &error);
  if (rc != SQLITE_OK)
    rows.push_back(std::string("error: ") + (error != nullptr ? error : sqlite3_errstr(rc)));
  sqlite3_free(error);
  return rows;
}

// sqlite3 (the shell) or any SQLite program may look into a workspace that
// Keyscope has open: its reads see a consistent snapshot and disturb nothing.
// (It must not write to it; nothing stops it, and Keyscope's memory would
// disagree with the file.)
TEST_F(SecondProcess, PlainSqliteReadingBesideTheWriterBreaksNothing) {
  std::unique_ptr<ChildProcess> writer = startWriter();
  for (const int flags : {SQLITE_OPEN_READONLY, SQLITE_OPEN_READWRITE}) {
    letItWrite(*writer, 30);  // a flush or more among them
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open_v2(path().c_str(), &db, flags, nullptr), SQLITE_OK);
    sqlite3_busy_timeout(db, 5000);
    EXPECT_THAT(query(db, "PRAGMA quick_check"), ::testing::ElementsAre("ok"));
    // A long read transaction: the writer's checkpoints wait behind it.
    EXPECT_THAT(query(db, "BEGIN"), ::testing::IsEmpty());
    const std::vector<std::string> pages = query(db, "SELECT count(*) FROM pages");
    letItWrite(*writer, 10);
    EXPECT_EQ(query(db, "SELECT count(*) FROM pages"), pages) << "a snapshot holds still";
    EXPECT_THAT(query(db, "COMMIT"), ::testing::IsEmpty());
    EXPECT_EQ(sqlite3_close(db), SQLITE_OK);
  }
  letItWrite(*writer, 30);
  stop(*writer);
  expectExactlyTheAcknowledgedRows(*writer);
  EXPECT_TRUE(std::filesystem::exists(path())) << "and the file is where it was";
}

}  // namespace
}  // namespace keyscope::test
