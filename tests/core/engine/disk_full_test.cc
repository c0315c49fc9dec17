// A full disk, for real: a fork()ed child writes a workspace under a file
// size limit (RLIMIT_FSIZE, with SIGXFSZ ignored, so a write past it fails
// with EFBIG) or on a small tmpfs filled with a ballast file (ENOSPC), and
// reports every acknowledged batch and every failure on a pipe. The parent
// checks that each failure says what ran out and names the workspace, then
// reopens the file after the child has exited (replaying the log) and checks
// that every acknowledged row is there with its exact value, and no
// unacknowledged one.
//
// The tmpfs variant mounts one (root, or CAP_SYS_ADMIN) and is skipped,
// saying why, where mounting is not allowed.
#include <signal.h>
#include <sqlite3.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include "acked_rows.h"
#include "child_process.h"
#include "engine/sqlite_util.h"
#include "engine_test_util.h"

namespace keyscope::test {
namespace {

using ::testing::AllOf;
using ::testing::AnyOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::SizeIs;

constexpr size_t kValueBytes = 8 << 10;
constexpr uint64_t kNoAutomaticFlush = 256ull << 20;

// Child bodies return these; the parent expects kChildOk.
constexpr int kChildOk = 0;
constexpr int kChildSetupFailed = 2;

OpenOptions quietOptions() {
  OpenOptions options;
  options.backgroundCompaction = false;
  return options;
}

// In the child: puts rows [first, last) in batches of `batch`, reporting each
// acknowledged one; stops at the first failure and reports it as
// "W first last status". The first row not written, or `last`.
int putRowsReporting(Workspace& ws, const ChildReporter& out, int first, int last, int batch) {
  for (int at = first; at < last; at += batch) {
    const int end = std::min(last, at + batch);
    if (Status s = putAckedRows(ws, at, end, kValueBytes); !s) {
      out.say("W " + std::to_string(at) + " " + std::to_string(end) + " " + s.toString());
      return at;
    }
    out.say(ackLine(at, end));
  }
  return last;
}

// The one line a child sent with this prefix, without it (empty when none).
std::string lineAfter(const ChildProcess& child, const std::string& prefix) {
  const std::vector<std::string> lines = child.linesStartingWith(prefix);
  return lines.empty() ? std::string() : lines.front();
}

// Rows [first, last) of the child's first failed write ("W first last ...").
std::set<int> failedRows(const ChildProcess& child) {
  std::set<int> rows;
  int first = 0, last = 0;
  if (std::sscanf(lineAfter(child, "W ").c_str(), "%d %d", &first, &last) == 2) {
    for (int i = first; i < last; ++i) rows.insert(i);
  }
  return rows;
}

// Opens the workspace the child left (after the child exited: the file size
// limit was the child's alone) and checks it holds exactly the acknowledged rows.
void expectExactlyTheAcknowledgedRows(const std::string& path, const ChildProcess& child) {
  const std::set<int> acked = ackedRows(child.lines());
  ASSERT_FALSE(acked.empty()) << "the child acknowledged nothing";
  Result<std::unique_ptr<Workspace>> ws = Workspace::open(path, quietOptions());
  ASSERT_TRUE(ws) << ws.status().toString();
  EXPECT_EQ(checkAckedRows(**ws, acked, kValueBytes), "");
  for (int row : failedRows(child))
    EXPECT_EQ(acked.count(row), 0u) << "row " << row << " was never acknowledged";
}

// SQLite's own view of the file: nothing half-written.
std::string integrityOf(const std::string& path) {
  sqlite3* db = nullptr;
  std::string answer;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
    sqlite3_exec(
        db, "PRAGMA integrity_check",
        [](void* out, int, char** values, char**) {
          *static_cast<std::string*>(out) += values[0] != nullptr ? values[0] : "";
          return 0;
        },
        &answer, nullptr);
  }
  sqlite3_close(db);
  return answer;
}

// In the child: a workspace with `rows` acknowledged rows in its memstore,
// then the file size limit at the largest file's size plus `headroom`.
// Reports "L limit". Null (after reporting "E ...") on failure.
std::unique_ptr<Workspace> openFillAndLimit(const std::string& path, const ChildReporter& out,
                                            int rows, uint64_t memstoreFlushSize, uint64_t headroom,
                                            OpenOptions options = quietOptions()) {
  Result<std::unique_ptr<Workspace>> ws = Workspace::open(path, options);
  if (!ws) {
    out.say("E open: " + ws.status().toString());
    return nullptr;
  }
  if (Status s = (*ws)->createTable(ackedTable(memstoreFlushSize)); !s) {
    out.say("E create: " + s.toString());
    return nullptr;
  }
  if (putRowsReporting(**ws, out, 0, rows, 10) != rows) return nullptr;
  const uint64_t limit = largestWorkspaceFile(path) + headroom;
  if (!limitFileSize(limit)) {
    out.say("E setrlimit: " + std::string(std::strerror(errno)));
    return nullptr;
  }
  out.say("L " + std::to_string(limit));
  return std::move(ws).value();
}

TEST(DiskFull, SqliteFullSaysDiskFullAndNamesTheFile) {
  TempDir dir;
  const std::string path = dir.file("plain.db");
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  sqlite3_extended_result_codes(db, 1);
  // SQLite answers SQLITE_FULL when the file would pass max_page_count.
  ASSERT_TRUE(
      engine::execSql(db, "CREATE TABLE t(b BLOB); PRAGMA max_page_count = 4", "setting up"));
  const Status full = engine::execSql(db, "INSERT INTO t VALUES(zeroblob(100000))", "inserting");
  sqlite3_close(db);
  EXPECT_EQ(full.code(), Status::Code::kIOError);
  EXPECT_THAT(full.message(),
              AllOf(HasSubstr("inserting: disk full while writing"), HasSubstr(path)));
}

TEST(DiskFull, SqliteOverTheFileSizeLimitSaysSoAndNamesTheFile) {
  TempDir dir;
  const std::string path = dir.file("plain.db");
  ChildProcess child([&](const ChildReporter& out) {
    sqlite3* db = nullptr;
    if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) return kChildSetupFailed;
    sqlite3_extended_result_codes(db, 1);
    if (!engine::execSql(db, "CREATE TABLE t(b BLOB)", "setting up")) return kChildSetupFailed;
    if (!limitFileSize(64 << 10)) return kChildSetupFailed;
    engine::Statement insert;
    if (!insert.prepare(db, "INSERT INTO t VALUES(zeroblob(1000000))")) return kChildSetupFailed;
    out.say("S " + insert.run("inserting a megabyte").toString());
    insert.finalize();
    sqlite3_close(db);
    return kChildOk;
  });
  ASSERT_EQ(child.finish(), kChildOk) << ::testing::PrintToString(child.lines());
  EXPECT_THAT(lineAfter(child, "S "),
              AllOf(HasSubstr("IOError: inserting a megabyte: file size limit reached "
                              "(ulimit -f: 65536 bytes) while writing"),
                    HasSubstr(path)));
}

TEST(DiskFull, ExplicitFlushOverTheFileSizeLimitFailsClearlyAndLosesNothing) {
  TempDir dir;
  const std::string path = dir.file("ws.ksw");
  ChildProcess child([&](const ChildReporter& out) {
    std::unique_ptr<Workspace> ws = openFillAndLimit(path, out, 300, kNoAutomaticFlush, 256 << 10);
    if (ws == nullptr) return kChildSetupFailed;
    // 2.4 MB of memstore cannot go into 256 KiB.
    out.say("F " + ws->flush(kAckedTable).toString());
    std::set<int> rows;
    for (int i = 0; i < 300; ++i) rows.insert(i);
    out.say("V " + checkAckedRows(*ws, rows, kValueBytes));
    // The log still has the room the failed flush gave back.
    putRowsReporting(*ws, out, 300, 302, 1);
    return kChildOk;  // and the workspace closes under the limit
  });
  ASSERT_EQ(child.finish(), kChildOk) << ::testing::PrintToString(child.lines());
  EXPECT_THAT(lineAfter(child, "F "), AllOf(HasSubstr("IOError: flushing table 'acked' (region "),
                                            HasSubstr("file size limit reached"), HasSubstr(path)));
  EXPECT_EQ(lineAfter(child, "V "), "")
      << "every acknowledged row is readable after the failed flush";
  EXPECT_THAT(ackedRows(child.lines()), SizeIs(302));
  expectExactlyTheAcknowledgedRows(path, child);
  EXPECT_EQ(integrityOf(path), "ok");
}

TEST(DiskFull, AFailedFlushSucceedsOnceTheLimitIsLifted) {
  TempDir dir;
  const std::string path = dir.file("ws.ksw");
  ChildProcess child([&](const ChildReporter& out) {
    std::unique_ptr<Workspace> ws = openFillAndLimit(path, out, 200, kNoAutomaticFlush, 128 << 10);
    if (ws == nullptr) return kChildSetupFailed;
    out.say("F " + ws->flush(kAckedTable).toString());
    putRowsReporting(*ws, out, 200, 201, 1);  // into a fresh memstore beside the one that failed
    if (!raiseFileSizeLimit()) return kChildSetupFailed;
    out.say("G " + ws->flush(kAckedTable).toString());
    Result<std::vector<StoreFileInfo>> files = ws->storeFiles(kAckedTable);
    out.say("N " + std::to_string(files ? files->size() : 0));
    return kChildOk;
  });
  ASSERT_EQ(child.finish(), kChildOk) << ::testing::PrintToString(child.lines());
  EXPECT_THAT(lineAfter(child, "F "), HasSubstr("file size limit reached"));
  EXPECT_EQ(lineAfter(child, "G "), "OK")
      << "the retry writes the memstore that failed, then the new one";
  EXPECT_EQ(lineAfter(child, "N "), "2") << ::testing::PrintToString(child.lines());
  expectExactlyTheAcknowledgedRows(path, child);
  Result<std::unique_ptr<Workspace>> ws = Workspace::open(path, quietOptions());
  ASSERT_TRUE(ws);
  Result<std::vector<RegionInfo>> regions = (*ws)->regions(kAckedTable);
  ASSERT_TRUE(regions);
  EXPECT_EQ(regions->front().memstoreBytes, 0u)
      << "everything was flushed: the log replays nothing";
}

TEST(DiskFull, ALogAppendOverTheLimitIsRefusedAndNotAcknowledged) {
  TempDir dir;
  const std::string path = dir.file("ws.ksw");
  ChildProcess child([&](const ChildReporter& out) {
    std::unique_ptr<Workspace> ws = openFillAndLimit(path, out, 50, kNoAutomaticFlush, 512 << 10);
    if (ws == nullptr) return kChildSetupFailed;
    // Batches of 5 rows (40 KiB) until one does not fit.
    const int stopped = putRowsReporting(*ws, out, 50, 2000, 5);
    std::set<int> rows;
    for (int i = 0; i < stopped; ++i) rows.insert(i);
    out.say("V " + checkAckedRows(*ws, rows, kValueBytes));
    return kChildOk;
  });
  ASSERT_EQ(child.finish(), kChildOk) << ::testing::PrintToString(child.lines());
  EXPECT_THAT(lineAfter(child, "W "),
              AllOf(HasSubstr("IOError: logging the write: "), HasSubstr("file size limit reached"),
                    HasSubstr(path), HasSubstr("nothing of this write was applied")));
  EXPECT_THAT(failedRows(child), SizeIs(5));
  EXPECT_EQ(lineAfter(child, "V "), "")
      << "the refused batch is not readable, the acknowledged ones are";
  expectExactlyTheAcknowledgedRows(path, child);
  EXPECT_EQ(integrityOf(path), "ok");
}

TEST(DiskFull, ACompactionOverTheLimitFailsClearlyAndKeepsItsInputs) {
  TempDir dir;
  const std::string path = dir.file("ws.ksw");
  ChildProcess child([&](const ChildReporter& out) {
    Result<std::unique_ptr<Workspace>> ws = Workspace::open(path, quietOptions());
    if (!ws || !(*ws)->createTable(ackedTable(kNoAutomaticFlush))) return kChildSetupFailed;
    for (int file = 0; file < 3; ++file) {
      if (putRowsReporting(**ws, out, file * 60, file * 60 + 60, 10) != file * 60 + 60)
        return kChildSetupFailed;
      if (!(*ws)->flush(kAckedTable)) return kChildSetupFailed;
    }
    if (!limitFileSize(largestWorkspaceFile(path) + (128 << 10))) return kChildSetupFailed;
    out.say("C " + (*ws)->compact(kAckedTable, /*major=*/true).toString());
    Result<std::vector<StoreFileInfo>> files = (*ws)->storeFiles(kAckedTable);
    out.say("N " + std::to_string(files ? files->size() : 0));
    std::set<int> rows;
    for (int i = 0; i < 180; ++i) rows.insert(i);
    out.say("V " + checkAckedRows(**ws, rows, kValueBytes));
    return kChildOk;
  });
  ASSERT_EQ(child.finish(), kChildOk) << ::testing::PrintToString(child.lines());
  EXPECT_THAT(lineAfter(child, "C "),
              AllOf(HasSubstr("IOError: major compaction of table 'acked' (region "),
                    HasSubstr("file size limit reached"), HasSubstr(path)));
  EXPECT_EQ(lineAfter(child, "N "), "3") << "the three inputs stay";
  EXPECT_EQ(lineAfter(child, "V "), "");
  expectExactlyTheAcknowledgedRows(path, child);
}

// Automatic flushes fail in the background: the failure is reported once
// (OpenOptions::onBackgroundError, though the flush is retried after every
// write), and writes go on into the memstore and the log. They stop, saying
// why, when the log cannot grow either (or, had the log room left, once the
// memstore held twice its flush size); once there is room again the flush is
// retried and writes go on.
// A write whose log commit finds no room is rolled back, the log's slots
// with it (log_slots.h): the small writes after it, once there is room, go
// into the slot where the refused one would have, and all of them replay.
TEST(DiskFull, ALogWriteRefusedForWantOfRoomLeavesTheLogAsItWas) {
  TempDir dir;
  const std::string path = dir.file("ws.ksw");
  constexpr size_t kSmallValue = 100;  // many records to a slot
  const auto put = [](Workspace& ws, const ChildReporter& out, int row) {
    if (Status s = putAckedRows(ws, row, row + 1, kSmallValue); !s) {
      out.say("W " + std::to_string(row) + " " + s.toString());
      return;
    }
    out.say(ackLine(row, row + 1));
  };
  ChildProcess child([&](const ChildReporter& out) {
    Result<std::unique_ptr<Workspace>> ws = Workspace::open(path, quietOptions());
    if (!ws || !(*ws)->createTable(ackedTable(kNoAutomaticFlush))) return kChildSetupFailed;
    for (int row = 0; row < 20; ++row) put(**ws, out, row);
    if (!limitFileSize(largestWorkspaceFile(path))) return kChildSetupFailed;  // no room to grow
    put(**ws, out, 20);
    if (!raiseFileSizeLimit()) return kChildSetupFailed;
    for (int row = 21; row < 40; ++row) put(**ws, out, row);
    return kChildOk;
  });
  ASSERT_EQ(child.finish(), kChildOk) << ::testing::PrintToString(child.lines());
  EXPECT_THAT(child.linesStartingWith("W "),
              ElementsAre(AllOf(::testing::StartsWith("20 "), HasSubstr("logging the write"), HasSubstr("file size limit reached"))))
      << "the one write without room refused, the others taken: " << ::testing::PrintToString(child.lines());
  const std::set<int> acked = ackedRows(child.lines());
  EXPECT_THAT(acked, SizeIs(39));
  Result<std::unique_ptr<Workspace>> ws = Workspace::open(path, quietOptions());
  ASSERT_TRUE(ws) << ws.status().toString();
  EXPECT_EQ(checkAckedRows(**ws, acked, kSmallValue), "") << "every acknowledged write replays, none other";
}

TEST(DiskFull, ABackgroundFlushFailureIsReportedOnceAndWritesStopClearlyThenResume) {
  TempDir dir;
  const std::string path = dir.file("ws.ksw");
  constexpr uint64_t kFlushSize = 256 << 10;  // 32 rows
  ChildProcess child([&](const ChildReporter& out) {
    OpenOptions options = quietOptions();
    options.onBackgroundError = [&out](const Status& s) { out.say("B " + s.toString()); };
    Result<std::unique_ptr<Workspace>> ws = Workspace::open(path, options);
    if (!ws || !(*ws)->createTable(ackedTable(kFlushSize))) return kChildSetupFailed;
    // What one row costs in the log, measured, then 28 rows in the memstore.
    const uint64_t before = largestWorkspaceFile(path);
    if (putRowsReporting(**ws, out, 0, 1, 1) != 1) return kChildSetupFailed;
    const uint64_t perRow = std::max<uint64_t>(largestWorkspaceFile(path) - before, kValueBytes);
    if (putRowsReporting(**ws, out, 1, 28, 1) != 28) return kChildSetupFailed;
    // Room for eight more rows in the log, not for the flush of 32 the
    // fourth of them starts.
    if (!limitFileSize(largestWorkspaceFile(path) + 8 * perRow)) return kChildSetupFailed;
    int row = 28;
    for (; row < 200; ++row) {
      if (putRowsReporting(**ws, out, row, row + 1, 1) != row + 1) break;
      (void)(*ws)->waitForBackgroundWork();  // the flush the write started, if any, has run
    }
    std::set<int> rows;
    for (int i = 0; i < row; ++i) rows.insert(i);
    out.say("V " + checkAckedRows(**ws, rows, kValueBytes));
    if (!raiseFileSizeLimit()) return kChildSetupFailed;
    putRowsReporting(**ws, out, row + 1, row + 41, 1);  // past the flush size again
    out.say("Q " + (*ws)->waitForBackgroundWork().toString());
    Result<std::vector<StoreFileInfo>> files = (*ws)->storeFiles(kAckedTable);
    out.say("N " + std::to_string(files ? files->size() : 0));
    return kChildOk;
  });
  ASSERT_EQ(child.finish(), kChildOk) << ::testing::PrintToString(child.lines());
  const std::vector<std::string> reported = child.linesStartingWith("B ");
  ASSERT_THAT(reported, SizeIs(1))
      << "reported once, not once per retry: " << ::testing::PrintToString(child.lines());
  EXPECT_THAT(reported.front(), AllOf(HasSubstr("IOError: flushing table 'acked' (region "),
                                      HasSubstr("file size limit reached"), HasSubstr(path)));
  EXPECT_THAT(
      lineAfter(child, "W "),
      AllOf(
          AnyOf(
              HasSubstr("IOError: logging the write: "),
              HasSubstr(
                  "IOError: table 'acked' takes no more writes until its memstore can be flushed")),
          HasSubstr("file size limit reached"), HasSubstr(path),
          HasSubstr("nothing of this write was applied")));
  EXPECT_EQ(lineAfter(child, "V "), "");
  EXPECT_THAT(child.linesStartingWith("W "), SizeIs(1)) << "writes resume once there is room";
  EXPECT_EQ(lineAfter(child, "Q "), "OK") << "the retried flush went through";
  EXPECT_NE(lineAfter(child, "N "), "0");
  expectExactlyTheAcknowledgedRows(path, child);
  EXPECT_EQ(integrityOf(path), "ok");
}

// Batches written with Durability::kAsyncWal are acknowledged before they are
// logged. When the log cannot take them, the failure is reported once, they
// wait in memory (readable), and they are retried every half second until they
// are in the log; from then on even a crash keeps them.
TEST(DiskFull, AsyncLoggedWritesWaitOutAFullDiskAndAreLoggedOnceThereIsRoom) {
  TempDir dir;
  const std::string path = dir.file("ws.ksw");
  ChildProcess child([&](const ChildReporter& out) {
    OpenOptions options = quietOptions();
    options.onBackgroundError = [&out](const Status& s) { out.say("B " + s.toString()); };
    std::unique_ptr<Workspace> ws =
        openFillAndLimit(path, out, 10, kNoAutomaticFlush, 16 << 10, options);
    if (ws == nullptr) return kChildSetupFailed;
    for (int row = 10; row < 30; row += 2) {
      if (!putAckedRows(*ws, row, row + 2, kValueBytes, Durability::kAsyncWal))
        return kChildSetupFailed;
      out.say(ackLine(row, row + 2));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1600));  // three retries, all failing
    std::set<int> rows;
    for (int i = 0; i < 30; ++i) rows.insert(i);
    out.say("V " + checkAckedRows(*ws, rows, kValueBytes));
    if (!raiseFileSizeLimit()) return kChildSetupFailed;
    std::this_thread::sleep_for(std::chrono::milliseconds(1200));  // a retry or two
    ::_exit(kChildOk);  // a crash, as far as the workspace knows: only the log counts
  });
  ASSERT_EQ(child.finish(), kChildOk) << ::testing::PrintToString(child.lines());
  const std::vector<std::string> reported = child.linesStartingWith("B ");
  ASSERT_THAT(reported, SizeIs(1)) << "reported once, not once per retry";
  EXPECT_THAT(reported.front(),
              AllOf(HasSubstr("IOError: logging asynchronously written batches: "),
                    HasSubstr("file size limit reached"), HasSubstr(path)));
  EXPECT_EQ(lineAfter(child, "V "), "");
  expectExactlyTheAcknowledgedRows(path, child);
}

// --- ENOSPC: a real full file system ----------------------------------------

// A tmpfs of `bytes` mounted on a fresh directory, unmounted with the object.
class SmallTmpfs {
 public:
  explicit SmallTmpfs(uint64_t bytes) : m_path(m_dir.path() / "mnt") {
    std::filesystem::create_directories(m_path);
    const std::string options = "size=" + std::to_string(bytes);
    if (::mount("tmpfs", m_path.c_str(), "tmpfs", 0, options.c_str()) == 0) {
      m_mounted = true;
    } else {
      m_whyNot = std::string("mount -t tmpfs failed: ") + std::strerror(errno) +
                 " (needs root or CAP_SYS_ADMIN; the file size limit tests cover the same paths)";
    }
  }
  ~SmallTmpfs() {
    if (m_mounted) ::umount2(m_path.c_str(), MNT_DETACH);
  }
  bool mounted() const { return m_mounted; }
  const std::string& whyNot() const { return m_whyNot; }
  std::string file(const std::string& name) const { return (m_path / name).string(); }

 private:
  TempDir m_dir;
  std::filesystem::path m_path;
  bool m_mounted = false;
  std::string m_whyNot;
};

// Fills the file system holding `path` up to `leave` free bytes.
bool writeBallast(const std::string& path, uint64_t leave) {
  struct statvfs fs {};
  if (::statvfs(std::filesystem::path(path).parent_path().c_str(), &fs) != 0) return false;
  const uint64_t available = static_cast<uint64_t>(fs.f_bavail) * fs.f_frsize;
  if (available <= leave) return true;
  std::ofstream ballast(path, std::ios::binary);
  const std::string chunk(64 << 10, 'x');
  for (uint64_t written = 0; written + chunk.size() <= available - leave; written += chunk.size())
    ballast.write(chunk.data(), static_cast<std::streamsize>(chunk.size()));
  return static_cast<bool>(ballast.flush());
}

TEST(DiskFull, AFullFileSystemRefusesWritesAndFlushesClearlyAndLosesNothing) {
  SmallTmpfs tmpfs(8 << 20);
  if (!tmpfs.mounted()) GTEST_SKIP() << tmpfs.whyNot();
  const std::string path = tmpfs.file("ws.ksw");
  const std::string ballast = tmpfs.file("ballast");
  ChildProcess child([&](const ChildReporter& out) {
    Result<std::unique_ptr<Workspace>> ws = Workspace::open(path, quietOptions());
    if (!ws || !(*ws)->createTable(ackedTable(kNoAutomaticFlush))) return kChildSetupFailed;
    if (putRowsReporting(**ws, out, 0, 40, 10) != 40) return kChildSetupFailed;
    if (!writeBallast(ballast, 1 << 20)) return kChildSetupFailed;
    const int stopped = putRowsReporting(**ws, out, 40, 1000, 4);
    out.say("F " + (*ws)->flush(kAckedTable).toString());
    std::set<int> rows;
    for (int i = 0; i < stopped; ++i) rows.insert(i);
    out.say("V " + checkAckedRows(**ws, rows, kValueBytes));
    std::filesystem::remove(ballast);
    out.say("G " + (*ws)->flush(kAckedTable).toString());
    return kChildOk;
  });
  ASSERT_EQ(child.finish(), kChildOk) << ::testing::PrintToString(child.lines());
  EXPECT_THAT(lineAfter(child, "W "), AllOf(HasSubstr("disk full while writing " + path),
                                            HasSubstr("nothing of this write was applied")));
  EXPECT_THAT(lineAfter(child, "F "),
              AllOf(HasSubstr("flushing table 'acked'"), HasSubstr("disk full")));
  EXPECT_EQ(lineAfter(child, "V "), "");
  EXPECT_EQ(lineAfter(child, "G "), "OK") << "with room again, the flush goes through";
  expectExactlyTheAcknowledgedRows(path, child);
  EXPECT_EQ(integrityOf(path), "ok");
}

}  // namespace
}  // namespace keyscope::test
