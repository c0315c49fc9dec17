// Time ranges (HBASE-SEMANTICS.md B3): TimeRange is [min, max), min
// inclusive, max exclusive; setTimestamp(t) = [t, t+1) and still returns one
// version unless more are asked for; setColumnFamilyTimeRange overrides the
// range for one family; with KEEP_DELETED_CELLS=FALSE a delete marker at or
// after the range's min applies (NormalUserScanQueryMatcher: "delete markers
// extend back to the beginning of time"), also from a store file whose own
// time range lies outside the read's.
#include "engine_test_util.h"

namespace keyscope::test {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

class TimeRangeStorage : public StorageTest {
 protected:
  // f:q at 10, 20, 30, 40 (values "v10"...), VERSIONS 5.
  void writeFourVersions() {
    createTable("t", {familyOf("f").versions(5)});
    fx().put("t", "r", "f:q", 10, "v10");
    fx().put("t", "r", "f:q", 20, "v20");
    afterPhase("t", 1);
    fx().put("t", "r", "f:q", 30, "v30");
    fx().put("t", "r", "f:q", 40, "v40");
    afterPhase("t", 2);
  }
  std::vector<std::string> read(TimeRange range, int32_t versions = 10) {
    return describe(fx().getColumn("t", "r", "f:q", versions, range));
  }
};
KEYSCOPE_STORAGE_CASES(TimeRangeStorage);

TEST_P(TimeRangeStorage, MinIsInclusiveMaxIsExclusive) {
  writeFourVersions();
  EXPECT_THAT(read({20, 40}), ElementsAre("30:v30", "20:v20"));
  EXPECT_THAT(read({21, 41}), ElementsAre("40:v40", "30:v30"));
  EXPECT_THAT(read({20, 20}), IsEmpty());
  EXPECT_THAT(read({0, 10}), IsEmpty());
  EXPECT_THAT(read({41, kMax}), IsEmpty());
}

TEST_P(TimeRangeStorage, AtFromUntilAndAllTime) {
  writeFourVersions();
  EXPECT_THAT(read(TimeRange::at(30)), ElementsAre("30:v30"));
  EXPECT_THAT(read(TimeRange::at(31)), IsEmpty());
  EXPECT_THAT(read({30, kMax}), ElementsAre("40:v40", "30:v30"));   // from(30)
  EXPECT_THAT(read({0, 30}), ElementsAre("20:v20", "10:v10"));      // until(30)
  EXPECT_THAT(read({}), ElementsAre("40:v40", "30:v30", "20:v20", "10:v10"));
}

TEST_P(TimeRangeStorage, SeveralVersionsInRangeStillReturnOneUnlessAsked) {
  writeFourVersions();
  EXPECT_THAT(read({0, 35}, 1), ElementsAre("30:v30"));
  EXPECT_THAT(read({0, 35}, 2), ElementsAre("30:v30", "20:v20"));
}

TEST_P(TimeRangeStorage, ScanHonoursTheTimeRange) {
  writeFourVersions();
  ScanOptions scan;
  scan.timeRange = {15, 35};
  scan.maxVersions = 10;
  EXPECT_THAT(describe(fx().scanCells("t", scan)), ElementsAre("30:v30", "20:v20"));
  scan.timeRange = {41, 50};
  EXPECT_THAT(fx().scanRows("t", scan), IsEmpty());
}

TEST_P(TimeRangeStorage, FamilyTimeRangeOverridesTheReadsRangeForThatFamily) {
  createTable("t", {familyOf("a").versions(5), familyOf("b").versions(5)});
  fx().put("t", "r", "a:q", 10, "a10");
  fx().put("t", "r", "b:q", 10, "b10");
  afterPhase("t", 1);
  fx().put("t", "r", "a:q", 20, "a20");
  fx().put("t", "r", "b:q", 20, "b20");
  afterPhase("t", 2);
  GetOptions get;
  get.row = "r";
  get.maxVersions = 5;
  get.timeRange = TimeRange::at(20);
  get.familyTimeRanges["b"] = TimeRange::at(10);
  EXPECT_THAT(describeFull(fx().get("t", get)), ElementsAre("r/a:q@20=a20", "r/b:q@10=b10"));
  ScanOptions scan;
  scan.maxVersions = 5;
  scan.familyTimeRanges["a"] = {0, 15};
  EXPECT_THAT(describeFull(fx().scanCells("t", scan)), ElementsAre("r/a:q@10=a10", "r/b:q@20=b20", "r/b:q@10=b10"));
}

TEST_P(TimeRangeStorage, MarkerAfterTheRangeStillMasksWithoutKeepDeletedCells) {
  createTable("t", {familyOf("f").versions(5)});
  fx().put("t", "r", "f:q", 10, "v10");
  fx().put("t", "r", "f:other", 10, "o10");
  afterPhase("t", 1);
  // In its own store file (time range [20, 20]) when flushed twice.
  fx().deleteCells("t", "r", DeleteScope::kColumnAll, "f:q", 20);
  afterPhase("t", 2);
  EXPECT_THAT(read({0, 15}), IsEmpty());
  EXPECT_THAT(describe(fx().getColumn("t", "r", "f:other", 1, {0, 15})), ElementsAre("10:o10"));
  ScanOptions scan;
  scan.timeRange = {0, 15};
  EXPECT_THAT(describeFull(fx().scanCells("t", scan)), ElementsAre("r/f:other@10=o10"));
}

TEST_P(TimeRangeStorage, MarkerBeforeTheRangeMinIsNotApplied) {
  createTable("t", {familyOf("f").versions(5)});
  fx().put("t", "r", "f:q", 10, "v10");
  afterPhase("t", 1);
  fx().deleteCells("t", "r", DeleteScope::kColumnAll, "f:q", 20);
  fx().put("t", "r", "f:q", 30, "v30");
  afterPhase("t", 2);
  EXPECT_THAT(read({25, 40}), ElementsAre("30:v30"));
  EXPECT_THAT(read({0, 40}), ElementsAre("30:v30"));
  EXPECT_THAT(read({5, 15}), IsEmpty());
}

}  // namespace
}  // namespace keyscope::test
