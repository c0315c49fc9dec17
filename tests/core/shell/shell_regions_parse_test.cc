// Parsing the region and server commands (split, merge_region, balancer,
// balance_switch, balancer_enabled, regions, servers, set_servers) and the
// split table attributes (MAX_FILESIZE, SPLIT_POLICY): what each takes, and
// the positioned error for what it does not.
#include <algorithm>

#include "shell_test_util.h"

namespace keyscope::shell {
namespace {

using test::parseAs;
using test::parseError;

TEST(ShellSplitParse, ATableOrRegionTargetWithAnOptionalRow) {
  auto table = parseAs<SplitCommand>("split 't'");
  EXPECT_EQ(table.target, "t");
  EXPECT_FALSE(table.regionId.has_value());
  EXPECT_FALSE(table.splitRow.has_value());
  EXPECT_EQ(table.targetAt.line, 1);
  EXPECT_EQ(table.targetAt.column, 7);

  auto withRow = parseAs<SplitCommand>("split 't',\n  \"m\\x00\"");
  EXPECT_EQ(withRow.splitRow, Bytes("m\0", 2));
  EXPECT_EQ(withRow.rowAt.line, 2);
  EXPECT_EQ(withRow.rowAt.column, 3);

  auto regionName = parseAs<SplitCommand>("split '12', 'k'");
  EXPECT_EQ(regionName.target, "12");
  EXPECT_EQ(regionName.regionId, 12);  // the session decides: a table named '12' wins
  EXPECT_EQ(regionName.splitRow, Bytes("k"));

  auto regionNumber = parseAs<SplitCommand>("split(7)");
  EXPECT_EQ(regionNumber.target, "7");
  EXPECT_EQ(regionNumber.regionId, 7);
}

TEST(ShellSplitParse, BadTargetsAndRowsSayWhere) {
  EXPECT_EQ(parseError("split"),
            "line 1, column 1: split: wrong number of arguments (given 0, expected 1 or 2); usage: split 'table'[, "
            "'row'] | split 'REGION'[, 'row'] (REGION: a region id)");
  EXPECT_EQ(parseError("split 't', 'a', 'b'").substr(0, 61),
            "line 1, column 1: split: wrong number of arguments (given 3, ");
  EXPECT_EQ(parseError("split -3"), "line 1, column 7: split: expected a region id (a number, as regions 't' lists them), got -3");
  EXPECT_EQ(parseError("split ['t']"), "line 1, column 7: split: expected a table name or a region id, got an array");
  EXPECT_EQ(parseError("split ''"), "line 1, column 7: split: expected a table name or a region id, got ''");
  EXPECT_EQ(parseError("split 't', ''"), "line 1, column 12: split row: cannot be empty (every region starts after '')");
  EXPECT_EQ(parseError("split 't', nil"), "line 1, column 12: split row: cannot be empty (every region starts after '')");
  EXPECT_EQ(parseError("split 't', {'X' => 1}"), "line 1, column 12: split row: expected a string, got a {KEY => value} map");
}

TEST(ShellMergeRegionParse, TwoRegionIdsAndHBasesForceFlag) {
  auto merge = parseAs<MergeRegionCommand>("merge_region '3', '4'");
  EXPECT_EQ(merge.first, 3);
  EXPECT_EQ(merge.second, 4);
  EXPECT_FALSE(merge.force);
  EXPECT_EQ(merge.firstAt.column, 14);
  EXPECT_EQ(merge.secondAt.column, 19);
  auto forced = parseAs<MergeRegionCommand>("merge_region 4, 3, true");
  EXPECT_EQ(forced.first, 4);
  EXPECT_EQ(forced.second, 3);
  EXPECT_TRUE(forced.force);
}

TEST(ShellMergeRegionParse, ErrorsNameTheArgument) {
  EXPECT_EQ(parseError("merge_region '3'"),
            "line 1, column 1: merge_region: wrong number of arguments (given 1, expected 2 or 3); usage: merge_region "
            "'REGION1', 'REGION2'[, true] (region ids, as regions 't' lists them)");
  EXPECT_EQ(parseError("merge_region '3', 'abc'"),
            "line 1, column 19: merge_region: expected a region id (a number, as regions 't' lists them), got 'abc'");
  EXPECT_EQ(parseError("merge_region ['3', '4']"),
            "line 1, column 1: merge_region: wrong number of arguments (given 1, expected 2 or 3); usage: merge_region "
            "'REGION1', 'REGION2'[, true] (region ids, as regions 't' lists them)");
  EXPECT_EQ(parseError("merge_region '3', 3"), "line 1, column 19: merge_region: cannot merge region 3 with itself");
  EXPECT_EQ(parseError("merge_region '3', '4', 'yes'"),
            "line 1, column 24: merge_region's force flag: expected true or false, got a string");
}

TEST(ShellBalancerParse, BalancerSwitchAndState) {
  EXPECT_FALSE(parseAs<BalancerCommand>("balancer").force);
  EXPECT_TRUE(parseAs<BalancerCommand>("balancer 'force'").force);
  EXPECT_EQ(parseError("balancer 'now'"), "line 1, column 10: balancer: the only argument is 'force'");
  EXPECT_TRUE(parseAs<BalanceSwitchCommand>("balance_switch true").enable);
  EXPECT_FALSE(parseAs<BalanceSwitchCommand>("balance_switch false").enable);
  EXPECT_EQ(parseError("balance_switch 'off'"), "line 1, column 16: balance_switch: expected true or false, got a string");
  EXPECT_EQ(parseError("balance_switch"),
            "line 1, column 1: balance_switch: wrong number of arguments (given 0, expected 1); usage: balance_switch "
            "true|false");
  parseAs<BalancerEnabledCommand>("balancer_enabled");
  EXPECT_EQ(parseError("balancer_enabled true"),
            "line 1, column 1: balancer_enabled: wrong number of arguments (given 1, expected 0); usage: balancer_enabled");
}

TEST(ShellRegionsParse, RegionsTakesHistory) {
  auto live = parseAs<RegionsCommand>("regions 't'");
  EXPECT_EQ(live.table, "t");
  EXPECT_FALSE(live.history);
  EXPECT_TRUE(parseAs<RegionsCommand>("regions 't', {HISTORY => true}").history);
  EXPECT_TRUE(parseAs<RegionsCommand>("regions 't', HISTORY => true").history);
  EXPECT_FALSE(parseAs<RegionsCommand>("regions 't', {HISTORY => false}").history);
  EXPECT_EQ(parseError("regions 't', {'HISTROY' => true}"),
            "line 1, column 15: unknown regions option 'HISTROY' (did you mean HISTORY?)");
  EXPECT_EQ(parseError("regions 't', {HISTORY => 1}"), "line 1, column 26: HISTORY: expected true or false, got an integer");
  EXPECT_EQ(parseError("regions 't', 'x'"), "line 1, column 14: regions: expected {HISTORY => true}, got a string");
  EXPECT_EQ(parseError("regions 5"), "line 1, column 9: expected a table name (a string), got an integer");
}

TEST(ShellServersParse, ServersAndSetServers) {
  parseAs<ServersCommand>("servers");
  EXPECT_EQ(parseAs<SetServersCommand>("set_servers 8").count, 8);
  EXPECT_EQ(parseAs<SetServersCommand>("set_servers 1000").count, 1000);
  EXPECT_EQ(parseError("set_servers 0"), "line 1, column 13: set_servers must be between 1 and 1000, got 0");
  EXPECT_EQ(parseError("set_servers 1001"), "line 1, column 13: set_servers must be between 1 and 1000, got 1001");
  EXPECT_EQ(parseError("set_servers '4'"), "line 1, column 13: set_servers: expected an integer, got a string");
  EXPECT_EQ(parseError("servers 't'"),
            "line 1, column 1: servers: wrong number of arguments (given 1, expected 0); usage: servers");
}

TEST(ShellSplitAttributesParse, MaxFileSizeAndSplitPolicyInCreateAndAlter) {
  auto create = parseAs<CreateCommand>("create 't', 'd', MAX_FILESIZE => 1048576, SPLIT_POLICY => 'constant'");
  EXPECT_EQ(create.table.maxFileSize, 1048576u);
  EXPECT_EQ(create.table.splitPolicy, SplitPolicy::kConstantSize);
  const std::pair<const char*, SplitPolicy> names[] = {
      {"'IncreasingToUpperBoundRegionSplitPolicy'", SplitPolicy::kIncreasingToUpperBound},
      {"'org.apache.hadoop.hbase.regionserver.ConstantSizeRegionSplitPolicy'", SplitPolicy::kConstantSize},
      {"'SteppingSplitPolicy'", SplitPolicy::kStepping},
      {"'disabled'", SplitPolicy::kDisabled},
  };
  for (const auto& [name, policy] : names) {
    EXPECT_EQ(parseAs<CreateCommand>(std::string("create 't', 'd', {SPLIT_POLICY => ") + name + "}").table.splitPolicy,
              policy)
        << name;
  }
  EXPECT_EQ(parseAs<CreateCommand>("create 't', 'd', MAX_FILESIZE => '65536'").table.maxFileSize, 65536u);

  auto alter = parseAs<AlterCommand>("alter 't', MAX_FILESIZE => 2097152, SPLIT_POLICY => 'stepping'");
  ASSERT_EQ(alter.steps.size(), 1u);
  EXPECT_EQ(alter.steps[0].attributes.maxFileSize, 2097152u);
  EXPECT_EQ(alter.steps[0].attributes.splitPolicy, SplitPolicy::kStepping);

  const TableOptions defaults;
  auto unsetSize = parseAs<AlterCommand>("alter 't', METHOD => 'table_att_unset', NAME => 'MAX_FILESIZE'");
  EXPECT_EQ(unsetSize.steps[0].attributes.maxFileSize, defaults.maxFileSize);
  auto unsetPolicy = parseAs<AlterCommand>("alter 't', METHOD => 'table_att_unset', NAME => 'SPLIT_POLICY'");
  EXPECT_EQ(unsetPolicy.steps[0].attributes.splitPolicy, defaults.splitPolicy);
}

TEST(ShellSplitAttributesParse, BadValuesAndPlacesSayWhy) {
  EXPECT_EQ(parseError("create 't', 'd', MAX_FILESIZE => 1000"),
            "line 1, column 34: MAX_FILESIZE must be at least 65536, got 1000");
  EXPECT_EQ(parseError("create 't', 'd', SPLIT_POLICY => 'KeyPrefixRegionSplitPolicy'"),
            "line 1, column 34: SPLIT_POLICY: expected IncreasingToUpperBoundRegionSplitPolicy, "
            "ConstantSizeRegionSplitPolicy, SteppingSplitPolicy or DisabledRegionSplitPolicy (optionally with the "
            "package org.apache.hadoop.hbase.regionserver.), or 'increasing', 'constant', 'stepping' or 'disabled'; "
            "got 'KeyPrefixRegionSplitPolicy'");
  EXPECT_EQ(parseError("create 't', {NAME => 'd', MAX_FILESIZE => 1048576}"),
            "line 1, column 27: MAX_FILESIZE is a table option: give it in a map of its own, without NAME");
  EXPECT_EQ(parseError("alter 't', METHOD => 'table_att_unset', NAME => 'SPLITS'"),
            "line 1, column 49: table_att_unset: expected MEMSTORE_FLUSHSIZE, MAX_FILESIZE, SPLIT_POLICY, KEY_SCHEMA, "
            "DESCRIPTION or EXAMPLES");
}

TEST(ShellRegionCommands, AreListedAmongTheCommands) {
  const std::vector<std::string>& names = commandNames();
  for (const char* name : {"split", "merge_region", "balancer", "balance_switch", "balancer_enabled", "regions",
                           "servers", "set_servers"}) {
    EXPECT_TRUE(std::find(names.begin(), names.end(), name) != names.end()) << name;
  }
}

}  // namespace
}  // namespace keyscope::shell
