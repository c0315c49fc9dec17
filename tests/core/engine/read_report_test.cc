// The read report (DESIGN.md "The engine"): which store files a read skipped
// and why - key range, time range or TTL (StoreFileReader.passesTimerangeFilter,
// HBASE-SEMANTICS.md B3), bloom filter on gets (B8: ROW for single-row reads,
// ROWCOL when exactly one column is asked for) - and the page cache at work.
// Skipping must never change a result (TestScanWithBloomError).
#include "engine_test_util.h"

namespace keyscope::test {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

OpenOptions quiet() {
  OpenOptions o;
  o.backgroundCompaction = false;
  return o;
}

ReadReport getReport(EngineFixture& fx, GetOptions get, std::vector<Cell>* cells = nullptr) {
  auto r = fx.ws().get("t", get);
  EXPECT_TRUE(r.isOk()) << r.status().toString();
  if (!r) return {};
  if (cells != nullptr) *cells = r->cells;
  return r->report;
}

ReadReport scanReport(EngineFixture& fx, const ScanOptions& scan, size_t* rows = nullptr) {
  auto scanner = fx.ws().scan("t", scan);
  EXPECT_TRUE(scanner.isOk()) << scanner.status().toString();
  if (!scanner) return {};
  RowResult row;
  size_t n = 0;
  while ((*scanner)->next(&row)) ++n;
  EXPECT_TRUE((*scanner)->status().isOk());
  if (rows != nullptr) *rows = n;
  return (*scanner)->report();
}

GetOptions getRow(const std::string& row) {
  GetOptions g;
  g.row = row;
  return g;
}

TEST(ReadReport, GetSkipsStoreFilesOutsideItsKeyRange) {
  EngineFixture fx(quiet());
  fx.createTable("t", {familyOf("f").bloom(BloomType::kNone)});
  for (const char* row : {"a", "b", "c"}) fx.put("t", row, "f:q", 1, row);
  fx.flush("t");
  for (const char* row : {"x", "y", "z"}) fx.put("t", row, "f:q", 1, row);
  fx.flush("t");
  std::vector<Cell> cells;
  const ReadReport r = getReport(fx, getRow("b"), &cells);
  EXPECT_THAT(describe(cells), ElementsAre("1:b"));
  EXPECT_EQ(r.regionsVisited, 1u);
  EXPECT_EQ(r.storeFilesConsidered, 2u);
  EXPECT_EQ(r.storeFilesSkippedByKeyRange, 1u);
  EXPECT_EQ(r.memstoresRead, 0u);
  EXPECT_EQ(r.cellsReturned, 1u);
  EXPECT_EQ(r.rowsReturned, 1u);
  EXPECT_GE(r.cellsExamined, r.cellsReturned);
  EXPECT_GE(r.pagesRead, 1u);

  ScanOptions scan;
  scan.startRow = "x";
  size_t rows = 0;
  const ReadReport s = scanReport(fx, scan, &rows);
  EXPECT_EQ(rows, 3u);
  EXPECT_EQ(s.storeFilesSkippedByKeyRange, 1u);
  EXPECT_EQ(s.rowsReturned, 3u);
  EXPECT_EQ(s.cellsReturned, 3u);
}

TEST(ReadReport, ReadsSkipStoreFilesOutsideTheirTimeRange) {
  EngineFixture fx(quiet());
  fx.createTable("t", {familyOf("f").versions(5)});
  fx.put("t", "a", "f:q", 10, "old");
  fx.flush("t");
  fx.put("t", "a", "f:q", 100, "new");
  fx.flush("t");
  GetOptions get = getRow("a");
  get.timeRange = {50, 200};
  std::vector<Cell> cells;
  ReadReport r = getReport(fx, get, &cells);
  EXPECT_THAT(describe(cells), ElementsAre("100:new"));
  EXPECT_EQ(r.storeFilesSkippedByTimeRange, 1u);
  get.timeRange = {0, 50};
  r = getReport(fx, get, &cells);
  EXPECT_THAT(describe(cells), ElementsAre("10:old"));
  EXPECT_EQ(r.storeFilesSkippedByTimeRange, 1u);
  ScanOptions scan;
  scan.timeRange = {0, 50};
  EXPECT_EQ(scanReport(fx, scan).storeFilesSkippedByTimeRange, 1u);
}

TEST(ReadReport, AFileWithMarkersAfterTheRangeIsStillRead) {
  // Without KEEP_DELETED_CELLS the markers reach back before the range.
  EngineFixture fx(quiet());
  fx.createTable("t", {familyOf("f").versions(5)});
  fx.put("t", "a", "f:q", 10, "old");
  fx.flush("t");
  fx.deleteCells("t", "a", DeleteScope::kColumnAll, "f:q", 100);
  fx.flush("t");
  GetOptions get = getRow("a");
  get.timeRange = {0, 50};
  std::vector<Cell> cells;
  const ReadReport r = getReport(fx, get, &cells);
  EXPECT_THAT(cells, IsEmpty());
  EXPECT_EQ(r.storeFilesSkippedByTimeRange, 0u);
}

TEST(ReadReport, AFileOfOnlyExpiredCellsIsSkipped) {
  EngineFixture fx(quiet());
  fx.setClock(1'000'000);
  fx.createTable("t", {familyOf("f").ttl(10)});
  fx.putNow("t", "a", "f:q", "v");
  fx.flush("t");
  fx.setClock(1'000'000 + 10'001);
  std::vector<Cell> cells;
  const ReadReport r = getReport(fx, getRow("a"), &cells);
  EXPECT_THAT(cells, IsEmpty());
  EXPECT_EQ(r.storeFilesSkippedByTimeRange, 1u);
  EXPECT_EQ(r.pagesRead, 0u);
}

TEST(ReadReport, RowBloomSkipsAFileWithoutTheRowOnAGet) {
  EngineFixture fx(quiet());
  fx.createTable("t", {familyOf("f")});  // BLOOMFILTER ROW, the default
  fx.put("t", "a", "f:q", 1, "a1");
  fx.put("t", "z", "f:q", 1, "z1");
  fx.flush("t");
  fx.put("t", "a", "f:q", 2, "a2");
  fx.put("t", "m", "f:q", 2, "m2");
  fx.put("t", "z", "f:q", 2, "z2");
  fx.flush("t");
  std::vector<Cell> cells;
  ReadReport r = getReport(fx, getRow("m"), &cells);
  EXPECT_THAT(describe(cells), ElementsAre("2:m2"));
  EXPECT_EQ(r.storeFilesConsidered, 2u);
  EXPECT_EQ(r.storeFilesSkippedByKeyRange, 0u);
  EXPECT_EQ(r.storeFilesSkippedByBloom, 1u);
  // Scans never consult the row bloom.
  ScanOptions scan;
  scan.startRow = "m";
  scan.stopRow = "m";
  scan.stopInclusive = true;
  EXPECT_EQ(scanReport(fx, scan).storeFilesSkippedByBloom, 0u);
}

TEST(ReadReport, WithoutABloomNothingIsSkippedByBloom) {
  EngineFixture fx(quiet());
  fx.createTable("t", {familyOf("f").bloom(BloomType::kNone)});
  fx.put("t", "a", "f:q", 1, "a1");
  fx.put("t", "z", "f:q", 1, "z1");
  fx.flush("t");
  fx.put("t", "m", "f:q", 2, "m2");
  fx.flush("t");
  EXPECT_EQ(getReport(fx, getRow("m")).storeFilesSkippedByBloom, 0u);
}

TEST(ReadReport, RowColBloomSkipsAFileWithoutTheColumnOnASingleColumnGet) {
  EngineFixture fx(quiet());
  fx.createTable("t", {familyOf("f").bloom(BloomType::kRowCol)});
  fx.put("t", "r", "f:x", 1, "x1");
  fx.flush("t");
  fx.put("t", "r", "f:y", 2, "y2");
  fx.flush("t");
  GetOptions get = getRow("r");
  get.columns = {column("f:y")};
  std::vector<Cell> cells;
  ReadReport r = getReport(fx, get, &cells);
  EXPECT_THAT(describe(cells), ElementsAre("2:y2"));
  EXPECT_EQ(r.storeFilesSkippedByBloom, 1u);
  // The same column named twice is one column: the bloom still skips.
  get.columns = {column("f:y"), column("f:y")};
  r = getReport(fx, get, &cells);
  EXPECT_THAT(describe(cells), ElementsAre("2:y2"));
  EXPECT_EQ(r.storeFilesSkippedByBloom, 1u);
  // Two columns: the ROWCOL bloom is not consulted.
  get.columns = {column("f:x"), column("f:y")};
  r = getReport(fx, get, &cells);
  EXPECT_THAT(describe(cells), ElementsAre("1:x1", "2:y2"));
  EXPECT_EQ(r.storeFilesSkippedByBloom, 0u);
}

class BloomNeverChangesResults : public ::testing::TestWithParam<BloomType> {};
INSTANTIATE_TEST_SUITE_P(AllBlooms, BloomNeverChangesResults,
                         ::testing::Values(BloomType::kNone, BloomType::kRow, BloomType::kRowCol));

TEST_P(BloomNeverChangesResults, AFileHoldingOnlyARowDeleteStillMasks) {
  EngineFixture fx(quiet());
  fx.createTable("t", {familyOf("f").bloom(GetParam()).versions(3)});
  fx.put("t", "r", "f:q", 10, "v");
  fx.put("t", "s", "f:q", 10, "v");
  fx.flush("t");
  fx.deleteRow("t", "r", 20);
  fx.deleteCells("t", "s", DeleteScope::kColumnAll, "f:q", 20);
  fx.flush("t");
  EXPECT_THAT(fx.getColumn("t", "r", "f:q"), IsEmpty());
  EXPECT_THAT(fx.getColumn("t", "s", "f:q"), IsEmpty());
  EXPECT_THAT(fx.get("t", getRow("r")), IsEmpty());
  fx.put("t", "r", "f:q", 30, "after");
  fx.flush("t");
  EXPECT_THAT(describe(fx.getColumn("t", "r", "f:q", 3)), ElementsAre("30:after"));
}

TEST(ReadReport, ARepeatedGetIsServedFromThePageCache) {
  EngineFixture fx(quiet());
  fx.createTable("t", {familyOf("f").compression(Compression::kZstd)});
  for (int i = 0; i < 50; ++i) fx.put("t", "row" + std::to_string(i), "f:q", 1, std::string(100, 'v'));
  fx.flush("t");
  fx.reopen();  // an empty cache
  GetOptions get = getRow("row7");
  get.cacheBlocks = false;
  ReadReport first = getReport(fx, get);
  ReadReport second = getReport(fx, get);
  EXPECT_GE(first.pagesRead, 1u);
  EXPECT_EQ(first.pageCacheHits, 0u);
  EXPECT_EQ(second.pageCacheHits, 0u);  // CACHE_BLOCKS false: nothing was kept
  EXPECT_GT(second.bytesReadFromStorage, 0u);
  EXPECT_GT(second.bytesDecompressed, 0u);

  get.cacheBlocks = true;
  first = getReport(fx, get);
  second = getReport(fx, get);
  EXPECT_EQ(first.pageCacheHits, 0u);
  EXPECT_GT(first.bytesReadFromStorage, 0u);
  EXPECT_GE(second.pagesRead, 1u);
  EXPECT_EQ(second.pageCacheHits, second.pagesRead);
  EXPECT_EQ(second.bytesReadFromStorage, 0u);
  EXPECT_EQ(second.bytesDecompressed, 0u);
}

TEST(ReadReport, MemstoreReadsAreCounted) {
  EngineFixture fx(quiet());
  fx.createTable("t", {familyOf("f")});
  fx.put("t", "a", "f:q", 1, "v");
  const ReadReport r = getReport(fx, getRow("a"));
  EXPECT_EQ(r.memstoresRead, 1u);
  EXPECT_EQ(r.storeFilesConsidered, 0u);
  EXPECT_EQ(r.pagesRead, 0u);
  EXPECT_EQ(r.cellsReturned, 1u);
}

TEST(ReadReport, CellsExaminedIncludeMaskedVersionsAndMarkers) {
  EngineFixture fx(quiet());
  fx.createTable("t", {familyOf("f").versions(5)});
  for (int64_t ts : {10, 20, 30}) fx.put("t", "a", "f:q", ts, "v");
  fx.deleteCells("t", "a", DeleteScope::kColumnVersion, "f:q", 30);
  const ReadReport r = getReport(fx, getRow("a"));
  EXPECT_EQ(r.cellsReturned, 1u);
  EXPECT_GE(r.cellsExamined, 3u);  // the marker, the masked 30, then 20
}

// ExplicitColumnTracker: a get naming its columns seeks from one wanted
// column to the next instead of walking the columns between them, in the
// memstore and in store files alike, and still sees the row's DeleteFamily
// (which sorts before every column).
TEST(ReadReport, AGetOfNamedColumnsSeeksStraightToThem) {
  for (bool flushed : {false, true}) {
    SCOPED_TRACE(flushed ? "flushed" : "memstore");
    EngineFixture fx(quiet());
    fx.createTable("t", {familyOf("f").versions(3)});
    for (int i = 0; i < 200; ++i) {
      char q[16];  // room for any int, so GCC sees no truncation
      std::snprintf(q, sizeof q, "f:%03d", i);
      fx.put("t", "a", q, 10, "v" + std::to_string(i));
      fx.put("t", "a", q, 20, "w" + std::to_string(i));
    }
    if (flushed) fx.flush("t");
    GetOptions get = getRow("a");
    get.columns = {{"f", Bytes("050")}, {"f", Bytes("150")}};
    std::vector<Cell> cells;
    ReadReport r = getReport(fx, get, &cells);
    EXPECT_THAT(describe(cells), ElementsAre("20:w50", "20:w150"));
    // The first column of the row, then each wanted column's newest version.
    EXPECT_LE(r.cellsExamined, 4u);

    fx.deleteCells("t", "a", DeleteScope::kFamily, "f", 15);
    get.maxVersions = 3;
    r = getReport(fx, get, &cells);
    EXPECT_THAT(describe(cells), ElementsAre("20:w50", "20:w150"));
  }
}

// A get naming columns starts at the first of them, not at the row's start,
// when no source of the family holds a delete marker: a row spanning many
// blocks then costs the one block holding the column. A family marker sorts
// before every column, so once one may exist the get starts at the row again.
TEST(ReadReport, AGetOfANamedColumnReadsOnlyItsBlockUnlessAFamilyMarkerMayPrecedeIt) {
  EngineFixture fx(quiet());
  fx.createTable("t", {familyOf("f")});
  const std::string padding(100, 'x');
  for (int i = 0; i < 200; ++i) {
    char q[16];  // room for any int, so GCC sees no truncation
    std::snprintf(q, sizeof q, "f:%03d", i);
    fx.put("t", "a", q, 10, "v" + std::to_string(i) + padding);
  }
  fx.flush("t");  // about 25 KiB: several blocks of one row
  GetOptions get = getRow("a");
  get.columns = {{"f", Bytes("190")}};
  std::vector<Cell> cells;
  ReadReport r = getReport(fx, get, &cells);
  ASSERT_EQ(cells.size(), 1u);
  EXPECT_EQ(cells[0].value, "v190" + padding);
  EXPECT_EQ(r.pagesRead, 1u) << "the block holding the column, and no other";
  EXPECT_EQ(r.cellsExamined, 1u);

  fx.deleteCells("t", "a", DeleteScope::kFamily, "f", 5);  // older than every cell: masks nothing
  for (bool flushed : {false, true}) {
    SCOPED_TRACE(flushed ? "marker flushed" : "marker in the memstore");
    if (flushed) fx.flush("t");
    r = getReport(fx, get, &cells);
    ASSERT_EQ(cells.size(), 1u);
    EXPECT_EQ(cells[0].value, "v190" + padding);
    EXPECT_GE(r.pagesRead, 2u) << "the row's start, where a family marker sorts, and the column's block";
  }
}

// A scan fills the caller's RowResult row after row, reusing its cells'
// buffers: a short row after a long one must carry nothing of it over.
TEST(Scan, ReusedRowResultsCarryNothingOver) {
  EngineFixture fx(quiet());
  fx.createTable("t", {familyOf("f"), familyOf("g")});
  const std::string big(100, 'x');
  for (int i = 0; i < 5; ++i) fx.put("t", "a", "g:q" + std::to_string(i), 7, big + std::to_string(i));
  fx.put("t", "b", "f:z", 3, "s");
  fx.flush("t");
  fx.put("t", "c", "f:", 9, "");
  auto scanner = fx.ws().scan("t", ScanOptions{});
  ASSERT_TRUE(scanner.isOk());
  RowResult row;
  ASSERT_TRUE((*scanner)->next(&row));
  EXPECT_EQ(row.row, "a");
  ASSERT_EQ(row.cells.size(), 5u);
  EXPECT_EQ(row.cells[4].value, big + "4");
  ASSERT_TRUE((*scanner)->next(&row));
  EXPECT_EQ(row.row, "b");
  EXPECT_EQ(row.cells, (std::vector<Cell>{{"b", "f", "z", 3, CellType::kPut, "s"}}));
  ASSERT_TRUE((*scanner)->next(&row));
  EXPECT_EQ(row.row, "c");
  EXPECT_EQ(row.cells, (std::vector<Cell>{{"c", "f", "", 9, CellType::kPut, ""}}));
  EXPECT_FALSE((*scanner)->next(&row));
  EXPECT_TRUE(row.cells.empty());
  EXPECT_TRUE((*scanner)->status().isOk());
}

}  // namespace
}  // namespace keyscope::test
