// Deletes (HBASE-SEMANTICS.md B4): the four marker kinds and what each masks
// (datamodel.adoc [[version.delete]], ScanDeleteTracker); a row delete is one
// DeleteFamily per family; Delete.addColumn without a timestamp resolves to
// the newest version, the N-th identical spec to the N-th newest
// (HRegion.prepareDeleteTimestamps); markers mask puts written after them
// until a major compaction; deleting a version can bring an older one back
// until a major compaction has dropped it; raw scans show markers and
// deleted cells, honour the time range and count only puts as versions.
#include "engine_test_util.h"

namespace keyscope::test {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

std::vector<std::string> allOfRow(EngineFixture& fx, const std::string& row = "r") {
  GetOptions get;
  get.row = row;
  get.maxVersions = 100;
  return describeFull(fx.get("t", get));
}

class DeletesStorage : public StorageTest {
 protected:
  // f:q at 10, 20, 30 and f:p at 20, VERSIONS 5; marker(s) in phase 2.
  void writeVersions() {
    createTable("t", {familyOf("f").versions(5), familyOf("g").versions(5)});
    for (int64_t ts : {10, 20, 30}) fx().put("t", "r", "f:q", ts, "q" + std::to_string(ts));
    fx().put("t", "r", "f:p", 20, "p20");
    fx().put("t", "r", "g:q", 20, "g20");
    afterPhase("t", 1);
  }
};
KEYSCOPE_STORAGE_CASES(DeletesStorage);

TEST_P(DeletesStorage, DeleteColumnMasksEveryVersionAtOrBelowItsTimestamp) {
  writeVersions();
  fx().deleteCells("t", "r", DeleteScope::kColumnAll, "f:q", 20);
  afterPhase("t", 2);
  EXPECT_THAT(allOfRow(fx()), ElementsAre("r/f:p@20=p20", "r/f:q@30=q30", "r/g:q@20=g20"));
}

TEST_P(DeletesStorage, DeleteMasksOnlyTheExactTimestamp) {
  writeVersions();
  fx().deleteCells("t", "r", DeleteScope::kColumnVersion, "f:q", 20);
  fx().deleteCells("t", "r", DeleteScope::kColumnVersion, "f:p", 25);  // no version at 25: masks nothing
  afterPhase("t", 2);
  EXPECT_THAT(allOfRow(fx()), ElementsAre("r/f:p@20=p20", "r/f:q@30=q30", "r/f:q@10=q10", "r/g:q@20=g20"));
}

TEST_P(DeletesStorage, TwoDeleteMarkersMaskTwoVersions) {
  writeVersions();
  fx().deleteCells("t", "r", DeleteScope::kColumnVersion, "f:q", 30);
  fx().deleteCells("t", "r", DeleteScope::kColumnVersion, "f:q", 10);
  afterPhase("t", 2);
  EXPECT_THAT(allOfRow(fx()), ElementsAre("r/f:p@20=p20", "r/f:q@20=q20", "r/g:q@20=g20"));
}

TEST_P(DeletesStorage, DeleteFamilyMasksEveryColumnOfTheFamilyAtOrBelow) {
  writeVersions();
  fx().deleteCells("t", "r", DeleteScope::kFamily, "f", 20);
  afterPhase("t", 2);
  EXPECT_THAT(allOfRow(fx()), ElementsAre("r/f:q@30=q30", "r/g:q@20=g20"));
}

TEST_P(DeletesStorage, DeleteFamilyVersionMasksEveryColumnAtExactlyItsTimestamp) {
  writeVersions();
  fx().deleteCells("t", "r", DeleteScope::kFamilyVersion, "f", 20);
  afterPhase("t", 2);
  EXPECT_THAT(allOfRow(fx()), ElementsAre("r/f:q@30=q30", "r/f:q@10=q10", "r/g:q@20=g20"));
}

TEST_P(DeletesStorage, RowDeleteIsADeleteFamilyInEveryFamily) {
  writeVersions();
  fx().deleteRow("t", "r", 20);
  afterPhase("t", 2);
  EXPECT_THAT(allOfRow(fx()), ElementsAre("r/f:q@30=q30"));
  if (GetParam().storage != Storage::kMajorCompacted) {
    std::vector<Cell> markers;
    for (const Cell& c : fx().rawCells("t")) {
      if (c.type != CellType::kPut) markers.push_back(c);
    }
    EXPECT_THAT(describeFull(markers), ElementsAre("r/f:@20=DeleteFamily", "r/g:@20=DeleteFamily"));
  }
}

TEST_P(DeletesStorage, AtAnEqualTimestampTheDeleteWins) {
  writeVersions();
  fx().deleteCells("t", "r", DeleteScope::kColumnVersion, "f:q", 30);
  fx().deleteCells("t", "r", DeleteScope::kColumnAll, "f:p", 20);
  fx().put("t", "r", "f:q", 30, "rewritten");  // same ts as the marker, written after it
  afterPhase("t", 2);
  EXPECT_THAT(allOfRow(fx()), ElementsAre("r/f:q@20=q20", "r/f:q@10=q10", "r/g:q@20=g20"));
}

TEST_P(DeletesStorage, DeleteColumnBeatsAWeakerDeleteOfTheSameColumn) {
  // ScanDeleteTracker.add: a Delete after a DeleteColumn of the same column
  // is ignored, so the DeleteColumn keeps masking the versions below it.
  // (No put between the two markers: a masked put would seek past the column.)
  writeVersions();
  fx().deleteCells("t", "r", DeleteScope::kColumnAll, "f:q", 25);
  fx().deleteCells("t", "r", DeleteScope::kColumnVersion, "f:q", 22);
  afterPhase("t", 2);
  EXPECT_THAT(allOfRow(fx()), ElementsAre("r/f:p@20=p20", "r/f:q@30=q30", "r/g:q@20=g20"));
}

TEST_P(DeletesStorage, OnlyTheNewestDeleteFamilyCounts) {
  writeVersions();
  fx().deleteCells("t", "r", DeleteScope::kFamily, "f", 10);
  fx().deleteCells("t", "r", DeleteScope::kFamily, "f", 20);
  fx().deleteCells("t", "r", DeleteScope::kColumnVersion, "f:q", 15);  // not newer than the family marker
  afterPhase("t", 2);
  EXPECT_THAT(allOfRow(fx()), ElementsAre("r/f:q@30=q30", "r/g:q@20=g20"));
}

TEST_P(DeletesStorage, DeleteWithoutTimestampResolvesToTheNewestVersion) {
  writeVersions();
  fx().setClock(1'000'000);
  fx().deleteCells("t", "r", DeleteScope::kColumnVersion, "f:q");
  afterPhase("t", 2);
  EXPECT_THAT(describe(fx().getColumn("t", "r", "f:q", 10)), ElementsAre("20:q20", "10:q10"));
}

TEST_P(DeletesStorage, NthIdenticalDeleteSpecResolvesToTheNthNewestVersion) {
  writeVersions();
  fx().setClock(1'000'000);
  const DeleteSpec spec{DeleteScope::kColumnVersion, "f", "q", kLatestTimestamp};
  fx().deleteSpecs("t", "r", {spec, spec});
  afterPhase("t", 2);
  EXPECT_THAT(describe(fx().getColumn("t", "r", "f:q", 10)), ElementsAre("10:q10"));
}

TEST(Deletes, DeleteWithoutTimestampMarksTheResolvedVersionOrNow) {
  EngineFixture fx;
  fx.setClock(1'000'000);
  fx.createTable("t", {familyOf("f").versions(5)});
  for (int64_t ts : {10, 20}) fx.put("t", "r", "f:q", ts, "q" + std::to_string(ts));
  const DeleteSpec spec{DeleteScope::kColumnVersion, "f", "q", kLatestTimestamp};
  // Three specs, two versions: the third marker gets the current time.
  fx.deleteSpecs("t", "r", {spec, spec, spec});
  EXPECT_THAT(describe(fx.rawCells("t")),
              ElementsAre("1000000:Delete", "20:Delete", "20:q20", "10:Delete", "10:q10"));
  EXPECT_THAT(fx.getColumn("t", "r", "f:q", 10), IsEmpty());
  // A column with no versions: the marker gets now.
  fx.deleteCells("t", "r", DeleteScope::kColumnVersion, "f:none");
  ScanOptions scan;
  scan.raw = true;
  scan.columns = {column("f:none")};
  EXPECT_THAT(describe(fx.scanCells("t", scan)), ElementsAre("1000000:Delete"));
}

TEST(Deletes, DeleteWithARowTimestampDoesNotResolve) {
  EngineFixture fx;
  fx.setClock(1'000'000);
  fx.createTable("t", {familyOf("f").versions(5)});
  for (int64_t ts : {10, 20}) fx.put("t", "r", "f:q", ts, "q" + std::to_string(ts));
  Delete del;
  del.row = "r";
  del.timestamp = 10;
  del.specs = {DeleteSpec{DeleteScope::kColumnVersion, "f", "q", kLatestTimestamp}};
  ASSERT_TRUE(fx.ws().remove("t", del).isOk());
  EXPECT_THAT(describe(fx.getColumn("t", "r", "f:q", 10)), ElementsAre("20:q20"));
}

// --- Surprises: the result changes with a major compaction --------------------------

TEST(Deletes, DeleteColumnMasksPutsWrittenLaterUntilMajorCompaction) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("f").versions(3)});
  fx.deleteCells("t", "r", DeleteScope::kColumnAll, "f:q", 100);
  fx.put("t", "r", "f:q", 50, "after-the-delete");
  EXPECT_THAT(fx.getColumn("t", "r", "f:q"), IsEmpty());
  fx.flush("t");
  EXPECT_THAT(fx.getColumn("t", "r", "f:q"), IsEmpty());
  fx.put("t", "r", "f:q", 60, "after-the-flush");
  EXPECT_THAT(fx.getColumn("t", "r", "f:q"), IsEmpty());
  fx.flush("t");         // a compaction reads store files only
  fx.majorCompact("t");  // drops the marker and what it masked
  EXPECT_THAT(describe(fx.rawCells("t")), IsEmpty());
  fx.put("t", "r", "f:q", 50, "after-the-compaction");
  EXPECT_THAT(describe(fx.getColumn("t", "r", "f:q")), ElementsAre("50:after-the-compaction"));
}

TEST(Deletes, DeleteVersionAndFamilyMarkersMaskLaterPutsUntilMajorCompaction) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("f").versions(3)});
  fx.deleteCells("t", "r", DeleteScope::kColumnVersion, "f:a", 10);
  fx.deleteCells("t", "r", DeleteScope::kFamilyVersion, "f", 20);
  fx.deleteCells("t", "s", DeleteScope::kFamily, "f", 30);
  fx.put("t", "r", "f:a", 10, "a");
  fx.put("t", "r", "f:b", 20, "b");
  fx.put("t", "s", "f:c", 30, "c");
  ScanOptions scan;
  EXPECT_THAT(fx.scanRows("t", scan), IsEmpty());
  fx.flush("t");
  EXPECT_THAT(fx.scanRows("t", scan), IsEmpty());
  fx.majorCompact("t");
  EXPECT_THAT(describe(fx.rawCells("t")), IsEmpty());
  fx.put("t", "r", "f:a", 10, "a");
  fx.put("t", "r", "f:b", 20, "b");
  fx.put("t", "s", "f:c", 30, "c");
  EXPECT_THAT(describeFull(fx.scanCells("t", scan)), ElementsAre("r/f:a@10=a", "r/f:b@20=b", "s/f:c@30=c"));
}

// datamodel.adoc [[major.compactions.change.query.results]]: VERSIONS=2, puts
// at t1 < t2 < t3; deleting t3 makes t1 appear again, unless a major
// compaction (or a flush) has already dropped t1.
TEST(Deletes, DeletingAVersionBringsBackAnOlderOneUntilItIsCompactedAway) {
  for (bool compactFirst : {false, true}) {
    SCOPED_TRACE(compactFirst ? "compacted before the delete" : "all in the memstore");
    EngineFixture fx;
    fx.createTable("t", {familyOf("f").versions(2)});
    for (int64_t ts : {1, 2, 3}) fx.put("t", "r", "f:q", ts, "t" + std::to_string(ts));
    EXPECT_THAT(describe(fx.getColumn("t", "r", "f:q", 10)), ElementsAre("3:t3", "2:t2"));
    if (compactFirst) {
      fx.flush("t");
      fx.majorCompact("t");
    }
    fx.deleteCells("t", "r", DeleteScope::kColumnVersion, "f:q", 3);
    if (compactFirst) {
      EXPECT_THAT(describe(fx.getColumn("t", "r", "f:q", 10)), ElementsAre("2:t2"));
    } else {
      EXPECT_THAT(describe(fx.getColumn("t", "r", "f:q", 10)), ElementsAre("2:t2", "1:t1"));
    }
  }
}

TEST(Deletes, FlushKeepsMarkersAndDropsWhatTheyMaskMajorCompactionDropsBoth) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("f").versions(5)});
  for (int64_t ts : {10, 20, 30}) fx.put("t", "r", "f:q", ts, "q" + std::to_string(ts));
  fx.deleteCells("t", "r", DeleteScope::kColumnAll, "f:q", 20);
  EXPECT_THAT(describe(fx.rawCells("t")), ElementsAre("30:q30", "20:DeleteColumn", "20:q20", "10:q10"));
  fx.flush("t");
  EXPECT_THAT(describe(fx.rawCells("t")), ElementsAre("30:q30", "20:DeleteColumn"));
  fx.majorCompact("t");
  EXPECT_THAT(describe(fx.rawCells("t")), ElementsAre("30:q30"));
}

TEST(Deletes, MajorCompactionPurgesFutureDatedMarkersToo) {
  // hbase.hstore.time.to.purge.deletes = 0 (HBASE-10118).
  EngineFixture fx;
  fx.setClock(1'000);
  fx.createTable("t", {familyOf("f")});
  fx.put("t", "r", "f:q", 10, "v");
  fx.deleteCells("t", "r", DeleteScope::kColumnAll, "f:q", 5'000'000);
  fx.flush("t");
  fx.majorCompact("t");
  EXPECT_THAT(describe(fx.rawCells("t")), IsEmpty());
}

// --- Raw scans ----------------------------------------------------------------------

TEST(Deletes, RawScanShowsMarkersAndDeletedCellsWithinTheTimeRange) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("f").versions(5)});
  for (int64_t ts : {10, 20, 30}) fx.put("t", "r", "f:q", ts, "q" + std::to_string(ts));
  fx.deleteCells("t", "r", DeleteScope::kColumnAll, "f:q", 25);
  EXPECT_THAT(describe(fx.rawCells("t")), ElementsAre("30:q30", "25:DeleteColumn", "20:q20", "10:q10"));
  EXPECT_THAT(describe(fx.rawCells("t", {15, 26})), ElementsAre("25:DeleteColumn", "20:q20"));
}

TEST(Deletes, RawScanCountsOnlyPutsAndTakesItsOwnMaxVersions) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("f")});  // VERSIONS 1: the raw scan's own value decides
  for (int64_t ts : {10, 20, 30}) fx.put("t", "r", "f:q", ts, "q" + std::to_string(ts));
  fx.deleteCells("t", "r", DeleteScope::kColumnVersion, "f:q", 25);
  fx.deleteCells("t", "r", DeleteScope::kColumnVersion, "f:q", 20);
  ScanOptions raw;
  raw.raw = true;
  raw.maxVersions = 2;
  EXPECT_THAT(describe(fx.scanCells("t", raw)), ElementsAre("30:q30", "25:Delete", "20:Delete", "20:q20"));
  raw.maxVersions = 1;
  EXPECT_THAT(describe(fx.scanCells("t", raw)), ElementsAre("30:q30", "25:Delete", "20:Delete"));
}

TEST(Deletes, RawScanWithExplicitColumnsIsAllowed) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("f").versions(5)});
  fx.put("t", "r", "f:a", 10, "a");
  fx.put("t", "r", "f:b", 10, "b");
  fx.deleteCells("t", "r", DeleteScope::kColumnAll, "f:b", 20);
  ScanOptions raw;
  raw.raw = true;
  raw.columns = {column("f:b")};
  EXPECT_THAT(describeFull(fx.scanCells("t", raw)), ElementsAre("r/f:b@20=DeleteColumn", "r/f:b@10=b"));
}

TEST(Deletes, RawScanShowsExpiredCellsStillStored) {
  EngineFixture fx;
  fx.setClock(1'000'000);
  fx.createTable("t", {familyOf("f").ttl(1)});
  fx.put("t", "r", "f:q", 10, "expired");
  EXPECT_THAT(fx.getColumn("t", "r", "f:q"), IsEmpty());
  EXPECT_THAT(describe(fx.rawCells("t")), ElementsAre("10:expired"));
}

}  // namespace
}  // namespace keyscope::test
