// The acceptance checks (issue 5, section 5), on the presets' runs:
// a monotonic design with a small split size sends over 90% of each
// interval's writes to one server, and a salted design with 8 buckets sends
// no more than 35%. Plus the lock-step import's lesson: balanced totals, yet
// one server at a time.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "workload_test_util.h"

namespace keyscope::test {
namespace {

WorkloadOptions preset(const std::string& name) {
  WorkloadOptions o;
  o.table = name;
  EXPECT_TRUE(applyWorkloadPreset(name, &o).isOk());
  return o;
}

std::vector<double> serverShares(const WorkloadSummary& s) {
  std::vector<double> shares;
  for (const IntervalLoad& l : s.intervals) shares.push_back(l.hottestServerShare);
  return shares;
}

double largestServerTotal(const WorkloadSummary& s) {
  uint64_t top = 0, total = 0;
  for (const ServerTotals& t : s.servers) {
    top = std::max(top, t.writes);
    total += t.writes;
  }
  return total > 0 ? static_cast<double>(top) / static_cast<double>(total) : 0;
}

// The monotonic preset: 100,000 puts, 4 MiB regions, 4 servers, 10 intervals.
// The balancer is switched off for the run: then each split's daughters stay
// on their parent's server and the last region keeps every write, in every
// interval. (With it on, see the next test.)
TEST(WorkloadAcceptance, MonotonicKeysSendOverNinetyPercentOfEachIntervalToOneServer) {
  EngineFixture fx;
  ASSERT_TRUE(fx.ws().setBalancerEnabled(false).isOk());
  const WorkloadSummary s = runOk(fx.ws(), preset("monotonic"));
  ASSERT_EQ(s.statisticsError, "");
  EXPECT_GE(s.splits, 2u) << "the small split size should split the table during the run";
  ASSERT_EQ(s.intervals.size(), 10u);
  for (double share : serverShares(s)) EXPECT_GT(share, 0.9);
  EXPECT_THAT(s.verdict, ::testing::StartsWith("hottest server took 100% of writes in 10 of 10 intervals"));
}

// With the balancer on (the default), it runs at the first split and then at
// most once per five minutes of the workspace clock (hbase.balancer.period),
// moving the newest region first as HBase's SimpleLoadBalancer does: the hot
// last region changes server once, and the interval holding that move is
// shared by two servers. Every other interval is one server's.
TEST(WorkloadAcceptance, MonotonicKeysStayHotWhenTheBalancerMovesTheHotRegion) {
  EngineFixture fx;
  ASSERT_TRUE(fx.ws().balancerEnabled());
  const WorkloadSummary s = runOk(fx.ws(), preset("monotonic"));
  ASSERT_EQ(s.statisticsError, "");
  ASSERT_EQ(s.intervals.size(), 10u);
  const std::vector<double> shares = serverShares(s);
  EXPECT_GE(std::count_if(shares.begin(), shares.end(), [](double x) { return x > 0.9; }), 8) << s.verdict;
  // Even the shared interval went to two servers only.
  Result<LoadSeries> series = fx.ws().serverLoadSeries(s.window, 10);
  ASSERT_TRUE(series.isOk());
  for (uint32_t c = 0; c < 10; ++c) {
    std::vector<uint64_t> writes;
    for (size_t server = 0; server < series->series.size(); ++server) writes.push_back(series->at(server, c).writes);
    std::sort(writes.rbegin(), writes.rend());
    EXPECT_EQ(writes[0] + writes[1], s.intervals[c].writes) << "interval " << c;
  }
  EXPECT_THAT(s.verdict, ::testing::EndsWith(": a write hotspot"));
}

// The salted preset: the same events behind a salt of 8 buckets, pre-split
// at the buckets, two regions per server.
TEST(WorkloadAcceptance, SaltedKeysWithEightBucketsSendNoMoreThanThirtyFivePercentToAnyServer) {
  EngineFixture fx;
  const WorkloadSummary s = runOk(fx.ws(), preset("salted"));
  ASSERT_EQ(s.statisticsError, "");
  ASSERT_EQ(s.intervals.size(), 10u);
  for (double share : serverShares(s)) EXPECT_LE(share, 0.35);
  EXPECT_LE(largestServerTotal(s), 0.35);
  EXPECT_THAT(s.verdict, ::testing::EndsWith("writes spread"));
}

TEST(WorkloadAcceptance, TheLockstepImportHitsOneServerAtATimeThoughTheTotalsLookBalanced) {
  EngineFixture fx;
  const WorkloadSummary s = runOk(fx.ws(), preset("lockstep"));
  ASSERT_EQ(s.statisticsError, "");
  ASSERT_EQ(s.intervals.size(), 10u);
  for (const IntervalLoad& l : s.intervals) {
    EXPECT_GT(l.hottestServerShare, 0.9);
    EXPECT_GT(l.hottestRegionShare, 0.9);
  }
  EXPECT_LE(largestServerTotal(s), 0.35);  // 10 regions over 4 servers: 3, 3, 2, 2
  std::set<int64_t> hotRegions;
  for (const IntervalLoad& l : s.intervals) hotRegions.insert(l.hottestRegion);
  EXPECT_EQ(hotRegions.size(), 10u);  // the hotspot walks from region to region
}

}  // namespace
}  // namespace keyscope::test
