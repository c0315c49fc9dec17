// CompareOp and the comparators: names, the operator table, and HBase's operand
// order (comparator value against cell bytes) as the compare filters apply it.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "filter/comparator.h"
#include "filter/compare_filters.h"
#include "keyscope/compare_op.h"

namespace keyscope {
namespace {

using filter::ByteComparator;
using namespace std::string_literals;

const CompareOp kOps[] = {CompareOp::kLess,    CompareOp::kLessOrEqual,    CompareOp::kEqual,
                          CompareOp::kNotEqual, CompareOp::kGreaterOrEqual, CompareOp::kGreater};

ByteComparator comparatorOf(const std::string& spec) {
  auto c = ByteComparator::parse(spec);
  EXPECT_TRUE(c.isOk()) << spec << ": " << c.status().toString();
  return c.isOk() ? *c : *ByteComparator::parse("binary:");
}

TEST(CompareOp, NamesAndSymbolsRoundTrip) {
  for (CompareOp op : kOps) EXPECT_EQ(compareOpFromString(compareOpName(op)), op) << compareOpName(op);
  EXPECT_EQ(compareOpFromString("NO_OP"), CompareOp::kNoOp);
  EXPECT_EQ(compareOpFromString("<"), CompareOp::kLess);
  EXPECT_EQ(compareOpFromString("<="), CompareOp::kLessOrEqual);
  EXPECT_EQ(compareOpFromString("="), CompareOp::kEqual);
  EXPECT_EQ(compareOpFromString("!="), CompareOp::kNotEqual);
  EXPECT_EQ(compareOpFromString(">="), CompareOp::kGreaterOrEqual);
  EXPECT_EQ(compareOpFromString(">"), CompareOp::kGreater);
  EXPECT_EQ(compareOpFromString("=="), std::nullopt);
  EXPECT_EQ(compareOpFromString("less"), std::nullopt);
  EXPECT_EQ(compareOpFromString(""), std::nullopt);
}

TEST(CompareOp, ResultMatchesReadsLeftOpRight) {
  EXPECT_TRUE(compareResultMatches(CompareOp::kLess, -1));
  EXPECT_FALSE(compareResultMatches(CompareOp::kLess, 0));
  EXPECT_TRUE(compareResultMatches(CompareOp::kLessOrEqual, 0));
  EXPECT_FALSE(compareResultMatches(CompareOp::kLessOrEqual, 1));
  EXPECT_TRUE(compareResultMatches(CompareOp::kEqual, 0));
  EXPECT_FALSE(compareResultMatches(CompareOp::kEqual, -5));
  EXPECT_TRUE(compareResultMatches(CompareOp::kNotEqual, 7));
  EXPECT_FALSE(compareResultMatches(CompareOp::kNotEqual, 0));
  EXPECT_TRUE(compareResultMatches(CompareOp::kGreaterOrEqual, 0));
  EXPECT_FALSE(compareResultMatches(CompareOp::kGreaterOrEqual, -1));
  EXPECT_TRUE(compareResultMatches(CompareOp::kGreater, 3));
  EXPECT_FALSE(compareResultMatches(CompareOp::kGreater, 0));
  EXPECT_FALSE(compareResultMatches(CompareOp::kNoOp, 0));
}

// HBase's CompareFilter.compare(op, compareResult) with compareResult =
// comparator.compareTo(cellBytes): true means "filter the cell out".
TEST(CompareOp, FilterOutFollowsCompareFilterCompareTable) {
  // comparator "m" against cell bytes below, equal to and above it.
  const ByteComparator m = comparatorOf("binary:m");
  struct Row { CompareOp op; bool outBelow, outEqual, outAbove; };
  // A cell passes when `cell op value`: "a" < "m" passes LESS, and so on.
  const Row table[] = {
      {CompareOp::kLess, false, true, true},          {CompareOp::kLessOrEqual, false, false, true},
      {CompareOp::kEqual, true, false, true},         {CompareOp::kNotEqual, false, true, false},
      {CompareOp::kGreaterOrEqual, true, false, false}, {CompareOp::kGreater, true, true, false},
  };
  for (const Row& r : table) {
    EXPECT_EQ(filter::compareFilterOut(r.op, m, "a"), r.outBelow) << compareOpName(r.op);
    EXPECT_EQ(filter::compareFilterOut(r.op, m, "m"), r.outEqual) << compareOpName(r.op);
    EXPECT_EQ(filter::compareFilterOut(r.op, m, "z"), r.outAbove) << compareOpName(r.op);
  }
  EXPECT_TRUE(filter::compareFilterOut(CompareOp::kNoOp, m, "m")) << "NO_OP filters every cell out";
}

TEST(CompareOp, FilterKeepsExactlyTheCellsWhereCellOpValueHolds) {
  std::mt19937_64 rng(42);
  std::uniform_int_distribution<int> len(0, 3), byte(0, 3);
  auto randomBytes = [&] {
    std::string s;
    for (int i = len(rng); i > 0; --i) s += static_cast<char>(byte(rng) == 3 ? 0xff : 'a' + byte(rng));
    return s;
  };
  for (int i = 0; i < 2000; ++i) {
    const std::string value = randomBytes(), cell = randomBytes();
    const ByteComparator c = *ByteComparator::make(ByteComparator::Kind::kBinary, value);
    const int cellVersusValue = filter::compareBytes(cell, value);
    for (CompareOp op : kOps) {
      EXPECT_EQ(filter::compareFilterOut(op, c, cell), !compareResultMatches(op, cellVersusValue))
          << compareOpName(op) << " cell=" << toStringBinary(cell) << " value=" << toStringBinary(value);
    }
  }
}

TEST(FilterComparator, BinaryComparesComparatorValueFirstAsUnsignedBytes) {
  EXPECT_GT(comparatorOf("binary:b").compareTo("a"), 0);
  EXPECT_LT(comparatorOf("binary:a").compareTo("b"), 0);
  EXPECT_EQ(comparatorOf("binary:ab").compareTo("ab"), 0);
  EXPECT_LT(comparatorOf("binary:ab").compareTo("abc"), 0) << "a prefix sorts first";
  EXPECT_LT(comparatorOf("binary:a").compareTo("\xff"), 0) << "bytes are unsigned";
  EXPECT_GT(comparatorOf("binary:\x01"s).compareTo(""), 0);
  EXPECT_EQ(comparatorOf("binary:").compareTo(""), 0);
}

TEST(FilterComparator, BinaryPrefixComparesOnlyThePrefixLength) {
  const ByteComparator ab = comparatorOf("binaryprefix:ab");
  EXPECT_EQ(ab.compareTo("abc"), 0);
  EXPECT_EQ(ab.compareTo("ab"), 0);
  EXPECT_GT(ab.compareTo("aa\xff"), 0);
  EXPECT_LT(ab.compareTo("b"), 0);
  EXPECT_GT(ab.compareTo("a"), 0) << "a shorter cell is compared whole";
  EXPECT_EQ(comparatorOf("binaryprefix:").compareTo("anything"), 0);
}

TEST(FilterComparator, RegexFindsAnywhereAndDotMatchesNewlines) {
  EXPECT_EQ(comparatorOf("regexstring:b+c").compareTo("aabbbcdd"), 0) << "find(), not matches()";
  EXPECT_EQ(comparatorOf("regexstring:^b").compareTo("abc"), 1);
  EXPECT_EQ(comparatorOf("regexstring:a.c").compareTo("a\nc"), 0) << "Pattern.DOTALL";
  EXPECT_EQ(comparatorOf("regexstring:a[.]c").compareTo("abc"), 1) << "'.' in a class is literal";
  EXPECT_EQ(comparatorOf("regexstring:a\\.c").compareTo("abc"), 1) << "escaped '.' is literal";
  EXPECT_EQ(comparatorOf("regexstring:a\\.c").compareTo("a.c"), 0);
  EXPECT_EQ(comparatorOf("regexstring:x\\d{2}").compareTo("\xffx42\x00"s), 0) << "any bytes around a match";
  EXPECT_EQ(comparatorOf("regexstring:").compareTo(""), 0);
}

TEST(FilterComparator, RegexOverLongValuesNeitherRecursesNorBacktracksExponentially) {
  const std::string big(1 << 20, 'a');
  EXPECT_EQ(comparatorOf("regexstring:^(a|aa)*$").compareTo(big), 0);
  EXPECT_EQ(comparatorOf("regexstring:(a*)*b").compareTo(std::string(5000, 'a')), 1);
}

TEST(FilterComparator, RegexErrorsAndLimits) {
  EXPECT_FALSE(ByteComparator::parse("regexstring:(").isOk());
  EXPECT_FALSE(ByteComparator::parse("regexstring:[a").isOk());
  auto backref = ByteComparator::parse("regexstring:(a)\\1");
  EXPECT_FALSE(backref.isOk()) << "back-references are not supported";
  auto longPattern = ByteComparator::parse("regexstring:" + std::string(5000, 'a'));
  ASSERT_FALSE(longPattern.isOk());
  EXPECT_NE(longPattern.status().message().find("limit is 4096"), std::string::npos);
  auto deep = ByteComparator::parse("regexstring:" + std::string(100, '(') + std::string(100, ')'));
  ASSERT_FALSE(deep.isOk());
  EXPECT_NE(deep.status().message().find("nests groups"), std::string::npos);
  EXPECT_TRUE(ByteComparator::parse("regexstring:" + std::string(60, '(') + "a" + std::string(60, ')')).isOk());
}

// Found by fuzz_filter_parse: libstdc++ read these numbers into a long without
// an overflow check (UBSan: signed integer overflow), and a count that wrapped
// matched strings it should not have.
TEST(FilterComparator, HugeRepetitionCountsAndBackReferencesAreRefusedBeforeCompiling) {
  const auto message = [](const std::string& pattern) {
    auto c = ByteComparator::parse("regexstring:" + pattern);
    return c ? std::string("compiled") : c.status().message();
  };
  EXPECT_EQ(message("a{" + std::string(30, '1') + "}"),
            "regular expression: repetition count " + std::string(24, '1') + "... at byte 3 is above the limit of 1000");
  EXPECT_EQ(message("a{" + std::string(20, '9') + "}"),
            "regular expression: repetition count " + std::string(20, '9') + " at byte 3 is above the limit of 1000");
  EXPECT_EQ(message("a{1,2147483648}"), "regular expression: repetition count 2147483648 at byte 5 is above the limit of 1000");
  EXPECT_EQ(message("ab{1001}"), "regular expression: repetition count 1001 at byte 4 is above the limit of 1000");
  EXPECT_EQ(message("x\\11111111111111111111"),
            "regular expression: back-reference at byte 2 is not supported (matching stays polynomial without them)");
  EXPECT_EQ(message("a{1000}"), "compiled");
  EXPECT_EQ(message("a{0000001000}"), "compiled");
  EXPECT_EQ(message("a{2,}b{0,1000}"), "compiled");
  EXPECT_EQ(message("[{99999999999}]"), "compiled");  // in a class: the characters themselves
  EXPECT_EQ(message("\\{99999999999}"), "compiled");  // an escaped brace is a brace
  EXPECT_EQ(comparatorOf("regexstring:^a{3}$").compareTo("aaa"), 0);
  EXPECT_EQ(comparatorOf("regexstring:^a{3}$").compareTo("aaaa"), 1);
}

// Patterns at the limits compile and match with bounded recursion; arbitrary
// patterns either compile or fail cleanly.
TEST(FilterComparator, RegexAtTheLimitsAndArbitraryPatternsAreSafe) {
  std::string groups, optionals;
  for (int i = 0; i < 2048; ++i) groups += "()";
  for (int i = 0; i < 2047; ++i) optionals += "a?";
  EXPECT_EQ(comparatorOf("regexstring:" + groups).compareTo("xyz"), 0);
  EXPECT_EQ(comparatorOf("regexstring:" + optionals + "b").compareTo(std::string(100, 'a') + "b"), 0);
  EXPECT_EQ(comparatorOf("regexstring:" + std::string(4096, 'a')).compareTo(std::string(4096, 'a')), 0);
  EXPECT_FALSE(ByteComparator::parse("regexstring:(a{1000}){1000}").isOk()) << "too many states";
  EXPECT_FALSE(ByteComparator::parse("regexstring:[a-\xff]").isOk());
  const std::string alphabet = "ab.*+?|()[]{}^$\\d,-0129:=!<\x80\xff";
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<size_t> pick(0, alphabet.size() - 1), len(0, 16);
  for (int i = 0; i < 5000; ++i) {
    std::string pattern;
    for (size_t n = len(rng); n > 0; --n) pattern += alphabet[pick(rng)];
    auto c = ByteComparator::make(ByteComparator::Kind::kRegexString, pattern);
    if (c) {
      const int r = c->compareTo("ab\n\x80" "ba,01=");
      EXPECT_TRUE(r == 0 || r == 1);
    }
  }
}

TEST(FilterComparator, SubstringIsCaseInsensitive) {
  EXPECT_EQ(comparatorOf("substring:AbC").compareTo("xxabcxx"), 0);
  EXPECT_EQ(comparatorOf("substring:abc").compareTo("XABCX"), 0);
  EXPECT_EQ(comparatorOf("substring:abd").compareTo("abc"), 1);
  EXPECT_EQ(comparatorOf("substring:").compareTo(""), 0);
  EXPECT_EQ(comparatorOf("substring:a").compareTo(""), 1);
}

TEST(FilterComparator, SpecsNeedAKnownType) {
  EXPECT_FALSE(ByteComparator::parse("abc").isOk());
  EXPECT_FALSE(ByteComparator::parse("Binary:abc").isOk()) << "types are case-sensitive, as in HBase";
  EXPECT_FALSE(ByteComparator::parse("long:1").isOk());
  EXPECT_EQ(comparatorOf("binary:a:b").value(), "a:b") << "only the first ':' separates";
  EXPECT_EQ(comparatorOf("substring:AbC").spec(), "substring:AbC") << "the spec keeps the original case";
}

}  // namespace
}  // namespace keyscope
