// Scan bounds, paging and per-family limits (HBASE-SEMANTICS.md B5, Scan.java):
// start inclusive and stop exclusive unless overridden; empty means
// unbounded; setRowPrefixFilter's stop row (calculateTheClosestNextRowKeyForPrefix,
// with its 0xFF edge cases); reversed scans start at the high end
// (FromClientSideTestReverseScan); limit; batch and mayHaveMoreCellsInRow;
// maxResultsPerColumnFamily / rowOffsetPerColumnFamily per row and family,
// after filters; count; the same bounds across region boundaries.
#include "engine_test_util.h"

namespace keyscope::test {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

class ScanBoundsStorage : public StorageTest {
 protected:
  // Rows a, b, c, d, e, one cell each; a, c, e written in phase 1.
  void writeRows() {
    createTable("t", {familyOf("f")});
    for (const char* row : {"a", "c", "e"}) fx().put("t", row, "f:q", 1, row);
    afterPhase("t", 1);
    for (const char* row : {"b", "d"}) fx().put("t", row, "f:q", 1, row);
    afterPhase("t", 2);
  }
  std::vector<std::string> rows(const ScanOptions& scan) { return fx().scanRows("t", scan); }
};
KEYSCOPE_STORAGE_CASES(ScanBoundsStorage);

ScanOptions range(const std::string& start, const std::string& stop, bool reversed = false) {
  ScanOptions s;
  s.startRow = start;
  s.stopRow = stop;
  s.reversed = reversed;
  return s;
}

TEST_P(ScanBoundsStorage, StartIsInclusiveStopIsExclusiveEmptyIsUnbounded) {
  writeRows();
  EXPECT_THAT(rows(range("b", "d")), ElementsAre("b", "c"));
  EXPECT_THAT(rows(range("", "c")), ElementsAre("a", "b"));
  EXPECT_THAT(rows(range("c", "")), ElementsAre("c", "d", "e"));
  EXPECT_THAT(rows(range("", "")), ElementsAre("a", "b", "c", "d", "e"));
}

TEST_P(ScanBoundsStorage, InclusiveFlagsOverrideTheDefaults) {
  writeRows();
  ScanOptions s = range("b", "d");
  s.startInclusive = false;
  s.stopInclusive = true;
  EXPECT_THAT(rows(s), ElementsAre("c", "d"));
  s.startInclusive = true;
  EXPECT_THAT(rows(s), ElementsAre("b", "c", "d"));
}

TEST_P(ScanBoundsStorage, AMissingStartRowStartsAtTheNextRow) {
  writeRows();
  EXPECT_THAT(rows(range("bb", "")), ElementsAre("c", "d", "e"));
  EXPECT_THAT(rows(range("bb", "dd")), ElementsAre("c", "d"));
}

TEST_P(ScanBoundsStorage, EqualStartAndStopIsEmptyUnlessStopIsInclusive) {
  writeRows();
  EXPECT_THAT(rows(range("c", "c")), IsEmpty());
  ScanOptions s = range("c", "c");
  s.stopInclusive = true;
  EXPECT_THAT(rows(s), ElementsAre("c"));
}

TEST_P(ScanBoundsStorage, ReversedStartsAtTheHighEndAndStopsBeforeTheLowOne) {
  writeRows();
  EXPECT_THAT(rows(range("d", "b", true)), ElementsAre("d", "c"));
  ScanOptions s = range("d", "b", true);
  s.stopInclusive = true;
  EXPECT_THAT(rows(s), ElementsAre("d", "c", "b"));
  s.startInclusive = false;
  EXPECT_THAT(rows(s), ElementsAre("c", "b"));
  EXPECT_THAT(rows(range("", "", true)), ElementsAre("e", "d", "c", "b", "a"));
  EXPECT_THAT(rows(range("", "c", true)), ElementsAre("e", "d"));
  EXPECT_THAT(rows(range("c", "", true)), ElementsAre("c", "b", "a"));
  // The stop row is the low end: a forward-style range is empty.
  EXPECT_THAT(rows(range("b", "d", true)), IsEmpty());
}

TEST_P(ScanBoundsStorage, ReversedFromAMissingStartRowBeginsAtTheClosestSmallerRow) {
  writeRows();
  EXPECT_THAT(rows(range("cc", "", true)), ElementsAre("c", "b", "a"));
  EXPECT_THAT(rows(range("zz", "d", true)), ElementsAre("e"));
  EXPECT_THAT(rows(range("0", "", true)), IsEmpty());
}

TEST_P(ScanBoundsStorage, LimitCapsTheRowsBothWays) {
  writeRows();
  ScanOptions s;
  s.limit = 2;
  EXPECT_THAT(rows(s), ElementsAre("a", "b"));
  s.reversed = true;
  EXPECT_THAT(rows(s), ElementsAre("e", "d"));
  s.limit = 10;
  EXPECT_EQ(rows(s).size(), 5u);
}

TEST_P(ScanBoundsStorage, CountHonoursBounds) {
  writeRows();
  auto all = fx().ws().count("t", ScanOptions{});
  ASSERT_TRUE(all.isOk());
  EXPECT_EQ(*all, 5u);
  auto some = fx().ws().count("t", range("b", "e"));
  ASSERT_TRUE(some.isOk());
  EXPECT_EQ(*some, 3u);
}

// --- Across regions ---------------------------------------------------------------

TEST(ScanBounds, BoundsAndReversalHoldAcrossRegions) {
  EngineFixture fx;
  fx.createTableWithSplits("t", {familyOf("f")}, {"b", "d"});
  for (const char* row : {"a", "b", "c", "d", "e"}) fx.put("t", row, "f:q", 1, row);
  EXPECT_THAT(fx.scanRows("t", range("", "")), ElementsAre("a", "b", "c", "d", "e"));
  EXPECT_THAT(fx.scanRows("t", range("a", "e")), ElementsAre("a", "b", "c", "d"));
  EXPECT_THAT(fx.scanRows("t", range("bb", "d")), ElementsAre("c"));
  EXPECT_THAT(fx.scanRows("t", range("", "", true)), ElementsAre("e", "d", "c", "b", "a"));
  EXPECT_THAT(fx.scanRows("t", range("d", "a", true)), ElementsAre("d", "c", "b"));
  EXPECT_THAT(fx.scanRows("t", range("cz", "", true)), ElementsAre("c", "b", "a"));
  ScanOptions limited;
  limited.limit = 3;
  limited.reversed = true;
  EXPECT_THAT(fx.scanRows("t", limited), ElementsAre("e", "d", "c"));
  fx.flush("t");
  EXPECT_THAT(fx.scanRows("t", range("d", "a", true)), ElementsAre("d", "c", "b"));
}

// --- setRowPrefix ----------------------------------------------------------------------

TEST(ScanBounds, RowPrefixStopStripsTrailingFFAndIncrements) {
  ScanOptions s;
  s.setRowPrefix(std::string("\x12\x23\xff\xff", 4));
  EXPECT_EQ(s.startRow, std::string("\x12\x23\xff\xff", 4));
  EXPECT_EQ(s.stopRow, std::string("\x12\x24", 2));
  s.setRowPrefix("ab\xfe");
  EXPECT_EQ(s.stopRow, "ab\xff");
  s.setRowPrefix("\xff\xff");
  EXPECT_EQ(s.startRow, "\xff\xff");
  EXPECT_TRUE(s.stopRow.empty());  // all 0xFF: no stop row
  s.setRowPrefix("");
  EXPECT_TRUE(s.startRow.empty());
  EXPECT_TRUE(s.stopRow.empty());
}

TEST(ScanBounds, RowPrefixScanReturnsExactlyTheRowsWithThePrefix) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("f")});
  const std::vector<std::string> all = {
      std::string("\x12\x23", 2),         std::string("\x12\x23\xff\xfe", 4),     std::string("\x12\x23\xff\xff", 4),
      std::string("\x12\x23\xff\xff\x00", 5), std::string("\x12\x23\xff\xff\xff", 5), std::string("\x12\x24", 2),
      "\xfe",                             "\xff",                                std::string("\xff\x00", 2),
      "\xff\xff\xff"};
  for (const std::string& row : all) fx.put("t", row, "f:q", 1, "v");
  ScanOptions s;
  s.setRowPrefix(std::string("\x12\x23\xff\xff", 4));
  EXPECT_THAT(fx.scanRows("t", s), ElementsAre(std::string("\x12\x23\xff\xff", 4), std::string("\x12\x23\xff\xff\x00", 5),
                                               std::string("\x12\x23\xff\xff\xff", 5)));
  s.setRowPrefix("\xff");
  EXPECT_THAT(fx.scanRows("t", s), ElementsAre("\xff", std::string("\xff\x00", 2), "\xff\xff\xff"));
  s.setRowPrefix("\xff\xff");
  EXPECT_THAT(fx.scanRows("t", s), ElementsAre("\xff\xff\xff"));
  s.setRowPrefix("\x12");
  EXPECT_EQ(fx.scanRows("t", s).size(), 6u);
  fx.flush("t");
  s.setRowPrefix("\xff");
  EXPECT_THAT(fx.scanRows("t", s), ElementsAre("\xff", std::string("\xff\x00", 2), "\xff\xff\xff"));
}

// --- batch ---------------------------------------------------------------------------

class ScanBatchStorage : public StorageTest {};
KEYSCOPE_STORAGE_CASES(ScanBatchStorage);

TEST_P(ScanBatchStorage, BatchSplitsARowAndFlagsEveryFragmentButTheLast) {
  createTable("t", {familyOf("f")});
  for (const char* q : {"f:1", "f:2", "f:3"}) fx().put("t", "a", q, 1, "v");
  afterPhase("t", 1);
  for (const char* q : {"f:4", "f:5"}) fx().put("t", "a", q, 1, "v");
  fx().put("t", "b", "f:1", 1, "v");
  afterPhase("t", 2);
  ScanOptions s;
  s.batch = 2;
  const std::vector<RowResult> results = fx().scan("t", s);
  std::vector<std::string> shape;
  for (const RowResult& r : results)
    shape.push_back(r.row + ":" + std::to_string(r.cells.size()) + (r.mayHaveMoreCellsInRow ? "+" : ""));
  EXPECT_THAT(shape, ElementsAre("a:2+", "a:2+", "a:1", "b:1"));
  // Concatenated, the fragments are the whole rows.
  EXPECT_THAT(describeFull(fx().scanCells("t", s)), ElementsAre("a/f:1@1=v", "a/f:2@1=v", "a/f:3@1=v", "a/f:4@1=v",
                                                                "a/f:5@1=v", "b/f:1@1=v"));
  auto count = fx().ws().count("t", s);
  ASSERT_TRUE(count.isOk());
  EXPECT_EQ(*count, 2u);
  // limit counts rows, not fragments.
  s.limit = 1;
  EXPECT_EQ(fx().scan("t", s).size(), 3u);
}

TEST(ScanBounds, BatchWithARowFilterIsRefused) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("f")});
  auto filter = parseFilter("SingleColumnValueFilter ('f', 'q', =, 'binary:v')");
  ASSERT_TRUE(filter.isOk()) << filter.status().toString();
  ScanOptions s;
  s.batch = 2;
  s.filter = *filter;
  auto scanner = fx.ws().scan("t", s);
  ASSERT_FALSE(scanner.isOk());
  EXPECT_EQ(scanner.status().code(), Status::Code::kInvalidArgument);
}

// --- maxResultsPerFamily / rowOffsetPerFamily --------------------------------------------

class PerFamilyStorage : public StorageTest {
 protected:
  void writeRows() {
    createTable("t", {familyOf("f").versions(3), familyOf("g")});
    for (const char* q : {"f:q1", "f:q2"}) fx().put("t", "r1", q, 1, "v");
    fx().put("t", "r1", "g:a", 1, "v");
    afterPhase("t", 1);
    for (const char* q : {"f:q10", "f:q3"}) fx().put("t", "r1", q, 1, "v");
    fx().put("t", "r1", "f:q1", 2, "v2");
    for (const char* q : {"g:b", "g:c"}) fx().put("t", "r1", q, 1, "v");
    for (const char* q : {"f:q1", "f:q2", "f:q3"}) fx().put("t", "r2", q, 1, "v");
    afterPhase("t", 2);
  }
  static std::vector<std::string> columns(const std::vector<Cell>& cells) {
    std::vector<std::string> out;
    for (const Cell& c : cells) out.push_back(c.row + "/" + c.family + ":" + c.qualifier + "@" + std::to_string(c.timestamp));
    return out;
  }
};
KEYSCOPE_STORAGE_CASES(PerFamilyStorage);

TEST_P(PerFamilyStorage, LimitAndOffsetApplyPerRowAndPerFamilyInByteOrder) {
  writeRows();
  ScanOptions s;
  s.maxResultsPerFamily = 2;
  s.rowOffsetPerFamily = 1;
  // Qualifiers sort as bytes: q1 < q10 < q2 < q3.
  EXPECT_THAT(columns(fx().scanCells("t", s)),
              ElementsAre("r1/f:q10@1", "r1/f:q2@1", "r1/g:b@1", "r1/g:c@1", "r2/f:q2@1", "r2/f:q3@1"));
  GetOptions get;
  get.row = "r1";
  get.maxResultsPerFamily = 1;
  EXPECT_THAT(columns(fx().get("t", get)), ElementsAre("r1/f:q1@2", "r1/g:a@1"));
}

TEST_P(PerFamilyStorage, LimitCountsVersionsAsCells) {
  writeRows();
  GetOptions get;
  get.row = "r1";
  get.columns = {column("f")};
  get.maxVersions = 3;
  get.maxResultsPerFamily = 2;
  EXPECT_THAT(columns(fx().get("t", get)), ElementsAre("r1/f:q1@2", "r1/f:q1@1"));
}

TEST_P(PerFamilyStorage, LimitAndOffsetApplyAfterTheFilter) {
  writeRows();
  auto filter = parseFilter("ColumnPrefixFilter ('q1')");
  ASSERT_TRUE(filter.isOk()) << filter.status().toString();
  ScanOptions s;
  s.filter = *filter;
  s.rowOffsetPerFamily = 1;
  EXPECT_THAT(columns(fx().scanCells("t", s)), ElementsAre("r1/f:q10@1"));
}

}  // namespace
}  // namespace keyscope::test

namespace keyscope::test {
namespace {

// A scanner keeps going, without losing or repeating a row, when a flush and
// a compaction replace the store files under it (it reopens at the next row).
TEST(ScanBounds, AScannerSurvivesFlushAndCompactionMidScan) {
  for (bool reversed : {false, true}) {
    SCOPED_TRACE(reversed ? "reversed" : "forward");
    EngineFixture fx;
    const std::string table = reversed ? "r" : "f";
    fx.createTable(table, {familyOf("f")});
    for (const char* row : {"a", "b", "c", "d"}) fx.put(table, row, "f:q", 1, row);
    fx.put(table, "b", "f:q2", 1, "b2");
    ScanOptions scan;
    scan.reversed = reversed;
    scan.batch = 1;
    auto scanner = fx.ws().scan(table, scan);
    ASSERT_TRUE(scanner.isOk());
    std::vector<std::string> seen;
    RowResult row;
    ASSERT_TRUE((*scanner)->next(&row));
    seen.push_back(row.row + (row.mayHaveMoreCellsInRow ? "+" : ""));
    fx.flush(table);
    fx.put(table, "e", "f:q", 1, "e");
    fx.flush(table);
    fx.majorCompact(table);
    while ((*scanner)->next(&row)) seen.push_back(row.row + (row.mayHaveMoreCellsInRow ? "+" : ""));
    EXPECT_TRUE((*scanner)->status().isOk());
    if (reversed) {
      EXPECT_THAT(seen, ElementsAre("d", "c", "b+", "b", "a"));
    } else {
      EXPECT_THAT(seen, ElementsAre("a", "b+", "b", "c", "d", "e"));
    }
  }
}

// A scanner reading store files keeps its SQLite read snapshot between calls;
// after a compaction it reopens on the new file, whose pages that old
// snapshot cannot see: it must read them through a fresh one, and neither
// lose nor repeat a row.
TEST(ScanBounds, AScannerReadingStoreFilesSurvivesACompactionMidScan) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("f")});
  for (int i = 0; i < 50; ++i) fx.put("t", "row" + std::to_string(100 + i), "f:q", 1, std::string(200, 'v'));
  fx.flush("t");
  auto scanner = fx.ws().scan("t", ScanOptions{});
  ASSERT_TRUE(scanner.isOk());
  RowResult row;
  ASSERT_TRUE((*scanner)->next(&row));
  EXPECT_EQ(row.row, "row100");
  fx.put("t", "row999", "f:q", 1, "last");
  fx.flush("t");
  fx.majorCompact("t");
  int rows = 1;
  while ((*scanner)->next(&row)) ++rows;
  EXPECT_TRUE((*scanner)->status().isOk()) << (*scanner)->status().toString();
  EXPECT_EQ(rows, 51);
  EXPECT_EQ(row.row, "row999");
}

TEST(ScanBounds, AStopRowBelowTheStartRowIsEmpty) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("f")});
  for (const char* row : {"a", "b", "c"}) fx.put("t", row, "f:q", 1, row);
  EXPECT_THAT(fx.scanRows("t", range("c", "a")), IsEmpty());
}

}  // namespace
}  // namespace keyscope::test
