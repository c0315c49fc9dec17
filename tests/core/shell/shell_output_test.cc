// The shell's other outputs: JSON lines exactly as DESIGN.md specifies them,
// describe, list, exists and regions text, and positioned errors at run time.
#include "shell_test_util.h"

namespace keyscope::shell {
namespace {

using test::ShellFixture;

TEST(ShellJsonl, OneObjectPerCommandAsDesignSpecifies) {
  ShellFixture sh(ShellFormat::kJsonl);
  EXPECT_EQ(sh.run("create 't', {NAME => 'd', VERSIONS => 2}"), "{\"cmd\":\"create\",\"ok\":true}\n");
  EXPECT_EQ(sh.run("put 't', \"r\\x00\", 'd:q', \"v\\xff\\\\\", 5; put 't', 'r2', 'd:q', 'w', 6"),
            "{\"cmd\":\"put\",\"ok\":true}\n{\"cmd\":\"put\",\"ok\":true}\n");
  EXPECT_EQ(sh.run("scan 't'"),
            "{\"cmd\":\"scan\",\"cells\":["
            "{\"row\":\"r\\\\x00\",\"family\":\"d\",\"qualifier\":\"q\",\"timestamp\":5,\"type\":\"Put\",\"value\":\"v\\\\xFF\\\\x5C\"},"
            "{\"row\":\"r2\",\"family\":\"d\",\"qualifier\":\"q\",\"timestamp\":6,\"type\":\"Put\",\"value\":\"w\"}]}\n");
  EXPECT_EQ(sh.run("get 't', 'r2'"),
            "{\"cmd\":\"get\",\"cells\":[{\"row\":\"r2\",\"family\":\"d\",\"qualifier\":\"q\",\"timestamp\":6,\"type\":\"Put\","
            "\"value\":\"w\"}]}\n");
  EXPECT_EQ(sh.run("get 't', 'none'"), "{\"cmd\":\"get\",\"cells\":[]}\n");
  EXPECT_EQ(sh.run("count 't'"), "{\"cmd\":\"count\",\"rows\":2}\n");
  EXPECT_EQ(sh.run("incr 't', 'c', 'd:n', 7"), "{\"cmd\":\"incr\",\"value\":7}\n");
  EXPECT_EQ(sh.run("get_counter 't', 'c', 'd:n'"), "{\"cmd\":\"get_counter\",\"value\":7}\n");
  EXPECT_EQ(sh.run("get_counter 't', 'c', 'd:none'"), "{\"cmd\":\"get_counter\",\"value\":null}\n");
  EXPECT_EQ(sh.run("list"), "{\"cmd\":\"list\",\"tables\":[\"t\"]}\n");
  EXPECT_EQ(sh.run("exists 't'"), "{\"cmd\":\"exists\",\"result\":true}\n");
  EXPECT_EQ(sh.run("is_disabled 't'"), "{\"cmd\":\"is_disabled\",\"result\":false}\n");
  EXPECT_EQ(sh.run("desc 't'"),
            "{\"cmd\":\"describe\",\"table\":{\"table\":\"t\",\"families\":[{\"name\":\"d\",\"versions\":2,\"min_versions\":0,"
            "\"ttl\":2147483647,\"keep_deleted_cells\":\"FALSE\",\"compression\":\"NONE\",\"bloomfilter\":\"ROW\","
            "\"blocksize\":65536}],\"memstore_flushsize\":16777216,\"max_filesize\":67108864,"
            "\"split_policy\":\"IncreasingToUpperBoundRegionSplitPolicy\",\"key_schema\":\"\",\"description\":\"\","
            "\"examples\":[]},"
            "\"enabled\":true}\n");
  EXPECT_EQ(sh.run("key_schema 't', 'id:u32'\nkey_schema 't'"),
            "{\"cmd\":\"key_schema\",\"ok\":true}\n{\"cmd\":\"key_schema\",\"key_schema\":\"id:u32\"}\n");
  EXPECT_EQ(sh.failures(), 0u);
}

TEST(ShellJsonl, ErrorsNameTheCommandAndWhere) {
  ShellFixture sh(ShellFormat::kJsonl);
  EXPECT_EQ(sh.run("list\nscan 'missing'\nsacn 't'\n'just a string'\ncreate 'u', {NAME => 'f', VERSIONS 3}"),
            "{\"cmd\":\"list\",\"tables\":[]}\n"
            "{\"cmd\":\"scan\",\"error\":\"line 2: table 'missing' does not exist\"}\n"
            "{\"cmd\":\"sacn\",\"error\":\"line 3, column 1: unknown command 'sacn' (did you mean scan?) (help lists the "
            "commands)\"}\n"
            "{\"cmd\":null,\"error\":\"line 4, column 1: expected a command name, got the string 'just a string'\"}\n"
            "{\"cmd\":\"create\",\"error\":\"line 5, column 36: expected '=>' after 'VERSIONS', got the number 3\"}\n");
  EXPECT_EQ(sh.failures(), 4u);
}

TEST(ShellJsonl, FormattersAndTheReadReport) {
  ShellFixture sh(ShellFormat::kJsonl);
  sh.run("create 't', 'd'\nput 't', 'r', 'd:n', Bytes.toBytes(300), 1");
  EXPECT_EQ(sh.run("get 't', 'r', 'd:n:toLong'"),
            "{\"cmd\":\"get\",\"cells\":[{\"row\":\"r\",\"family\":\"d\",\"qualifier\":\"n\",\"timestamp\":1,\"type\":\"Put\","
            "\"value\":\"300\"}]}\n");
  const std::string withReport = sh.run("scan 't', {ALL_METRICS => true}");
  EXPECT_NE(withReport.find("\"report\":{\"regions_visited\":1,"), std::string::npos) << withReport;
  EXPECT_NE(withReport.find("\"cells_returned\":1,\"rows_returned\":1,"), std::string::npos) << withReport;
}

TEST(ShellText, DescribeListExistsRegionsHelp) {
  ShellFixture sh;
  sh.run("create 't', {NAME => 'd', VERSIONS => 3, TTL => 90061, COMPRESSION => 'ZSTD', BLOOMFILTER => 'ROWCOL'},"
         " 'e', SPLITS => ['m'], DESCRIPTION => \"it's\"\n"
         "create 'other', 'f'");
  EXPECT_EQ(sh.run("describe 't'"),
            "Table t is ENABLED\n"
            "t, {TABLE_ATTRIBUTES => {DESCRIPTION => 'it\\'s'}}\n"
            "COLUMN FAMILIES DESCRIPTION\n"
            "{NAME => 'd', BLOOMFILTER => 'ROWCOL', VERSIONS => '3', KEEP_DELETED_CELLS => 'FALSE', COMPRESSION => 'ZSTD', "
            "TTL => '90061 SECONDS (1 DAY 1 HOUR 1 MINUTE 1 SECOND)', MIN_VERSIONS => '0', BLOCKSIZE => '65536'}\n"
            "\n"
            "{NAME => 'e', BLOOMFILTER => 'ROW', VERSIONS => '1', KEEP_DELETED_CELLS => 'FALSE', COMPRESSION => 'NONE', "
            "TTL => 'FOREVER', MIN_VERSIONS => '0', BLOCKSIZE => '65536'}\n"
            "\n"
            "2 row(s)\n");
  EXPECT_EQ(sh.run("list"), "TABLE\nother\nt\n2 row(s)\n");
  EXPECT_EQ(sh.run("list 'o.*'"), "TABLE\nother\n1 row(s)\n");
  EXPECT_EQ(sh.run("list 'o'"), "TABLE\n0 row(s)\n");  // the whole name must match
  EXPECT_EQ(sh.run("exists 't'\nexists 'x'"), "Table t does exist\nTable x does not exist\n");
  sh.run("put 't', 'a', 'd:q', 'v'\nput 't', 'z', 'd:q', 'v'");
  const std::string regions = sh.run("regions 't'");
  EXPECT_EQ(regions.substr(0, regions.find('\n')),
            "REGION  START_ROW, END_ROW, SERVER, CREATED, STORE_FILES, CELLS, MEMSTORE_BYTES, STORED_BYTES, RAW_BYTES, "
            "READS, WRITES");
  EXPECT_NE(regions.find(" start_row=, end_row=m, server="), std::string::npos) << regions;
  EXPECT_NE(regions.find(", store_files=0, cells=0, memstore_bytes="), std::string::npos) << regions;
  EXPECT_NE(regions.find(" start_row=m, end_row=, server="), std::string::npos) << regions;
  EXPECT_EQ(regions.substr(regions.size() - 9), "2 row(s)\n");
  const std::string help = sh.run("help");
  EXPECT_EQ(help.substr(0, 9), "Commands ");
  for (const char* command : {"split 'REGION'", "merge_region", "balancer", "balance_switch", "balancer_enabled",
                              "HISTORY", "servers", "set_servers"})
    EXPECT_NE(help.find(command), std::string::npos) << command;
}

TEST(ShellText, ExitStopsTheRest) {
  ShellFixture sh;
  EXPECT_EQ(sh.run("list\nexit\nlist"), "TABLE\n0 row(s)\n");
  EXPECT_TRUE(sh.shell().exitRequested());
}

TEST(ShellText, OneBadStatementDoesNotStopTheNext) {
  ShellFixture sh;
  EXPECT_EQ(sh.run("create 't', 'd'\n"
                   "put 't', 'r', [1,\n  2}, 'v'\n"
                   "put 't', 'r', 'd:q', 'ok', 1; get 't', 'r'"),
            "Created table t\n"
            "ERROR: line 3, column 4: expected ',' or ']' to close the '[' at line 2, column 15, got '}'\n"
            "COLUMN  CELL\n d:q timestamp=1, value=ok\n1 row(s)\n");
}

TEST(ShellText, FilterErrorsPointIntoTheScript) {
  ShellFixture sh;
  sh.run("create 't', 'd'");
  // Line 2 holds the filter; "\x41" is four characters of source for one byte.
  EXPECT_EQ(sh.run("scan 't', {\n  FILTER => \"PrefixFilter ('\\x41') AND ValueFilter (=, 'binary:x'\"}"),
            "ERROR: line 2, column 66: FILTER: expected ',' or ')' after argument 2 of ValueFilter, got the end of the "
            "filter\n");
  EXPECT_EQ(sh.run("scan 't', {FILTER => \"NoSuchFilter ('a')\"}"),
            "ERROR: line 1, column 23: FILTER: unknown filter 'NoSuchFilter'\n");
  EXPECT_EQ(sh.run("scan 't', {FILTER => \"PrefixFilter ('a', 'b')\"}"),
            "ERROR: line 1, column 45: FILTER: PrefixFilter takes 1 argument ('prefix'), got 2 arguments\n");
}

TEST(ShellText, ColumnsCountCharactersNotBytes) {
  ShellFixture sh;
  EXPECT_EQ(sh.run("put 'täble', 'r', 'f:q', oops"),
            "ERROR: line 1, column 26: unknown name 'oops': quote strings ('oops'); variables are not supported\n");
}

}  // namespace
}  // namespace keyscope::shell
