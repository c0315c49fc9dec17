// Crash consistency, for real: a child process writes acknowledged batches to a
// workspace and is SIGKILLed at random moments; after every kill the parent
// reopens the same file and checks that each acknowledged step is there with
// its exact values and that the one step in flight is all there or not there
// at all. The state accumulates across kills.
//
// The child is fork()ed before the parent opens the workspace and opens it
// itself, so it inherits no threads. Steps are numbered; a step's kind and
// content are pure functions of its number, so the parent rebuilds exactly
// what any step wrote. Write steps use explicit logical timestamps (the step
// number), so later steps always win and deletes mask only older cells. The
// child reports on a pipe, one line per event:
//   R        the workspace is open
//   S n      step n (a flush or a compaction) is starting
//   A n      step n returned OK: it is acknowledged
//   E text   something failed (the test fails with text)
//
// KEYSCOPE_CRASH_ROUNDS=N runs N kills instead of the default (hundreds for a
// soak); KEYSCOPE_CRASH_SEED=S replays one sequence of kill moments.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <map>
#include <random>
#include <set>
#include <thread>

#include "child_process.h"
#include "engine_test_util.h"

namespace keyscope::test {
namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kTable = "crash";
constexpr const char* kCounterRow = "ctr";
constexpr int kRows = 150;               // rows row000..row149, rewritten over and over
// About 0.1 s per kill on this 2-core machine, so ~10 s; a few times that
// when the machine is busy.
constexpr int kDefaultRounds = 100;
constexpr auto kRoundTimeout = std::chrono::seconds(30);

// --- Steps: pure functions of the step number ------------------------------

enum class StepKind { kBatch, kIncrement, kFlush, kCompact, kMajorCompact, kSplit, kMerge };

StepKind stepKind(int64_t n) {
  if (n % 97 == 0) return StepKind::kMajorCompact;
  if (n % 61 == 0) return StepKind::kSplit;
  if (n % 67 == 0) return StepKind::kMerge;
  if (n % 41 == 0) return StepKind::kCompact;
  if (n % 53 == 0) return StepKind::kFlush;
  if (n % 5 == 0) return StepKind::kIncrement;
  return StepKind::kBatch;
}

bool isWrite(int64_t n) { return stepKind(n) == StepKind::kBatch || stepKind(n) == StepKind::kIncrement; }

uint64_t splitmix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

std::string rowName(uint64_t i) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "row%03d", static_cast<int>(i));
  return buf;
}

std::string valueFor(int64_t n, const std::string& row, const std::string& family, const std::string& qualifier,
                     uint64_t fillerLength) {
  std::string v = "v" + std::to_string(n) + "/" + row + "/" + family + ":" + qualifier + "/";
  for (uint64_t i = 0; i < fillerLength; ++i) v += static_cast<char>('a' + (n + static_cast<int64_t>(i * i)) % 26);
  return v;
}

// Step n's mutate() batch: puts to 2-4 rows in both families and, one time in
// three, a delete (whole row, a column, or a family) of another row.
std::vector<Mutation> batchFor(int64_t n) {
  uint64_t state = static_cast<uint64_t>(n) * 0x2545f4914f6cdd1dull;
  const auto next = [&state] { return state = splitmix(state); };
  const uint64_t puts = 2 + next() % 3;
  const uint64_t deletes = next() % 3 == 0 ? 1 : 0;
  std::vector<uint64_t> rows;
  while (rows.size() < puts + deletes) {
    const uint64_t r = next() % kRows;
    if (std::find(rows.begin(), rows.end(), r) == rows.end()) rows.push_back(r);
  }
  std::vector<Mutation> batch;
  for (uint64_t i = 0; i < puts; ++i) {
    Put put;
    put.row = rowName(rows[i]);
    for (const char* family : {"a", "b"}) {
      const uint64_t mask = 1 + next() % 15;  // which of q0..q3
      for (int q = 0; q < 4; ++q) {
        if ((mask & (1u << q)) == 0) continue;
        const std::string qualifier = "q" + std::to_string(q);
        put.cells.push_back({family, qualifier, n, valueFor(n, put.row, family, qualifier, next() % 500)});
      }
    }
    batch.emplace_back(std::move(put));
  }
  for (uint64_t i = puts; i < puts + deletes; ++i) {
    Delete del;
    del.row = rowName(rows[i]);
    del.timestamp = n;  // specs without a timestamp take this one
    switch (next() % 3) {
      case 0:
        break;  // the whole row
      case 1:
        del.specs.push_back({DeleteScope::kColumnAll, "a", "q" + std::to_string(next() % 4), kLatestTimestamp});
        del.specs.push_back({DeleteScope::kColumnAll, "b", "q" + std::to_string(next() % 4), kLatestTimestamp});
        break;
      default:
        del.specs.push_back({DeleteScope::kFamily, "b", "", kLatestTimestamp});
        break;
    }
    batch.emplace_back(std::move(del));
  }
  return batch;
}

Increment incrementFor() { return Increment{kCounterRow, {{"a", "hits", 1}, {"b", "hits", 1}}}; }

TableOptions crashTable() {
  TableOptions table;
  table.name = kTable;
  FamilyOptions a;
  a.name = "a";
  a.compression = Compression::kZstd;
  a.blockSize = 4096;
  FamilyOptions b;
  b.name = "b";
  b.maxVersions = 3;
  b.bloomFilter = BloomType::kRowCol;
  b.blockSize = 1024;
  table.families = {a, b};
  // Small, so background flushes of one region (and the compactions they
  // trigger) run concurrently with the writes, besides the explicit ones.
  table.memstoreFlushSize = 64 << 10;  // the smallest validateTableOptions allows
  return table;
}

// --- The child ---------------------------------------------------------------

// One line to the parent (the child exits if the parent has gone).
void say(int fd, const std::string& line) { ChildReporter(fd).say(line); }

Status runStep(Workspace& ws, int64_t n, int fd) {
  const WriteOptions sync{Durability::kSyncWal};
  switch (stepKind(n)) {
    case StepKind::kBatch: {
      const std::vector<Mutation> batch = batchFor(n);
      return ws.mutate(kTable, batch, sync);
    }
    case StepKind::kIncrement:
      return ws.increment(kTable, incrementFor(), sync).status();
    case StepKind::kFlush:
      say(fd, "S " + std::to_string(n));
      return ws.flush(kTable);
    case StepKind::kCompact:
    case StepKind::kMajorCompact:
      say(fd, "S " + std::to_string(n));
      return ws.compact(kTable, stepKind(n) == StepKind::kMajorCompact);
    case StepKind::kSplit: {
      // At a row that moves with n, so regions keep changing shape; a row
      // that is already a region's start is no split at all.
      say(fd, "S " + std::to_string(n));
      Result<std::vector<int64_t>> made = ws.split(kTable, Bytes(rowName(static_cast<uint64_t>(n) % kRows)));
      if (!made && made.status().message().find("daughter would be empty") != std::string::npos) return Status::ok();
      return made.status();
    }
    case StepKind::kMerge: {
      say(fd, "S " + std::to_string(n));
      Result<std::vector<RegionInfo>> regions = ws.regions(kTable);
      if (!regions) return regions.status();
      if (regions->size() < 2) return Status::ok();
      const size_t i = static_cast<size_t>(n) % (regions->size() - 1);
      Result<int64_t> merged = ws.mergeRegions((*regions)[i].id, (*regions)[i + 1].id);
      // A split by size may have replaced one of them since the list was read.
      if (!merged && merged.status().code() == Status::Code::kNotFound) return Status::ok();
      return merged.status();
    }
  }
  return Status::ok();
}

// Runs steps first, first+1, ... until killed. Never returns; never touches
// GoogleTest (it belongs to the parent).
[[noreturn]] void runChild(const std::string& path, int64_t first, int fd) {
  {
    auto ws = Workspace::open(path);
    if (!ws) {
      say(fd, "E open: " + ws.status().toString());
      ::_exit(2);
    }
    say(fd, "R");
    const auto deadline = Clock::now() + kRoundTimeout;
    for (int64_t n = first; Clock::now() < deadline; ++n) {
      if (Status s = runStep(**ws, n, fd); !s) {
        say(fd, "E step " + std::to_string(n) + ": " + s.toString());
        ::_exit(2);
      }
      say(fd, "A " + std::to_string(n));
    }
  }
  ::_exit(4);  // never killed: the parent stopped listening
}

// --- The model: what the acknowledged steps wrote ----------------------------

class Model {
 public:
  void apply(int64_t n) {
    if (stepKind(n) == StepKind::kIncrement) {
      ++m_hits;
      return;
    }
    if (stepKind(n) != StepKind::kBatch) return;
    for (const Mutation& mutation : batchFor(n)) {
      if (const Put* put = std::get_if<Put>(&mutation)) {
        for (const PutCell& cell : put->cells) {
          auto& versions = m_rows[put->row][cell.family][cell.qualifier];
          versions.emplace_front(n, cell.value);
          if (versions.size() > (cell.family == "b" ? 3u : 1u)) versions.pop_back();
        }
        continue;
      }
      // Every cell stored so far is older than step n, so a marker at n masks
      // all of its scope.
      const Delete& del = std::get<Delete>(mutation);
      const auto row = m_rows.find(del.row);
      if (row == m_rows.end()) continue;
      if (del.specs.empty()) row->second.clear();
      for (const DeleteSpec& spec : del.specs) {
        if (spec.scope == DeleteScope::kFamily) row->second.erase(spec.family);
        if (spec.scope == DeleteScope::kColumnAll) row->second[spec.family].erase(spec.qualifier);
      }
    }
  }

  int64_t hits() const { return m_hits; }

  // As describeCells() renders a read of the same rows.
  std::vector<std::string> describeRow(const std::string& row) const {
    std::vector<std::string> out;
    if (row == kCounterRow) {
      if (m_hits > 0) out.push_back(std::string(kCounterRow) + "/a:hits=" + std::to_string(m_hits));
      for (int64_t v = m_hits; v > 0 && v > m_hits - 3; --v)
        out.push_back(std::string(kCounterRow) + "/b:hits=" + std::to_string(v));
      return out;
    }
    const auto it = m_rows.find(row);
    if (it == m_rows.end()) return out;
    for (const auto& [family, columns] : it->second) {
      for (const auto& [qualifier, versions] : columns) {
        for (const auto& [ts, value] : versions)
          out.push_back(row + "/" + family + ":" + qualifier + "@" + std::to_string(ts) + "=" + value);
      }
    }
    return out;
  }

  std::vector<std::string> describe() const {
    std::vector<std::string> out = describeRow(kCounterRow);  // "ctr" sorts before "row..."
    for (const auto& [row, families] : m_rows) {
      const std::vector<std::string> cells = describeRow(row);
      out.insert(out.end(), cells.begin(), cells.end());
    }
    return out;
  }

 private:
  using Versions = std::deque<std::pair<int64_t, std::string>>;  // newest first
  std::map<std::string, std::map<std::string, std::map<std::string, Versions>>> m_rows;
  int64_t m_hits = 0;
};

// Counter cells carry server timestamps, so they are shown without them.
std::vector<std::string> describeCells(const std::vector<Cell>& cells) {
  std::vector<std::string> out;
  for (const Cell& c : cells) {
    std::string line = c.row + "/" + c.family + ":" + c.qualifier;
    if (c.type != CellType::kPut) line += std::string("!") + cellTypeName(c.type);
    if (c.row == kCounterRow) {
      uint64_t v = 0;
      for (char ch : c.value) v = (v << 8) | static_cast<uint8_t>(ch);
      line += (c.value.size() == 8 ? "=" + std::to_string(static_cast<int64_t>(v)) : "=<not a long>");
    } else {
      line += "@" + std::to_string(c.timestamp) + "=" + c.value;
    }
    out.push_back(std::move(line));
  }
  return out;
}

// "missing: ..., unexpected: ..." (a few of each) between two descriptions.
std::string difference(const std::vector<std::string>& expected, const std::vector<std::string>& actual) {
  const std::set<std::string> e(expected.begin(), expected.end()), a(actual.begin(), actual.end());
  std::string out;
  int shown = 0;
  for (const auto& line : e) {
    if (a.count(line) == 0 && shown++ < 6) out += "\n  missing:    " + line.substr(0, 120);
  }
  shown = 0;
  for (const auto& line : a) {
    if (e.count(line) == 0 && shown++ < 6) out += "\n  unexpected: " + line.substr(0, 120);
  }
  return out;
}

// --- The parent --------------------------------------------------------------

// Lines from the child's pipe.
class LineReader {
 public:
  explicit LineReader(int fd) : m_fd(fd) {}
  // Appends the complete lines that arrive within timeoutMs; false at EOF.
  bool read(int timeoutMs, std::vector<std::string>* lines) {
    pollfd p{m_fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, timeoutMs);
    if (ready <= 0) return true;
    char buf[4096];
    const ssize_t n = ::read(m_fd, buf, sizeof buf);
    if (n < 0) return errno == EINTR || errno == EAGAIN;
    if (n == 0) return false;
    m_pending.append(buf, static_cast<size_t>(n));
    size_t end;
    while ((end = m_pending.find('\n')) != std::string::npos) {
      lines->push_back(m_pending.substr(0, end));
      m_pending.erase(0, end + 1);
    }
    return true;
  }

 private:
  int m_fd;
  std::string m_pending;
};

enum class KillPlan {
  kAfterAcks,         // after a random number of acknowledged steps
  kAfterDelay,        // a random time after fork (sometimes while it opens)
  kInsideMaintenance  // right after the child announces a flush or compaction
};

struct RoundResult {
  int64_t lastAck = 0;        // the newest acknowledged step (first - 1 for none)
  bool ready = false;         // the child had opened the workspace
  bool insideMaintenance = false;  // killed between "S n" and "A n"
  bool killed = false;
  std::string error;
};

RoundResult runRound(const std::string& path, int64_t first, std::mt19937_64& rng) {
  RoundResult result;
  result.lastAck = first - 1;
  const auto plan = static_cast<KillPlan>(rng() % 3);
  const int64_t acksWanted = 1 + static_cast<int64_t>(rng() % 400);
  const auto delay = std::chrono::microseconds(rng() % 4 == 0 ? rng() % 5000 : rng() % 250000);
  const uint64_t startsWanted = 1 + rng() % 3;
  const auto maintenanceDelay = std::chrono::microseconds(rng() % 1500);

  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    result.error = "pipe failed";
    return result;
  }
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    result.error = "fork failed";
    return result;
  }
  if (pid == 0) {
    ::close(fds[0]);
    runChild(path, first, fds[1]);
  }
  ::close(fds[1]);
  LineReader reader(fds[0]);
  const auto start = Clock::now();
  int64_t lastStarted = first - 1;
  uint64_t starts = 0;
  const auto killNow = [&] {
    ::kill(pid, SIGKILL);
    result.killed = true;
  };
  for (bool open = true; open;) {
    int timeoutMs = 100;
    if (!result.killed && plan == KillPlan::kAfterDelay) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(start + delay - Clock::now());
      timeoutMs = static_cast<int>(std::clamp<int64_t>(left.count(), 0, 100));
    }
    std::vector<std::string> lines;
    open = reader.read(timeoutMs, &lines);
    for (const std::string& line : lines) {
      if (line == "R") result.ready = true;
      if (line.starts_with("E ") && result.error.empty()) result.error = "child: " + line.substr(2);
      if (line.starts_with("A ")) result.lastAck = std::stoll(line.substr(2));
      if (line.starts_with("S ")) {
        lastStarted = std::stoll(line.substr(2));
        ++starts;
      }
      if (result.killed) continue;
      if (plan == KillPlan::kAfterAcks && result.lastAck - first + 1 >= acksWanted) killNow();
      if (plan == KillPlan::kInsideMaintenance && line.starts_with("S ") && starts >= startsWanted) {
        std::this_thread::sleep_for(maintenanceDelay);
        killNow();
      }
    }
    if (!result.killed && plan == KillPlan::kAfterDelay && Clock::now() >= start + delay) killNow();
    if (!result.killed && Clock::now() > start + kRoundTimeout) {
      killNow();
      if (result.error.empty()) result.error = "the child was not killed within the round timeout";
    }
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (result.error.empty() && !(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL))
    result.error = "the child exited by itself (status " + std::to_string(status) + ")";
  result.insideMaintenance = lastStarted > result.lastAck;
  return result;
}

std::vector<std::string> readAll(Workspace& ws) {
  ScanOptions scan;
  scan.maxVersions = 3;
  std::vector<Cell> cells;
  auto scanner = ws.scan(kTable, scan);
  if (!scanner) {
    ADD_FAILURE() << "scan: " << scanner.status().toString();
    return {};
  }
  RowResult row;
  while ((*scanner)->next(&row)) cells.insert(cells.end(), row.cells.begin(), row.cells.end());
  if (!(*scanner)->status()) ADD_FAILURE() << "scan: " << (*scanner)->status().toString();
  return describeCells(cells);
}

// Pages per store file as the SQLite file holds them.
std::map<int64_t, int64_t> storedPages(const std::string& path) {
  std::map<int64_t, int64_t> pages;
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    ADD_FAILURE() << "sqlite3_open_v2: " << sqlite3_errmsg(db);
    sqlite3_close(db);
    return pages;
  }
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db, "SELECT page_id >> 20, count(*) FROM pages GROUP BY 1", -1, &st, nullptr) != SQLITE_OK) {
    ADD_FAILURE() << "prepare: " << sqlite3_errmsg(db);
  } else {
    while (sqlite3_step(st) == SQLITE_ROW) pages[sqlite3_column_int64(st, 0)] = sqlite3_column_int64(st, 1);
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  return pages;
}

int envInt(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::atoi(v) : fallback;
}

TEST(Crash, AcknowledgedBatchesSurviveSigkillAndNoBatchIsHalfApplied) {
  const int rounds = envInt("KEYSCOPE_CRASH_ROUNDS", kDefaultRounds);
  const auto seed = static_cast<uint64_t>(envInt("KEYSCOPE_CRASH_SEED", 20240611));
  std::mt19937_64 rng(seed);
  TempDir dir;
  const std::string path = dir.file("crash.ksw");
  {
    auto ws = Workspace::open(path);
    ASSERT_TRUE(ws) << ws.status().toString();
    const Status created = (*ws)->createTable(crashTable(), {"row075"});  // two regions
    ASSERT_TRUE(created) << created.toString();
  }

  const auto started = Clock::now();
  Model model;
  int64_t next = 1;
  int kills = 0, insideMaintenance = 0, duringOpen = 0, inFlightApplied = 0;
  size_t maxRegions = 0;
  for (int round = 0; round < rounds; ++round) {
    const RoundResult r = runRound(path, next, rng);
    ASSERT_TRUE(r.error.empty()) << "round " << round << ": " << r.error;
    ASSERT_TRUE(r.killed);
    ++kills;
    if (r.insideMaintenance) ++insideMaintenance;
    if (!r.ready) ++duringOpen;
    for (int64_t n = next; n <= r.lastAck; ++n) model.apply(n);
    const int64_t inFlight = r.lastAck + 1;
    next = r.lastAck + 2;  // the in-flight step's number is never reused

    std::map<int64_t, int64_t> livePages;
    {
      auto opened = Workspace::open(path);
      ASSERT_TRUE(opened) << "round " << round << ", reopening: " << opened.status().toString();
      Workspace& ws = **opened;
      const std::vector<std::string> actual = readAll(ws);
      ASSERT_FALSE(::testing::Test::HasFailure()) << "round " << round;
      if (actual != model.describe()) {
        Model withInFlight = model;
        withInFlight.apply(inFlight);
        ASSERT_TRUE(isWrite(inFlight) && actual == withInFlight.describe())
            << "round " << round << ": after step " << r.lastAck << " (in flight: " << inFlight
            << ") the table matches neither the acknowledged steps nor those plus the one in flight;"
            << " against the acknowledged steps:" << difference(model.describe(), actual);
        model = withInFlight;
        ++inFlightApplied;
      }
      // Point reads take another path (bloom filters, seeks); they must agree.
      for (int i = 0; i < kRows; ++i) {
        GetOptions get;
        get.row = rowName(static_cast<uint64_t>(i));
        get.maxVersions = 3;
        auto result = ws.get(kTable, get);
        ASSERT_TRUE(result) << result.status().toString();
        ASSERT_EQ(describeCells(result->cells), model.describeRow(get.row)) << "round " << round;
      }
      GetOptions counter;
      counter.row = kCounterRow;
      counter.columns = {{"a", Bytes("hits")}};
      auto hits = ws.get(kTable, counter);
      ASSERT_TRUE(hits) << hits.status().toString();
      const std::vector<std::string> expectedHits =
          model.hits() == 0 ? std::vector<std::string>{}
                            : std::vector<std::string>{"ctr/a:hits=" + std::to_string(model.hits())};
      ASSERT_EQ(describeCells(hits->cells), expectedHits) << "round " << round << ": acknowledged increments";

      // The regions still partition the key space (open checks it too).
      auto regions = ws.regions(kTable);
      ASSERT_TRUE(regions) << regions.status().toString();
      ASSERT_EQ(regions->front().startRow, "") << "round " << round;
      ASSERT_EQ(regions->back().endRow, "") << "round " << round;
      for (size_t i = 0; i + 1 < regions->size(); ++i)
        ASSERT_EQ((*regions)[i].endRow, (*regions)[i + 1].startRow) << "round " << round << ": regions " << i;
      maxRegions = std::max(maxRegions, regions->size());

      ASSERT_TRUE(ws.waitForBackgroundWork());  // a flush the replay may have queued
      auto files = ws.storeFiles(kTable);
      ASSERT_TRUE(files) << files.status().toString();
      for (const StoreFileInfo& f : *files) livePages[f.id] = f.pages;
    }
    // Interrupted flushes and compactions leave no pages behind once reopened.
    ASSERT_EQ(storedPages(path), livePages) << "round " << round << ": pages in the file vs. live store files";
  }

  const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
  RecordProperty("kills", kills);
  RecordProperty("max_regions", static_cast<int>(maxRegions));
  RecordProperty("kills_inside_maintenance", insideMaintenance);
  RecordProperty("acknowledged_steps", static_cast<int>(next - 1));
  std::printf("[  crash   ] %d kills survived (%d inside a flush or compaction, %d while opening; the step in "
              "flight was applied %d times), %" PRId64 " steps, %" PRId64 " increments, seed %" PRIu64
              ", %.1f s\n",
              kills, insideMaintenance, duringOpen, inFlightApplied, next - 1, model.hits(), seed, seconds);
  EXPECT_GE(kills, rounds);
  std::printf("[  crash   ] at most %zu regions at once\n", maxRegions);
  if (rounds >= 20) {
    EXPECT_GE(insideMaintenance, 1) << "no kill landed inside a flush or compaction";
    EXPECT_GT(maxRegions, 2u) << "the run meant to split the table while being killed";
  }
}

}  // namespace
}  // namespace keyscope::test
