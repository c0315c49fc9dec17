// Statistics as the engine records them: every write, get and scanned row is
// charged to its region and server, the sums add up to the operations
// issued, across splits and reopen, and the queries answer through the
// Workspace API.
#include <numeric>

#include "engine_test_util.h"

namespace keyscope::test {
namespace {

using ::testing::HasSubstr;

constexpr const char* kTable = "t";
constexpr int64_t kStart = 1'700'000'000'000;  // the fixed clock: whole seconds from here

std::string rowName(int i) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "r%04d", i);
  return buf;
}

class StatisticsEngineTest : public ::testing::Test {
 protected:
  StatisticsEngineTest() {
    OpenOptions options;
    options.backgroundCompaction = false;
    m_fx = std::make_unique<EngineFixture>(options);
    m_fx->setClock(kStart);  // regions are born on the clock too
    TableOptions table;
    table.name = kTable;
    table.families = {familyOf("f")};
    table.splitPolicy = SplitPolicy::kDisabled;
    EXPECT_TRUE(ws().createTable(table).isOk());
  }
  Workspace& ws() { return m_fx->ws(); }
  EngineFixture& fx() { return *m_fx; }

  LoadCounters totalOverRegions(const TimeWindow& window = {}) {
    Result<std::vector<RegionLoad>> load = ws().regionLoad(kTable, window);
    EXPECT_TRUE(load.isOk()) << load.status().toString();
    LoadCounters sum;
    if (load.isOk()) {
      for (const RegionLoad& r : *load) sum.add(r.total);
    }
    return sum;
  }

 private:
  std::unique_ptr<EngineFixture> m_fx;
};

TEST_F(StatisticsEngineTest, WritesGetsAndScannedRowsAddUpOverRegions) {
  for (int i = 0; i < 100; ++i) fx().put(kTable, rowName(i), "f:q", 1, "v");
  // One mutate() of three rows is three writes.
  std::vector<Mutation> batch;
  for (int i = 100; i < 103; ++i) batch.emplace_back(Put{rowName(i), {{"f", "q", 1, "v"}, {"f", "p", 1, "w"}}});
  ASSERT_TRUE(ws().mutate(kTable, batch).isOk());
  for (int i = 0; i < 40; ++i) fx().getColumn(kTable, rowName(i), "f:q");
  fx().getColumn(kTable, "absent", "f:q");  // a miss is still a read
  ScanOptions range;
  range.startRow = rowName(10);
  range.stopRow = rowName(30);
  EXPECT_EQ(fx().scanRows(kTable, range).size(), 20u);

  const LoadCounters sum = totalOverRegions();
  EXPECT_EQ(sum.writes, 103u);
  EXPECT_EQ(sum.cellsWritten, 106u);
  EXPECT_EQ(sum.reads, 41u + 20u);
  EXPECT_EQ(sum.cellsRead, 40u + 20u);
  EXPECT_GT(sum.bytesWritten, 0u);
}

TEST_F(StatisticsEngineTest, TotalsSurviveSplitsAndReopenAndDaughtersStartAtTheSplit) {
  for (int i = 0; i < 200; ++i) fx().put(kTable, rowName(i), "f:q", 1, "v");
  fx().setClock(kStart + 5000);
  ASSERT_TRUE(ws().split(kTable, Bytes(rowName(100))).isOk());
  for (int i = 0; i < 50; ++i) fx().put(kTable, rowName(i * 4), "f:q", 2, "w");
  fx().reopen();  // the clock is the system's again until set
  fx().setClock(kStart + 9000);

  // The daughters' totals count only what reached them after the split.
  const LoadCounters live = totalOverRegions();
  EXPECT_EQ(live.writes, 50u);
  // The servers saw everything, split or not.
  Result<std::vector<ServerLoad>> servers = ws().serverLoad({});
  ASSERT_TRUE(servers.isOk()) << servers.status().toString();
  uint64_t serverWrites = 0;
  for (const ServerLoad& s : *servers) serverWrites += s.window.writes;
  EXPECT_EQ(serverWrites, 250u);

  // By region, the grid holds the parent's load before the split and the
  // daughters' after, and a boundary at the split.
  HeatGridRequest request;
  request.window = {kStart, kStart + 10000};
  request.timeColumns = 10;
  request.axis = KeyAxis::kRegions;
  request.metric = LoadMetric::kWrites;
  Result<HeatGrid> grid = ws().heatGrid(kTable, request);
  ASSERT_TRUE(grid.isOk()) << grid.status().toString();
  EXPECT_EQ(grid->buckets.size(), 3u);
  EXPECT_DOUBLE_EQ(std::accumulate(grid->values.begin(), grid->values.end(), 0.0), 250.0);
  ASSERT_EQ(grid->boundaries.size(), 1u);
  EXPECT_EQ(grid->boundaries[0].row, rowName(100));
  EXPECT_EQ(grid->boundaries[0].atMillis, kStart + 5000);
}

TEST_F(StatisticsEngineTest, AMonotonicLoadShowsAsAFrontInEqualKeyCountBuckets) {
  // Ten seconds, each writing the next 100 keys: the load of second s sits
  // in the buckets of keys s*100 ... s*100+99.
  for (int s = 0; s < 10; ++s) {
    fx().setClock(kStart + s * 1000);
    for (int i = s * 100; i < (s + 1) * 100; ++i) fx().put(kTable, rowName(i), "f:q", 1, std::string(50, 'x'));
  }
  HeatGridRequest request;
  request.window = {kStart, kStart + 10000};
  request.timeColumns = 10;
  request.keyBuckets = 10;
  request.axis = KeyAxis::kEqualKeyCounts;
  request.metric = LoadMetric::kWrites;
  Result<HeatGrid> grid = ws().heatGrid(kTable, request);
  ASSERT_TRUE(grid.isOk()) << grid.status().toString();
  ASSERT_EQ(grid->columns, 10u);
  ASSERT_EQ(grid->buckets.size(), 10u);
  for (size_t column = 0; column < 10; ++column) {
    size_t hottest = 0;
    for (size_t b = 1; b < grid->buckets.size(); ++b) {
      if (grid->at(b, column) > grid->at(hottest, column)) hottest = b;
    }
    EXPECT_EQ(hottest, column) << "the front in second " << column;
  }
}

TEST_F(StatisticsEngineTest, KeyHistogramFindsTheSkew) {
  for (int i = 0; i < 300; ++i) fx().put(kTable, "a" + rowName(i), "f:q", 1, "v");
  for (int i = 0; i < 10; ++i) fx().put(kTable, "b" + rowName(i), "f:q", 1, "v");
  KeyHistogramRequest request;
  request.prefixLength = 1;
  Result<KeyHistogram> histogram = ws().keyHistogram(kTable, request);
  ASSERT_TRUE(histogram.isOk()) << histogram.status().toString();
  ASSERT_EQ(histogram->buckets.size(), 2u);
  EXPECT_EQ(histogram->buckets[0].prefix, "a");
  EXPECT_EQ(histogram->buckets[0].cells, 300u);
  EXPECT_NEAR(histogram->largestShare, 300.0 / 310.0, 1e-9);
  fx().flush(kTable);  // a small store file is read row by row: still exact
  histogram = ws().keyHistogram(kTable, request);
  ASSERT_TRUE(histogram.isOk());
  EXPECT_NEAR(histogram->largestShare, 300.0 / 310.0, 1e-9);
}

TEST_F(StatisticsEngineTest, KeyHistogramOfALargeStoreFileIsEstimatedFromItsBlockIndex) {
  for (int i = 0; i < 6000; ++i) fx().put(kTable, "a" + rowName(i), "f:q", 1, std::string(200, 'v'));
  for (int i = 0; i < 2000; ++i) fx().put(kTable, "b" + rowName(i), "f:q", 1, std::string(200, 'v'));
  fx().flush(kTable);
  KeyHistogramRequest request;
  request.prefixLength = 1;
  Result<KeyHistogram> histogram = ws().keyHistogram(kTable, request);
  ASSERT_TRUE(histogram.isOk()) << histogram.status().toString();
  ASSERT_EQ(histogram->buckets.size(), 2u);
  EXPECT_NEAR(histogram->largestShare, 0.75, 0.02);
  EXPECT_NEAR(static_cast<double>(histogram->totalCells), 8000.0, 80.0);
}

TEST_F(StatisticsEngineTest, QueriesOfAnUnknownTableAreNotFound) {
  EXPECT_EQ(ws().regionLoad("nope", {}).status().code(), Status::Code::kNotFound);
  EXPECT_EQ(ws().heatGrid("nope", {}).status().code(), Status::Code::kNotFound);
  EXPECT_EQ(ws().keyHistogram("nope", {}).status().code(), Status::Code::kNotFound);
  HeatGridRequest infinite;  // a window without an end
  EXPECT_THAT(ws().heatGrid(kTable, infinite).status().message(), HasSubstr("window"));
}

TEST_F(StatisticsEngineTest, ADroppedTableTakesItsStatisticsAlong) {
  for (int i = 0; i < 10; ++i) fx().put(kTable, rowName(i), "f:q", 1, "v");
  ASSERT_TRUE(ws().dropTable(kTable).isOk());
  TableOptions table;
  table.name = kTable;
  table.families = {familyOf("f")};
  ASSERT_TRUE(ws().createTable(table).isOk());
  EXPECT_EQ(totalOverRegions().writes, 0u);
}

}  // namespace
}  // namespace keyscope::test
