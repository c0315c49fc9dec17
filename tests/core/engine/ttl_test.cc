// TTL and MIN_VERSIONS (HBASE-SEMANTICS.md B2): a cell is expired iff
// ts < now - TTL (ScanQueryMatcher.isExpired), so ts == now - TTL is live;
// MIN_VERSIONS keeps the newest versions past their TTL; a flush drops
// expired versions (HBASE-4241), which changes what a time-range read sees
// (TestMinVersions#testBaseCase). The clock is injected: setClock for the
// workspace, ReadOptions::now for what-if reads.
#include "engine_test_util.h"

namespace keyscope::test {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr int64_t kNow = 1'000'000;

class TtlStorage : public StorageTest {};
KEYSCOPE_STORAGE_CASES(TtlStorage);

TEST_P(TtlStorage, CellAtExactlyNowMinusTtlIsLiveOneMillisecondOlderIsNot) {
  fx().setClock(kNow);
  createTable("t", {familyOf("f").ttl(10)});
  fx().put("t", "r", "f:edge", kNow - 10'000, "live");
  fx().put("t", "r", "f:old", kNow - 10'001, "expired");
  afterPhase("t", 1);
  fx().put("t", "r", "f:new", kNow, "fresh");
  afterPhase("t", 2);
  GetOptions get;
  get.row = "r";
  EXPECT_THAT(describeFull(fx().get("t", get)), ElementsAre("r/f:edge@990000=live", "r/f:new@1000000=fresh"));
  ScanOptions scan;
  EXPECT_THAT(describeFull(fx().scanCells("t", scan)), ElementsAre("r/f:edge@990000=live", "r/f:new@1000000=fresh"));
}

TEST_P(TtlStorage, MinVersionsKeepsTheNewestExpiredVersions) {
  fx().setClock(kNow);
  createTable("t", {familyOf("f").versions(5).minVersions(2).ttl(1)});
  const int64_t old = kNow - 5'000;
  fx().put("t", "r", "f:q", old - 3, "v1");
  fx().put("t", "r", "f:q", old - 2, "v2");
  afterPhase("t", 1);
  fx().put("t", "r", "f:q", old - 1, "v3");
  fx().put("t", "r", "f:q", old, "v4");
  afterPhase("t", 2);
  EXPECT_THAT(describe(fx().getColumn("t", "r", "f:q", 10)), ElementsAre("995000:v4", "994999:v3"));
  EXPECT_THAT(describe(fx().getColumn("t", "r", "f:q")), ElementsAre("995000:v4"));
}

TEST_P(TtlStorage, WithoutMinVersionsAnExpiredVersionEndsTheColumn) {
  fx().setClock(kNow);
  createTable("t", {familyOf("f").versions(5).ttl(1)});
  fx().put("t", "r", "f:q", kNow - 5'000, "expired");
  afterPhase("t", 1);
  fx().put("t", "r", "f:q", kNow - 10, "live");
  afterPhase("t", 2);
  EXPECT_THAT(describe(fx().getColumn("t", "r", "f:q", 10)), ElementsAre("999990:live"));
}

TEST(Ttl, AdvancingTheClockExpiresCells) {
  EngineFixture fx;
  fx.setClock(kNow);
  fx.createTable("t", {familyOf("f").ttl(60)});
  fx.putNow("t", "r", "f:q", "v");
  EXPECT_THAT(describe(fx.getColumn("t", "r", "f:q")), ElementsAre("1000000:v"));
  fx.setClock(kNow + 60'000);
  EXPECT_THAT(describe(fx.getColumn("t", "r", "f:q")), ElementsAre("1000000:v"));
  fx.setClock(kNow + 60'001);
  EXPECT_THAT(fx.getColumn("t", "r", "f:q"), IsEmpty());
  ScanOptions scan;
  EXPECT_THAT(fx.scanRows("t", scan), IsEmpty());
  Result<uint64_t> count = fx.ws().count("t", scan);
  ASSERT_TRUE(count.isOk());
  EXPECT_EQ(*count, 0u);
}

TEST(Ttl, WhatIfReadJudgesTtlAgainstItsOwnNowAndChangesNothing) {
  EngineFixture fx;
  fx.setClock(kNow);
  fx.createTable("t", {familyOf("f").ttl(60)});
  fx.putNow("t", "r", "f:q", "v");
  GetOptions later;
  later.row = "r";
  later.now = kNow + 60'001;
  EXPECT_THAT(fx.get("t", later), IsEmpty());
  ScanOptions laterScan;
  laterScan.now = kNow + 60'001;
  EXPECT_THAT(fx.scanRows("t", laterScan), IsEmpty());
  // Nothing stored or clocked changed.
  EXPECT_EQ(fx.ws().now(), kNow);
  EXPECT_THAT(describe(fx.getColumn("t", "r", "f:q")), ElementsAre("1000000:v"));

  fx.setClock(kNow + 120'000);
  EXPECT_THAT(fx.getColumn("t", "r", "f:q"), IsEmpty());
  GetOptions earlier;
  earlier.row = "r";
  earlier.now = kNow + 1;
  EXPECT_THAT(describe(fx.get("t", earlier)), ElementsAre("1000000:v"));
  ScanOptions earlierScan;
  earlierScan.now = kNow + 1;
  EXPECT_THAT(fx.scanRows("t", earlierScan), ElementsAre("r"));
}

TEST(Ttl, FlushDropsExpiredCells) {
  EngineFixture fx;
  fx.setClock(kNow);
  fx.createTable("t", {familyOf("f").ttl(1)});
  fx.put("t", "r", "f:q", kNow - 5'000, "expired");
  // Still in the memstore: a raw scan and a what-if read can see it.
  EXPECT_THAT(describe(fx.rawCells("t")), ElementsAre("995000:expired"));
  GetOptions past;
  past.row = "r";
  past.now = kNow - 5'000;
  EXPECT_THAT(describe(fx.get("t", past)), ElementsAre("995000:expired"));
  fx.flush("t");
  EXPECT_THAT(describe(fx.rawCells("t")), IsEmpty());
  EXPECT_THAT(fx.get("t", past), IsEmpty());
}

// TestMinVersions#testBaseCase: MIN_VERSIONS=2, TTL=1s, four puts 2s old.
TEST(Ttl, MinVersionsTimeRangeReadsChangeWithFlushAndMajorCompaction) {
  EngineFixture fx;
  fx.setClock(kNow);
  fx.createTable("t", {familyOf("f").versions(1000).minVersions(2).ttl(1)});
  const int64_t ts = kNow - 2'000;
  fx.put("t", "r", "f:q", ts - 3, "T1");
  fx.put("t", "r", "f:q", ts - 2, "T2");
  fx.put("t", "r", "f:q", ts - 1, "T3");
  fx.put("t", "r", "f:q", ts, "T4");

  const auto valueIn = [&](TimeRange range) {
    std::vector<std::string> values;
    for (const Cell& c : fx.getColumn("t", "r", "f:q", 1, range)) values.push_back(c.value);
    return values;
  };
  EXPECT_THAT(valueIn({}), ElementsAre("T4"));
  EXPECT_THAT(valueIn({0, ts + 1}), ElementsAre("T4"));
  // The oldest version is expired, but inside [0, ts-2) it is the first
  // version counted, and MIN_VERSIONS keeps it.
  EXPECT_THAT(valueIn({0, ts - 2}), ElementsAre("T1"));
  // Every version: only the MIN_VERSIONS newest, even before compactions.
  EXPECT_THAT(describe(fx.getColumn("t", "r", "f:q", 1000)), ElementsAre("998000:T4", "997999:T3"));
  GetOptions wildcard;
  wildcard.row = "r";
  wildcard.maxVersions = 1000;
  EXPECT_THAT(describe(fx.get("t", wildcard)), ElementsAre("998000:T4", "997999:T3"));

  fx.flush("t");  // HBASE-4241: a flush eliminates the expired versions
  EXPECT_THAT(valueIn({0, ts - 2}), IsEmpty());

  fx.majorCompact("t");
  EXPECT_THAT(valueIn({0, ts + 1}), ElementsAre("T4"));
  EXPECT_THAT(valueIn({0, ts}), ElementsAre("T3"));
  EXPECT_THAT(valueIn({0, ts - 1}), IsEmpty());
}

TEST(Ttl, TimestampsFilterCannotBringBackAVersionExpiredBeyondMinVersions) {
  // TestMinVersions#testFilters (master): the filter runs after version
  // counting, so an expired version beyond MIN_VERSIONS stays hidden.
  EngineFixture fx;
  fx.setClock(kNow);
  fx.createTable("t", {familyOf("f").versions(5).minVersions(2).ttl(1)});
  const int64_t ts = kNow - 2'000;
  for (int64_t i = 3; i >= 0; --i) fx.put("t", "r", "f:q", ts - i, "T" + std::to_string(4 - i));
  auto filter = parseFilter("TimestampsFilter (" + std::to_string(ts - 2) + ", " + std::to_string(ts) + ")");
  ASSERT_TRUE(filter.isOk()) << filter.status().toString();
  GetOptions get;
  get.row = "r";
  get.maxVersions = 5;
  get.filter = *filter;
  EXPECT_THAT(describe(fx.get("t", get)), ElementsAre("998000:T4"));
  fx.flush("t");
  EXPECT_THAT(describe(fx.get("t", get)), ElementsAre("998000:T4"));
}

}  // namespace
}  // namespace keyscope::test
