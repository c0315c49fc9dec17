// The region table's load columns and the servers' load, from persisted
// statistics: windows take whole seconds, rates use the region's life.
#include <gtest/gtest.h>

#include "stats/stats_queries.h"
#include "stats/stats_recorder.h"
#include "stats_test_util.h"

namespace keyscope::test {
namespace {

using stats::StatsRecorder;

// `perSecond` writes (and half as many reads) to the region in each second [from, to).
void load(StatsRecorder& r, int64_t regionId, int32_t server, int fromSecond, int toSecond, int perSecond) {
  for (int s = fromSecond; s < toSecond; ++s) {
    for (int i = 0; i < perSecond; ++i) {
      const std::string row = rowKey(i);
      r.recordWrite(at(1, regionId, server), row, 2, 50, s * 1000 + i % 1000);
      if (i % 2 == 0) {
        const std::string_view rows[] = {row};
        r.recordReads(at(1, regionId, server), 1, 2, 50, rows, s * 1000 + i % 1000);
      }
    }
  }
}

const RegionLoad* find(const std::vector<RegionLoad>& loads, int64_t id) {
  for (const RegionLoad& l : loads)
    if (l.regionId == id) return &l;
  return nullptr;
}

TEST(RegionLoad, AWindowCountsTheSecondsStartingInItAndTotalsCountAll) {
  StatsDb db;
  StatsRecorder recorder;
  load(recorder, 1, 0, 0, 10, 10);
  db.persist(recorder);
  stats::TableContext table = tableOf(1, {region(1, "", "")});
  table.nowMillis = 10000;
  auto loads = stats::queryRegionLoad(db.db(), table, {2000, 6000});
  ASSERT_TRUE(loads.isOk()) << loads.status().toString();
  ASSERT_EQ(loads->size(), 1u);
  EXPECT_EQ((*loads)[0].window.writes, 40u);
  EXPECT_EQ((*loads)[0].window.reads, 20u);
  EXPECT_EQ((*loads)[0].window.cellsWritten, 80u);
  EXPECT_EQ((*loads)[0].total.writes, 100u);
  EXPECT_EQ((*loads)[0].total.bytesRead, 50u * 50u);
  EXPECT_DOUBLE_EQ((*loads)[0].writesPerSecond, 10.0);
  EXPECT_DOUBLE_EQ((*loads)[0].readsPerSecond, 5.0);
  // [2500, 6500) starts the seconds 3, 4, 5 and 6.
  auto unaligned = stats::queryRegionLoad(db.db(), table, {2500, 6500});
  ASSERT_TRUE(unaligned.isOk());
  EXPECT_EQ((*unaligned)[0].window.writes, 40u);
}

TEST(RegionLoad, RatesAreOverTheWindowClippedToTheRegionsLife) {
  StatsDb db;
  StatsRecorder recorder;
  load(recorder, 1, 0, 0, 3, 10);   // the parent, split at 3 s
  load(recorder, 2, 0, 3, 10, 10);  // its daughters
  load(recorder, 3, 1, 3, 10, 20);
  db.persist(recorder);
  stats::TableContext table =
      tableOf(1, {region(1, "", "", 0, 3000), region(2, "", "m", 3000), region(3, "m", "", 3000, std::nullopt, 1)});
  table.nowMillis = 10000;
  auto loads = stats::queryRegionLoad(db.db(), table, {0, 20000});
  ASSERT_TRUE(loads.isOk()) << loads.status().toString();
  ASSERT_EQ(loads->size(), 2u);  // live regions only, by start row
  EXPECT_EQ((*loads)[0].regionId, 2);
  EXPECT_EQ((*loads)[1].regionId, 3);
  EXPECT_EQ((*loads)[1].server, 1);
  EXPECT_EQ((*loads)[0].window.writes, 70u);
  EXPECT_EQ((*loads)[0].total.writes, 70u);  // a daughter's history starts at the split
  EXPECT_DOUBLE_EQ((*loads)[0].writesPerSecond, 10.0);  // 70 writes over its 7 s, not the window's 20
  EXPECT_DOUBLE_EQ((*loads)[1].writesPerSecond, 20.0);
}

TEST(RegionLoad, SizesComeFromTheLiveRegions) {
  StatsDb db;
  stats::TableContext table = tableOf(1, {region(5, "", "k"), region(6, "k", "")});
  table.live = {{6, 1000, 400, 64, 77, 2}, {5, 10, 5, 0, 1, 1}};
  auto loads = stats::queryRegionLoad(db.db(), table, {});
  ASSERT_TRUE(loads.isOk()) << loads.status().toString();
  ASSERT_EQ(loads->size(), 2u);
  const RegionLoad* r6 = find(*loads, 6);
  ASSERT_NE(r6, nullptr);
  EXPECT_EQ(r6->rawBytes, 1000u);
  EXPECT_EQ(r6->storedBytes, 400u);
  EXPECT_EQ(r6->memstoreBytes, 64u);
  EXPECT_EQ(r6->cells, 77u);
  EXPECT_EQ(r6->storeFiles, 2u);
  EXPECT_EQ(r6->startRow, "k");
  EXPECT_EQ(r6->total, LoadCounters{});
  EXPECT_EQ(r6->writesPerSecond, 0.0);
}

TEST(RegionLoad, AnEmptyWindowOrARegionMissingFromTheHistoryIsInvalid) {
  StatsDb db;
  stats::TableContext table = tableOf(1, {region(1, "", "")});
  EXPECT_EQ(stats::queryRegionLoad(db.db(), table, {5000, 5000}).status().code(), Status::Code::kInvalidArgument);
  table.live.push_back({99, 0, 0, 0, 0, 0});
  const auto missing = stats::queryRegionLoad(db.db(), table, {});
  EXPECT_EQ(missing.status().code(), Status::Code::kInvalidArgument);
  EXPECT_NE(missing.status().message().find("99"), std::string::npos) << missing.status().message();
}

TEST(ServerLoad, ServersSumToTheOperationsInTheWindowAndCountTheirRegions) {
  StatsDb db;
  StatsRecorder recorder;
  load(recorder, 1, 0, 0, 4, 10);
  load(recorder, 2, 1, 0, 4, 30);
  load(recorder, 3, 5, 2, 3, 7);  // a server beyond today's count
  db.persist(recorder);
  auto servers = stats::queryServerLoad(db.db(), {2, 1, 0}, {1000, 3000});
  ASSERT_TRUE(servers.isOk()) << servers.status().toString();
  ASSERT_EQ(servers->size(), 4u);
  EXPECT_EQ((*servers)[0].server, 0);
  EXPECT_EQ((*servers)[0].regions, 2u);
  EXPECT_EQ((*servers)[0].window.writes, 20u);
  EXPECT_EQ((*servers)[1].window.writes, 60u);
  EXPECT_EQ((*servers)[2].window.writes, 0u);
  EXPECT_EQ((*servers)[3].server, 5);
  EXPECT_EQ((*servers)[3].regions, 0u);
  EXPECT_EQ((*servers)[3].window.writes, 7u);
}

TEST(ServerLoadSeries, EachSecondLandsInTheColumnHoldingItsStart) {
  StatsDb db;
  StatsRecorder recorder;
  load(recorder, 1, 0, 0, 6, 10);
  load(recorder, 2, 1, 0, 6, 30);
  db.persist(recorder);
  auto series = stats::queryServerLoadSeries(db.db(), 2, {0, 6000}, 3);
  ASSERT_TRUE(series.isOk()) << series.status().toString();
  EXPECT_EQ(series->columnMillis, 2000);
  EXPECT_EQ(series->series, (std::vector<int32_t>{0, 1}));
  for (size_t c = 0; c < 3; ++c) {
    EXPECT_EQ(series->at(0, c).writes, 20u) << c;
    EXPECT_EQ(series->at(1, c).writes, 60u) << c;
    EXPECT_EQ(series->at(1, c).reads, 30u) << c;
  }
}

TEST(ServerLoadSeries, AnInfiniteWindowOrZeroColumnsIsInvalid) {
  StatsDb db;
  EXPECT_EQ(stats::queryServerLoadSeries(db.db(), 4, {}, 10).status().code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(stats::queryServerLoadSeries(db.db(), 4, {0, 1000}, 0).status().code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(stats::queryServerLoadSeries(db.db(), 0, {0, 1000}, 5).status().code(), Status::Code::kInvalidArgument);
}

}  // namespace
}  // namespace keyscope::test
