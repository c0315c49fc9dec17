// Every shell command parses to the typed command HBase's shell would run.
#include <limits>

#include "keyscope/filter.h"
#include "shell_test_util.h"

namespace keyscope::shell {
namespace {

using test::parseAs;
using test::parseError;

const std::string kTable = "t";

// --- create / alter -------------------------------------------------------------

TEST(ShellCreate, FamilyNamesTakeHBaseDefaults) {
  auto c = parseAs<CreateCommand>("create 't', 'f1', 'f2'");
  EXPECT_EQ(c.table.name, kTable);
  ASSERT_EQ(c.table.families.size(), 2u);
  EXPECT_EQ(c.table.families[0], FamilyOptions{.name = "f1"});
  EXPECT_EQ(c.table.families[1].name, "f2");
  EXPECT_TRUE(c.splits.empty());
}

TEST(ShellCreate, FamilyMapsTakeEveryFamilyOption) {
  auto c = parseAs<CreateCommand>(
      "create 't', {NAME => 'f', VERSIONS => 3, TTL => 86400, MIN_VERSIONS => 1, KEEP_DELETED_CELLS => true,\n"
      "  COMPRESSION => 'ZSTD', BLOOMFILTER => 'ROWCOL', BLOCKSIZE => 16384},\n"
      "  {NAME => 'g', KEEP_DELETED_CELLS => 'TTL', TTL => 'FOREVER', COMPRESSION => 'none', BLOOMFILTER => 'NONE'}");
  ASSERT_EQ(c.table.families.size(), 2u);
  const FamilyOptions& f = c.table.families[0];
  EXPECT_EQ(f.name, "f");
  EXPECT_EQ(f.maxVersions, 3);
  EXPECT_EQ(f.ttlSeconds, 86400);
  EXPECT_EQ(f.minVersions, 1);
  EXPECT_EQ(f.keepDeletedCells, KeepDeletedCells::kTrue);
  EXPECT_EQ(f.compression, Compression::kZstd);
  EXPECT_EQ(f.bloomFilter, BloomType::kRowCol);
  EXPECT_EQ(f.blockSize, 16384u);
  const FamilyOptions& g = c.table.families[1];
  EXPECT_EQ(g.keepDeletedCells, KeepDeletedCells::kTtl);
  EXPECT_EQ(g.ttlSeconds, kTtlForever);
  EXPECT_EQ(g.compression, Compression::kNone);
  EXPECT_EQ(g.bloomFilter, BloomType::kNone);
}

TEST(ShellCreate, TableOptionsSplitsAndAttributes) {
  auto c = parseAs<CreateCommand>(
      "create 't', 'f', SPLITS => ['m', \"\\x00a\", Bytes.toBytes(7)], MEMSTORE_FLUSHSIZE => 1048576,\n"
      "  KEY_SCHEMA => 'user:utf8 | ts:i64 desc', DESCRIPTION => 'visits'");
  EXPECT_EQ(c.splits, (std::vector<Bytes>{"m", std::string("\0a", 2), std::string("\0\0\0\0\0\0\0\x07", 8)}));
  EXPECT_EQ(c.table.memstoreFlushSize, 1048576u);
  EXPECT_EQ(c.table.keySchema, "user:utf8 | ts:i64 desc");
  EXPECT_EQ(c.table.description, "visits");
  auto braced = parseAs<CreateCommand>("create 't', {NAME => 'f'}, {SPLITS => ['b']}");
  EXPECT_EQ(braced.splits, std::vector<Bytes>{"b"});
}

TEST(ShellCreate, NumRegionsWithASplitAlgorithm) {
  EXPECT_EQ(parseAs<CreateCommand>("create 't', 'f', {NUMREGIONS => 4, SPLITALGO => 'HexStringSplit'}").splits,
            (std::vector<Bytes>{"40000000", "80000000", "c0000000"}));
  EXPECT_EQ(parseAs<CreateCommand>("create 't', 'f', NUMREGIONS => 3, SPLITALGO => 'HexStringSplit'").splits,
            (std::vector<Bytes>{"55555555", "aaaaaaaa"}));
  EXPECT_EQ(parseAs<CreateCommand>("create 't', 'f', NUMREGIONS => 4, SPLITALGO => 'DecimalStringSplit'").splits,
            (std::vector<Bytes>{"25000000", "50000000", "75000000"}));
  auto uniform = parseAs<CreateCommand>("create 't', 'f', NUMREGIONS => 2, SPLITALGO => 'UniformSplit'").splits;
  EXPECT_EQ(uniform, std::vector<Bytes>{std::string("\x80\0\0\0\0\0\0\0", 8)});
  EXPECT_EQ(parseAs<CreateCommand>("create 't', 'f', NUMREGIONS => 16, SPLITALGO => 'UniformSplit'").splits[0],
            std::string("\x10\0\0\0\0\0\0\0", 8));
}

TEST(ShellCreate, BadDefinitionsSayWhatAndWhere) {
  EXPECT_EQ(parseError("create 't'"),
            "line 1, column 1: create: a table needs at least one column family; usage: create 't', 'family'[, {NAME => "
            "'f2', VERSIONS => 3}, ...][, SPLITS => ['m']]");
  EXPECT_EQ(parseError("create 't', 'f', 'f'"), "line 1, column 18: family 'f' is given twice (first at line 1, column 13)");
  EXPECT_EQ(parseError("create 't', {NAME => 'f', SPLITS => ['a']}"),
            "line 1, column 27: SPLITS is a table option: give it in a map of its own, without NAME");
  EXPECT_EQ(parseError("create 't', 'f', VERSIONS => 3"),
            "line 1, column 18: VERSIONS is a family option: give it in a map with NAME => 'family'");
  EXPECT_EQ(parseError("create 't', {NAME => 'f', IN_MEMORY => true}"),
            "line 1, column 27: family: IN_MEMORY is not supported by Keyscope");
  EXPECT_EQ(parseError("create 't', {NAME => 'f', COMPRESSION => 'SNAPPY'}"),
            "line 1, column 42: COMPRESSION 'SNAPPY' is not supported by Keyscope (it has NONE and ZSTD)");
  EXPECT_EQ(parseError("create 't', {NAME => 'f', VERSIONS => 0}"),
            "line 1, column 39: VERSIONS must be between 1 and 2147483647, got 0");
  EXPECT_EQ(parseError("create 't', {NAME => 'f', VERSIONS => 2, MIN_VERSIONS => 2}"),
            "line 1, column 8: family 'f': MIN_VERSIONS (2) must be less than VERSIONS (2)");
  EXPECT_EQ(parseError("create 't', {NAME => 'f', KEEP_DELETED_CELLS => 'maybe'}"),
            "line 1, column 49: KEEP_DELETED_CELLS: expected true, false or 'TTL'");
  EXPECT_EQ(parseError("create 'bad name', 'f'"),
            "line 1, column 8: table name 'bad name': only letters, digits, '_', '-' and '.' are allowed");
  EXPECT_EQ(parseError("create 't', 'f', SPLITS => ['a', '']"), "line 1, column 34: SPLITS: a split key cannot be empty");
  EXPECT_EQ(parseError("create 't', 'f', NUMREGIONS => 4"), "line 1, column 32: NUMREGIONS and SPLITALGO go together");
  EXPECT_EQ(parseError("create 't', 'f', KEY_SCHEMA => 'user:utf8 | ts:int64'"),
            "line 1, column 48: KEY_SCHEMA: unknown type 'int64' (did you mean i64?)");
}

TEST(ShellAlter, StepsInTheOrderWritten) {
  auto a = parseAs<AlterCommand>(
      "alter 't', NAME => 'f', VERSIONS => 5");
  EXPECT_EQ(a.table, kTable);
  ASSERT_EQ(a.steps.size(), 1u);
  EXPECT_EQ(a.steps[0].kind, AlterStep::Kind::kSetFamily);
  EXPECT_EQ(a.steps[0].family.name, "f");
  EXPECT_EQ(a.steps[0].family.maxVersions, 5);
  EXPECT_FALSE(a.steps[0].family.ttlSeconds.has_value());  // unnamed options keep their value

  auto many = parseAs<AlterCommand>(
      "alter 't', 'added', {NAME => 'gone', METHOD => 'delete'}, 'delete' => 'also_gone'");
  ASSERT_EQ(many.steps.size(), 3u);
  EXPECT_EQ(many.steps[0].kind, AlterStep::Kind::kSetFamily);
  EXPECT_EQ(many.steps[0].family.name, "added");
  EXPECT_EQ(many.steps[1].kind, AlterStep::Kind::kDeleteFamily);
  EXPECT_EQ(many.steps[1].family.name, "gone");
  EXPECT_EQ(many.steps[2].kind, AlterStep::Kind::kDeleteFamily);
  EXPECT_EQ(many.steps[2].family.name, "also_gone");
  EXPECT_EQ(many.steps[2].line, 1);
  EXPECT_EQ(many.steps[2].column, 59);

  auto attributes = parseAs<AlterCommand>("alter 't', MEMSTORE_FLUSHSIZE => 131072, DESCRIPTION => 'x'");
  ASSERT_EQ(attributes.steps.size(), 1u);
  EXPECT_EQ(attributes.steps[0].kind, AlterStep::Kind::kTableAttributes);
  EXPECT_EQ(attributes.steps[0].attributes.memstoreFlushSize, 131072u);
  EXPECT_EQ(attributes.steps[0].attributes.description, "x");

  auto unset = parseAs<AlterCommand>("alter 't', METHOD => 'table_att_unset', NAME => 'KEY_SCHEMA'");
  EXPECT_EQ(unset.steps[0].attributes.keySchema, "");
  auto att = parseAs<AlterCommand>("alter 't', METHOD => 'table_att', KEY_SCHEMA => 'k:bytes'");
  EXPECT_EQ(att.steps[0].attributes.keySchema, "k:bytes");

  EXPECT_EQ(parseError("alter 't', 'delete' => 'f', VERSIONS => 2"),
            "line 1, column 29: 'delete' => 'family' stands alone: give VERSIONS in a map of its own");
  EXPECT_EQ(parseError("alter 't', METHOD => 'drop'"),
            "line 1, column 22: METHOD: expected 'delete', 'table_att' or 'table_att_unset', got 'drop'");
  EXPECT_EQ(parseError("alter 't', VERSIONS => 2"),
            "line 1, column 12: VERSIONS is a family option: give it with NAME => 'family'");
  EXPECT_EQ(parseError("alter 't'"),
            "line 1, column 1: alter: wrong number of arguments (given 1, expected at least 2); usage: alter 't', NAME => "
            "'f', VERSIONS => 5 | alter 't', 'delete' => 'f' | alter 't', MEMSTORE_FLUSHSIZE => n");
}

// --- one-table commands, list, Keyscope's own ------------------------------------

TEST(ShellTableCommands, EachNamesItsAction) {
  const std::pair<const char*, TableAction> cases[] = {
      {"describe 't'", TableAction::kDescribe},  {"desc 't'", TableAction::kDescribe},
      {"exists 't'", TableAction::kExists},      {"is_enabled 't'", TableAction::kIsEnabled},
      {"is_disabled 't'", TableAction::kIsDisabled}, {"disable 't'", TableAction::kDisable},
      {"enable 't'", TableAction::kEnable},      {"drop 't'", TableAction::kDrop},
      {"truncate 't'", TableAction::kTruncate},  {"flush 't'", TableAction::kFlush},
      {"compact 't'", TableAction::kCompact},    {"major_compact 't'", TableAction::kMajorCompact},
  };
  for (const auto& [source, action] : cases) {
    auto c = parseAs<TableCommand>(source);
    EXPECT_EQ(c.action, action) << source;
    EXPECT_EQ(c.table, kTable) << source;
  }
  EXPECT_EQ(test::parseStatement("desc 't'").name, "describe");
  EXPECT_EQ(parseError("compact 't', 'f'"),
            "line 1, column 14: compact of one column family is not available: Keyscope compacts whole tables");
  EXPECT_EQ(parseError("drop"), "line 1, column 1: drop: wrong number of arguments (given 0, expected 1); usage: drop 't'");
  EXPECT_EQ(parseError("drop 1"), "line 1, column 6: expected a table name (a string), got an integer");
}

TEST(ShellTableCommands, ListTakesAnOptionalRegex) {
  EXPECT_FALSE(parseAs<ListCommand>("list").pattern.has_value());
  EXPECT_EQ(parseAs<ListCommand>("list 'ab.*'").pattern, "ab.*");
  EXPECT_EQ(parseError("list '[unclosed'"), "line 1, column 6: list: invalid regular expression '[unclosed'");
}

TEST(ShellTableCommands, SetClockAndKeySchema) {
  EXPECT_EQ(parseAs<SetClockCommand>("set_clock 1700000000000").nowMillis, 1700000000000);
  EXPECT_FALSE(parseAs<SetClockCommand>("set_clock nil").nowMillis.has_value());
  EXPECT_EQ(parseError("set_clock -1"), "line 1, column 11: set_clock must be between 0 and 9223372036854775806, got -1");
  auto show = parseAs<KeySchemaCommand>("key_schema 't'");
  EXPECT_FALSE(show.set);
  auto set = parseAs<KeySchemaCommand>("key_schema 't', 'salt:salt(4, user) | user:utf8'");
  EXPECT_TRUE(set.set);
  EXPECT_EQ(set.schema, "salt:salt(4, user) | user:utf8");
  auto clear = parseAs<KeySchemaCommand>("key_schema 't', nil");
  EXPECT_TRUE(clear.set);
  EXPECT_EQ(clear.schema, "");
  EXPECT_EQ(parseError("key_schema 't',\n  'user:utf8 | when:date'"), 
            "line 2, column 21: KEY_SCHEMA: unknown type 'date' (types: utf8 bytes bytes(N) i8..i64 u8..u64 f32 f64 bool "
            "salt(N) md5 revts domain quadkey)");
  parseAs<HelpCommand>("help");
  parseAs<ExitCommand>("exit");
  parseAs<ExitCommand>("quit");
}

// --- writes -----------------------------------------------------------------------

TEST(ShellWrites, PutOneCell) {
  auto p = parseAs<PutCommand>("put 't', 'r1', 'f:q', 'v'");
  EXPECT_EQ(p.table, kTable);
  EXPECT_EQ(p.put.row, "r1");
  ASSERT_EQ(p.put.cells.size(), 1u);
  EXPECT_EQ(p.put.cells[0].family, "f");
  EXPECT_EQ(p.put.cells[0].qualifier, "q");
  EXPECT_EQ(p.put.cells[0].value, "v");
  EXPECT_EQ(p.put.cells[0].timestamp, kLatestTimestamp);

  auto withTs = parseAs<PutCommand>("put 't', 'r1', 'f:q:with:colons', 42, 1000");
  EXPECT_EQ(withTs.put.cells[0].qualifier, "q:with:colons");  // writes take no formatter: all of it is the qualifier
  EXPECT_EQ(withTs.put.cells[0].value, "42");
  EXPECT_EQ(withTs.put.cells[0].timestamp, 1000);

  auto family = parseAs<PutCommand>("put 't', 'r', 'f', 'v'");
  EXPECT_EQ(family.put.cells[0].qualifier, "");  // 'f' alone: the empty qualifier, as in HBase
  auto emptyQualifier = parseAs<PutCommand>("put 't', 'r', 'f:', 'v'");
  EXPECT_EQ(emptyQualifier.put.cells[0].qualifier, "");

  EXPECT_EQ(parseError("put 't', 'r', 'f:q', 'v', -1"), "line 1, column 27: timestamp: timestamps cannot be negative, got -1");
  EXPECT_EQ(parseError("put 't', 'r', ':q', 'v'"), "line 1, column 15: a column is 'family' or 'family:qualifier', got ':q'");
  EXPECT_EQ(parseError("put 't', 'r', 'f:q', 'v', {TTL => 10}"),
            "line 1, column 35: put: cell TTLs are not supported by Keyscope (families have TTL)");
  EXPECT_EQ(parseError("put 't', 'r', 'f:q', 'v', {ATTRIBUTES => {'a' => 'b'}}"),
            "line 1, column 28: put: ATTRIBUTES is not supported by Keyscope");
  EXPECT_EQ(parseError("put 't', 'r', 'f:q', ['v']"), "line 1, column 22: value: expected a string, got an array");
}

TEST(ShellWrites, WritesTakeQualifiersWithColonsReadsTakeFormatters) {
  EXPECT_EQ(parseAs<PutCommand>("put 't', 'r', 'f:a:b', 'v'").put.cells[0].qualifier, "a:b");
  EXPECT_EQ(parseAs<DeleteCommand>("deleteall 't', 'r', 'f:a:toLong'").del.specs[0].qualifier, "a:toLong");
  auto get = parseAs<GetCommand>("get 't', 'r', 'f:a:toLong'");
  EXPECT_EQ(get.options.columns[0].qualifier, Bytes("a"));
}

TEST(ShellWrites, DeleteIsOneVersionAsInHBase2) {
  auto d = parseAs<DeleteCommand>("delete 't', 'r', 'f:q'");
  EXPECT_EQ(d.del.row, "r");
  EXPECT_EQ(d.del.timestamp, kLatestTimestamp);
  ASSERT_EQ(d.del.specs.size(), 1u);
  EXPECT_EQ(d.del.specs[0].scope, DeleteScope::kColumnVersion);
  EXPECT_EQ(d.del.specs[0].family, "f");
  EXPECT_EQ(d.del.specs[0].qualifier, "q");

  auto at = parseAs<DeleteCommand>("delete 't', 'r', 'f:q', 5");
  EXPECT_EQ(at.del.timestamp, 5);
  auto family = parseAs<DeleteCommand>("delete 't', 'r', 'f', 5");
  EXPECT_EQ(family.del.specs[0].scope, DeleteScope::kFamilyVersion);
  auto row = parseAs<DeleteCommand>("delete 't', 'r', ''");
  EXPECT_TRUE(row.del.specs.empty());
  EXPECT_EQ(parseError("delete 't', 'r', 'f'"),
            "line 1, column 18: delete of a family ('f') removes its cells at exactly one timestamp: give the timestamp, "
            "or use deleteall 't', 'row', 'f' for all of them");
  EXPECT_EQ(parseError("delete 't', 'r'"),
            "line 1, column 1: delete: wrong number of arguments (given 2, expected 3 or 4); usage: delete 't', 'row', "
            "'family:qualifier'[, timestamp]");
}

TEST(ShellWrites, DeleteAllIsEveryVersionAFamilyOrTheRow) {
  auto row = parseAs<DeleteCommand>("deleteall 't', 'r'");
  EXPECT_TRUE(row.del.specs.empty());
  EXPECT_FALSE(row.rowPrefix.has_value());
  auto column = parseAs<DeleteCommand>("deleteall 't', 'r', 'f:q', 9");
  ASSERT_EQ(column.del.specs.size(), 1u);
  EXPECT_EQ(column.del.specs[0].scope, DeleteScope::kColumnAll);
  EXPECT_EQ(column.del.timestamp, 9);
  auto family = parseAs<DeleteCommand>("deleteall 't', 'r', 'f'");
  EXPECT_EQ(family.del.specs[0].scope, DeleteScope::kFamily);
  auto rowAt = parseAs<DeleteCommand>("deleteall 't', 'r', nil, 7");
  EXPECT_TRUE(rowAt.del.specs.empty());
  EXPECT_EQ(rowAt.del.timestamp, 7);
  auto prefix = parseAs<DeleteCommand>("deleteall 't', {ROWPREFIXFILTER => 'user1|', CACHE => 100}, 'f:q'");
  EXPECT_EQ(prefix.rowPrefix, Bytes("user1|"));
  EXPECT_EQ(prefix.del.specs[0].scope, DeleteScope::kColumnAll);
  EXPECT_EQ(parseError("deleteall 't', {STARTROW => 'a'}"), "line 1, column 16: deleteall: a map takes ROWPREFIXFILTER => 'prefix'");
}

TEST(ShellWrites, IncrAndGetCounter) {
  auto one = parseAs<IncrCommand>("incr 't', 'r', 'f:hits'");
  ASSERT_EQ(one.increment.columns.size(), 1u);
  EXPECT_EQ(one.increment.row, "r");
  EXPECT_EQ(one.increment.columns[0].family, "f");
  EXPECT_EQ(one.increment.columns[0].qualifier, "hits");
  EXPECT_EQ(one.increment.columns[0].delta, 1);
  EXPECT_EQ(parseAs<IncrCommand>("incr 't', 'r', 'f:hits', -3").increment.columns[0].delta, -3);
  auto counter = parseAs<GetCounterCommand>("get_counter 't', 'r', 'f:hits'");
  EXPECT_EQ(counter.row, "r");
  EXPECT_EQ(counter.family, "f");
  EXPECT_EQ(counter.qualifier, "hits");
  EXPECT_EQ(parseError("incr 't', 'r', 'f:hits', 'x'"), "line 1, column 26: incr delta: expected an integer, got a string");
}

// --- reads --------------------------------------------------------------------------

TEST(ShellGet, ColumnsAsArgumentsArraysOrOptions) {
  auto plain = parseAs<GetCommand>("get 't', 'r'");
  EXPECT_EQ(plain.options.row, "r");
  EXPECT_TRUE(plain.options.columns.empty());
  EXPECT_EQ(plain.options.maxVersions, 1);

  auto args = parseAs<GetCommand>("get 't', 'r', 'f:a', 'g'");
  ASSERT_EQ(args.options.columns.size(), 2u);
  EXPECT_EQ(args.options.columns[0].family, "f");
  EXPECT_EQ(args.options.columns[0].qualifier, Bytes("a"));
  EXPECT_EQ(args.options.columns[1].family, "g");
  EXPECT_FALSE(args.options.columns[1].qualifier.has_value());

  auto array = parseAs<GetCommand>("get 't', 'r', ['f:a', 'f:b']");
  EXPECT_EQ(array.options.columns.size(), 2u);
  auto column = parseAs<GetCommand>("get 't', 'r', {COLUMN => 'f:a'}");
  EXPECT_EQ(column.options.columns.size(), 1u);
  auto columns = parseAs<GetCommand>("get 't', 'r', COLUMNS => ['f:a', 'f:b', 'g']");
  EXPECT_EQ(columns.options.columns.size(), 3u);
}

TEST(ShellGet, TimeVersionsFilterAndFormatters) {
  auto g = parseAs<GetCommand>(
      "get 't', 'r', {COLUMN => 'f:n:toLong', TIMERANGE => [10, 20], VERSIONS => 4,\n"
      "  FILTER => \"ValueFilter (=, 'binary:x')\", FORMATTER => 'toString', MAXLENGTH => 30, ALL_METRICS => true}");
  EXPECT_EQ(g.options.timeRange, (TimeRange{10, 20}));
  EXPECT_EQ(g.options.maxVersions, 4);
  ASSERT_NE(g.options.filter, nullptr);
  EXPECT_EQ(g.options.filter->toString(), "ValueFilter (=, 'binary:x')");
  EXPECT_EQ(g.format.values, ValueFormatter::kToString);
  EXPECT_EQ(g.format.formatterFor("f", "n"), ValueFormatter::kToLong);
  EXPECT_EQ(g.format.formatterFor("f", "m"), ValueFormatter::kToString);
  EXPECT_EQ(g.format.maxLength, 30);
  EXPECT_TRUE(g.format.metrics);

  EXPECT_EQ(parseAs<GetCommand>("get 't', 'r', {TIMESTAMP => 7}").options.timeRange, TimeRange::at(7));
  EXPECT_EQ(parseAs<GetCommand>("get 't', 'r', 'f:q:c(org.apache.hadoop.hbase.util.Bytes).toInt'").format.formatterFor("f", "q"),
            ValueFormatter::kToInt);
  EXPECT_EQ(parseError("get 't', 'r', {TIMESTAMP => 7, TIMERANGE => [1, 2]}"),
            "line 1, column 45: give TIMESTAMP or TIMERANGE, not both");
  EXPECT_EQ(parseError("get 't', 'r', {TIMERANGE => [20, 10]}"),
            "line 1, column 29: TIMERANGE: time range [20, 10): max is less than min");
  EXPECT_EQ(parseError("get 't', 'r', {TIMERANGE => [1]}"), "line 1, column 29: TIMERANGE: expected [min, max] (max exclusive)");
  EXPECT_EQ(parseError("get 't', 'r', 'f:q:toDate'"),
            "line 1, column 15: unknown formatter 'toDate' in column 'f:q:toDate' (as in HBase, a second ':' starts a "
            "formatter such as toLong)");
  EXPECT_EQ(parseError("get 't', 'r', {FORMATTER => 'toDate'}"),
            "line 1, column 29: FORMATTER: unknown formatter 'toDate' (toStringBinary, toString, toLong, toInt, toShort, "
            "toDouble, toFloat, toBoolean, toHex)");
  EXPECT_EQ(parseError("get 't', 'r', {LIMIT => 1}"),
            "line 1, column 16: unknown get option LIMIT; get takes COLUMN, COLUMNS, TIMESTAMP, TIMERANGE, VERSIONS, "
            "FILTER, FORMATTER, FORMATTER_CLASS, MAXLENGTH, ALL_METRICS, CACHE_BLOCKS");
}

TEST(ShellScan, EveryScanOption) {
  auto s = parseAs<ScanCommand>(
      "scan 't', {COLUMNS => ['f:a', 'g'], STARTROW => 'b', STOPROW => 'y', TIMERANGE => [0, 100], VERSIONS => 2,\n"
      "  LIMIT => 10, REVERSED => true, RAW => true, FILTER => \"KeyOnlyFilter ()\", CACHE_BLOCKS => false,\n"
      "  CACHE => 1000, BATCH => 5, MAXLENGTH => 40, FORMATTER => 'toHex', ALL_METRICS => true}");
  EXPECT_EQ(s.table, kTable);
  EXPECT_EQ(s.options.columns.size(), 2u);
  EXPECT_EQ(s.options.startRow, "b");
  EXPECT_TRUE(s.options.startInclusive);
  EXPECT_EQ(s.options.stopRow, "y");
  EXPECT_FALSE(s.options.stopInclusive);
  EXPECT_EQ(s.options.timeRange, (TimeRange{0, 100}));
  EXPECT_EQ(s.options.maxVersions, 2);
  EXPECT_EQ(s.options.limit, 10);
  EXPECT_TRUE(s.options.reversed);
  EXPECT_TRUE(s.options.raw);
  ASSERT_NE(s.options.filter, nullptr);
  EXPECT_FALSE(s.options.cacheBlocks);
  EXPECT_EQ(s.options.batch, 5);
  EXPECT_EQ(s.format.values, ValueFormatter::kToHex);
  EXPECT_EQ(s.format.maxLength, 40);
  EXPECT_TRUE(s.format.metrics);

  auto plain = parseAs<ScanCommand>("scan 't'");
  EXPECT_EQ(plain.options.limit, -1);
  EXPECT_FALSE(plain.options.reversed);
  EXPECT_EQ(parseAs<ScanCommand>("scan 't', {LIMIT => 0}").options.limit, -1);  // HBase: only > 0 limits
  EXPECT_EQ(parseAs<ScanCommand>("scan 't', {COLUMN => 'f'}").options.columns.size(), 1u);
}

TEST(ShellScan, EqualStartAndStopReadOneRowAsHBasesShellDoes) {
  auto s = parseAs<ScanCommand>("scan 't', {STARTROW => 'r', STOPROW => 'r'}");
  EXPECT_TRUE(s.options.stopInclusive);
}

TEST(ShellScan, RowPrefixFilterIsARangeInEitherDirection) {
  auto forward = parseAs<ScanCommand>("scan 't', {ROWPREFIXFILTER => \"ab\\xff\"}");
  EXPECT_EQ(forward.options.startRow, "ab\xff");
  EXPECT_EQ(forward.options.stopRow, "ac");
  auto reversed = parseAs<ScanCommand>("scan 't', {ROWPREFIXFILTER => 'ab', REVERSED => true}");
  EXPECT_EQ(reversed.options.startRow, "ac");
  EXPECT_FALSE(reversed.options.startInclusive);
  EXPECT_EQ(reversed.options.stopRow, "ab");
  EXPECT_TRUE(reversed.options.stopInclusive);
  EXPECT_EQ(parseError("scan 't', {STARTROW => 'a', ROWPREFIXFILTER => 'b'}"),
            "line 1, column 48: ROWPREFIXFILTER replaces STARTROW and STOPROW; give one or the other");
}

TEST(ShellScan, OptionErrors) {
  EXPECT_EQ(parseError("scan 't', {LIMIT => 'ten'}"), "line 1, column 21: LIMIT: expected an integer, got a string");
  EXPECT_EQ(parseError("scan 't', {RAW => 'true'}"), "line 1, column 19: RAW: expected true or false, got a string");
  EXPECT_EQ(parseError("scan 't', {'LIMT' => 1}"), "line 1, column 12: unknown scan option 'LIMT' (did you mean LIMIT?)");
  EXPECT_EQ(parseError("scan 't', {CONSISTENCY => 'TIMELINE'}"),
            "line 1, column 12: scan: CONSISTENCY is not supported by Keyscope");
  EXPECT_EQ(parseError("scan 't', 'f:q'"), "line 1, column 11: scan: expected a {KEY => value} map of options, got a string");
  EXPECT_EQ(parseError("scan 't', {COLUMNS => 5}"), "line 1, column 23: COLUMNS: expected a column or an array of columns, got an integer");
  EXPECT_EQ(parseError("scan 't', {FILTER => 5}"), "line 1, column 22: FILTER: expected a string, got an integer");
}

TEST(ShellCount, TakesIntervalAndScanOptions) {
  auto c = parseAs<CountCommand>("count 't', {INTERVAL => 10, CACHE => 100, FILTER => \"PrefixFilter ('a')\", STARTROW => 'a'}");
  EXPECT_EQ(c.interval, 10);
  EXPECT_EQ(c.options.startRow, "a");
  ASSERT_NE(c.options.filter, nullptr);
  EXPECT_EQ(parseAs<CountCommand>("count 't'").interval, 1000);
  auto formatted = parseAs<CountCommand>("count 't', {COLUMNS => ['f:q:toLong']}");  // nothing to format
  ASSERT_EQ(formatted.options.columns.size(), 1u);
  EXPECT_EQ(formatted.options.columns[0].qualifier, Bytes("q"));
}

}  // namespace
}  // namespace keyscope::shell
