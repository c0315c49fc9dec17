// parseFilter: HBase's filter language. Precedence, the printed form
// (toString) reading back to an equivalent filter, errors that name their
// column, limits, and arbitrary input that must never crash.
#include <gtest/gtest.h>

#include <random>
#include <regex>

#include "filter_test_driver.h"
#include "keyscope/filter.h"

namespace keyscope {
namespace {

using namespace std::string_literals;
using test::put;

std::string printed(std::string_view text) {
  auto f = parseFilter(text);
  return f ? (*f)->toString() : "error: " + f.status().message();
}

// parseFilter fails with InvalidArgument whose message starts with
// "column <column>: " and contains `fragment`.
::testing::AssertionResult failsAt(std::string_view text, size_t column, std::string_view fragment) {
  auto f = parseFilter(text);
  if (f) return ::testing::AssertionFailure() << text << " parsed as " << (*f)->toString();
  const Status& s = f.status();
  if (s.code() != Status::Code::kInvalidArgument) return ::testing::AssertionFailure() << s.toString();
  const std::string prefix = "column " + std::to_string(column) + ": ";
  if (s.message().rfind(prefix, 0) != 0 || s.message().find(fragment) == std::string::npos) {
    return ::testing::AssertionFailure() << text << ": \"" << s.message() << "\" is not \"" << prefix << "..."
                                         << fragment << "...\"";
  }
  return ::testing::AssertionSuccess();
}

TEST(ParseFilter, AndBindsTighterThanOrAndChainsAreFlat) {
  EXPECT_EQ(printed("PrefixFilter ('a') OR PrefixFilter ('b') AND PrefixFilter ('c')"),
            "(PrefixFilter ('a') OR (PrefixFilter ('b') AND PrefixFilter ('c')))");
  EXPECT_EQ(printed("PrefixFilter ('a') AND PrefixFilter ('b') OR PrefixFilter ('c')"),
            "((PrefixFilter ('a') AND PrefixFilter ('b')) OR PrefixFilter ('c'))");
  EXPECT_EQ(printed("PrefixFilter ('a') AND PrefixFilter ('b') AND PrefixFilter ('c')"),
            "(PrefixFilter ('a') AND PrefixFilter ('b') AND PrefixFilter ('c'))");
  EXPECT_EQ(printed("(PrefixFilter ('a') AND PrefixFilter ('b')) AND PrefixFilter ('c')"),
            "((PrefixFilter ('a') AND PrefixFilter ('b')) AND PrefixFilter ('c'))");
  EXPECT_EQ(printed("(PrefixFilter ('a') OR PrefixFilter ('b')) AND PrefixFilter ('c')"),
            "((PrefixFilter ('a') OR PrefixFilter ('b')) AND PrefixFilter ('c'))");
  EXPECT_EQ(printed("((PrefixFilter ('a')))"), "PrefixFilter ('a')");
}

TEST(ParseFilter, SkipAndWhileBindTightest) {
  EXPECT_EQ(printed("SKIP PrefixFilter ('a') AND PrefixFilter ('b')"), "(SKIP PrefixFilter ('a') AND PrefixFilter ('b'))");
  EXPECT_EQ(printed("SKIP (PrefixFilter ('a') AND PrefixFilter ('b'))"), "SKIP (PrefixFilter ('a') AND PrefixFilter ('b'))");
  EXPECT_EQ(printed("WHILE SKIP KeyOnlyFilter ()"), "WHILE SKIP KeyOnlyFilter ()");
  EXPECT_EQ(printed("PrefixFilter ('a') OR WHILE PrefixFilter ('b')"), "(PrefixFilter ('a') OR WHILE PrefixFilter ('b'))");
  EXPECT_EQ(printed("SKIP(KeyOnlyFilter())AND(WHILE(FirstKeyOnlyFilter()))"),
            "(SKIP KeyOnlyFilter () AND WHILE FirstKeyOnlyFilter ())");
}

TEST(ParseFilter, ArgumentsAndWhitespace) {
  EXPECT_EQ(printed("PrefixFilter('it''s')"), "PrefixFilter ('it''s')");
  EXPECT_EQ(printed("PrefixFilter ('''')"), "PrefixFilter ('''')");
  EXPECT_EQ(printed("\tPrefixFilter\n(\r'x' )  "), "PrefixFilter ('x')");
  EXPECT_EQ(printed("KeyOnlyFilter (TRUE)"), "KeyOnlyFilter (true)");
  EXPECT_EQ(printed("KeyOnlyFilter (False)"), "KeyOnlyFilter ()");
  EXPECT_EQ(printed("ValueFilter(!=,'binary:a,b)')"), "ValueFilter (!=, 'binary:a,b)')");
  EXPECT_EQ(printed("PageFilter (007)"), "PageFilter (7)");
  EXPECT_EQ(printed("TimestampsFilter (9223372036854775807, 0)"), "TimestampsFilter (0, 9223372036854775807)");
  EXPECT_EQ(printed("PrefixFilter ('\x00\xff''')"s), "PrefixFilter ('\x00\xff''')"s) << "bytes are taken as is";
  EXPECT_EQ(printed("SingleColumnValueFilter ('f', 'q', >=, 'binary:5', false, true)"),
            "SingleColumnValueFilter ('f', 'q', >=, 'binary:5')");
  EXPECT_EQ(printed("DependentColumnFilter ('f', 'q', false)"), "DependentColumnFilter ('f', 'q')");
}

// Every filter prints as text that parses back to a filter that prints the
// same and filters the same cells.
TEST(ParseFilter, ToStringReadsBackToAnEquivalentFilter) {
  const char* texts[] = {
      "PrefixFilter ('r1')",
      "ColumnPrefixFilter ('b')",
      "MultipleColumnPrefixFilter ('b', 'a''b', 'q')",
      "MultipleColumnPrefixFilter ()",
      "QualifierFilter (>, 'binary:a')",
      "ValueFilter (=, 'regexstring:^v[0-9]+$')",
      "RowFilter (<=, 'binaryprefix:r2')",
      "FamilyFilter (!=, 'substring:G')",
      "SingleColumnValueFilter ('f', 'a', =, 'binary:v1')",
      "SingleColumnValueFilter ('f', 'a', !=, 'substring:x', true, false)",
      "SingleColumnValueExcludeFilter ('f', 'a', <, 'binary:v9', true, true)",
      "KeyOnlyFilter ()",
      "KeyOnlyFilter (true)",
      "FirstKeyOnlyFilter ()",
      "PageFilter (2)",
      "ColumnCountGetFilter (1)",
      "ColumnPaginationFilter (1, 1)",
      "ColumnPaginationFilter (2, 'b')",
      "ColumnRangeFilter ('a', false, 'c', true)",
      "ColumnRangeFilter ('', true, '', false)",
      "InclusiveStopFilter ('r2')",
      "TimestampsFilter (2, 1)",
      "TimestampsFilter (1, 3, true)",
      "TimestampsFilter (true)",
      "DependentColumnFilter ('f', 'a')",
      "DependentColumnFilter ('f', 'a', true)",
      "DependentColumnFilter ('f', 'a', false, >=, 'binary:v2')",
      "SKIP ValueFilter (!=, 'binary:v3')",
      "WHILE RowFilter (<, 'binary:r3')",
      "(PrefixFilter ('r') AND (KeyOnlyFilter () OR QualifierFilter (=, 'binary:b')))",
      "((PrefixFilter ('r1') OR PrefixFilter ('r3')) AND SKIP WHILE ColumnRangeFilter ('a', true, 'b', true))",
  };
  std::vector<Cell> cells;
  for (int r = 1; r <= 4; ++r) {
    for (const char* fam : {"f", "g"}) {
      for (const char* q : {"a", "a'b", "b", "c"}) {
        for (int ts = 1; ts <= 3; ++ts) {
          cells.push_back(put("r" + std::to_string(r), fam, q, ts, "v" + std::to_string(r * ts)));
        }
      }
    }
  }
  for (const char* text : texts) {
    auto first = parseFilter(text);
    ASSERT_TRUE(first.isOk()) << text << ": " << first.status().toString();
    const std::string once = (*first)->toString();
    auto second = parseFilter(once);
    ASSERT_TRUE(second.isOk()) << once << ": " << second.status().toString();
    EXPECT_EQ((*second)->toString(), once) << text;
    EXPECT_EQ(test::shown(test::drive(**first, cells)), test::shown(test::drive(**second, cells))) << text;
  }
}

TEST(ParseFilter, ErrorsNameTheirColumn) {
  EXPECT_TRUE(failsAt("", 1, "expected a filter name, '(', SKIP or WHILE, got the end of the filter"));
  EXPECT_TRUE(failsAt("   ", 4, "expected a filter name"));
  EXPECT_TRUE(failsAt("Foo ('a')", 1, "unknown filter 'Foo'"));
  EXPECT_TRUE(failsAt("prefixfilter ('a')", 1, "unknown filter 'prefixfilter'"));
  EXPECT_TRUE(failsAt("PrefixFilter 'a'", 14, "expected '(' after PrefixFilter"));
  EXPECT_TRUE(failsAt("PrefixFilter", 13, "expected '(' after PrefixFilter, got the end of the filter"));
  EXPECT_TRUE(failsAt("SingleColumnValueFilter('f','q' =,'binary:x')", 33,
                      "expected ',' or ')' after argument 2 of SingleColumnValueFilter, got '='"));
  EXPECT_TRUE(failsAt("SingleColumnValueFilter('f','q',", 33,
                      "expected argument 3 of SingleColumnValueFilter, got the end of the filter"));
  EXPECT_TRUE(failsAt("PrefixFilter ('a'", 18, "expected ',' or ')' after argument 1 of PrefixFilter"));
  EXPECT_TRUE(failsAt("PrefixFilter ('abc", 15, "unterminated quoted string"));
  EXPECT_TRUE(failsAt("PrefixFilter (,)", 15, "expected argument 1 of PrefixFilter, got ','"));
  EXPECT_TRUE(failsAt("PrefixFilter ('a',)", 19, "expected argument 2 of PrefixFilter, got ')'"));
  EXPECT_TRUE(failsAt("PrefixFilter ()", 15, "PrefixFilter takes 1 argument ('prefix'), got 0 arguments"));
  EXPECT_TRUE(failsAt("PrefixFilter ('a', 'b')", 23, "PrefixFilter takes 1 argument"));
  EXPECT_TRUE(failsAt("SingleColumnValueFilter ('f', 'q', =)", 37, "takes 4 or 6 arguments"));
  EXPECT_TRUE(failsAt("PrefixFilter (abc)", 15, "expected argument 1 of PrefixFilter to be a quoted string, an integer"));
  EXPECT_TRUE(failsAt("PrefixFilter (1)", 15, "argument 1 of PrefixFilter must be a quoted string, got '1'"));
  EXPECT_TRUE(failsAt("PageFilter ('1')", 13, "argument 1 of PageFilter must be an integer, got a quoted string"));
  EXPECT_TRUE(failsAt("PageFilter (-1)", 13, "argument 1 of PageFilter must be in [0, 9223372036854775807], got -1"));
  EXPECT_TRUE(failsAt("PageFilter (99999999999999999999)", 13, "does not fit a 64-bit integer"));
  EXPECT_TRUE(failsAt("ColumnCountGetFilter (2147483648)", 23, "must be in [0, 2147483647]"));
  EXPECT_TRUE(failsAt("ColumnPaginationFilter (1, -2)", 28, "argument 2 of ColumnPaginationFilter must be in"));
  EXPECT_TRUE(failsAt("TimestampsFilter (1, -2)", 22, "argument 2 of TimestampsFilter must be in"));
  EXPECT_TRUE(failsAt("KeyOnlyFilter (yes)", 16, "got 'yes'"));
  EXPECT_TRUE(failsAt("KeyOnlyFilter (1)", 16, "must be true or false"));
  EXPECT_TRUE(failsAt("ValueFilter ('binary:a', =)", 14, "argument 1 of ValueFilter must be a comparison operator"));
  EXPECT_TRUE(failsAt("ValueFilter (==, 'binary:a')", 14, "got '=='"));
  EXPECT_TRUE(failsAt("ValueFilter (=, binary:a)", 17, "got 'binary:a'"));
  EXPECT_TRUE(failsAt("ValueFilter (=, 'abc')", 17, "argument 2 of ValueFilter: comparator 'abc' lacks a type"));
  EXPECT_TRUE(failsAt("ValueFilter (=, 'long:1')", 17, "unknown comparator type 'long'"));
  EXPECT_TRUE(failsAt("ValueFilter (=, 'regexstring:(')", 17, "bad regular expression '('"));
  EXPECT_TRUE(failsAt("ValueFilter (<, 'regexstring:a')", 14,
                      "ValueFilter: a regexstring: comparator can only be used with = and !="));
  EXPECT_TRUE(failsAt("SingleColumnValueFilter ('f', 'q', >, 'substring:a')", 36, "substring: comparator can only"));
  EXPECT_TRUE(failsAt("MultipleColumnPrefixFilter ('a', 'b', 'a')", 39, "prefixes must be distinct; 'a' is given twice"));
  EXPECT_TRUE(failsAt("FirstKeyOnlyFilter (1)", 22, "FirstKeyOnlyFilter takes no arguments"));
  EXPECT_TRUE(failsAt("PrefixFilter ('a') AND", 23, "expected a filter name"));
  EXPECT_TRUE(failsAt("PrefixFilter ('a') AND OR PrefixFilter ('b')", 24, "expected a filter before OR"));
  EXPECT_TRUE(failsAt("PrefixFilter ('a') PrefixFilter ('b')", 20, "expected AND, OR or the end of the filter, got 'PrefixFilter'"));
  EXPECT_TRUE(failsAt("PrefixFilter ('a') and PrefixFilter ('b')", 20, "got 'and'"));
  EXPECT_TRUE(failsAt("(PrefixFilter ('a')", 20, "expected ')' to close the '(' at column 1"));
  EXPECT_TRUE(failsAt("PrefixFilter ('a'))", 19, "expected AND, OR or the end of the filter, got ')'"));
  EXPECT_TRUE(failsAt("()", 2, "expected a filter name, '(', SKIP or WHILE, got ')'"));
  EXPECT_TRUE(failsAt("SKIP", 5, "expected a filter name"));
  EXPECT_TRUE(failsAt("SKIPPrefixFilter ('a')", 1, "unknown filter 'SKIPPrefixFilter'"));
  EXPECT_TRUE(failsAt("PrefixFilter ('a') AND\xff", 23, "got '\\xFF'"));
}

TEST(ParseFilter, NestingAndLengthLimits) {
  auto nested = [](int depth) {
    return std::string(static_cast<size_t>(depth), '(') + "KeyOnlyFilter ()" + std::string(static_cast<size_t>(depth), ')');
  };
  EXPECT_TRUE(parseFilter(nested(64)).isOk());
  EXPECT_TRUE(failsAt(nested(65), 65, "filter nested deeper than 64 levels"));
  std::string skips;
  for (int i = 0; i < 64; ++i) skips += "SKIP ";
  EXPECT_TRUE(parseFilter(skips + "KeyOnlyFilter ()").isOk());
  EXPECT_TRUE(failsAt("SKIP " + skips + "KeyOnlyFilter ()", 321, "nested deeper than 64"));
  EXPECT_TRUE(failsAt(std::string(60000, '('), 65, "nested deeper than 64"));
  std::string longText = "PrefixFilter ('" + std::string(64 * 1024, 'a') + "')";
  EXPECT_TRUE(failsAt(longText, 65537, "the limit is 65536"));
  std::string fits = "PrefixFilter ('" + std::string(64 * 1024 - 17, 'a') + "')";
  ASSERT_EQ(fits.size(), 64u * 1024);
  EXPECT_TRUE(parseFilter(fits).isOk());
}

// Random token soups and random bytes: never a crash; anything accepted prints
// as text that parses to the same print.
TEST(ParseFilter, ArbitraryInputNeverCrashes) {
  const std::vector<std::string> tokens = {
      "PrefixFilter", "ValueFilter", "SingleColumnValueFilter", "TimestampsFilter", "ColumnRangeFilter",
      "KeyOnlyFilter", "DependentColumnFilter", "MultipleColumnPrefixFilter", "ColumnPaginationFilter",
      "(", ")", "(", ")", ",", ",", " ", "'", "''", "'a'", "'binary:x'", "'regexstring:(a|b)*'", "'substring:Q'",
      "AND", "OR", "SKIP", "WHILE", "=", "!=", "<", ">=", "1", "-5", "true", "FALSE", "9999999999999999999999", "\xff",
      "\t", "\x00"s, ":", "KeyOnlyFilter ()", "PrefixFilter ('a')", " AND ", " OR "};
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<size_t> pick(0, tokens.size() - 1), count(0, 24);
  std::uniform_int_distribution<int> byte(0, 255);
  size_t accepted = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string text;
    if (i % 4 == 3) {
      for (size_t n = count(rng); n > 0; --n) text += static_cast<char>(byte(rng));
    } else {
      for (size_t n = count(rng); n > 0; --n) text += tokens[pick(rng)];
    }
    auto f = parseFilter(text);
    if (!f) {
      EXPECT_EQ(f.status().code(), Status::Code::kInvalidArgument);
      EXPECT_EQ(f.status().message().rfind("column ", 0), 0u) << f.status().message();
      continue;
    }
    ++accepted;
    auto again = parseFilter((*f)->toString());
    ASSERT_TRUE(again.isOk()) << toStringBinary(text) << " -> " << (*f)->toString() << ": " << again.status().toString();
    EXPECT_EQ((*again)->toString(), (*f)->toString());
  }
  EXPECT_GT(accepted, 0u);
}

}  // namespace
}  // namespace keyscope
