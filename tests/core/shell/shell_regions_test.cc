// The region and server commands against a real workspace, in text and in
// JSON lines: split (a table or a region, at a row or the mid key),
// merge_region, balancer, balance_switch, balancer_enabled, regions (live and
// history), servers, set_servers, and MAX_FILESIZE / SPLIT_POLICY through
// create, alter and describe; errors say where, and change nothing.
#include <set>

#include "shell_test_util.h"

namespace keyscope::shell {
namespace {

using test::ShellFixture;

// A table 't' at clock 1000 with rows a ... h (one cell each).
void createEightRows(ShellFixture& sh) {
  sh.run("set_clock 1000\ncreate 't', 'd'");
  for (char row = 'a'; row <= 'h'; ++row) sh.run(std::string("put 't', '") + row + "', 'd:q', 'v', 1");
}

std::vector<RegionInfo> regionsOf(ShellFixture& sh, const std::string& table = "t") {
  Result<std::vector<RegionInfo>> regions = sh.ws().regions(table);
  EXPECT_TRUE(regions.isOk()) << regions.status().toString();
  return regions.isOk() ? *regions : std::vector<RegionInfo>{};
}

using Ranges = std::vector<std::pair<Bytes, Bytes>>;

Ranges rangesOf(ShellFixture& sh, const std::string& table = "t") {
  Ranges ranges;
  for (const RegionInfo& region : regionsOf(sh, table)) ranges.emplace_back(region.startRow, region.endRow);
  return ranges;
}

// --- split ----------------------------------------------------------------------

TEST(ShellSplit, ATableSplitsAtTheRowGiven) {
  ShellFixture sh;
  createEightRows(sh);
  const std::string out = sh.run("split 't', 'c'");
  const std::vector<RegionInfo> regions = regionsOf(sh);
  ASSERT_EQ(regions.size(), 2u);
  EXPECT_EQ(out, "Split into regions " + std::to_string(regions[0].id) + ", " + std::to_string(regions[1].id) + "\n");
  EXPECT_EQ(rangesOf(sh), (Ranges{{"", "c"}, {"c", ""}}));
  EXPECT_EQ(sh.run("count 't'"), "8 row(s)\n");
  EXPECT_EQ(sh.failures(), 0u);
}

TEST(ShellSplit, WithoutARowEveryRegionSplitsAtItsMidKey) {
  ShellFixture sh;
  createEightRows(sh);
  sh.run("split 't'");
  ASSERT_EQ(rangesOf(sh).size(), 2u);
  sh.run("split 't'");
  const Ranges ranges = rangesOf(sh);
  ASSERT_EQ(ranges.size(), 4u);  // each of the two halves split again
  EXPECT_EQ(ranges.front().first, "");
  EXPECT_EQ(ranges.back().second, "");
  for (size_t i = 0; i + 1 < ranges.size(); ++i) EXPECT_EQ(ranges[i].second, ranges[i + 1].first);
  EXPECT_EQ(sh.run("count 't'"), "8 row(s)\n");
  EXPECT_EQ(sh.failures(), 0u);
}

TEST(ShellSplit, ARegionIdNamesOneRegion) {
  ShellFixture sh;
  createEightRows(sh);
  sh.run("split 't', 'e'");
  const std::vector<RegionInfo> halves = regionsOf(sh);
  ASSERT_EQ(halves.size(), 2u);
  // The high half at 'g', named as a string; the low half at its mid key, named as a number.
  EXPECT_NE(sh.run("split '" + std::to_string(halves[1].id) + "', 'g'").find("Split into regions "), std::string::npos);
  EXPECT_EQ(rangesOf(sh), (Ranges{{"", "e"}, {"e", "g"}, {"g", ""}}));
  sh.run("split " + std::to_string(halves[0].id));
  const Ranges ranges = rangesOf(sh);
  ASSERT_EQ(ranges.size(), 4u);
  EXPECT_EQ(ranges[0].first, "");
  EXPECT_LT(Bytes(""), ranges[0].second);
  EXPECT_LT(ranges[0].second, Bytes("e"));
  EXPECT_EQ(ranges[1].second, "e");
  EXPECT_EQ(sh.failures(), 0u);
}

TEST(ShellSplit, ATableNamedLikeARegionIdIsTheTable) {
  ShellFixture sh;
  sh.run("create '1', 'd'\ncreate 't', 'd'");
  for (const char* row : {"a", "b", "c", "d"}) sh.run(std::string("put '1', '") + row + "', 'd:q', 'v'");
  for (const char* row : {"a", "b", "c", "d"}) sh.run(std::string("put 't', '") + row + "', 'd:q', 'v'");
  ASSERT_TRUE(sh.ws().regions("t").isOk());
  sh.run("split '1', 'c'");
  EXPECT_EQ(rangesOf(sh, "1"), (Ranges{{"", "c"}, {"c", ""}}));
  EXPECT_EQ(rangesOf(sh, "t"), (Ranges{{"", ""}}));
  EXPECT_EQ(sh.failures(), 0u);
}

TEST(ShellSplit, ErrorsSayWhereAndChangeNothing) {
  ShellFixture sh;
  sh.run("create 'empty', 'd'");
  createEightRows(sh);
  sh.run("split 't', 'e'");
  const std::vector<RegionInfo> before = regionsOf(sh);
  ASSERT_EQ(before.size(), 2u);
  const std::string high = std::to_string(before[1].id);
  EXPECT_EQ(sh.run("split 't', 'e'"),
            "ERROR: line 1, column 12: cannot split region " + high +
                " of table 't' at 'e': it is the region's start, so a daughter would be empty\n");
  const std::string low = std::to_string(before[0].id);
  EXPECT_EQ(sh.run("split '" + high + "', 'b'"),
            "ERROR: line 1, column " + std::to_string(11 + high.size()) + ": cannot split region " + high +
                " of table 't' at 'b': the row is not inside the region (rows 'e' to the end of the table)\n");
  EXPECT_EQ(sh.run("split " + low + ", 'f'"),
            "ERROR: line 1, column " + std::to_string(9 + low.size()) + ": cannot split region " + low +
                " of table 't' at 'f': the row is not inside the region (rows from the start of the table up to 'e')\n");
  EXPECT_EQ(sh.run("split 'nope'"), "ERROR: line 1, column 7: table 'nope' does not exist\n");
  EXPECT_EQ(sh.run("list\n  split '99999'"),
            "TABLE\nempty\nt\n2 row(s)\nERROR: line 2, column 9: no table or region is named '99999'\n");
  EXPECT_EQ(sh.run("split 'empty'"),
            "ERROR: line 1, column 7: no region of table 'empty' can split: each is empty or holds a single row\n");
  const std::string emptyRegion = std::to_string(regionsOf(sh, "empty").at(0).id);
  EXPECT_EQ(sh.run("split " + emptyRegion),
            "ERROR: line 1, column 7: region " + emptyRegion + " of table 'empty' cannot split: it holds no data\n");
  EXPECT_EQ(sh.run("disable 't'\nsplit 't'"),
            "ERROR: line 2, column 7: table 't' is disabled (enable 't' first)\n");
  EXPECT_EQ(sh.run("split '" + high + "'"),
            "ERROR: line 1, column 7: table 't' is disabled (enable 't' first)\n");
  EXPECT_EQ(sh.failures(), 9u);
  const std::vector<RegionInfo> after = regionsOf(sh);
  ASSERT_EQ(after.size(), before.size());
  for (size_t i = 0; i < after.size(); ++i) EXPECT_EQ(after[i].id, before[i].id);
}

TEST(ShellSplit, JsonNamesTheDaughters) {
  ShellFixture sh(ShellFormat::kJsonl);
  createEightRows(sh);
  const std::string answer = sh.run("split 't', 'c'");
  const std::vector<RegionInfo> regions = regionsOf(sh);
  ASSERT_EQ(regions.size(), 2u);
  EXPECT_EQ(answer, "{\"cmd\":\"split\",\"daughters\":[" + std::to_string(regions[0].id) + "," +
                        std::to_string(regions[1].id) + "]}\n");
  EXPECT_EQ(sh.run("split 't', 'c'"),
            "{\"cmd\":\"split\",\"error\":\"line 1, column 12: cannot split region " + std::to_string(regions[1].id) +
                " of table 't' at 'c': it is the region's start, so a daughter would be empty\"}\n");
}

// --- merge_region -------------------------------------------------------------------

TEST(ShellMergeRegion, AdjacentRegionsMergeInEitherOrder) {
  ShellFixture sh;
  createEightRows(sh);
  sh.run("split 't', 'c'\nsplit 't', 'f'");
  std::vector<RegionInfo> regions = regionsOf(sh);
  ASSERT_EQ(regions.size(), 3u);
  const std::string out = sh.run("merge_region '" + std::to_string(regions[2].id) + "', '" +
                                 std::to_string(regions[1].id) + "'");
  std::vector<RegionInfo> merged = regionsOf(sh);
  ASSERT_EQ(merged.size(), 2u);
  EXPECT_EQ(out, "Merged into region " + std::to_string(merged[1].id) + "\n");
  EXPECT_EQ(rangesOf(sh), (Ranges{{"", "c"}, {"c", ""}}));
  sh.run("merge_region " + std::to_string(merged[0].id) + ", " + std::to_string(merged[1].id) + ", true");
  EXPECT_EQ(rangesOf(sh), (Ranges{{"", ""}}));
  EXPECT_EQ(sh.run("count 't'"), "8 row(s)\n");
  EXPECT_EQ(sh.failures(), 0u);
}

TEST(ShellMergeRegion, ErrorsSayWhereAndChangeNothing) {
  ShellFixture sh;
  createEightRows(sh);
  sh.run("create 'u', 'd'\nsplit 't', 'c'\nsplit 't', 'f'");
  const std::vector<RegionInfo> regions = regionsOf(sh);
  ASSERT_EQ(regions.size(), 3u);
  const std::string a = std::to_string(regions[0].id), c = std::to_string(regions[2].id);
  const std::string other = std::to_string(regionsOf(sh, "u").at(0).id);
  const std::string column = std::to_string(18 + a.size());  // of the second id
  EXPECT_EQ(sh.run("merge_region '" + a + "', '" + c + "', true"),
            "ERROR: line 1, column " + column + ": regions " + a + " and " + c + " are not adjacent\n");
  EXPECT_EQ(sh.run("merge_region '" + a + "', '99999'"),
            "ERROR: line 1, column " + column + ": region 99999 does not exist\n");
  EXPECT_EQ(sh.run("merge_region '99999', '" + a + "'"), "ERROR: line 1, column 14: region 99999 does not exist\n");
  EXPECT_EQ(sh.run("merge_region '" + a + "', '" + other + "'"),
            "ERROR: line 1, column " + column + ": region " + other + " belongs to table 'u', region " + a +
                " to 't': only regions of one table merge\n");
  EXPECT_EQ(sh.run("disable 't'\nmerge_region '" + a + "', '" + std::to_string(regions[1].id) + "'"),
            "ERROR: line 2, column 14: table 't' is disabled (enable 't' first)\n");
  EXPECT_EQ(sh.failures(), 5u);
  EXPECT_EQ(regionsOf(sh).size(), 3u);
}

TEST(ShellMergeRegion, JsonNamesTheMergedRegion) {
  ShellFixture sh(ShellFormat::kJsonl);
  createEightRows(sh);
  sh.run("split 't', 'c'");
  const std::vector<RegionInfo> regions = regionsOf(sh);
  ASSERT_EQ(regions.size(), 2u);
  const std::string answer =
      sh.run("merge_region '" + std::to_string(regions[0].id) + "', '" + std::to_string(regions[1].id) + "'");
  EXPECT_EQ(answer, "{\"cmd\":\"merge_region\",\"region\":" + std::to_string(regionsOf(sh).at(0).id) + "}\n");
}

// --- the balancer and servers ------------------------------------------------------

// Four regions of 't', all on the server its first region was given, with
// the balancer switched off so that nothing evens them out.
void fourRegionsOnOneServer(ShellFixture& sh) {
  sh.run("balance_switch false");
  createEightRows(sh);
  sh.run("split 't'\nsplit 't'");
  const std::vector<RegionInfo> regions = regionsOf(sh);
  ASSERT_EQ(regions.size(), 4u);
  for (const RegionInfo& region : regions) ASSERT_EQ(region.server, regions[0].server);
}

TEST(ShellBalancer, ASwitchedOffBalancerDoesNotRun) {
  ShellFixture sh;
  fourRegionsOnOneServer(sh);
  EXPECT_EQ(sh.run("balancer"), "false\nthe balancer is off (balance_switch true turns it on)\n");
  EXPECT_EQ(sh.run("balancer_enabled"), "false\n");
  std::set<int32_t> servers;
  for (const RegionInfo& region : regionsOf(sh)) servers.insert(region.server);
  EXPECT_EQ(servers.size(), 1u);
}

TEST(ShellBalancer, RunningItEvensOutRegionCounts) {
  ShellFixture sh;
  fourRegionsOnOneServer(sh);
  EXPECT_EQ(sh.run("balance_switch true"), "Previous balancer state : false\n");
  EXPECT_EQ(sh.run("balance_switch true"), "Previous balancer state : true\n");
  EXPECT_EQ(sh.run("balancer_enabled"), "true\n");
  EXPECT_EQ(sh.run("balancer 'force'"), "true\n3 region(s) moved\n");  // 4 servers, 4 regions: one each
  std::set<int32_t> servers;
  for (const RegionInfo& region : regionsOf(sh)) servers.insert(region.server);
  EXPECT_EQ(servers, (std::set<int32_t>{0, 1, 2, 3}));
  EXPECT_EQ(sh.run("balancer"), "true\n0 region(s) moved\n");
  EXPECT_EQ(sh.failures(), 0u);
}

TEST(ShellBalancer, JsonSaysWhetherItRanAndHowManyMoved) {
  ShellFixture sh(ShellFormat::kJsonl);
  fourRegionsOnOneServer(sh);
  EXPECT_EQ(sh.run("balancer"), "{\"cmd\":\"balancer\",\"result\":false,\"moved\":0}\n");
  EXPECT_EQ(sh.run("balancer_enabled"), "{\"cmd\":\"balancer_enabled\",\"result\":false}\n");
  EXPECT_EQ(sh.run("balance_switch true"), "{\"cmd\":\"balance_switch\",\"previous\":false}\n");
  EXPECT_EQ(sh.run("balancer"), "{\"cmd\":\"balancer\",\"result\":true,\"moved\":3}\n");
}

TEST(ShellServers, ListsEachServerWithItsRegionsAndLoad) {
  ShellFixture sh;
  fourRegionsOnOneServer(sh);
  const int32_t first = regionsOf(sh).at(0).server;  // took the eight puts before the splits
  sh.run("balance_switch true\nbalancer\nget 't', 'a'\nget 't', 'h'\nput 't', 'a', 'd:q', 'w', 2");
  const std::vector<RegionInfo> regions = regionsOf(sh);
  ASSERT_EQ(regions.size(), 4u);
  const int32_t low = regions.front().server, high = regions.back().server;
  std::string expected = "SERVER  REGIONS, READS, WRITES\n";
  for (int32_t server = 0; server < 4; ++server) {
    const int reads = (server == low) + (server == high);
    const int writes = 8 * (server == first) + (server == low);
    expected += " " + std::to_string(server) + " regions=1, reads=" + std::to_string(reads) +
                ", writes=" + std::to_string(writes) + "\n";
  }
  EXPECT_EQ(sh.run("servers"), expected + "4 row(s)\n");
  EXPECT_EQ(sh.failures(), 0u);
}

TEST(ShellServers, JsonHasOneObjectPerServer) {
  ShellFixture sh(ShellFormat::kJsonl);
  sh.run("set_servers 2\ncreate 't', 'd', SPLITS => ['m']\nput 't', 'a', 'd:q', 'v', 1");
  const int32_t low = regionsOf(sh).at(0).server;
  EXPECT_EQ(sh.run("servers"), std::string("{\"cmd\":\"servers\",\"servers\":[") +
                                   "{\"server\":0,\"regions\":1,\"reads\":0,\"writes\":" + (low == 0 ? "1" : "0") + "}," +
                                   "{\"server\":1,\"regions\":1,\"reads\":0,\"writes\":" + (low == 1 ? "1" : "0") + "}]}\n");
}

TEST(ShellServers, SetServersMovesRegionsOntoTheServersLeft) {
  ShellFixture sh;
  fourRegionsOnOneServer(sh);
  sh.run("balance_switch true\nbalancer");
  EXPECT_EQ(sh.run("set_servers 2"), "");
  EXPECT_EQ(sh.ws().serverCount(), 2);
  for (const RegionInfo& region : regionsOf(sh)) EXPECT_LT(region.server, 2);
  const std::string out = sh.run("servers");
  EXPECT_NE(out.find("\n 0 regions=2, "), std::string::npos) << out;
  EXPECT_NE(out.find("\n 1 regions=2, "), std::string::npos) << out;
  EXPECT_EQ(out.substr(out.size() - 9), "2 row(s)\n");
  EXPECT_EQ(sh.run("set_servers 1001"), "ERROR: line 1, column 13: set_servers must be between 1 and 1000, got 1001\n");
  EXPECT_EQ(sh.ws().serverCount(), 2);
  EXPECT_EQ(sh.failures(), 1u);
}

// --- regions ----------------------------------------------------------------------

TEST(ShellRegions, TextListsServerCreatedAndLoad) {
  ShellFixture sh;
  sh.run("set_clock 5000\ncreate 't', 'd', SPLITS => ['m']\n"
         "put 't', 'a', 'd:q', 'v', 1\nput 't', 'b', 'd:q', 'v', 1\nput 't', 'x', 'd:q', 'v', 1\n"
         "get 't', 'a'\nscan 't'");
  const std::vector<RegionInfo> regions = regionsOf(sh);
  ASSERT_EQ(regions.size(), 2u);
  const std::string out = sh.run("regions 't'");
  EXPECT_EQ(out.substr(0, out.find('\n') + 1),
            "REGION  START_ROW, END_ROW, SERVER, CREATED, STORE_FILES, CELLS, MEMSTORE_BYTES, STORED_BYTES, RAW_BYTES, "
            "READS, WRITES\n");
  // The get and the scan's two rows read the low region; the scan's one row the high one.
  EXPECT_NE(out.find("\n " + std::to_string(regions[0].id) + " start_row=, end_row=m, server=" +
                     std::to_string(regions[0].server) + ", created=5000, store_files=0, cells=0, memstore_bytes=" +
                     std::to_string(regions[0].memstoreBytes) + ", stored_bytes=0, raw_bytes=0, reads=3, writes=2\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("\n " + std::to_string(regions[1].id) + " start_row=m, end_row=, server=" +
                     std::to_string(regions[1].server) + ", created=5000, store_files=0, cells=0, memstore_bytes=" +
                     std::to_string(regions[1].memstoreBytes) + ", stored_bytes=0, raw_bytes=0, reads=1, writes=1\n"),
            std::string::npos)
      << out;
  EXPECT_NE(regions[0].server, regions[1].server);  // round robin at create
  EXPECT_EQ(out.substr(out.size() - 9), "2 row(s)\n");
}

TEST(ShellRegions, JsonHasOneObjectPerRegion) {
  ShellFixture sh(ShellFormat::kJsonl);
  sh.run("set_clock 5000\ncreate 't', 'd', SPLITS => [\"\\x00m\"]\nput 't', 'a', 'd:q', 'v', 1\nflush 't'");
  const std::vector<RegionInfo> regions = regionsOf(sh);
  ASSERT_EQ(regions.size(), 2u);
  auto regionJson = [](const RegionInfo& r, const std::string& start, const std::string& end, int writes) {
    return "{\"id\":" + std::to_string(r.id) + ",\"start_row\":\"" + start + "\",\"end_row\":\"" + end +
           "\",\"server\":" + std::to_string(r.server) + ",\"created\":5000,\"memstore_bytes\":" +
           std::to_string(r.memstoreBytes) + ",\"store_files\":" + std::to_string(r.storeFiles) +
           ",\"stored_bytes\":" + std::to_string(r.storedBytes) + ",\"raw_bytes\":" + std::to_string(r.rawBytes) +
           ",\"cells\":" + std::to_string(r.cells) + ",\"reads\":0,\"writes\":" + std::to_string(writes) + "}";
  };
  EXPECT_EQ(regions[1].storeFiles, 1u);
  EXPECT_EQ(regions[1].cells, 1u);
  EXPECT_EQ(sh.run("regions 't'"), "{\"cmd\":\"regions\",\"regions\":[" + regionJson(regions[0], "", "\\\\x00m", 0) + "," +
                                       regionJson(regions[1], "\\\\x00m", "", 1) + "]}\n");
}

// In key order (by start row), then by when each region was made.
TEST(ShellRegions, HistoryListsTheLineage) {
  ShellFixture sh;
  createEightRows(sh);
  const int64_t first = regionsOf(sh).at(0).id;
  sh.run("set_clock 2000\nsplit 't', 'e'");
  const std::vector<RegionInfo> halves = regionsOf(sh);
  sh.run("set_clock 3000\nmerge_region " + std::to_string(halves[0].id) + ", " + std::to_string(halves[1].id));
  const int64_t merged = regionsOf(sh).at(0).id;
  const std::string l = std::to_string(halves[0].id), h = std::to_string(halves[1].id);
  EXPECT_EQ(sh.run("regions 't', {HISTORY => true}"),
            "REGION  START_ROW, END_ROW, CREATED, RETIRED, PARENTS, ORIGIN, SPLIT_ROW\n"
            " " + std::to_string(first) + " start_row=, end_row=, created=1000, retired=2000, parents=, origin=create, split_row=\n"
            " " + l + " start_row=, end_row=e, created=2000, retired=3000, parents=" + std::to_string(first) +
                ", origin=manual split, split_row=e\n"
            " " + std::to_string(merged) + " start_row=, end_row=, created=3000, retired=, parents=" + l + " " + h +
                ", origin=merge, split_row=\n"
            " " + h + " start_row=e, end_row=, created=2000, retired=3000, parents=" + std::to_string(first) +
                ", origin=manual split, split_row=e\n"
            "4 row(s)\n");
  EXPECT_EQ(sh.failures(), 0u);
}

TEST(ShellRegions, HistoryJsonHasNullsWhereNothingHappened) {
  ShellFixture sh(ShellFormat::kJsonl);
  createEightRows(sh);
  const int64_t first = regionsOf(sh).at(0).id;
  sh.run("set_clock 2000\nsplit 't', \"\\xff\"");
  const std::vector<RegionInfo> halves = regionsOf(sh);
  const std::string f = std::to_string(first), l = std::to_string(halves[0].id), h = std::to_string(halves[1].id);
  EXPECT_EQ(sh.run("regions 't', HISTORY => true"),
            "{\"cmd\":\"regions\",\"history\":["
            "{\"id\":" + f + ",\"start_row\":\"\",\"end_row\":\"\",\"created\":1000,\"retired\":2000,"
            "\"parents\":[],\"origin\":\"create\",\"split_row\":null},"
            "{\"id\":" + l + ",\"start_row\":\"\",\"end_row\":\"\\\\xFF\",\"created\":2000,"
            "\"retired\":null,\"parents\":[" + f + "],\"origin\":\"manual split\",\"split_row\":\"\\\\xFF\"},"
            "{\"id\":" + h + ",\"start_row\":\"\\\\xFF\",\"end_row\":\"\",\"created\":2000,"
            "\"retired\":null,\"parents\":[" + f + "],\"origin\":\"manual split\",\"split_row\":\"\\\\xFF\"}"
            "]}\n");
}

TEST(ShellRegions, OfATableThatDoesNotExistIsAnError) {
  ShellFixture sh;
  EXPECT_EQ(sh.run("regions 'nope'"), "ERROR: line 1: table 'nope' does not exist\n");
  EXPECT_EQ(sh.run("regions 'nope', {HISTORY => true}"), "ERROR: line 1: table 'nope' does not exist\n");
}

// --- MAX_FILESIZE and SPLIT_POLICY ----------------------------------------------------

TEST(ShellSplitAttributes, CreateAlterAndUnsetReachTheTable) {
  ShellFixture sh;
  sh.run("create 't', 'd', MAX_FILESIZE => 1048576, SPLIT_POLICY => 'org.apache.hadoop.hbase.regionserver."
         "ConstantSizeRegionSplitPolicy'");
  Result<TableOptions> t = sh.ws().describeTable("t");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->maxFileSize, 1048576u);
  EXPECT_EQ(t->splitPolicy, SplitPolicy::kConstantSize);
  EXPECT_EQ(sh.run("describe 't'").substr(0, 129),
            "Table t is ENABLED\n"
            "t, {TABLE_ATTRIBUTES => {MAX_FILESIZE => '1048576', SPLIT_POLICY => 'ConstantSizeRegionSplitPolicy'}}\n"
            "COLUMN F");
  sh.run("alter 't', SPLIT_POLICY => 'disabled'");
  EXPECT_EQ(sh.ws().describeTable("t")->splitPolicy, SplitPolicy::kDisabled);
  EXPECT_EQ(sh.ws().describeTable("t")->maxFileSize, 1048576u);
  sh.run("alter 't', METHOD => 'table_att_unset', NAME => 'MAX_FILESIZE'\n"
         "alter 't', METHOD => 'table_att_unset', NAME => 'SPLIT_POLICY'");
  const TableOptions defaults;
  EXPECT_EQ(sh.ws().describeTable("t")->maxFileSize, defaults.maxFileSize);
  EXPECT_EQ(sh.ws().describeTable("t")->splitPolicy, defaults.splitPolicy);
  EXPECT_EQ(sh.run("describe 't'").substr(0, 22), "Table t is ENABLED\nt\nC");  // the defaults are not shown
  EXPECT_EQ(sh.failures(), 0u);
}

TEST(ShellSplitAttributes, JsonDescribeAlwaysShowsThem) {
  ShellFixture sh(ShellFormat::kJsonl);
  sh.run("create 't', 'd', {MAX_FILESIZE => 131072, SPLIT_POLICY => 'SteppingSplitPolicy'}\ncreate 'u', 'd'");
  const std::string t = sh.run("describe 't'");
  EXPECT_NE(t.find(",\"memstore_flushsize\":16777216,\"max_filesize\":131072,\"split_policy\":\"SteppingSplitPolicy\","),
            std::string::npos)
      << t;
  const std::string u = sh.run("describe 'u'");
  EXPECT_NE(u.find(",\"max_filesize\":67108864,\"split_policy\":\"IncreasingToUpperBoundRegionSplitPolicy\","),
            std::string::npos)
      << u;
}

}  // namespace
}  // namespace keyscope::shell
