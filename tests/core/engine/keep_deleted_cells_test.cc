// KEEP_DELETED_CELLS (HBASE-SEMANTICS.md B3, B4; book [[cf.keep.deleted]],
// TestKeepDeletes): with TRUE or TTL only markers inside the read's time
// range apply, so a point-in-time read before the delete sees the deleted
// cells; flushes and major compactions keep deleted cells while the marker is
// the only reason to remove them, but still drop them beyond VERSIONS, and
// TTL mode keeps them only until they expire.
#include "engine_test_util.h"

namespace keyscope::test {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

class KeepDeletedStorage : public StorageTest {
 protected:
  void writeDeletedColumn(KeepDeletedCells keep) {
    createTable("t", {familyOf("f").versions(5).keepDeleted(keep)});
    fx().put("t", "r", "f:q", 10, "v10");
    fx().put("t", "r", "f:q", 20, "v20");
    fx().put("t", "r", "f:p", 20, "p20");
    afterPhase("t", 1);
    fx().deleteCells("t", "r", DeleteScope::kColumnAll, "f:q", 30);
    fx().deleteCells("t", "r", DeleteScope::kFamily, "f", 25);
    fx().put("t", "r", "f:q", 40, "v40");
    afterPhase("t", 2);
  }
  std::vector<std::string> read(TimeRange range) {
    GetOptions get;
    get.row = "r";
    get.maxVersions = 10;
    get.timeRange = range;
    return describeFull(fx().get("t", get));
  }
};
KEYSCOPE_STORAGE_CASES(KeepDeletedStorage);

TEST_P(KeepDeletedStorage, TrueLetsAPointInTimeReadBeforeTheDeleteSeeTheCells) {
  writeDeletedColumn(KeepDeletedCells::kTrue);
  EXPECT_THAT(read({}), ElementsAre("r/f:q@40=v40"));
  // Before both markers: everything.
  EXPECT_THAT(read({0, 25}), ElementsAre("r/f:p@20=p20", "r/f:q@20=v20", "r/f:q@10=v10"));
  // The DeleteFamily at 25 is inside [0, 26), the DeleteColumn at 30 is not.
  EXPECT_THAT(read({0, 26}), IsEmpty());
  EXPECT_THAT(read({0, 31}), IsEmpty());
  EXPECT_THAT(read({15, 25}), ElementsAre("r/f:p@20=p20", "r/f:q@20=v20"));
}

TEST_P(KeepDeletedStorage, FalseMarkersReachBackToTheBeginningOfTime) {
  writeDeletedColumn(KeepDeletedCells::kFalse);
  EXPECT_THAT(read({}), ElementsAre("r/f:q@40=v40"));
  EXPECT_THAT(read({0, 25}), IsEmpty());
  EXPECT_THAT(read({15, 25}), IsEmpty());
}

TEST_P(KeepDeletedStorage, TtlModeBehavesLikeTrueWhileTheCellsAreLive) {
  fx().setClock(1'000);
  writeDeletedColumn(KeepDeletedCells::kTtl);
  EXPECT_THAT(read({}), ElementsAre("r/f:q@40=v40"));
  EXPECT_THAT(read({0, 25}), ElementsAre("r/f:p@20=p20", "r/f:q@20=v20", "r/f:q@10=v10"));
}

TEST_P(KeepDeletedStorage, ScanBeforeTheDeleteSeesTheDeletedRow) {
  createTable("t", {familyOf("f").keepDeleted(KeepDeletedCells::kTrue)});
  fx().put("t", "a", "f:q", 10, "a10");
  fx().put("t", "b", "f:q", 10, "b10");
  afterPhase("t", 1);
  fx().deleteRow("t", "a", 20);
  afterPhase("t", 2);
  ScanOptions now;
  EXPECT_THAT(fx().scanRows("t", now), ElementsAre("b"));
  ScanOptions before;
  before.timeRange = {0, 20};
  EXPECT_THAT(fx().scanRows("t", before), ElementsAre("a", "b"));
}

TEST(KeepDeletedCells, MajorCompactionKeepsDeletedCellsAndTheirMarkers) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("f").versions(5).keepDeleted(KeepDeletedCells::kTrue)});
  fx.put("t", "r", "f:q", 10, "v10");
  fx.deleteCells("t", "r", DeleteScope::kColumnAll, "f:q", 20);
  fx.flush("t");
  fx.majorCompact("t");
  EXPECT_THAT(describe(fx.rawCells("t")), ElementsAre("20:DeleteColumn", "10:v10"));
  EXPECT_THAT(fx.getColumn("t", "r", "f:q"), IsEmpty());
  EXPECT_THAT(describe(fx.getColumn("t", "r", "f:q", 1, {0, 20})), ElementsAre("10:v10"));
}

TEST(KeepDeletedCells, DeletedCellsBeyondVersionsAreStillRemoved) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("f").versions(2).keepDeleted(KeepDeletedCells::kTrue)});
  for (int64_t ts : {10, 20, 30}) fx.put("t", "r", "f:q", ts, "v" + std::to_string(ts));
  fx.deleteCells("t", "r", DeleteScope::kColumnAll, "f:q", 40);
  // The memstore holds all three; a raw scan's versions are its own.
  EXPECT_THAT(describe(fx.rawCells("t")), ElementsAre("40:DeleteColumn", "30:v30", "20:v20", "10:v10"));
  fx.flush("t");
  fx.majorCompact("t");
  EXPECT_THAT(describe(fx.rawCells("t")), ElementsAre("40:DeleteColumn", "30:v30", "20:v20"));
  EXPECT_THAT(describe(fx.getColumn("t", "r", "f:q", 10, {0, 40})), ElementsAre("30:v30", "20:v20"));
}

TEST(KeepDeletedCells, TtlModeKeepsDeletedCellsOnlyUntilTheyExpire) {
  EngineFixture fx;
  fx.setClock(100'000);
  fx.createTable("t", {familyOf("f").versions(5).ttl(60).keepDeleted(KeepDeletedCells::kTtl)});
  fx.put("t", "r", "f:q", 90'000, "v");
  fx.deleteCells("t", "r", DeleteScope::kColumnAll, "f:q", 95'000);
  fx.flush("t");
  fx.majorCompact("t");
  EXPECT_THAT(describe(fx.rawCells("t")), ElementsAre("95000:DeleteColumn", "90000:v"));
  EXPECT_THAT(describe(fx.getColumn("t", "r", "f:q", 1, {0, 95'000})), ElementsAre("90000:v"));
  // Both expired: the next major compaction removes the cell and the marker.
  fx.setClock(200'000);
  EXPECT_THAT(fx.getColumn("t", "r", "f:q", 1, {0, 95'000}), IsEmpty());
  fx.majorCompact("t");
  EXPECT_THAT(describe(fx.rawCells("t")), IsEmpty());
}

TEST(KeepDeletedCells, FalseMajorCompactionDropsDeletedCellsAndMarkers) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("f").versions(5)});
  fx.put("t", "r", "f:q", 10, "v10");
  fx.deleteCells("t", "r", DeleteScope::kColumnAll, "f:q", 20);
  fx.flush("t");
  EXPECT_THAT(describe(fx.rawCells("t")), ElementsAre("20:DeleteColumn"));
  fx.majorCompact("t");
  EXPECT_THAT(describe(fx.rawCells("t")), IsEmpty());
}

}  // namespace
}  // namespace keyscope::test

namespace keyscope::test {
namespace {

// HBASE-SEMANTICS.md B4: with KEEP_DELETED_CELLS, "markers that no longer
// affect any put are still collected by major compactions":
// CompactionScanQueryMatcher.tryDropDelete drops a marker older than the
// store's earliest put (EARLIEST_PUT_TS); TestKeepDeletes#testBasicScenario
// ("one delete marker left (the others did not have older puts)").
TEST(KeepDeletedCells, MajorCompactionCollectsMarkersWithNoOlderPut) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("f").versions(5).keepDeleted(KeepDeletedCells::kTrue),
                       familyOf("g").versions(5).keepDeleted(KeepDeletedCells::kTrue)});
  fx.put("t", "r", "f:q", 10, "v10");
  fx.deleteCells("t", "r", DeleteScope::kColumnAll, "f:q", 5);  // older than every put
  fx.deleteRow("t", "r", 20);                                    // a DeleteFamily in f and in g
  fx.flush("t");
  fx.majorCompact("t");
  // g has no put at all and f's DeleteColumn@5 is older than f's only put.
  EXPECT_THAT(describeFull(fx.rawCells("t")), ElementsAre("r/f:@20=DeleteFamily", "r/f:q@10=v10"));
}

}  // namespace
}  // namespace keyscope::test
