// Cell order, family defaults and version counting (HBASE-SEMANTICS.md B1, B2):
// CellComparatorImpl's order, ColumnFamilyDescriptorBuilder's defaults,
// ScanWildcardColumnTracker's counting (duplicates not counted), and the
// surprise that a time-range read counts only versions inside the range, so
// what it returns changes when a flush drops versions beyond VERSIONS.
#include "engine_test_util.h"

namespace keyscope::test {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// --- B2: defaults ----------------------------------------------------------------

TEST(Versions, FamilyDefaultsAreHBase2s) {
  const FamilyOptions f;
  EXPECT_EQ(f.maxVersions, 1);  // hbase.column.max.version
  EXPECT_EQ(f.minVersions, 0);
  EXPECT_EQ(f.ttlSeconds, kTtlForever);
  EXPECT_EQ(f.keepDeletedCells, KeepDeletedCells::kFalse);
  EXPECT_EQ(f.blockSize, 65536u);
  EXPECT_EQ(f.bloomFilter, BloomType::kRow);
  EXPECT_EQ(f.compression, Compression::kNone);
}

TEST(Versions, ReadDefaultsAreOneVersionOverAllTime) {
  const ReadOptions r;
  EXPECT_EQ(r.maxVersions, 1);
  EXPECT_TRUE(r.timeRange.isAllTime());
  const ScanOptions s;
  EXPECT_TRUE(s.startInclusive);
  EXPECT_FALSE(s.stopInclusive);
  EXPECT_FALSE(s.raw);
}

// --- B2: versions returned = min(request, VERSIONS) --------------------------------

class VersionsStorage : public StorageTest {};
KEYSCOPE_STORAGE_CASES(VersionsStorage);

TEST_P(VersionsStorage, GetReturnsMinOfRequestAndFamilyVersions) {
  createTable("t", {familyOf("f").versions(3)});
  for (int64_t ts : {1, 2, 3}) fx().put("t", "r", "f:q", ts, "v" + std::to_string(ts));
  afterPhase("t", 1);
  for (int64_t ts : {4, 5}) fx().put("t", "r", "f:q", ts, "v" + std::to_string(ts));
  afterPhase("t", 2);
  EXPECT_THAT(describe(fx().getColumn("t", "r", "f:q")), ElementsAre("5:v5"));
  EXPECT_THAT(describe(fx().getColumn("t", "r", "f:q", 2)), ElementsAre("5:v5", "4:v4"));
  EXPECT_THAT(describe(fx().getColumn("t", "r", "f:q", 100)), ElementsAre("5:v5", "4:v4", "3:v3"));
  ScanOptions scan;
  scan.maxVersions = 100;
  EXPECT_THAT(describe(fx().scanCells("t", scan)), ElementsAre("5:v5", "4:v4", "3:v3"));
}

TEST_P(VersionsStorage, DefaultFamilyKeepsOneVersion) {
  createTable("t", {familyOf("f")});
  fx().put("t", "r", "f:q", 1, "old");
  afterPhase("t", 1);
  fx().put("t", "r", "f:q", 2, "new");
  afterPhase("t", 2);
  EXPECT_THAT(describe(fx().getColumn("t", "r", "f:q", 10)), ElementsAre("2:new"));
}

TEST_P(VersionsStorage, SameTimestampTwiceOnlyTheLastWrittenIsFetchable) {
  createTable("t", {familyOf("f").versions(3)});
  fx().put("t", "r", "f:q", 4, "four");
  fx().put("t", "r", "f:q", 5, "first");
  afterPhase("t", 1);
  fx().put("t", "r", "f:q", 5, "second");
  fx().put("t", "r", "f:q", 6, "six");
  fx().put("t", "r", "f:q", 6, "six-again");
  afterPhase("t", 2);
  // The duplicates are not extra versions: three versions are 6, 5, 4.
  EXPECT_THAT(describe(fx().getColumn("t", "r", "f:q", 3)), ElementsAre("6:six-again", "5:second", "4:four"));
}

TEST_P(VersionsStorage, LatestTimestampMeansTheServerClock) {
  createTable("t", {familyOf("f")});
  fx().setClock(123456);
  fx().putNow("t", "r", "f:q", "v");
  afterPhase("t", 1);
  afterPhase("t", 2);
  EXPECT_THAT(describe(fx().getColumn("t", "r", "f:q")), ElementsAre("123456:v"));
}

// --- B1: order -------------------------------------------------------------------

TEST_P(VersionsStorage, CellsComeBackFamilyQualifierAscendingTimestampDescending) {
  createTable("t", {familyOf("b").versions(3), familyOf("a").versions(3)});
  fx().put("t", "r", "b:q2", 1, "x");
  fx().put("t", "r", "b:q10", 1, "x");
  fx().put("t", "r", "a:\xff", 1, "x");
  afterPhase("t", 1);
  fx().put("t", "r", "a:z", 7, "x");
  fx().put("t", "r", "a:z", 9, "x");
  fx().put("t", "r", "a:\x01", 3, "x");
  afterPhase("t", 2);
  GetOptions get;
  get.row = "r";
  get.maxVersions = 3;
  // Unsigned bytes: 0x01 < 'z' < 0xFF, and "q10" < "q2".
  EXPECT_THAT(describeFull(fx().get("t", get)),
              ElementsAre("r/a:\x01@3=x", "r/a:z@9=x", "r/a:z@7=x", "r/a:\xff@1=x", "r/b:q10@1=x", "r/b:q2@1=x"));
}

TEST(Versions, AtEqualTimestampMarkersSortBeforePutsStrongestFirst) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("f").versions(5).keepDeleted(KeepDeletedCells::kTrue)});
  fx.put("t", "r", "f:q", 10, "v");
  fx.deleteCells("t", "r", DeleteScope::kColumnVersion, "f:q", 10);
  fx.deleteCells("t", "r", DeleteScope::kColumnAll, "f:q", 10);
  fx.deleteCells("t", "r", DeleteScope::kFamilyVersion, "f", 10);
  fx.deleteCells("t", "r", DeleteScope::kFamily, "f", 10);
  // Family markers carry an empty qualifier, so they come first; then the
  // column's at ts 10 by type descending: DeleteColumn, Delete, Put.
  const std::vector<std::string> expected = {"r/f:@10=DeleteFamily", "r/f:@10=DeleteFamilyVersion",
                                             "r/f:q@10=DeleteColumn", "r/f:q@10=Delete", "r/f:q@10=v"};
  EXPECT_EQ(describeFull(fx.rawCells("t")), expected);
  fx.flush("t");
  EXPECT_EQ(describeFull(fx.rawCells("t")), expected);
}

TEST(Versions, CellTypeCodesAreHBases) {
  EXPECT_EQ(static_cast<int>(CellType::kPut), 4);
  EXPECT_EQ(static_cast<int>(CellType::kDelete), 8);
  EXPECT_EQ(static_cast<int>(CellType::kDeleteFamilyVersion), 10);
  EXPECT_EQ(static_cast<int>(CellType::kDeleteColumn), 12);
  EXPECT_EQ(static_cast<int>(CellType::kDeleteFamily), 14);
}

// --- B2: versions are counted after the time-range check ---------------------------

// TestKeepDeletes#testBasicScenario's tail: VERSIONS=3 and four puts; a
// time-range get still sees the 4th (oldest) version while the memstore
// holds it, and not after the flush drops it.
TEST(Versions, TimeRangeSeesVersionBeyondVersionsUntilFlush) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("f").versions(3)});
  for (int64_t ts : {1, 2, 3, 4}) fx.put("t", "r", "f:q", ts, "v" + std::to_string(ts));
  EXPECT_THAT(describe(fx.getColumn("t", "r", "f:q", 10)), ElementsAre("4:v4", "3:v3", "2:v2"));
  EXPECT_THAT(describe(fx.getColumn("t", "r", "f:q", 10, {0, 2})), ElementsAre("1:v1"));
  fx.flush("t");
  EXPECT_THAT(fx.getColumn("t", "r", "f:q", 10, {0, 2}), IsEmpty());
  EXPECT_THAT(describe(fx.getColumn("t", "r", "f:q", 10)), ElementsAre("4:v4", "3:v3", "2:v2"));
}

TEST(Versions, TimeRangeCountsOnlyVersionsInsideTheRange) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("f").versions(2)});
  for (int64_t ts : {10, 20, 30}) fx.put("t", "r", "f:q", ts, "v" + std::to_string(ts));
  // Before the flush, the range [0, 25) holds 20 and 10: two versions.
  EXPECT_THAT(describe(fx.getColumn("t", "r", "f:q", 2, {0, 25})), ElementsAre("20:v20", "10:v10"));
  fx.flush("t");
  EXPECT_THAT(describe(fx.getColumn("t", "r", "f:q", 2, {0, 25})), ElementsAre("20:v20"));
}

}  // namespace
}  // namespace keyscope::test

namespace keyscope::test {
namespace {

// Edge values (STYLE.md): timestamps 0 and Long.MAX_VALUE - 1, an empty
// qualifier and value, 0x00 and 0xFF inside rows and qualifiers.
TEST_P(VersionsStorage, EdgeTimestampsAndBytesRoundTrip) {
  constexpr int64_t kNewest = std::numeric_limits<int64_t>::max() - 1;
  createTable("t", {familyOf("f").versions(3)});
  const Bytes row0("r\x00", 2), rowFF("r\xff", 2);
  fx().put("t", "r", "f:q", 0, "zero");
  fx().put("t", row0, "f:", 5, "");
  afterPhase("t", 1);
  fx().put("t", "r", "f:q", kNewest, "newest");
  fx().put("t", rowFF, std::string("f:\x00\xff", 4), 7, std::string("\x00\x01", 2));
  afterPhase("t", 2);
  EXPECT_THAT(describe(fx().getColumn("t", "r", "f:q", 3)), ElementsAre(std::to_string(kNewest) + ":newest", "0:zero"));
  EXPECT_THAT(describe(fx().getColumn("t", "r", "f:q", 1, TimeRange::at(0))), ElementsAre("0:zero"));
  EXPECT_THAT(describe(fx().getColumn("t", "r", "f:q", 1, TimeRange::at(kNewest))),
              ElementsAre(std::to_string(kNewest) + ":newest"));
  ScanOptions scan;
  EXPECT_THAT(fx().scanRows("t", scan), ElementsAre("r", row0, rowFF));
  const auto cells = fx().scanCells("t", scan);
  ASSERT_EQ(cells.size(), 3u);
  EXPECT_EQ(cells[1].qualifier, "");
  EXPECT_EQ(cells[1].value, "");
  EXPECT_EQ(cells[2].qualifier, std::string("\x00\xff", 2));
  EXPECT_EQ(cells[2].value, std::string("\x00\x01", 2));
}

TEST_P(VersionsStorage, AnEmptyQualifierPutIsMaskedByFamilyMarkersLikeAnyColumn) {
  createTable("t", {familyOf("f").versions(3)});
  fx().put("t", "r", "f:", 10, "e10");
  fx().put("t", "r", "f:", 30, "e30");
  afterPhase("t", 1);
  fx().deleteCells("t", "r", DeleteScope::kFamily, "f", 20);
  afterPhase("t", 2);
  EXPECT_THAT(describe(fx().getColumn("t", "r", "f:", 3)), ElementsAre("30:e30"));
}

}  // namespace
}  // namespace keyscope::test

namespace keyscope::test {
namespace {

// The log replays writes in order: after a reopen the last write of a
// duplicated key is still the one returned, and a marker still masks.
TEST(Versions, DuplicateTimestampLastWriteWinsAfterReopen) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("f").versions(3)});
  fx.put("t", "r", "f:q", 5, "first");
  fx.flush("t");
  fx.put("t", "r", "f:q", 5, "second");
  fx.put("t", "r", "f:p", 5, "one");
  fx.put("t", "r", "f:p", 5, "two");
  fx.deleteCells("t", "r", DeleteScope::kColumnVersion, "f:m", 9);
  fx.put("t", "r", "f:m", 9, "masked");
  fx.reopen();
  GetOptions get;
  get.row = "r";
  get.maxVersions = 3;
  EXPECT_THAT(describeFull(fx.get("t", get)), ElementsAre("r/f:p@5=two", "r/f:q@5=second"));
  fx.flush("t");
  EXPECT_THAT(describeFull(fx.get("t", get)), ElementsAre("r/f:p@5=two", "r/f:q@5=second"));
}

// A batch goes into the memstore in key order, not in the order written:
// the same cells written many times in one batch, between writes of other
// rows, must still leave each one's last write fetchable, before and after
// the log's replay and a flush. (Large enough that an unstable sort would
// reorder the equal keys.)
TEST(Versions, DuplicateTimestampInOneBatchLastWriteWins) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("f").versions(3)});
  std::vector<Mutation> batch;
  const auto put = [&batch](const std::string& row, int64_t ts, const std::string& value) {
    batch.push_back(Put{Bytes(row), {PutCell{"f", Bytes("q"), ts, Bytes(value)}}});
  };
  for (int i = 0; i < 300; ++i) {
    put("m", 5, "m" + std::to_string(i));
    put("a", 5, "a" + std::to_string(i));
    put("r" + std::to_string(i % 37), 5, "other");
    if (i % 10 == 0) put("m", 6, "six" + std::to_string(i));
  }
  ASSERT_TRUE(fx.ws().mutate("t", batch).isOk());
  const auto check = [&fx](const char* when) {
    EXPECT_THAT(describe(fx.getColumn("t", "m", "f:q", 3)), ElementsAre("6:six290", "5:m299")) << when;
    EXPECT_THAT(describe(fx.getColumn("t", "a", "f:q", 3)), ElementsAre("5:a299")) << when;
  };
  check("in the memstore");
  fx.reopen();
  check("after the log's replay");
  fx.flush("t");
  check("after a flush");
}

// The same, with the batch's cells spread over two families named against
// the order they first appear in (the batch is sorted by family, then key):
// the same key in each family is a cell of its own, and each keeps its last
// write.
TEST(Versions, DuplicateKeysInTwoFamiliesOfOneBatchEachKeepTheirLastWrite) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("z").versions(3), familyOf("a").versions(3)});
  std::vector<Mutation> batch;
  const auto put = [&batch](const std::string& family, const std::string& row, const std::string& value) {
    batch.push_back(Put{Bytes(row), {PutCell{family, Bytes("q"), 5, Bytes(value)}}});
  };
  for (int i = 0; i < 300; ++i) {
    put("z", "row-m", "z" + std::to_string(i));
    put("a", "row-" + std::to_string(i % 41), "other");
    put("a", "row-m", "a" + std::to_string(i));
    put("z", "row-" + std::to_string(i % 29), "other");
  }
  ASSERT_TRUE(fx.ws().mutate("t", batch).isOk());
  const auto check = [&fx](const char* when) {
    EXPECT_THAT(describe(fx.getColumn("t", "row-m", "z:q", 3)), ElementsAre("5:z299")) << when;
    EXPECT_THAT(describe(fx.getColumn("t", "row-m", "a:q", 3)), ElementsAre("5:a299")) << when;
    EXPECT_THAT(describe(fx.getColumn("t", "row-7", "a:q", 3)), ElementsAre("5:other")) << when;
  };
  check("in the memstore");
  fx.reopen();
  check("after the log's replay");
  fx.flush("t");
  check("after a flush");
}

}  // namespace
}  // namespace keyscope::test
