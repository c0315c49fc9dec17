// The demo recipe as compiled in (keyscope/demo.h): one script per table,
// each with 2-5 example commands that parse; and what build() refuses.
// Building the whole demo is tested end to end in tests/cli/test_demo.py.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

#include "keyscope/demo.h"
#include "keyscope/shell_command.h"
#include "shell/shell_test_util.h"

namespace keyscope::demo {
namespace {

using ::testing::HasSubstr;

TEST(DemoRecipes, EveryTableHasOneScriptThatCreatesIt) {
  const std::vector<Recipe>& all = recipes();
  ASSERT_EQ(all.size(), 12u);
  std::set<std::string> tables;
  for (const Recipe& r : all) {
    EXPECT_TRUE(tables.insert(r.table).second) << r.file;
    EXPECT_THAT(r.script, HasSubstr("create '" + r.table + "'")) << r.file;
    EXPECT_THAT(r.script, HasSubstr("DESCRIPTION =>")) << r.file;
    EXPECT_THAT(r.script, HasSubstr("KEY_SCHEMA =>")) << r.file;
  }
  EXPECT_EQ(all.front().file, "01_events_monotonic.hbase");
  EXPECT_EQ(all.front().table, "events_monotonic");
}

TEST(DemoRecipes, EveryExampleIsOneShellCommandOnItsTable) {
  for (const Recipe& r : recipes()) {
    EXPECT_GE(r.examples.size(), 2u) << r.file;
    EXPECT_LE(r.examples.size(), 5u) << r.file;
    for (const std::string& example : r.examples) {
      const std::vector<shell::Statement> statements = shell::parseShell(example);
      ASSERT_EQ(statements.size(), 1u) << example;
      EXPECT_TRUE(statements[0].status.isOk()) << example << ": " << statements[0].status.message();
      EXPECT_THAT(example, HasSubstr("'" + r.table + "'"));
    }
  }
}

TEST(DemoBuild, RefusesAWorkspaceThatAlreadyHasADemoTable) {
  shell::test::ShellFixture sh;
  sh.run("create 'tsdb', 'mine'");
  Result<BuildSummary> built = build(sh.ws());
  ASSERT_FALSE(built.isOk());
  EXPECT_EQ(built.status().code(), Status::Code::kInvalidArgument);
  EXPECT_THAT(built.status().message(), HasSubstr("already has a table 'tsdb'"));
  EXPECT_EQ(sh.ws().listTables(), std::vector<std::string>{"tsdb"});  // nothing written
}

TEST(DemoBuild, StopsWhenCancelledAndGivesTheClockBack) {
  shell::test::ShellFixture sh;
  CancelToken cancel;
  cancel.cancel();
  BuildOptions options;
  options.cancel = &cancel;
  Result<BuildSummary> built = build(sh.ws(), options);
  ASSERT_FALSE(built.isOk());
  EXPECT_EQ(built.status().code(), Status::Code::kCancelled);
  EXPECT_NE(sh.ws().now(), kEpochMillis);  // the system clock again, not the demo's
}

}  // namespace
}  // namespace keyscope::demo
