// Table notes in the shell: DESCRIPTION and EXAMPLES at create and alter, and
// what describe shows of them as text and as JSON.
#include <gmock/gmock.h>

#include "shell_test_util.h"

namespace keyscope::shell::test {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

TEST(ShellTableNotes, CreateTakesExamplesAndDescribeListsThemAsTheyReadBack) {
  ShellFixture sh;
  EXPECT_EQ(sh.run("create 't', 'd', DESCRIPTION => 'one row per visit',\n"
                   "  EXAMPLES => [\"scan 't', {LIMIT => 1}\", 'count \"t\"']"),
            "Created table t\n");
  Result<TableOptions> t = sh.ws().describeTable("t");
  ASSERT_TRUE(t);
  EXPECT_THAT(t->exampleCommands, ElementsAre("scan 't', {LIMIT => 1}", "count \"t\""));
  EXPECT_THAT(sh.run("describe 't'"),
              HasSubstr("t, {TABLE_ATTRIBUTES => {DESCRIPTION => 'one row per visit', "
                        "EXAMPLES => ['scan \\'t\\', {LIMIT => 1}', 'count \"t\"']}}\n"));
}

TEST(ShellTableNotes, DescribeAsJsonCarriesDescriptionAndExamples) {
  ShellFixture sh(ShellFormat::kJsonl);
  sh.run("create 't', 'd', DESCRIPTION => 'x', EXAMPLES => \"get 't', 'r'\"");
  EXPECT_THAT(sh.run("describe 't'"), HasSubstr("\"description\":\"x\",\"examples\":[\"get 't', 'r'\"]"));
}

TEST(ShellTableNotes, AlterSetsReplacesAndUnsetsExamples) {
  ShellFixture sh;
  sh.run("create 't', 'd', EXAMPLES => ['count \"t\"']");
  EXPECT_EQ(sh.run("alter 't', EXAMPLES => ['scan \"t\"', 'get \"t\", \"r\"'], DESCRIPTION => 'now described'"), "");
  Result<TableOptions> t = sh.ws().describeTable("t");
  ASSERT_TRUE(t);
  EXPECT_THAT(t->exampleCommands, ElementsAre("scan \"t\"", "get \"t\", \"r\""));
  EXPECT_EQ(t->description, "now described");
  EXPECT_EQ(sh.run("alter 't', 'e'"), "");  // other changes keep the notes
  EXPECT_THAT(sh.ws().describeTable("t")->exampleCommands, ElementsAre("scan \"t\"", "get \"t\", \"r\""));
  EXPECT_EQ(sh.run("alter 't', METHOD => 'table_att_unset', NAME => 'EXAMPLES'"), "");
  EXPECT_THAT(sh.ws().describeTable("t")->exampleCommands, IsEmpty());
  EXPECT_EQ(sh.run("alter 't', EXAMPLES => ['a']\nalter 't', EXAMPLES => nil"), "");
  EXPECT_THAT(sh.ws().describeTable("t")->exampleCommands, IsEmpty());
  EXPECT_EQ(sh.run("describe 't'").find("EXAMPLES"), std::string::npos);
}

TEST(ShellTableNotes, BadExamplesAreErrorsThatSayWhere) {
  EXPECT_EQ(parseError("create 't', 'd', EXAMPLES => ['scan', 5]"),
            "line 1, column 39: EXAMPLES: expected a string, got an integer");
  ShellFixture sh;
  EXPECT_EQ(sh.run("create 't', 'd', EXAMPLES => [\"\\xff\"]"),
            "ERROR: line 1, column 8: table 't': example 1 is not UTF-8 text (byte 0)\n");
  EXPECT_FALSE(sh.ws().tableExists("t"));
}

}  // namespace
}  // namespace keyscope::shell::test
