// Each filter's semantics on hand-built rows, driven as the engine drives a
// filter (filter_test_driver.h), with and without honouring seek hints.
#include <gtest/gtest.h>

#include "filter_test_driver.h"
#include "keyscope/filter.h"

namespace keyscope {
namespace {

using namespace std::string_literals;
using test::put;
using test::textPasses;

TEST(FilterSemantics, PrefixFilterKeepsPrefixedRowsAndEndsPastThem) {
  const std::vector<Cell> cells = {put("a", "f", "q", 1), put("aa", "f", "q", 1), put("ab", "f", "q", 1),
                                   put("ab2", "f", "q", 1), put("b1", "f", "q", 1), put("c", "f", "q", 1)};
  EXPECT_TRUE(textPasses("PrefixFilter ('ab')", cells, {"ab/f:q@1=v", "ab2/f:q@1=v"}));
  test::DriveStats stats;
  test::drive(**parseFilter("PrefixFilter ('ab')"), cells, true, &stats);
  EXPECT_TRUE(stats.endedByFilter);
  EXPECT_EQ(stats.rowsOffered, 5u) << "b1 is offered (and passes the prefix), c is not";
  EXPECT_TRUE(textPasses("PrefixFilter ('')", cells, {"a/f:q@1=v", "aa/f:q@1=v", "ab/f:q@1=v", "ab2/f:q@1=v",
                                                       "b1/f:q@1=v", "c/f:q@1=v"}));
}

TEST(FilterSemantics, ColumnPrefixFilterSeeksToThePrefixAndLeavesTheFamilyPastIt) {
  const std::vector<Cell> cells = {put("r", "f", "a", 1),   put("r", "f", "aa", 1), put("r", "f", "aaz", 1),
                                   put("r", "f", "ab", 2),  put("r", "f", "ab", 1), put("r", "f", "abc", 1),
                                   put("r", "f", "b", 1),   put("r", "g", "a", 1),  put("r", "g", "abz", 1)};
  EXPECT_TRUE(textPasses("ColumnPrefixFilter ('ab')", cells,
                         {"r/f:ab@2=v", "r/f:ab@1=v", "r/f:abc@1=v", "r/g:abz@1=v"}));
  test::DriveStats hinted, unhinted;
  test::drive(**parseFilter("ColumnPrefixFilter ('ab')"), cells, true, &hinted);
  test::drive(**parseFilter("ColumnPrefixFilter ('ab')"), cells, false, &unhinted);
  EXPECT_EQ(hinted.cellsOffered, 7u) << "the hint jumps from f:a to f:ab";
  EXPECT_EQ(unhinted.cellsOffered, 9u);
}

TEST(FilterSemantics, MultipleColumnPrefixFilterUsesTheLargestPrefixNotAbove) {
  const std::vector<Cell> cells = {put("r", "f", "a", 1),  put("r", "f", "ab1", 1), put("r", "f", "ac", 1),
                                   put("r", "f", "b", 1),  put("r", "f", "x1", 1),  put("r", "f", "y", 1)};
  EXPECT_TRUE(textPasses("MultipleColumnPrefixFilter ('x', 'ab')", cells, {"r/f:ab1@1=v", "r/f:x1@1=v"}));
  // HBase's quirk with overlapping prefixes: "ac" starts with "a", but the
  // largest prefix <= "ac" is "ab", so it is not included.
  EXPECT_TRUE(textPasses("MultipleColumnPrefixFilter ('a', 'ab')", cells, {"r/f:a@1=v", "r/f:ab1@1=v"}));
  EXPECT_TRUE(textPasses("MultipleColumnPrefixFilter ()", cells,
                         {"r/f:a@1=v", "r/f:ab1@1=v", "r/f:ac@1=v", "r/f:b@1=v", "r/f:x1@1=v", "r/f:y@1=v"}));
}

// The compare filters keep a cell when `cell op value` holds (HBase evaluates
// comparator.compareTo(cell) and inverts it in CompareFilter.compare).
TEST(FilterSemantics, CompareFiltersKeepCellOpValue) {
  const std::vector<Cell> rows = {put("r1", "f", "q", 1, "v1"), put("r2", "f", "q", 1, "v2"),
                                  put("r3", "f", "q", 1, "v3")};
  const std::vector<Cell> columns = {put("r", "f", "q1", 1, "v1"), put("r", "f", "q2", 1, "v2"),
                                     put("r", "f", "q3", 1, "v3")};
  struct Case { const char* op; std::vector<int> kept; };
  const Case cases[] = {{"<", {1}}, {"<=", {1, 2}}, {"=", {2}}, {"!=", {1, 3}}, {">=", {2, 3}}, {">", {3}}};
  for (const Case& c : cases) {
    std::vector<std::string> byRow, byColumn;
    for (int k : c.kept) {
      byRow.push_back("r" + std::to_string(k) + "/f:q@1=v" + std::to_string(k));
      byColumn.push_back("r/f:q" + std::to_string(k) + "@1=v" + std::to_string(k));
    }
    const std::string op = c.op;
    EXPECT_TRUE(textPasses("RowFilter (" + op + ", 'binary:r2')", rows, byRow));
    EXPECT_TRUE(textPasses("ValueFilter (" + op + ", 'binary:v2')", rows, byRow));
    EXPECT_TRUE(textPasses("QualifierFilter (" + op + ", 'binary:q2')", columns, byColumn));
    EXPECT_TRUE(textPasses("ValueFilter (" + op + ", 'binary:v2')", columns, byColumn));
  }
}

TEST(FilterSemantics, CompareFiltersWithMatchComparators) {
  const std::vector<Cell> cells = {put("r1", "f", "q", 1, "Hello"), put("r2", "f", "q", 1, "world"),
                                   put("r3", "f", "q", 1, "r3")};
  EXPECT_TRUE(textPasses("ValueFilter (=, 'substring:HELL')", cells, {"r1/f:q@1=Hello"}));
  EXPECT_TRUE(textPasses("ValueFilter (!=, 'substring:hell')", cells, {"r2/f:q@1=world", "r3/f:q@1=r3"}));
  EXPECT_TRUE(textPasses("RowFilter (=, 'regexstring:^r[13]$')", cells, {"r1/f:q@1=Hello", "r3/f:q@1=r3"}));
  EXPECT_TRUE(textPasses("ValueFilter (=, 'binaryprefix:wor')", cells, {"r2/f:q@1=world"}));
}

TEST(FilterSemantics, FamilyFilterDropsOtherFamilies) {
  const std::vector<Cell> cells = {put("r", "a", "q", 1), put("r", "a", "z", 1), put("r", "b", "q", 1),
                                   put("r", "c", "q", 1), put("s", "b", "x", 1)};
  EXPECT_TRUE(textPasses("FamilyFilter (=, 'binary:b')", cells, {"r/b:q@1=v", "s/b:x@1=v"}));
  EXPECT_TRUE(textPasses("FamilyFilter (>=, 'binary:b')", cells, {"r/b:q@1=v", "r/c:q@1=v", "s/b:x@1=v"}));
  test::DriveStats stats;
  test::drive(**parseFilter("FamilyFilter (=, 'binary:b')"), cells, true, &stats);
  EXPECT_EQ(stats.cellsOffered, 4u) << "NEXT_ROW on a:q skips a:z, not the other families";
}

const std::vector<Cell> kScvRows = {
    // r1: newest f:q matches.
    put("r1", "f", "a", 1, "x"), put("r1", "f", "q", 2, "yes"), put("r1", "f", "q", 1, "no"), put("r1", "g", "z", 1),
    // r2: newest f:q does not match, an older one does.
    put("r2", "f", "a", 1, "x"), put("r2", "f", "q", 2, "no"), put("r2", "f", "q", 1, "yes"), put("r2", "g", "z", 1),
    put("r2", "g", "z2", 1),
    // r3: no f:q at all.
    put("r3", "f", "a", 1, "x"), put("r3", "g", "z", 1)};

TEST(FilterSemantics, SingleColumnValueFilterDecidesOnTheNewestVersion) {
  EXPECT_TRUE(textPasses("SingleColumnValueFilter ('f', 'q', =, 'binary:yes')", kScvRows,
                         {"r1/f:a@1=x", "r1/f:q@2=yes", "r1/f:q@1=no", "r1/g:z@1=v", "r3/f:a@1=x", "r3/g:z@1=v"}));
  EXPECT_TRUE(textPasses("SingleColumnValueFilter ('f', 'q', =, 'binary:yes', true, true)", kScvRows,
                         {"r1/f:a@1=x", "r1/f:q@2=yes", "r1/f:q@1=no", "r1/g:z@1=v"}));
  // Once the newest version failed, the row's other families are skipped too.
  const std::vector<Cell> r2(kScvRows.begin() + 4, kScvRows.begin() + 9);
  test::DriveStats stats;
  test::drive(**parseFilter("SingleColumnValueFilter ('f', 'q', =, 'binary:yes')"), r2, true, &stats);
  EXPECT_EQ(stats.cellsOffered, 3u) << "f:a, f:q@2, then g:z answers NEXT_ROW and g:z2 is not offered";
}

TEST(FilterSemantics, SingleColumnValueFilterAllVersionsMatchAny) {
  // latestVersionOnly=false: any version may match, and the non-matching
  // versions before it are kept too (HBase includes them).
  EXPECT_TRUE(textPasses("SingleColumnValueFilter ('f', 'q', =, 'binary:yes', true, false)", kScvRows,
                         {"r1/f:a@1=x", "r1/f:q@2=yes", "r1/f:q@1=no", "r1/g:z@1=v", "r2/f:a@1=x", "r2/f:q@2=no",
                          "r2/f:q@1=yes", "r2/g:z@1=v", "r2/g:z2@1=v"}));
  EXPECT_TRUE(parseFilter("SingleColumnValueFilter ('f', 'q', =, 'binary:yes')").value()->hasFilterRow());
}

TEST(FilterSemantics, SingleColumnValueExcludeFilterDropsTheTestedColumn) {
  EXPECT_TRUE(textPasses("SingleColumnValueExcludeFilter ('f', 'q', =, 'binary:yes', true, true)", kScvRows,
                         {"r1/f:a@1=x", "r1/g:z@1=v"}));
}

TEST(FilterSemantics, KeyOnlyFilterEmptiesOrMeasuresValues) {
  const std::vector<Cell> cells = {put("r", "f", "a", 1, "hello"), put("r", "f", "b", 1, "")};
  EXPECT_TRUE(textPasses("KeyOnlyFilter ()", cells, {"r/f:a@1=", "r/f:b@1="}));
  EXPECT_TRUE(textPasses("KeyOnlyFilter (true)", cells, {"r/f:a@1=\\x00\\x00\\x00\\x05", "r/f:b@1=\\x00\\x00\\x00\\x00"}));
}

TEST(FilterSemantics, FirstKeyOnlyFilterKeepsOneCellPerRow) {
  const std::vector<Cell> cells = {put("r1", "f", "a", 2), put("r1", "f", "a", 1), put("r1", "f", "b", 1),
                                   put("r1", "g", "a", 1), put("r2", "g", "c", 5)};
  EXPECT_TRUE(textPasses("FirstKeyOnlyFilter ()", cells, {"r1/f:a@2=v", "r2/g:c@5=v"}));
}

TEST(FilterSemantics, PageFilterCountsRowsThatKeptCells) {
  const std::vector<Cell> cells = {put("r1", "f", "q", 1, "drop"), put("r2", "f", "q", 1, "keep"),
                                   put("r3", "f", "q", 1, "keep"), put("r4", "f", "q", 1, "keep")};
  EXPECT_TRUE(textPasses("PageFilter (2)", cells, {"r1/f:q@1=drop", "r2/f:q@1=keep"}));
  EXPECT_TRUE(textPasses("ValueFilter (=, 'binary:keep') AND PageFilter (2)", cells,
                         {"r2/f:q@1=keep", "r3/f:q@1=keep"}));
  EXPECT_TRUE(textPasses("PageFilter (0)", cells, {}));
  test::DriveStats stats;
  test::drive(**parseFilter("PageFilter (2)"), cells, true, &stats);
  EXPECT_TRUE(stats.endedByFilter);
  EXPECT_EQ(stats.rowsOffered, 2u);
}

TEST(FilterSemantics, CloneStartsFresh) {
  auto proto = parseFilter("PageFilter (1)").value();
  auto live = proto->clone();
  EXPECT_FALSE(live->filterRow());
  EXPECT_TRUE(live->filterRow());
  EXPECT_TRUE(live->filterAllRemaining());
  EXPECT_FALSE(live->clone()->filterAllRemaining()) << "clone() of a used filter is fresh";
  auto prefix = parseFilter("PrefixFilter ('a')").value()->clone();
  EXPECT_TRUE(prefix->filterRowKey("b"));
  EXPECT_TRUE(prefix->filterAllRemaining());
  EXPECT_FALSE(prefix->clone()->filterAllRemaining());
}

TEST(FilterSemantics, ColumnCountGetFilterTakesTheFirstColumnsThenEndsTheScan) {
  const std::vector<Cell> cells = {put("r1", "f", "a", 2), put("r1", "f", "a", 1), put("r1", "f", "b", 1),
                                   put("r1", "f", "c", 1), put("r2", "f", "a", 1)};
  EXPECT_TRUE(textPasses("ColumnCountGetFilter (2)", cells, {"r1/f:a@2=v", "r1/f:b@1=v"}));
  // A row with no more than `limit` columns does not end the scan.
  EXPECT_TRUE(textPasses("ColumnCountGetFilter (3)", cells, {"r1/f:a@2=v", "r1/f:b@1=v", "r1/f:c@1=v", "r2/f:a@1=v"}));
}

TEST(FilterSemantics, ColumnPaginationFilterByOffsetAndByColumn) {
  const std::vector<Cell> cells = {put("r1", "f", "a", 1), put("r1", "f", "b", 2), put("r1", "f", "b", 1),
                                   put("r1", "f", "c", 1), put("r1", "f", "d", 1), put("r2", "f", "c", 1),
                                   put("r2", "f", "e", 1)};
  EXPECT_TRUE(textPasses("ColumnPaginationFilter (2, 1)", cells, {"r1/f:b@2=v", "r1/f:c@1=v", "r2/f:e@1=v"}));
  EXPECT_TRUE(textPasses("ColumnPaginationFilter (2, 'b')", cells,
                         {"r1/f:b@2=v", "r1/f:c@1=v", "r2/f:c@1=v", "r2/f:e@1=v"}));
  EXPECT_TRUE(textPasses("ColumnPaginationFilter (0, 0)", cells, {}));
}

TEST(FilterSemantics, ColumnRangeFilterBoundsAndInclusiveness) {
  const std::vector<Cell> cells = {put("r", "f", "a", 1), put("r", "f", "b", 1), put("r", "f", "c", 1),
                                   put("r", "f", "d", 1), put("r", "f", "e", 1), put("r", "g", "c", 1)};
  EXPECT_TRUE(textPasses("ColumnRangeFilter ('b', true, 'd', false)", cells, {"r/f:b@1=v", "r/f:c@1=v", "r/g:c@1=v"}));
  EXPECT_TRUE(textPasses("ColumnRangeFilter ('b', false, 'd', true)", cells, {"r/f:c@1=v", "r/f:d@1=v", "r/g:c@1=v"}));
  EXPECT_TRUE(textPasses("ColumnRangeFilter ('', true, 'b', true)", cells, {"r/f:a@1=v", "r/f:b@1=v"}));
  EXPECT_TRUE(textPasses("ColumnRangeFilter ('d', true, '', false)", cells, {"r/f:d@1=v", "r/f:e@1=v"}));
}

TEST(FilterSemantics, InclusiveStopFilterIncludesTheStopRow) {
  const std::vector<Cell> cells = {put("r1", "f", "q", 1), put("r2", "f", "q", 1), put("r2a", "f", "q", 1),
                                   put("r3", "f", "q", 1)};
  EXPECT_TRUE(textPasses("InclusiveStopFilter ('r2')", cells, {"r1/f:q@1=v", "r2/f:q@1=v"}));
  test::DriveStats stats;
  test::drive(**parseFilter("InclusiveStopFilter ('r2')"), cells, true, &stats);
  EXPECT_EQ(stats.rowsOffered, 3u) << "the scan ends after the first row past the stop row";
}

TEST(FilterSemantics, TimestampsFilterKeepsListedVersions) {
  const std::vector<Cell> cells = {put("r", "f", "a", 6), put("r", "f", "a", 5), put("r", "f", "a", 4),
                                   put("r", "f", "a", 3), put("r", "f", "a", 2), put("r", "f", "a", 1),
                                   put("r", "f", "b", 3)};
  const std::vector<std::string> expected = {"r/f:a@5=v", "r/f:a@3=v", "r/f:b@3=v"};
  EXPECT_TRUE(textPasses("TimestampsFilter (5, 3)", cells, expected));
  EXPECT_TRUE(textPasses("TimestampsFilter (3, 5, 5, true)", cells, expected));
  EXPECT_TRUE(textPasses("TimestampsFilter ()", cells, {}));
  test::DriveStats stats;
  test::drive(**parseFilter("TimestampsFilter (3, 5)"), cells, true, &stats);
  EXPECT_EQ(stats.cellsOffered, 6u) << "a@2 is below the smallest timestamp: NEXT_COL skips a@1";
}

TEST(FilterSemantics, DependentColumnFilterKeepsCellsStampedLikeTheDependentColumn) {
  const std::vector<Cell> cells = {put("r", "f", "d", 3, "ok"), put("r", "f", "d", 1, "bad"), put("r", "f", "x", 2),
                                   put("r", "f", "x", 1), put("r", "g", "y", 3), put("s", "f", "x", 1)};
  EXPECT_TRUE(textPasses("DependentColumnFilter ('f', 'd')", cells,
                         {"r/f:d@3=ok", "r/f:d@1=bad", "r/f:x@1=v", "r/g:y@3=v"}));
  EXPECT_TRUE(textPasses("DependentColumnFilter ('f', 'd', true)", cells, {"r/f:x@1=v", "r/g:y@3=v"}));
  EXPECT_TRUE(textPasses("DependentColumnFilter ('f', 'd', false, =, 'binary:ok')", cells, {"r/f:d@3=ok", "r/g:y@3=v"}));
}

}  // namespace
}  // namespace keyscope
