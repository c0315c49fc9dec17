// The shell against a real workspace file: what each command does and prints
// (the HBase shell's text layout), HBase's semantics through the shell, and
// that a failed command changes nothing.
#include "shell_test_util.h"

namespace keyscope::shell {
namespace {

using test::ShellFixture;

TEST(ShellSession, CreatePutScanGetInHBasesLayout) {
  ShellFixture sh;
  EXPECT_EQ(sh.run("create 't', {NAME => 'd', VERSIONS => 3}"), "Created table t\n");
  EXPECT_EQ(sh.run("put 't', 'r1', 'd:a', 'x', 5\n"
                   "put 't', 'r1', 'd:b', 'y', 6\n"
                   "put 't', \"r\\x002\", 'd:a', \"\\xff\", 7\n"),
            "");
  EXPECT_EQ(sh.run("scan 't'"),
            "ROW  COLUMN+CELL\n"
            " r\\x002 column=d:a, timestamp=7, value=\\xFF\n"
            " r1 column=d:a, timestamp=5, value=x\n"
            " r1 column=d:b, timestamp=6, value=y\n"
            "2 row(s)\n");
  EXPECT_EQ(sh.run("get 't', 'r1'"),
            "COLUMN  CELL\n"
            " d:a timestamp=5, value=x\n"
            " d:b timestamp=6, value=y\n"
            "1 row(s)\n");
  EXPECT_EQ(sh.run("get 't', 'nope'"), "COLUMN  CELL\n0 row(s)\n");
  EXPECT_EQ(sh.run("count 't'"), "2 row(s)\n");
  EXPECT_EQ(sh.failures(), 0u);
}

TEST(ShellSession, ScanOptionsReachTheEngine) {
  ShellFixture sh;
  sh.run("create 't', {NAME => 'd', VERSIONS => 5}\n"
         "put 't', 'a1', 'd:q', 'v1', 1\n"
         "put 't', 'a2', 'd:q', 'v2', 2\n"
         "put 't', 'b1', 'd:q', 'v3', 3\n"
         "put 't', 'b1', 'd:q', 'v4', 4\n");
  EXPECT_EQ(sh.run("scan 't', {ROWPREFIXFILTER => 'a', REVERSED => true}"),
            "ROW  COLUMN+CELL\n a2 column=d:q, timestamp=2, value=v2\n a1 column=d:q, timestamp=1, value=v1\n2 row(s)\n");
  EXPECT_EQ(sh.run("scan 't', {STARTROW => 'a2', STOPROW => 'b1'}"),
            "ROW  COLUMN+CELL\n a2 column=d:q, timestamp=2, value=v2\n1 row(s)\n");
  EXPECT_EQ(sh.run("scan 't', {STARTROW => 'a2', STOPROW => 'a2'}"),
            "ROW  COLUMN+CELL\n a2 column=d:q, timestamp=2, value=v2\n1 row(s)\n");
  EXPECT_EQ(sh.run("scan 't', {LIMIT => 1, STARTROW => 'a2'}"),
            "ROW  COLUMN+CELL\n a2 column=d:q, timestamp=2, value=v2\n1 row(s)\n");
  EXPECT_EQ(sh.run("scan 't', {VERSIONS => 2, ROWPREFIXFILTER => 'b'}"),
            "ROW  COLUMN+CELL\n b1 column=d:q, timestamp=4, value=v4\n b1 column=d:q, timestamp=3, value=v3\n1 row(s)\n");
  EXPECT_EQ(sh.run("scan 't', {FILTER => \"ValueFilter (=, 'binary:v3')\", VERSIONS => 2}"),
            "ROW  COLUMN+CELL\n b1 column=d:q, timestamp=3, value=v3\n1 row(s)\n");
  EXPECT_EQ(sh.run("scan 't', {TIMERANGE => [2, 4], MAXLENGTH => 15}"),
            "ROW  COLUMN+CELL\n a2 column=d:q, timestamp=2, va\n b1 column=d:q, timestamp=3, va\n2 row(s)\n");
  EXPECT_EQ(sh.run("count 't', {FILTER => \"PrefixFilter ('a')\"}"), "2 row(s)\n");
  EXPECT_EQ(sh.failures(), 0u);
}

TEST(ShellSession, FormattersShowTypedValues) {
  ShellFixture sh;
  sh.run("set_clock 1000\n"
         "create 't', 'd'\n"
         "put 't', 'r', 'd:n', Bytes.toBytes(-42)\n"
         "put 't', 'r', 'd:s', 'caf\\u00e9'\n"
         "put 't', 'r', 'd:x', \"caf\\u00e9\"\n"
         "put 't', 'r', 'd:short', \"\\x01\"\n");
  EXPECT_EQ(sh.run("get 't', 'r', {COLUMNS => ['d:n:toLong', 'd:s', 'd:short:toLong', 'd:x:toString']}"),
            "COLUMN  CELL\n"
            " d:n timestamp=1000, value=-42\n"
            " d:s timestamp=1000, value=caf\\x5Cu00e9\n"  // a raw backslash: toStringBinary escapes it
            " d:short timestamp=1000, value=\\x01\n"  // too short for a long: shown as toStringBinary
            " d:x timestamp=1000, value=caf\xc3\xa9\n"
            "1 row(s)\n");
  EXPECT_EQ(sh.run("scan 't', {FORMATTER => 'toHex', COLUMNS => ['d:n', 'd:short']}"),
            "ROW  COLUMN+CELL\n"
            " r column=d:n, timestamp=1000, value=ffffffffffffffd6\n"
            " r column=d:short, timestamp=1000, value=01\n"
            "1 row(s)\n");
  EXPECT_EQ(sh.failures(), 0u);
}

TEST(ShellSession, DisabledTablesAreASessionStateAsHBaseShows) {
  ShellFixture sh;
  sh.run("create 't', 'd'\nput 't', 'r', 'd:q', 'v', 1");
  EXPECT_EQ(sh.run("drop 't'"), "ERROR: line 1: Table t is enabled. Disable it first.\n");
  EXPECT_EQ(sh.run("is_enabled 't'"), "true\n");
  EXPECT_EQ(sh.run("disable 't'\nis_disabled 't'\ndisable 't'"), "true\n");  // disable twice is fine
  EXPECT_EQ(sh.run("scan 't'"), "ERROR: line 1: table 't' is disabled (enable 't' first)\n");
  EXPECT_EQ(sh.run("put 't', 'r', 'd:q', 'w'"), "ERROR: line 1: table 't' is disabled (enable 't' first)\n");
  EXPECT_EQ(sh.run("describe 't'").substr(0, 19), "Table t is DISABLED");
  EXPECT_EQ(sh.run("enable 't'\ncount 't'"), "1 row(s)\n");
  EXPECT_EQ(sh.run("disable 't'\ndrop 't'\nexists 't'"), "Table t does not exist\n");
  EXPECT_EQ(sh.run("disable 'nope'"), "ERROR: line 1: table 'nope' does not exist\n");
  EXPECT_EQ(sh.failures(), 4u);
}

TEST(ShellSession, TruncateEmptiesAndReenables) {
  ShellFixture sh;
  sh.run("create 't', 'd'\nput 't', 'r', 'd:q', 'v'\ndisable 't'");
  EXPECT_EQ(sh.run("truncate 't'"), "Truncating 't' table (it may take a while):\n");
  EXPECT_EQ(sh.run("is_enabled 't'\ncount 't'"), "true\n0 row(s)\n");
}

TEST(ShellSession, AlterChangesOnlyWhatItNames) {
  ShellFixture sh;
  sh.run("create 't', {NAME => 'd', VERSIONS => 3, TTL => 86400, COMPRESSION => 'ZSTD'}, 'e'");
  EXPECT_EQ(sh.run("alter 't', NAME => 'd', VERSIONS => 5"), "");
  Result<TableOptions> t = sh.ws().describeTable("t");
  ASSERT_TRUE(t);
  const FamilyOptions* d = t->family("d");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->maxVersions, 5);
  EXPECT_EQ(d->ttlSeconds, 86400);
  EXPECT_EQ(d->compression, Compression::kZstd);
  EXPECT_EQ(sh.run("alter 't', 'f', {'delete' => 'e'}, MEMSTORE_FLUSHSIZE => 1048576"), "");
  t = sh.ws().describeTable("t");
  ASSERT_TRUE(t);
  ASSERT_EQ(t->families.size(), 2u);
  EXPECT_EQ(t->families[0].name, "d");
  EXPECT_EQ(t->families[1].name, "f");
  EXPECT_EQ(t->memstoreFlushSize, 1048576u);
}

TEST(ShellSession, AFailedCommandChangesNothing) {
  ShellFixture sh;
  sh.run("create 't', {NAME => 'd', VERSIONS => 3}");
  // The first step would add a family; the second names one that does not exist.
  EXPECT_EQ(sh.run("alter 't', 'added',\n  {NAME => 'missing', METHOD => 'delete'}"),
            "ERROR: line 2, column 3: alter: table 't' has no family 'missing'\n");
  // Deleting the only family is refused by the engine's validation.
  EXPECT_EQ(sh.run("alter 't', 'delete' => 'd'"), "ERROR: line 1: table 't' needs at least one column family\n");
  Result<TableOptions> t = sh.ws().describeTable("t");
  ASSERT_TRUE(t);
  ASSERT_EQ(t->families.size(), 1u);
  EXPECT_EQ(t->families[0].maxVersions, 3);
  // A put whose family does not exist writes nothing.
  EXPECT_NE(sh.run("put 't', 'r', 'nofamily:q', 'v'"), "");
  EXPECT_EQ(sh.run("count 't'"), "0 row(s)\n");
  // A parse error anywhere in a command runs none of it.
  EXPECT_NE(sh.run("put 't', 'r', 'd:q', 'v', {BAD => 1}"), "");
  EXPECT_EQ(sh.run("count 't'"), "0 row(s)\n");
}

TEST(ShellSession, WritesOverTheLimitsNameTheLimitAndTheSize) {
  ShellFixture sh;
  sh.run("create 't', 'd'");
  const std::string longRow(kMaxRowKeySize + 1, 'r');
  const std::string longQualifier(kMaxQualifierSize + 1, 'q');
  EXPECT_EQ(sh.run("put 't', '" + longRow + "', 'd:q', 'v'"),
            "ERROR: line 1: row key of 32768 bytes is longer than the limit of 32767\n");
  EXPECT_EQ(sh.run("put 't', 'r', 'd:" + longQualifier + "', 'v'"),
            "ERROR: line 1: qualifier of 65536 bytes is longer than the limit of 65535\n");
  EXPECT_EQ(sh.run("put 't', 'r', 'd:q', '" + std::string(kMaxValueSize + 1, 'v') + "'"),
            "ERROR: line 1: value of 10485761 bytes is larger than the limit of 10485760\n");
  EXPECT_EQ(sh.run("incr 't', 'r', 'd:" + longQualifier + "'"),
            "ERROR: line 1: qualifier of 65536 bytes is longer than the limit of 65535\n");
  EXPECT_EQ(sh.run("count 't'"), "0 row(s)\n");
}

TEST(ShellSession, DeletesAsHBase2sShellMakesThem) {
  ShellFixture sh;
  sh.run("create 't', {NAME => 'd', VERSIONS => 5}\n"
         "put 't', 'r', 'd:q', 'v1', 1\nput 't', 'r', 'd:q', 'v2', 2\nput 't', 'r', 'd:q', 'v3', 3\n");
  // delete: one version, the newest when no timestamp is given.
  sh.run("delete 't', 'r', 'd:q'");
  EXPECT_EQ(sh.run("get 't', 'r', {VERSIONS => 5}"),
            "COLUMN  CELL\n d:q timestamp=2, value=v2\n d:q timestamp=1, value=v1\n1 row(s)\n");
  // deleteall with a column and a timestamp: every version at or below it.
  sh.run("deleteall 't', 'r', 'd:q', 1");
  EXPECT_EQ(sh.run("get 't', 'r', {VERSIONS => 5}"), "COLUMN  CELL\n d:q timestamp=2, value=v2\n1 row(s)\n");
  EXPECT_EQ(sh.run("scan 't', {RAW => true, VERSIONS => 10}"),
            "ROW  COLUMN+CELL\n"
            " r column=d:q, timestamp=3, type=Delete\n"
            " r column=d:q, timestamp=3, value=v3\n"
            " r column=d:q, timestamp=2, value=v2\n"
            " r column=d:q, timestamp=1, type=DeleteColumn\n"
            " r column=d:q, timestamp=1, value=v1\n"
            "1 row(s)\n");
  sh.run("deleteall 't', 'r'");
  EXPECT_EQ(sh.run("count 't'"), "0 row(s)\n");
  EXPECT_EQ(sh.failures(), 0u);
}

TEST(ShellSession, ADeleteMasksAPutWrittenLaterUntilAMajorCompaction) {
  ShellFixture sh;
  sh.run("create 't', 'd'\n"
         "put 't', 'r', 'd:q', 'old', 100\n"
         "deleteall 't', 'r', 'd:q', 200\n"
         "put 't', 'r', 'd:q', 'late but older', 150\n");
  EXPECT_EQ(sh.run("get 't', 'r'"), "COLUMN  CELL\n0 row(s)\n");
  sh.run("flush 't'\nmajor_compact 't'");
  sh.run("put 't', 'r', 'd:q', 'after compaction', 150");
  EXPECT_EQ(sh.run("get 't', 'r'"), "COLUMN  CELL\n d:q timestamp=150, value=after compaction\n1 row(s)\n");
  EXPECT_EQ(sh.failures(), 0u);
}

TEST(ShellSession, VersionsAreCountedInsideTheTimeRange) {
  ShellFixture sh;
  sh.run("create 't', {NAME => 'd', VERSIONS => 3}\n"
         "put 't', 'r', 'd:q', 'a', 10\nput 't', 'r', 'd:q', 'b', 20\nput 't', 'r', 'd:q', 'c', 30\n");
  EXPECT_EQ(sh.run("get 't', 'r', {COLUMN => 'd:q', TIMERANGE => [0, 25]}"),
            "COLUMN  CELL\n d:q timestamp=20, value=b\n1 row(s)\n");
  EXPECT_EQ(sh.run("get 't', 'r', {COLUMN => 'd:q', TIMERANGE => [0, 25], VERSIONS => 3}"),
            "COLUMN  CELL\n d:q timestamp=20, value=b\n d:q timestamp=10, value=a\n1 row(s)\n");
  EXPECT_EQ(sh.run("get 't', 'r', {COLUMN => 'd:q', TIMESTAMP => 10}"),
            "COLUMN  CELL\n d:q timestamp=10, value=a\n1 row(s)\n");
}

TEST(ShellSession, CountersAndTheirErrors) {
  ShellFixture sh;
  sh.run("create 't', 'd'");
  EXPECT_EQ(sh.run("incr 't', 'r', 'd:hits'\nincr 't', 'r', 'd:hits', 10\nget_counter 't', 'r', 'd:hits'"),
            "COUNTER VALUE = 1\nCOUNTER VALUE = 11\nCOUNTER VALUE = 11\n");
  EXPECT_EQ(sh.run("incr 't', 'r', 'd:hits', -12"), "COUNTER VALUE = -1\n");
  EXPECT_EQ(sh.run("get_counter 't', 'r', 'd:none'"), "No counter found at specified coordinates\n");
  sh.run("put 't', 'r', 'd:text', 'abc'");
  EXPECT_EQ(sh.run("get_counter 't', 'r', 'd:text'"),
            "ERROR: line 1: get_counter: the value of d:text is 3 bytes, not an 8-byte counter\n");
  EXPECT_EQ(sh.run("get 't', 'r', 'd:hits:toLong'").substr(0, 25), "COLUMN  CELL\n d:hits time");
  EXPECT_NE(sh.run("get 't', 'r', 'd:hits:toLong'").find(", value=-1\n"), std::string::npos);
}

}  // namespace
}  // namespace keyscope::shell
