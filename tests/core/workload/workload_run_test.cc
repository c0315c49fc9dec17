// runWorkload on real workspaces: operation counts and the mix honoured,
// the clock driven and given back, reproducible runs, cancel and pause,
// existing tables, and the statistics adding up to the operations issued.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "workload_test_util.h"

namespace keyscope::test {
namespace {

using ::testing::HasSubstr;

// A fixed clock given at open: what the workspace returns to after a run.
constexpr int64_t kOwnClock = 1700000000000;

OpenOptions ownClock() {
  OpenOptions o;
  o.clock = [] { return kOwnClock; };
  return o;
}

WorkloadOptions small(KeyDesign design, uint64_t operations) {
  WorkloadOptions o;
  o.table = "t";
  o.keys.design = design;
  o.operations = operations;
  o.rate = 1000;
  return o;
}

uint64_t totalWrites(const WorkloadSummary& s) {
  uint64_t n = 0;
  for (const ServerTotals& t : s.servers) n += t.writes;
  return n;
}

uint64_t totalReads(const WorkloadSummary& s) {
  uint64_t n = 0;
  for (const ServerTotals& t : s.servers) n += t.reads;
  return n;
}

// Every cell of the table as "row@ts=value".
std::vector<std::string> allCells(const Workspace& ws, const std::string& table) {
  std::vector<std::string> out;
  Result<std::unique_ptr<Scanner>> scanner = ws.scan(table, ScanOptions{});
  EXPECT_TRUE(scanner.isOk());
  RowResult row;
  while ((*scanner)->next(&row)) {
    for (const Cell& c : row.cells) out.push_back(toHex(c.row) + "@" + std::to_string(c.timestamp) + "=" + c.value);
  }
  return out;
}

TEST(WorkloadRun, IssuesExactlyTheOperationsAskedFor) {
  EngineFixture fx;
  WorkloadOptions o = small(KeyDesign::kMonotonic, 1003);
  o.clients = 7;
  o.batchSize = 10;  // 1003 puts over 7 clients: every client ends with a partial batch
  const WorkloadSummary s = runOk(fx.ws(), o);
  EXPECT_EQ(s.plannedOperations, 1003u);
  EXPECT_EQ(s.operations, 1003u);
  EXPECT_EQ(s.puts, 1003u);
  EXPECT_EQ(allRows(fx.ws(), "t").size(), 1003u);
  EXPECT_EQ(totalWrites(s), 1003u);
  EXPECT_TRUE(s.createdTable);
}

TEST(WorkloadRun, ADurationEndsTheRunAtItsSimulatedTime) {
  EngineFixture fx;
  WorkloadOptions o = small(KeyDesign::kSequence, 0);
  o.operations.reset();
  o.rate = 500;
  o.durationMillis = 3000;
  const WorkloadSummary s = runOk(fx.ws(), o);
  EXPECT_EQ(s.operations, 1500u);
  EXPECT_EQ(s.startMillis, kDefaultStartMillis);
  EXPECT_EQ(s.endMillis, kDefaultStartMillis + 2998);  // operation 1,499 at 1,499 x 2 ms
  o.operations = 100;  // the first of the two limits ends it
  EXPECT_EQ(runOk(fx.ws(), o).operations, 100u);
}

TEST(WorkloadRun, WithoutARateTheClockAdvancesAtTheNominalRate) {
  EngineFixture fx;
  WorkloadOptions o = small(KeyDesign::kSequence, 2500);
  o.rate.reset();
  const WorkloadSummary s = runOk(fx.ws(), o);
  EXPECT_EQ(s.rate, kNominalRate);
  EXPECT_EQ(s.endMillis - s.startMillis, 2499);
}

TEST(WorkloadRun, TheMixIsHonouredAndReadsFindRecentRows) {
  EngineFixture fx;
  WorkloadOptions o = small(KeyDesign::kHashed, 10000);
  o.mix = OperationMix{60, 30, 10};
  const WorkloadSummary s = runOk(fx.ws(), o);
  EXPECT_EQ(s.puts + s.gets + s.scans, 10000u);
  EXPECT_NEAR(static_cast<double>(s.puts), 6000, 300);
  EXPECT_NEAR(static_cast<double>(s.gets), 3000, 300);
  EXPECT_NEAR(static_cast<double>(s.scans), 1000, 150);
  EXPECT_GT(s.getsFound, s.gets * 9 / 10);  // gets ask for rows written recently
  EXPECT_GT(s.rowsScanned, 0u);
  EXPECT_EQ(allRows(fx.ws(), "t").size(), s.puts);
  EXPECT_EQ(totalWrites(s), s.puts);
  EXPECT_EQ(totalReads(s), s.gets + s.rowsScanned);  // a get is a read; so is each row a scan returns
}

TEST(WorkloadRun, EveryDesignRunsWithReadsAndScans) {
  for (KeyDesign d : keyDesigns()) {
    EngineFixture fx;
    WorkloadOptions o = small(d, 2000);
    if (d == KeyDesign::kSchema) o.keys.keySchema = "salt:salt(4, user) | user:utf8 | ts:revts";
    o.mix = OperationMix{1, 1, 1};
    WorkloadSummary s;
    const Status status = runWorkload(fx.ws(), o, &s);
    ASSERT_TRUE(status.isOk()) << keyDesignName(d) << ": " << status.toString();
    EXPECT_EQ(s.operations, 2000u) << keyDesignName(d);
    EXPECT_EQ(s.statisticsError, "") << keyDesignName(d);
    Result<TableOptions> table = fx.ws().describeTable("t");
    ASSERT_TRUE(table.isOk());
    EXPECT_EQ(table->keySchema, s.keySchema) << keyDesignName(d);
  }
}

TEST(WorkloadRun, CellsCarryTheSimulatedTimeAndTheClockIsGivenBack) {
  EngineFixture fx(ownClock());
  WorkloadOptions o = small(KeyDesign::kMonotonic, 50);
  o.batchSize = 1;
  o.clients = 3;
  runOk(fx.ws(), o);
  EXPECT_EQ(fx.ws().now(), kOwnClock);
  const std::vector<std::string> cells = allCells(fx.ws(), "t");
  ASSERT_EQ(cells.size(), 50u);
  // Row k is (ts = start + k, event k); its cell was written at that time.
  EXPECT_THAT(cells[0], ::testing::StartsWith("8000018cc251f4000000000000000000@1704067200000="));
  EXPECT_THAT(cells[49], ::testing::StartsWith("8000018cc251f4310000000000000031@1704067200049="));
}

TEST(WorkloadRun, TheSameOptionsIntoAFreshWorkspaceGiveTheSameRun) {
  WorkloadOptions o = small(KeyDesign::kZipf, 6000);
  o.mix = OperationMix{3, 2, 1};
  o.clients = 5;
  o.batchSize = 7;
  o.seed = 99;
  EngineFixture a, b;
  const WorkloadSummary sa = runOk(a.ws(), o);
  const WorkloadSummary sb = runOk(b.ws(), o);
  EXPECT_EQ(allCells(a.ws(), "t"), allCells(b.ws(), "t"));
  EXPECT_EQ(sa.puts, sb.puts);
  EXPECT_EQ(sa.getsFound, sb.getsFound);
  EXPECT_EQ(sa.rowsScanned, sb.rowsScanned);
  ASSERT_EQ(sa.servers.size(), sb.servers.size());
  for (size_t i = 0; i < sa.servers.size(); ++i) {
    EXPECT_EQ(sa.servers[i].writes, sb.servers[i].writes);
    EXPECT_EQ(sa.servers[i].reads, sb.servers[i].reads);
  }
  EXPECT_EQ(sa.verdict, sb.verdict);
}

TEST(WorkloadRun, CancelStopsTheRunAndWritesWhatWasCollected) {
  EngineFixture fx(ownClock());
  CancelToken cancel;
  WorkloadOptions o = small(KeyDesign::kUniform, 100000);
  o.batchSize = 50;
  o.progressEvery = 1000;
  o.cancel = &cancel;
  o.progress = [&](const WorkloadProgress& p) {
    if (p.operations >= 3000) cancel.cancel();
  };
  WorkloadSummary s;
  const Status status = runWorkload(fx.ws(), o, &s);
  EXPECT_EQ(status.code(), Status::Code::kCancelled) << status.toString();
  EXPECT_TRUE(s.cancelled);
  EXPECT_GE(s.operations, 3000u);  // reports come after a write, so a little past 3,000
  EXPECT_LT(s.operations, 4000u);
  EXPECT_EQ(allRows(fx.ws(), "t").size(), s.puts);  // the partial batches were written too
  EXPECT_EQ(totalWrites(s), s.puts);
  EXPECT_EQ(fx.ws().now(), kOwnClock);
}

TEST(WorkloadRun, PauseHoldsTheRunUntilResumedAndChangesNothing) {
  WorkloadOptions o = small(KeyDesign::kSalted, 4000);
  o.batchSize = 1;  // a write per operation, so progress comes at exactly every 500
  o.progressEvery = 500;
  PauseToken pause;
  o.pause = &pause;
  std::atomic<uint64_t> lastSeen{0};
  std::atomic<bool> advancedWhilePaused{false};
  std::thread resumer;
  o.progress = [&](const WorkloadProgress& p) {
    lastSeen = p.operations;
    if (p.operations == 1000) {
      pause.pause();
      resumer = std::thread([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        if (lastSeen.load() != 1000) advancedWhilePaused = true;
        pause.resume();
      });
    }
  };
  EngineFixture paused, straight;
  const auto started = std::chrono::steady_clock::now();
  const WorkloadSummary s = runOk(paused.ws(), o);
  const auto took = std::chrono::steady_clock::now() - started;
  resumer.join();
  EXPECT_FALSE(advancedWhilePaused.load());
  EXPECT_GE(took, std::chrono::milliseconds(300));
  EXPECT_EQ(s.operations, 4000u);
  o.pause = nullptr;
  o.progress = nullptr;
  runOk(straight.ws(), o);
  EXPECT_EQ(allCells(paused.ws(), "t"), allCells(straight.ws(), "t"));
}

TEST(WorkloadRun, CancelEndsAPause) {
  EngineFixture fx;
  WorkloadOptions o = small(KeyDesign::kMonotonic, 10000);
  PauseToken pause;
  CancelToken cancel;
  o.pause = &pause;
  o.cancel = &cancel;
  o.progressEvery = 1000;
  std::thread canceller;
  o.progress = [&](const WorkloadProgress& p) {
    if (p.operations < 2000 || canceller.joinable()) return;
    pause.pause();
    canceller = std::thread([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      cancel.cancel();
    });
  };
  WorkloadSummary s;
  EXPECT_EQ(runWorkload(fx.ws(), o, &s).code(), Status::Code::kCancelled);
  canceller.join();
  EXPECT_GE(s.operations, 2000u);
  EXPECT_LT(s.operations, 3000u);
}

TEST(WorkloadRun, ASecondRunStartsAfterTheLoadOfTheFirst) {
  EngineFixture fx;
  const WorkloadSummary first = runOk(fx.ws(), small(KeyDesign::kMonotonic, 3000));
  WorkloadOptions o = small(KeyDesign::kSalted, 3000);
  o.table = "other";
  const WorkloadSummary second = runOk(fx.ws(), o);
  EXPECT_EQ(first.startMillis, kDefaultStartMillis);
  EXPECT_GE(second.startMillis, first.window.toMillis);
  EXPECT_EQ(second.startMillis % 60000, 0);
  EXPECT_EQ(totalWrites(second), 3000u);  // its summary counts its own writes only
}

TEST(WorkloadRun, AnExistingTableIsWrittenAsItIs) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("f")});
  WorkloadOptions o = small(KeyDesign::kSequence, 100);
  o.newTable.preSplitRegions = 4;
  const WorkloadSummary s = runOk(fx.ws(), o);
  EXPECT_FALSE(s.createdTable);
  EXPECT_EQ(s.regionsBefore, 1u);
  EXPECT_THAT(s.notes, ::testing::Contains(HasSubstr("no family 'd'; the puts go to 'f'")));
  EXPECT_THAT(s.notes, ::testing::Contains(HasSubstr("was not pre-split")));
  EXPECT_EQ(allRows(fx.ws(), "t").size(), 100u);
}

TEST(WorkloadRun, ANewTableIsMadeSmallAndPreSplitByTheDesign) {
  EngineFixture fx;
  WorkloadOptions o = small(KeyDesign::kSalted, 10);
  o.newTable.preSplitRegions = 8;
  const WorkloadSummary s = runOk(fx.ws(), o);
  EXPECT_EQ(s.regionsBefore, 8u);
  Result<TableOptions> table = fx.ws().describeTable("t");
  ASSERT_TRUE(table.isOk());
  EXPECT_EQ(table->memstoreFlushSize, 1u << 20);
  EXPECT_EQ(table->maxFileSize, 4u << 20);
  EXPECT_EQ(table->splitPolicy, SplitPolicy::kConstantSize);
  EXPECT_EQ(table->keySchema, "salt:salt(8, ts) | ts:i64 | event:u64");
  ASSERT_EQ(table->families.size(), 1u);
  EXPECT_EQ(table->families[0].name, "d");
}

// The schema a design states is what the heatmap decodes by: a salted and a
// hashed table fold their salt or hash, and their buckets are labelled by it.
TEST(WorkloadRun, TheHeatmapFoldsTheSaltOfTheTablesItMakes) {
  for (KeyDesign d : {KeyDesign::kSalted, KeyDesign::kHashed}) {
    EngineFixture fx;
    const WorkloadSummary s = runOk(fx.ws(), small(d, 3000));
    HeatGridRequest request;
    request.window = s.window;
    request.timeColumns = 3;
    request.keyBuckets = 8;
    request.axis = KeyAxis::kEqualKeyCounts;
    request.foldSalt = true;
    Result<HeatGrid> grid = fx.ws().heatGrid("t", request);
    ASSERT_TRUE(grid.isOk()) << keyDesignName(d) << ": " << grid.status().toString();
    ASSERT_FALSE(grid->buckets.empty());
    EXPECT_THAT(grid->buckets.front().label, HasSubstr("ts=")) << keyDesignName(d);
  }
}

TEST(WorkloadRun, ServersAreSetBeforeTheRun) {
  EngineFixture fx;
  WorkloadOptions o = small(KeyDesign::kUniform, 500);
  o.servers = 2;
  const WorkloadSummary s = runOk(fx.ws(), o);
  EXPECT_EQ(fx.ws().serverCount(), 2);
  EXPECT_EQ(s.servers.size(), 2u);
}

TEST(WorkloadRun, BadOptionsAreRefusedBeforeAnythingIsWritten) {
  EngineFixture fx;
  WorkloadOptions o = small(KeyDesign::kMonotonic, 100);
  o.clients = 0;
  WorkloadSummary s;
  const Status status = runWorkload(fx.ws(), o, &s);
  EXPECT_EQ(status.code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(status.message(), "clients: 0 is out of range (1 to 10,000)");
  EXPECT_FALSE(fx.ws().tableExists("t"));
  EXPECT_EQ(s.operations, 0u);
}

TEST(WorkloadRun, ProgressReportsRegionsAndEndsAtTheLastOperation) {
  EngineFixture fx;
  WorkloadOptions o = small(KeyDesign::kSalted, 5000);
  o.newTable.preSplitRegions = 8;
  o.batchSize = 1;
  std::vector<WorkloadProgress> seen;
  o.progress = [&](const WorkloadProgress& p) { seen.push_back(p); };
  runOk(fx.ws(), o);
  ASSERT_GE(seen.size(), 10u);
  EXPECT_EQ(seen.front().operations, 100u);  // 1% of 5,000 is below the floor of 100
  EXPECT_EQ(seen.back().operations, 5000u);
  EXPECT_EQ(seen.back().plannedOperations, 5000u);
  EXPECT_EQ(seen.back().simulatedMillis, 4999);
  EXPECT_EQ(seen.back().regions, 8u);
}

}  // namespace
}  // namespace keyscope::test
