// Filters through the engine (HBASE-SEMANTICS.md B2 step 7, B5): filters from
// the filter language (keyscope::parseFilter) see only cells that passed the
// time range, deletes and version counting; with a filter the tracker counts
// up to the family's VERSIONS and versionsAfterFilter caps the result at
// min(request, VERSIONS), so a TimestampsFilter cannot bring back a version
// beyond VERSIONS (TestMinVersions#testFilters, master); SingleColumnValueFilter's
// filterIfMissing; PageFilter; the same answers for gets, scans and count.
#include "engine_test_util.h"

namespace keyscope::test {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

std::shared_ptr<const Filter> filterOf(const std::string& text) {
  auto f = parseFilter(text);
  EXPECT_TRUE(f.isOk()) << text << ": " << f.status().toString();
  return f.isOk() ? *f : nullptr;
}

class FiltersStorage : public StorageTest {
 protected:
  // Rows: user1 {f:name=ann, f:age=30}, user2 {f:name=bob}, user3
  // {f:name=cat, f:age=40}, other1 {f:name=dan}; written in two phases.
  void writeUsers() {
    createTable("t", {familyOf("f").versions(3)});
    fx().put("t", "user1", "f:name", 1, "ann");
    fx().put("t", "user1", "f:age", 1, "30");
    fx().put("t", "user2", "f:name", 1, "bob");
    afterPhase("t", 1);
    fx().put("t", "user3", "f:name", 1, "cat");
    fx().put("t", "user3", "f:age", 1, "40");
    fx().put("t", "other1", "f:name", 1, "dan");
    afterPhase("t", 2);
  }
  std::vector<std::string> rowsWith(const std::string& filter) {
    ScanOptions scan;
    scan.filter = filterOf(filter);
    return fx().scanRows("t", scan);
  }
};
KEYSCOPE_STORAGE_CASES(FiltersStorage);

TEST_P(FiltersStorage, PrefixFilterKeepsRowsWithThePrefix) {
  writeUsers();
  EXPECT_THAT(rowsWith("PrefixFilter ('user')"), ElementsAre("user1", "user2", "user3"));
  EXPECT_THAT(rowsWith("PrefixFilter ('oth')"), ElementsAre("other1"));
  EXPECT_THAT(rowsWith("PrefixFilter ('zzz')"), IsEmpty());
}

TEST_P(FiltersStorage, SingleColumnValueFilterKeepsRowsMissingTheColumnUnlessFilterIfMissing) {
  writeUsers();
  EXPECT_THAT(rowsWith("SingleColumnValueFilter ('f', 'age', >=, 'binary:35', false, true)"),
              ElementsAre("other1", "user2", "user3"));
  EXPECT_THAT(rowsWith("SingleColumnValueFilter ('f', 'age', >=, 'binary:35', true, true)"), ElementsAre("user3"));
}

TEST_P(FiltersStorage, PageFilterStopsAfterItsPageSize) {
  writeUsers();
  EXPECT_THAT(rowsWith("PageFilter (2)"), ElementsAre("other1", "user1"));
  EXPECT_THAT(rowsWith("PrefixFilter ('user') AND PageFilter (2)"), ElementsAre("user1", "user2"));
}

TEST_P(FiltersStorage, CountAppliesTheFilter) {
  writeUsers();
  ScanOptions scan;
  scan.filter = filterOf("PrefixFilter ('user')");
  auto n = fx().ws().count("t", scan);
  ASSERT_TRUE(n.isOk());
  EXPECT_EQ(*n, 3u);
}

TEST_P(FiltersStorage, CellFiltersOnAGet) {
  writeUsers();
  GetOptions get;
  get.row = "user1";
  get.filter = filterOf("QualifierFilter (=, 'binary:name')");
  EXPECT_THAT(describeFull(fx().get("t", get)), ElementsAre("user1/f:name@1=ann"));
  get.filter = filterOf("KeyOnlyFilter ()");
  EXPECT_THAT(describeFull(fx().get("t", get)), ElementsAre("user1/f:age@1=", "user1/f:name@1="));
  get.filter = filterOf("FirstKeyOnlyFilter ()");
  EXPECT_THAT(describeFull(fx().get("t", get)), ElementsAre("user1/f:age@1=30"));
}

TEST_P(FiltersStorage, TimestampsFilterCannotReachBeyondFamilyVersions) {
  createTable("t", {familyOf("f").versions(2)});
  fx().put("t", "r", "f:q", 1, "v1");
  fx().put("t", "r", "f:q", 2, "v2");
  afterPhase("t", 1);
  fx().put("t", "r", "f:q", 3, "v3");
  afterPhase("t", 2);
  GetOptions get;
  get.row = "r";
  get.maxVersions = 10;
  // Version 1 is the third newest: beyond VERSIONS=2 even while the
  // memstore still holds it.
  get.filter = filterOf("TimestampsFilter (1)");
  EXPECT_THAT(fx().get("t", get), IsEmpty());
  get.filter = filterOf("TimestampsFilter (1, 2, 3)");
  EXPECT_THAT(describe(fx().get("t", get)), ElementsAre("3:v3", "2:v2"));
  // versionsAfterFilter: at most min(request, VERSIONS) after the filter.
  get.maxVersions = 1;
  get.filter = filterOf("TimestampsFilter (2, 3)");
  EXPECT_THAT(describe(fx().get("t", get)), ElementsAre("3:v3"));
  get.filter = filterOf("TimestampsFilter (1, 2)");
  EXPECT_THAT(describe(fx().get("t", get)), ElementsAre("2:v2"));
}

TEST_P(FiltersStorage, FiltersDoNotSeeDeletedCells) {
  createTable("t", {familyOf("f").versions(3)});
  fx().put("t", "a", "f:q", 1, "match");
  fx().put("t", "b", "f:q", 1, "match");
  afterPhase("t", 1);
  fx().deleteCells("t", "a", DeleteScope::kColumnAll, "f:q", 1);
  afterPhase("t", 2);
  EXPECT_THAT(rowsWith("ValueFilter (=, 'binary:match')"), ElementsAre("b"));
  EXPECT_THAT(rowsWith("SingleColumnValueFilter ('f', 'q', =, 'binary:match', true, true)"), ElementsAre("b"));
}

TEST(FiltersEngine, AFilterLanguageErrorIsInvalidArgument) {
  auto f = parseFilter("PrefixFilter ('unterminated)");
  ASSERT_FALSE(f.isOk());
  EXPECT_EQ(f.status().code(), Status::Code::kInvalidArgument);
  f = parseFilter("NoSuchFilter ()");
  ASSERT_FALSE(f.isOk());
  EXPECT_EQ(f.status().code(), Status::Code::kInvalidArgument);
}

TEST(FiltersEngine, AFilterPrototypeIsClonedPerRead) {
  // PageFilter counts rows: a shared prototype must start fresh every scan.
  EngineFixture fx;
  fx.createTable("t", {familyOf("f")});
  for (const char* row : {"a", "b", "c"}) fx.put("t", row, "f:q", 1, "v");
  ScanOptions scan;
  scan.filter = filterOf("PageFilter (2)");
  EXPECT_THAT(fx.scanRows("t", scan), ElementsAre("a", "b"));
  EXPECT_THAT(fx.scanRows("t", scan), ElementsAre("a", "b"));
}

}  // namespace
}  // namespace keyscope::test
