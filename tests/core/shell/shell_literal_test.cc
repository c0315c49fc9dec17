// The shell's literals, as Ruby (the HBase shell's interpreter) reads them.
#include <limits>

#include "shell_test_util.h"

namespace keyscope::shell {
namespace {

using test::literal;
using test::parseAs;
using test::parseError;

Bytes bytes(std::initializer_list<int> values) {
  Bytes out;
  for (int v : values) out.push_back(static_cast<char>(v));
  return out;
}

TEST(ShellLiterals, SingleQuotesAreRawExceptQuoteAndBackslash) {
  EXPECT_EQ(literal(R"('abc')"), "abc");
  EXPECT_EQ(literal(R"('a\nb')"), "a\\nb");
  EXPECT_EQ(literal(R"('\x00')"), "\\x00");
  EXPECT_EQ(literal(R"('it\'s')"), "it's");
  EXPECT_EQ(literal(R"('a\\b')"), "a\\b");
  EXPECT_EQ(literal(R"('a\b')"), "a\\b");
  EXPECT_EQ(literal(R"('')"), "");
  EXPECT_EQ(literal("'two\nlines'"), "two\nlines");
}

TEST(ShellLiterals, DoubleQuotesTakeRubyEscapes) {
  EXPECT_EQ(literal(R"("\x00\xff\xFE")"), bytes({0x00, 0xff, 0xfe}));
  EXPECT_EQ(literal(R"("\x7z")"), bytes({0x07, 'z'}));  // one hex digit is enough
  EXPECT_EQ(literal(R"("\n\t\r\0\a\b\e\f\v\s")"), bytes({10, 9, 13, 0, 7, 8, 27, 12, 11, 32}));
  EXPECT_EQ(literal(R"("say \"hi\"")"), "say \"hi\"");
  EXPECT_EQ(literal(R"("back\\slash")"), "back\\slash");
  EXPECT_EQ(literal(R"("\101\1010")"), "AA0");  // octal, at most three digits
  EXPECT_EQ(literal(R"("\q\#\'")"), "q#'");      // any other escaped character is itself
  EXPECT_EQ(literal(R"("caf\u00e9")"), "caf\xc3\xa9");
  EXPECT_EQ(literal(R"("\u{1F600 41}")"), "\xf0\x9f\x98\x80" "A");
  EXPECT_EQ(literal("\"joined \\\nline\""), "joined line");  // backslash-newline
  EXPECT_EQ(literal(R"("#not interpolated")"), "#not interpolated");
  EXPECT_EQ(literal("\"caf\xc3\xa9\""), "caf\xc3\xa9");       // UTF-8 as written
}

TEST(ShellLiterals, AdjacentStringsConcatenate) {
  EXPECT_EQ(literal(R"('a' "\x00" 'b')"), bytes({'a', 0, 'b'}));
}

TEST(ShellLiterals, NumbersBecomeTheirDecimalTextAsRowsAndValues) {
  EXPECT_EQ(literal("5"), "5");
  EXPECT_EQ(literal("-5"), "-5");
  EXPECT_EQ(literal("1_000_000"), "1000000");
  EXPECT_EQ(literal("0x1f"), "31");
  EXPECT_EQ(literal("0b101"), "5");
  EXPECT_EQ(literal("0o17"), "15");
  EXPECT_EQ(literal("017"), "15");  // a leading 0 is octal, as in Ruby
  EXPECT_EQ(literal("0"), "0");
  EXPECT_EQ(literal("9223372036854775807"), "9223372036854775807");
  EXPECT_EQ(literal("-9223372036854775808"), "-9223372036854775808");
  EXPECT_EQ(literal("true"), "true");
  EXPECT_EQ(literal("false"), "false");
  EXPECT_EQ(literal("nil"), "");
  EXPECT_EQ(literal("5.to_s"), "5");
  EXPECT_EQ(literal("'abc'.to_java_bytes"), "abc");
}

TEST(ShellLiterals, BytesHelpersMakeJavaByteArrays) {
  EXPECT_EQ(literal("Bytes.toBytes(1)"), bytes({0, 0, 0, 0, 0, 0, 0, 1}));
  EXPECT_EQ(literal("Bytes.toBytes(-1)"), Bytes(8, '\xff'));
  EXPECT_EQ(literal("Bytes.toBytes(1700000000000)"), bytes({0, 0, 0x01, 0x8b, 0xcf, 0xe5, 0x68, 0x00}));
  EXPECT_EQ(literal("Bytes.toBytes('abc')"), "abc");
  EXPECT_EQ(literal("Bytes.toBytes(true)"), bytes({0xff}));
  EXPECT_EQ(literal("Bytes.toBytes(false)"), bytes({0x00}));
  EXPECT_EQ(literal(R"(Bytes.toBytesBinary('a\x00\xFF'))"), bytes({'a', 0, 0xff}));
  EXPECT_EQ(literal("org.apache.hadoop.hbase.util.Bytes.toBytes(2)"), bytes({0, 0, 0, 0, 0, 0, 0, 2}));
  EXPECT_EQ(literal("Bytes.toBytes( 3 )"), bytes({0, 0, 0, 0, 0, 0, 0, 3}));
}

TEST(ShellLiterals, LatestTimestampMeansTheServerAssignsNow) {
  auto put = parseAs<PutCommand>("put 't', 'r', 'f:q', 'v', LATEST_TIMESTAMP");
  ASSERT_EQ(put.put.cells.size(), 1u);
  EXPECT_EQ(put.put.cells[0].timestamp, kLatestTimestamp);
}

TEST(ShellLiterals, ArraysAndMapsTakeTrailingCommasAndNewlines) {
  auto create = parseAs<CreateCommand>("create 't', {NAME => 'f',\n  VERSIONS => 2,\n}, SPLITS => [\n 'a',\n 'b',\n]");
  ASSERT_EQ(create.table.families.size(), 1u);
  EXPECT_EQ(create.table.families[0].maxVersions, 2);
  EXPECT_EQ(create.splits, (std::vector<Bytes>{"a", "b"}));
}

TEST(ShellLiterals, QuotedKeysEqualConstants) {
  auto create = parseAs<CreateCommand>("create 't', {'NAME' => 'f', \"VERSIONS\" => '4'}");
  ASSERT_EQ(create.table.families.size(), 1u);
  EXPECT_EQ(create.table.families[0].maxVersions, 4);  // '4' as Integer.valueOf reads it
}

TEST(ShellLiterals, StatementsSplitOnNewlinesAndSemicolonsWithComments) {
  std::vector<Statement> s = parseShell(
      "# a comment line\n"
      "list; exists 't'  # trailing comment\n"
      "\n"
      "put 't', 'r',\n"
      "    'f:q', 'v'\n"
      "put('t', 'r', 'f:q',\n 'w')\n"
      "get 't', \\\n  'r'\n");
  ASSERT_EQ(s.size(), 5u);
  EXPECT_EQ(s[0].name, "list");
  EXPECT_EQ(s[1].name, "exists");
  EXPECT_EQ(s[1].line, 2);
  EXPECT_EQ(s[1].column, 7);
  EXPECT_EQ(s[2].name, "put");
  EXPECT_EQ(s[2].line, 4);
  EXPECT_EQ(s[3].name, "put");
  EXPECT_EQ(s[3].line, 6);
  EXPECT_EQ(s[4].name, "get");
  for (const Statement& st : s) EXPECT_TRUE(st.status) << st.status.message();
  EXPECT_EQ(std::get<PutCommand>(*s[3].command).put.cells[0].value, "w");
}

TEST(ShellLiterals, AByteOrderMarkAtTheStartIsSkipped) {
  std::vector<Statement> s = parseShell("\xEF\xBB\xBFlist\n");
  ASSERT_EQ(s.size(), 1u);
  EXPECT_TRUE(s[0].status) << s[0].status.message();
  EXPECT_EQ(s[0].name, "list");
}

TEST(ShellLiterals, WhatRubyWouldNotReadIsRefused) {
  EXPECT_EQ(parseError("put 't', 1.5, 'f:q', 'v'"),
            "line 1, column 10: floating-point numbers are not supported; write an integer");
  EXPECT_EQ(parseError("put 't', 09, 'f:q', 'v'"),
            "line 1, column 11: invalid digit '9' in a base-8 number (a leading 0 makes a number octal, as in Ruby)");
  EXPECT_EQ(parseError("put 't', 9223372036854775808, 'f:q', 'v'"),
            "line 1, column 10: integer out of range: '9223372036854775808' does not fit in 64 bits");
  EXPECT_EQ(parseError("put 't', 12ab, 'f:q', 'v'"), "line 1, column 10: '12ab' is not a number");
  EXPECT_EQ(parseError("put 't', \"a#{x}\", 'f:q', 'v'"),
            "line 1, column 12: string interpolation ('#{...}') is not supported; write the text itself");
  EXPECT_EQ(parseError(R"(put 't', "\x", 'f:q', 'v')"), "line 1, column 11: invalid hex escape: '\\x' needs a hex digit");
  EXPECT_EQ(parseError(R"(put 't', "\u12", 'f:q', 'v')"),
            "line 1, column 11: invalid Unicode escape: '\\u' takes exactly 4 hex digits (or \\u{...})");
  EXPECT_EQ(parseError(R"(put 't', "\cA", 'f:q', 'v')"),
            "line 1, column 11: the control/meta escape '\\c' is not supported; use \\xNN");
  EXPECT_EQ(parseError("put 't', :row, 'f:q', 'v'"),
            "line 1, column 10: symbols (':name') are not supported; write a string ('name')");
  EXPECT_EQ(parseError("create 't', {NAME: 'f'}"),
            "line 1, column 18: 'KEY: value' makes a Ruby symbol key, which the shell does not read; write KEY => value");
  EXPECT_EQ(parseError("put 't', row, 'f:q', 'v'"),
            "line 1, column 10: unknown name 'row': quote strings ('row'); variables are not supported");
  EXPECT_EQ(parseError("scan 't', {VERSION => 2}"), "line 1, column 12: unknown constant 'VERSION' (did you mean VERSIONS?)");
  EXPECT_EQ(parseError("t = create 't', 'f'"), "line 1, column 3: assignments ('t = ...') are not supported");
  EXPECT_EQ(parseError("put 't', Bytes.toInt(1), 'f:q', 'v'"),
            "line 1, column 10: unsupported helper 'Bytes.toInt' (Bytes.toBytes and Bytes.toBytesBinary are supported)");
  EXPECT_EQ(parseError("put 't', 'r'.upcase, 'f:q', 'v'"),
            "line 1, column 14: unsupported method 'upcase' (only .to_s and .to_java_bytes are)");
  EXPECT_EQ(parseError("put 't', 'r', 'f:q', 'v' @"), "line 1, column 26: unexpected character '@'");
}

TEST(ShellLiterals, NestingIsBoundedAndNeverCrashes) {
  std::string deep = "put 't', " + std::string(200, '[') + std::string(200, ']') + ", 'f:q', 'v'";
  EXPECT_EQ(parseError(deep), "line 1, column 74: arrays and maps nested deeper than 64 levels");
  std::string open = "scan 't', " + std::string(10000, '{');
  EXPECT_NE(parseError(open), "parsed");
}

TEST(ShellLiterals, NeedsMoreInputWhileAStringOrBracketIsOpen) {
  EXPECT_FALSE(needsMoreInput("list\n"));
  EXPECT_FALSE(needsMoreInput(""));
  EXPECT_TRUE(needsMoreInput("put 't', 'r',\n"));
  EXPECT_TRUE(needsMoreInput("scan 't', {\n"));
  EXPECT_TRUE(needsMoreInput("scan 't', {LIMIT =>\n"));
  EXPECT_TRUE(needsMoreInput("put 't', 'unclosed\n"));
  EXPECT_TRUE(needsMoreInput("get 't', \\\n"));
  EXPECT_TRUE(needsMoreInput("put('t',\n"));
  EXPECT_FALSE(needsMoreInput("scan 't', {LIMIT => 1}\n"));
  EXPECT_FALSE(needsMoreInput("put 't', 'a#b' # comment with ' and {\n"));
  EXPECT_FALSE(needsMoreInput("scan 't', }\n"));  // an error, but complete: the parser reports it
}

}  // namespace
}  // namespace keyscope::shell
