// Tables: create, describe, alter, truncate, drop - and what each does to
// data already written, in memory and in store files, across a reopen.
#include "engine_test_util.h"

namespace keyscope::test {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TableOptions tableOf(const std::string& name, std::vector<FamilyOptions> families) {
  TableOptions t;
  t.name = name;
  t.families = std::move(families);
  return t;
}

TEST(Tables, CreateDescribeListAndRefuseDuplicates) {
  EngineFixture fx;
  ASSERT_TRUE(fx.ws().createTable(tableOf("t", {familyOf("z").versions(3), familyOf("a")})).isOk());
  const auto described = fx.ws().describeTable("t");
  ASSERT_TRUE(described.isOk());
  ASSERT_EQ(described->families.size(), 2u);
  EXPECT_EQ(described->families[0].name, "a");  // families sorted by name
  EXPECT_EQ(described->families[1].maxVersions, 3);
  const Status again = fx.ws().createTable(tableOf("t", {familyOf("a")}));
  EXPECT_EQ(again.code(), Status::Code::kInvalidArgument);
  EXPECT_THAT(again.message(), HasSubstr("already exists"));
  EXPECT_THAT(fx.ws().listTables(), ElementsAre("t"));
  fx.reopen();
  EXPECT_EQ(fx.ws().describeTable("t")->families[1].maxVersions, 3);
}

TEST(Tables, BadDefinitionsAreRefusedWithTheirReason) {
  EngineFixture fx;
  EXPECT_THAT(fx.ws().createTable(tableOf("t", {})).message(), HasSubstr("at least one column family"));
  EXPECT_THAT(fx.ws().createTable(tableOf("bad name", {familyOf("f")})).message(), HasSubstr("only letters"));
  EXPECT_THAT(fx.ws().createTable(tableOf("t", {familyOf("f:x")})).message(), HasSubstr("without ':'"));
  EXPECT_THAT(fx.ws().createTable(tableOf("t", {familyOf("f"), familyOf("f")})).message(), HasSubstr("named twice"));
  FamilyOptions minVersions = familyOf("f").versions(2);
  minVersions.minVersions = 2;
  EXPECT_THAT(fx.ws().createTable(tableOf("t", {minVersions})).message(), HasSubstr("must be less than VERSIONS"));
  EXPECT_THAT(fx.ws().createTable(tableOf("t", {familyOf("f")}), {"m", "m"}).message(), HasSubstr("given twice"));
  EXPECT_TRUE(fx.ws().listTables().empty());
}

TEST(Tables, AlterChangesHowExistingDataReads) {
  EngineFixture fx;
  ASSERT_TRUE(fx.ws().createTable(tableOf("t", {familyOf("f").versions(1)})).isOk());
  for (int ts = 1; ts <= 3; ++ts) fx.put("t", "r", "f:q", ts, "v" + std::to_string(ts));
  EXPECT_THAT(describe(fx.getColumn("t", "r", "f:q", 10)), ElementsAre("3:v3"));
  ASSERT_TRUE(fx.ws().alterTable(tableOf("t", {familyOf("f").versions(3)})).isOk());
  // The memstore still holds every version: VERSIONS=3 now shows them.
  EXPECT_THAT(describe(fx.getColumn("t", "r", "f:q", 10)), ElementsAre("3:v3", "2:v2", "1:v1"));
  fx.flush("t");
  fx.reopen();
  EXPECT_THAT(describe(fx.getColumn("t", "r", "f:q", 10)), ElementsAre("3:v3", "2:v2", "1:v1"));
}

TEST(Tables, AlterAddsAndDropsFamiliesAndADroppedFamilyStaysGone) {
  EngineFixture fx;
  ASSERT_TRUE(fx.ws().createTable(tableOf("t", {familyOf("a"), familyOf("b")})).isOk());
  fx.put("t", "r", "a:q", 1, "in-a");
  fx.put("t", "r", "b:q", 1, "flushed-b");
  fx.flush("t");
  fx.put("t", "r", "b:q", 2, "logged-b");  // only in the memstore and the log
  ASSERT_TRUE(fx.ws().alterTable(tableOf("t", {familyOf("a"), familyOf("c")})).isOk());
  EXPECT_EQ(fx.ws().put("t", Put{"r", {{"b", "q", 3, "x"}}}).code(), Status::Code::kInvalidArgument);
  fx.put("t", "r", "c:q", 1, "in-c");
  // Re-adding "b" must not bring back its old data, flushed or only logged.
  ASSERT_TRUE(fx.ws().alterTable(tableOf("t", {familyOf("a"), familyOf("b"), familyOf("c")})).isOk());
  fx.reopen();
  GetOptions get;
  get.row = "r";
  EXPECT_THAT(describeFull(fx.get("t", get)), ElementsAre("r/a:q@1=in-a", "r/c:q@1=in-c"));
}

TEST(Tables, TruncateEmptiesTheTableAndKeepsItsDefinition) {
  EngineFixture fx;
  ASSERT_TRUE(fx.ws().createTable(tableOf("t", {familyOf("f").versions(2)})).isOk());
  fx.put("t", "r1", "f:q", 1, "flushed");
  fx.flush("t");
  fx.put("t", "r2", "f:q", 1, "logged");
  ASSERT_TRUE(fx.ws().truncateTable("t").isOk());
  EXPECT_TRUE(fx.scanRows("t", {}).empty());
  fx.put("t", "r3", "f:q", 1, "after");
  fx.reopen();
  EXPECT_THAT(fx.scanRows("t", {}), ElementsAre("r3"));
  EXPECT_EQ(fx.ws().describeTable("t")->families[0].maxVersions, 2);
  EXPECT_TRUE(fx.ws().storeFiles("t")->empty());
}

TEST(Tables, DropRemovesTheTableAndItsPagesAndANewOneStartsEmpty) {
  EngineFixture fx;
  ASSERT_TRUE(fx.ws().createTable(tableOf("t", {familyOf("f")})).isOk());
  fx.put("t", "r1", "f:q", 1, "flushed");
  fx.flush("t");
  fx.put("t", "r2", "f:q", 1, "logged");
  ASSERT_TRUE(fx.ws().dropTable("t").isOk());
  EXPECT_FALSE(fx.ws().tableExists("t"));
  EXPECT_EQ(fx.ws().get("t", GetOptions{{}, "r1"}).status().code(), Status::Code::kNotFound);
  EXPECT_EQ(fx.ws().dropTable("t").code(), Status::Code::kNotFound);
  ASSERT_TRUE(fx.ws().createTable(tableOf("t", {familyOf("f")})).isOk());
  fx.reopen();
  EXPECT_TRUE(fx.scanRows("t", {}).empty());
}

TEST(Tables, UnknownTablesAreNotFoundEverywhere) {
  EngineFixture fx;
  EXPECT_EQ(fx.ws().describeTable("nope").status().code(), Status::Code::kNotFound);
  EXPECT_EQ(fx.ws().alterTable(tableOf("nope", {familyOf("f")})).code(), Status::Code::kNotFound);
  EXPECT_EQ(fx.ws().truncateTable("nope").code(), Status::Code::kNotFound);
  EXPECT_EQ(fx.ws().flush("nope").code(), Status::Code::kNotFound);
  EXPECT_EQ(fx.ws().compact("nope", true).code(), Status::Code::kNotFound);
  EXPECT_EQ(fx.ws().regions("nope").status().code(), Status::Code::kNotFound);
  EXPECT_EQ(fx.ws().scan("nope", {}).status().code(), Status::Code::kNotFound);
}

}  // namespace
}  // namespace keyscope::test
