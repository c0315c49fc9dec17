// FilterList (AND / OR) return-code merging and state rules, SKIP and WHILE.
// The merge tables are transcribed from the javadoc of HBase 2's
// FilterListWithAND / FilterListWithOR.mergeReturnCode.
#include <gtest/gtest.h>

#include <array>

#include "filter/filter_list.h"
#include "filter_test_driver.h"
#include "keyscope/filter.h"

namespace keyscope {
namespace {

using filter::FilterList;
using test::put;
using test::textPasses;
using RC = FilterCode;

// A filter answering a fixed code (and, optionally, a fixed hint), counting calls.
class Fixed final : public Filter {
 public:
  explicit Fixed(RC code, std::optional<SeekHint> hint = std::nullopt, int* calls = nullptr)
      : m_code(code), m_hint(std::move(hint)), m_calls(calls) {}
  std::unique_ptr<Filter> clone() const override { return std::make_unique<Fixed>(m_code, m_hint, m_calls); }
  std::string toString() const override { return "Fixed"; }
  FilterCode filterCell(const CellRef&) override {
    if (m_calls) ++*m_calls;
    return m_code;
  }
  std::optional<SeekHint> getNextCellHint(const CellRef&) override { return m_hint; }

 private:
  RC m_code;
  std::optional<SeekHint> m_hint;
  int* m_calls;
};

std::unique_ptr<FilterList> listOf(FilterList::Operator op, std::unique_ptr<Filter> a, std::unique_ptr<Filter> b,
                                   std::unique_ptr<Filter> c = nullptr) {
  std::vector<std::unique_ptr<Filter>> v;
  v.push_back(std::move(a));
  v.push_back(std::move(b));
  if (c) v.push_back(std::move(c));
  return std::make_unique<FilterList>(op, std::move(v));
}

// Order of the javadoc tables' rows and columns.
constexpr std::array<RC, 7> kCodes = {RC::kInclude,  RC::kIncludeAndNextCol, RC::kIncludeAndSeekNextRow, RC::kSkip,
                                      RC::kNextCol, RC::kNextRow,            RC::kSeekNextUsingHint};
const char* name(RC rc) {
  switch (rc) {
    case RC::kInclude: return "INCLUDE";
    case RC::kIncludeAndNextCol: return "INCLUDE_AND_NEXT_COL";
    case RC::kIncludeAndSeekNextRow: return "INCLUDE_AND_SEEK_NEXT_ROW";
    case RC::kSkip: return "SKIP";
    case RC::kNextCol: return "NEXT_COL";
    case RC::kNextRow: return "NEXT_ROW";
    case RC::kSeekNextUsingHint: return "SEEK_NEXT_USING_HINT";
  }
  return "?";
}

constexpr RC I = RC::kInclude, IC = RC::kIncludeAndNextCol, IR = RC::kIncludeAndSeekNextRow, S = RC::kSkip,
             NC = RC::kNextCol, NR = RC::kNextRow, H = RC::kSeekNextUsingHint;

// table[local][previous]
constexpr RC kAndTable[7][7] = {
    {I, IC, IR, S, NC, NR, H},      {IC, IC, IR, NC, NC, NR, H},    {IR, IR, IR, NR, NR, NR, H},
    {S, NC, NR, S, NC, NR, H},      {NC, NC, NR, NC, NC, NR, H},    {NR, NR, NR, NR, NR, NR, H},
    {H, H, H, H, H, H, H}};
constexpr RC kOrTable[7][7] = {
    {I, I, I, I, I, I, I},          {I, IC, IC, I, IC, IC, I},      {I, IC, IR, I, IC, IR, I},
    {I, I, I, S, S, S, S},          {I, IC, IC, S, NC, NC, S},      {I, IC, IR, S, NC, NR, S},
    {I, I, I, S, S, S, H}};

const Cell kCell = put("r", "f", "q", 1);

TEST(FilterList, OrMergesByTheMinimalStepTable) {
  for (size_t prev = 0; prev < 7; ++prev) {
    for (size_t local = 0; local < 7; ++local) {
      auto list = listOf(FilterList::Operator::kMustPassOne, std::make_unique<Fixed>(kCodes[prev]),
                         std::make_unique<Fixed>(kCodes[local]));
      EXPECT_EQ(list->filterCell(test::refOf(kCell)), kOrTable[local][prev])
          << name(kCodes[prev]) << " then " << name(kCodes[local]);
    }
  }
}

TEST(FilterList, AndMergesByTheMaximalStepTableWhileTheMergeStillIncludes) {
  for (size_t prev = 0; prev < 7; ++prev) {
    for (size_t local = 0; local < 7; ++local) {
      int secondCalls = 0;
      auto list = listOf(FilterList::Operator::kMustPassAll, std::make_unique<Fixed>(kCodes[prev]),
                         std::make_unique<Fixed>(kCodes[local], std::nullopt, &secondCalls));
      const bool firstIncludes = prev < 3;
      // HBASE-20565: once the merged code excludes the cell, later members are not asked.
      const RC expected = firstIncludes ? kAndTable[local][prev] : kCodes[prev];
      EXPECT_EQ(list->filterCell(test::refOf(kCell)), expected) << name(kCodes[prev]) << " then " << name(kCodes[local]);
      EXPECT_EQ(secondCalls, firstIncludes ? 1 : 0) << name(kCodes[prev]) << " then " << name(kCodes[local]);
    }
  }
}

TEST(FilterList, AndSeeksToTheLargestHintOrSkipsToTheNextRowWhenAMemberIsDone) {
  auto list = listOf(FilterList::Operator::kMustPassAll,
                     std::make_unique<Fixed>(RC::kSeekNextUsingHint, SeekHint{"f", "m", false}),
                     std::make_unique<Fixed>(RC::kInclude),
                     std::make_unique<Fixed>(RC::kInclude));
  auto both = listOf(FilterList::Operator::kMustPassAll, std::make_unique<Fixed>(RC::kInclude),
                     std::make_unique<Fixed>(RC::kSeekNextUsingHint, SeekHint{"f", "c", false}));
  EXPECT_EQ(both->filterCell(test::refOf(kCell)), RC::kSeekNextUsingHint);
  EXPECT_EQ(both->getNextCellHint(test::refOf(kCell))->qualifier, "c");
  EXPECT_EQ(list->filterCell(test::refOf(kCell)), RC::kSeekNextUsingHint);
  EXPECT_EQ(list->getNextCellHint(test::refOf(kCell))->qualifier, "m");
  // A member whose filterAllRemaining() is true makes the AND answer NEXT_ROW.
  auto done = parseFilter("KeyOnlyFilter () AND InclusiveStopFilter ('a')").value()->clone();
  EXPECT_TRUE(done->filterRowKey("b"));
  EXPECT_EQ(done->filterCell(test::refOf(kCell)), RC::kNextRow);
}

TEST(FilterList, OrHintIsTheSmallestAndOnlyWhenEveryMemberHasOne) {
  auto hinted = listOf(FilterList::Operator::kMustPassOne,
                       std::make_unique<Fixed>(RC::kSeekNextUsingHint, SeekHint{"f", "m", false}),
                       std::make_unique<Fixed>(RC::kSeekNextUsingHint, SeekHint{"f", "k", false}));
  EXPECT_EQ(hinted->filterCell(test::refOf(kCell)), RC::kSeekNextUsingHint);
  EXPECT_EQ(hinted->getNextCellHint(test::refOf(kCell))->qualifier, "k");
  auto partly = listOf(FilterList::Operator::kMustPassOne,
                       std::make_unique<Fixed>(RC::kSeekNextUsingHint, SeekHint{"f", "m", false}),
                       std::make_unique<Fixed>(RC::kSkip));
  EXPECT_EQ(partly->filterCell(test::refOf(kCell)), RC::kSkip);
  EXPECT_FALSE(partly->getNextCellHint(test::refOf(kCell)).has_value());
}

// HBASE-17678 / HBASE-18368: an OR member's NEXT_COL / NEXT_ROW / hint still
// covers the following cells, so it is not asked about them again.
TEST(FilterList, OrDoesNotAskAMemberAgainWhileItsLastAnswerCoversTheCell) {
  const std::vector<Cell> cells = {put("r", "f", "a", 3), put("r", "f", "a", 2), put("r", "f", "b", 1),
                                   put("r", "f", "c", 1), put("r", "f", "d", 1), put("r", "g", "a", 1)};
  int nextCol = 0, nextRow = 0, seek = 0;
  auto run = [&](RC code, int* calls, std::optional<SeekHint> hint = std::nullopt) {
    auto list = listOf(FilterList::Operator::kMustPassOne, std::make_unique<Fixed>(code, hint, calls),
                       std::make_unique<Fixed>(RC::kSkip));
    EXPECT_TRUE(test::drive(*list, cells).empty());
  };
  run(RC::kNextCol, &nextCol);
  EXPECT_EQ(nextCol, 5) << "asked for f:a@3, f:b, f:c, f:d, g:a; not for f:a@2";
  run(RC::kNextRow, &nextRow);
  EXPECT_EQ(nextRow, 2) << "asked for the first cell of each family";
  run(RC::kSeekNextUsingHint, &seek, SeekHint{"f", "c", false});
  EXPECT_EQ(seek, 4) << "not asked for f:a@2 and f:b, which lie before its hint f:c";
}

TEST(FilterList, AndStopsOfferingTheCellOnceItIsExcluded) {
  // HBASE-20565: the pagination member only counts cells the value test passed.
  const std::vector<Cell> cells = {put("r", "f", "a", 1, "drop"), put("r", "f", "b", 1, "keep"),
                                   put("r", "f", "c", 1, "keep")};
  EXPECT_TRUE(textPasses("ValueFilter (=, 'binary:keep') AND ColumnPaginationFilter (1, 0)", cells, {"r/f:b@1=keep"}));
}

TEST(FilterList, OrTransformsOnlyWithTheMembersThatIncludedTheCell) {
  const std::vector<Cell> cells = {put("r", "f", "a", 1, "a"), put("r", "f", "b", 1, "b"), put("r", "f", "c", 1, "c")};
  EXPECT_TRUE(textPasses("(ValueFilter (=, 'binary:a') AND KeyOnlyFilter ()) OR ValueFilter (=, 'binary:b')", cells,
                         {"r/f:a@1=", "r/f:b@1=b"}));
  EXPECT_TRUE(textPasses("KeyOnlyFilter () AND ValueFilter (!=, 'binary:c')", cells, {"r/f:a@1=", "r/f:b@1="}));
}

TEST(FilterList, RowKeyAndAllRemainingCombine) {
  const std::vector<Cell> cells = {put("a1", "f", "q", 1), put("b1", "f", "q", 1), put("c1", "f", "q", 1),
                                   put("d1", "f", "q", 1)};
  EXPECT_TRUE(textPasses("PrefixFilter ('a') OR PrefixFilter ('c')", cells, {"a1/f:q@1=v", "c1/f:q@1=v"}));
  EXPECT_TRUE(textPasses("PrefixFilter ('a') AND KeyOnlyFilter ()", cells, {"a1/f:q@1="}));
  test::DriveStats stats;
  test::drive(**parseFilter("PrefixFilter ('b') AND KeyOnlyFilter ()"), cells, true, &stats);
  EXPECT_TRUE(stats.endedByFilter) << "AND: one member done ends the scan";
  test::DriveStats orStats;
  test::drive(**parseFilter("PrefixFilter ('a') OR PrefixFilter ('b')"), cells, true, &orStats);
  EXPECT_EQ(orStats.rowsOffered, 3u) << "OR: the scan ends only when every member is done";
}

TEST(FilterList, FilterRowNeedsAllForOrAndAnyForAnd) {
  const std::vector<Cell> cells = {put("r1", "f", "q", 1, "x"), put("r2", "f", "s", 1, "y"), put("r3", "f", "q", 1, "z")};
  const char* q = "SingleColumnValueFilter ('f', 'q', =, 'binary:x', true, true)";
  const char* s = "SingleColumnValueFilter ('f', 's', =, 'binary:y', true, true)";
  EXPECT_TRUE(textPasses(std::string(q) + " OR " + s, cells, {"r1/f:q@1=x", "r2/f:s@1=y"}));
  EXPECT_TRUE(textPasses(std::string(q) + " AND " + s, cells, {}));
  EXPECT_TRUE(parseFilter(std::string("KeyOnlyFilter () OR ") + q).value()->hasFilterRow());
  EXPECT_FALSE(parseFilter("KeyOnlyFilter () OR FirstKeyOnlyFilter ()").value()->hasFilterRow());
}

TEST(FilterList, SkipDropsRowsWithAnyRejectedCell) {
  const std::vector<Cell> cells = {put("r1", "f", "a", 1, "1"), put("r1", "f", "b", 1, "0"), put("r2", "f", "a", 1, "1"),
                                   put("r2", "f", "b", 1, "2")};
  EXPECT_TRUE(textPasses("ValueFilter (!=, 'binary:0')", cells, {"r1/f:a@1=1", "r2/f:a@1=1", "r2/f:b@1=2"}));
  EXPECT_TRUE(textPasses("SKIP ValueFilter (!=, 'binary:0')", cells, {"r2/f:a@1=1", "r2/f:b@1=2"}));
  // HBase's SkipFilter does not forward filterRowKey, so a row filter under
  // SKIP never learns its row and rejects every cell.
  EXPECT_TRUE(textPasses("SKIP PrefixFilter ('r')", cells, {}));
}

TEST(FilterList, WhileEndsTheScanAtTheFirstRejection) {
  const std::vector<Cell> rows = {put("r1", "f", "q", 1), put("r2", "f", "q", 1), put("r3", "f", "q", 1),
                                  put("r4", "f", "q", 1)};
  EXPECT_TRUE(textPasses("WHILE RowFilter (!=, 'binary:r3')", rows, {"r1/f:q@1=v", "r2/f:q@1=v"}));
  EXPECT_TRUE(textPasses("RowFilter (!=, 'binary:r3')", rows, {"r1/f:q@1=v", "r2/f:q@1=v", "r4/f:q@1=v"}));
  // A rejected cell ends the scan after its row; that row keeps its other cells.
  const std::vector<Cell> cells = {put("r1", "f", "a", 1, "ok"), put("r1", "f", "b", 1, "ok"), put("r2", "f", "a", 1, "ok"),
                                   put("r2", "f", "b", 1, "bad"), put("r2", "f", "c", 1, "ok"), put("r3", "f", "a", 1, "ok")};
  EXPECT_TRUE(textPasses("WHILE ValueFilter (=, 'binary:ok')", cells,
                         {"r1/f:a@1=ok", "r1/f:b@1=ok", "r2/f:a@1=ok", "r2/f:c@1=ok"}));
}

TEST(FilterList, PrecedenceDecidesWhatIsFiltered) {
  const std::vector<Cell> cells = {put("a", "f", "q", 1, "1"), put("b", "f", "q", 1, "2"), put("c", "f", "q", 1, "1")};
  // AND binds tighter: a OR (b AND value=1) -> only a.
  EXPECT_TRUE(textPasses("RowFilter (=, 'binary:a') OR RowFilter (=, 'binary:b') AND ValueFilter (=, 'binary:1')",
                         cells, {"a/f:q@1=1"}));
  EXPECT_TRUE(textPasses("(RowFilter (=, 'binary:a') OR RowFilter (=, 'binary:b')) AND ValueFilter (=, 'binary:1')",
                         cells, {"a/f:q@1=1"}));
  EXPECT_TRUE(textPasses("(RowFilter (=, 'binary:a') OR RowFilter (=, 'binary:b')) AND ValueFilter (=, 'binary:2')",
                         cells, {"b/f:q@1=2"}));
  // SKIP binds tighter than AND: (SKIP value=1) AND qualifier=q keeps x's q;
  // SKIP (value=1 AND qualifier=q) would drop row x for its p.
  const std::vector<Cell> xy = {put("x", "f", "p", 1, "1"), put("x", "f", "q", 1, "1"), put("y", "f", "p", 1, "2"),
                                put("y", "f", "q", 1, "1")};
  EXPECT_TRUE(textPasses("SKIP ValueFilter (=, 'binary:1') AND QualifierFilter (=, 'binary:q')", xy, {"x/f:q@1=1"}));
  EXPECT_TRUE(textPasses("SKIP (ValueFilter (=, 'binary:1') AND QualifierFilter (=, 'binary:q'))", xy, {}));
}

}  // namespace
}  // namespace keyscope
