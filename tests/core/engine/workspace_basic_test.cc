// The workspace end to end: create, write, read, flush, reopen.
#include "engine/sqlite_pages.h"
#include "engine_test_util.h"
#include "raw_db.h"
#include "keyscope/filter.h"

namespace keyscope::test {
namespace {

using ::testing::ElementsAre;

TEST(Workspace, PutThenGetReturnsTheValue) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("f")});
  fx.put("t", "row1", "f:q", 5, "v5");
  EXPECT_THAT(describe(fx.getColumn("t", "row1", "f:q")), ElementsAre("5:v5"));
}

// A read's cells come back in family order whatever order its columns name
// them in, as an HBase Result's do, flushed or not.
TEST(Workspace, ColumnsNamedOutOfFamilyOrderComeBackInFamilyOrder) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("a"), familyOf("b"), familyOf("c")});
  for (const std::string family : {"c", "a", "b"}) fx.put("t", "r", family + ":q", 1, family);
  for (int flushed = 0; flushed < 2; ++flushed) {
    SCOPED_TRACE(flushed ? "flushed" : "in the memstore");
    GetOptions get;
    get.row = "r";
    get.columns = {column("c:q"), column("a:q"), column("b:q"), column("a:q")};
    Result<GetResult> result = fx.ws().get("t", get);
    ASSERT_TRUE(result) << result.status().toString();
    EXPECT_THAT(describeFull(result->cells), ElementsAre("r/a:q@1=a", "r/b:q@1=b", "r/c:q@1=c"));
    ScanOptions scan;
    scan.columns = {column("c:q"), column("b:q"), column("a:q")};
    EXPECT_THAT(describeFull(fx.scanCells("t", scan)), ElementsAre("r/a:q@1=a", "r/b:q@1=b", "r/c:q@1=c"));
    fx.flush("t");
  }
}

TEST(Workspace, ValuesSurviveFlushAndReopen) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("f").versions(3)});
  for (int i = 0; i < 100; ++i) fx.put("t", "row" + std::to_string(i), "f:q", 10, "a" + std::to_string(i));
  fx.flush("t");
  for (int i = 0; i < 50; ++i) fx.put("t", "row" + std::to_string(i), "f:q", 20, "b" + std::to_string(i));
  fx.reopen();
  EXPECT_THAT(describe(fx.getColumn("t", "row7", "f:q", 3)), ElementsAre("20:b7", "10:a7"));
  EXPECT_THAT(describe(fx.getColumn("t", "row70", "f:q", 3)), ElementsAre("10:a70"));
  ScanOptions scan;
  EXPECT_EQ(fx.scanRows("t", scan).size(), 100u);
}

TEST(Workspace, ScanHonoursStartStopAndReverse) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("f")});
  for (const char* row : {"a", "b", "c", "d"}) fx.put("t", row, "f:q", 1, row);
  ScanOptions scan;
  scan.startRow = "b";
  scan.stopRow = "d";
  EXPECT_THAT(fx.scanRows("t", scan), ElementsAre("b", "c"));
  ScanOptions reversed;
  reversed.reversed = true;
  reversed.startRow = "c";
  reversed.stopRow = "a";
  EXPECT_THAT(fx.scanRows("t", reversed), ElementsAre("c", "b"));
  fx.flush("t");
  EXPECT_THAT(fx.scanRows("t", reversed), ElementsAre("c", "b"));
  ScanOptions all;
  all.reversed = true;
  EXPECT_THAT(fx.scanRows("t", all), ElementsAre("d", "c", "b", "a"));
}

TEST(Workspace, ReversedScanWithRowFiltersUsesTheReversedRules) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("f")});
  for (const char* row : {"a1", "b1", "b2", "b3", "c1"}) fx.put("t", row, "f:q", 1, row);
  ScanOptions scan;
  scan.reversed = true;
  auto prefix = parseFilter("PrefixFilter ('b')");
  ASSERT_TRUE(prefix.isOk()) << prefix.status().toString();
  scan.filter = *prefix;
  EXPECT_THAT(fx.scanRows("t", scan), ElementsAre("b3", "b2", "b1"));
  auto stop = parseFilter("InclusiveStopFilter ('b2')");
  ASSERT_TRUE(stop.isOk());
  scan.filter = *stop;
  EXPECT_THAT(fx.scanRows("t", scan), ElementsAre("c1", "b3", "b2"));
}

TEST(Workspace, DeleteMasksLaterPutUntilMajorCompaction) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("f").versions(3)});
  fx.put("t", "r", "f:q", 10, "old");
  fx.deleteCells("t", "r", DeleteScope::kColumnAll, "f:q", 20);
  fx.put("t", "r", "f:q", 15, "masked");
  EXPECT_TRUE(fx.getColumn("t", "r", "f:q").empty());
  fx.flush("t");
  EXPECT_TRUE(fx.getColumn("t", "r", "f:q").empty());
  fx.majorCompact("t");
  fx.put("t", "r", "f:q", 15, "visible");
  EXPECT_THAT(describe(fx.getColumn("t", "r", "f:q")), ElementsAre("15:visible"));
}

TEST(Workspace, MajorCompactionGivesFreedPagesBackToTheFileSystem) {
  OpenOptions options;
  options.backgroundCompaction = false;
  EngineFixture fx(options);
  fx.createTable("t", {familyOf("f")});
  const std::string value(2000, 'v');
  for (int round = 0; round < 4; ++round) {
    // Each round rewrites the same 500 cells: compaction keeps one round.
    for (int i = 0; i < 500; ++i) fx.put("t", "row" + std::to_string(i), "f:q", 1, value + std::to_string(round));
    fx.flush("t");
  }
  // The flushed pages may still sit in SQLite's log until a checkpoint
  // copies them into the file (under a loaded machine the checkpointer had
  // not yet run, and the file measured 4 KiB): closing checkpoints it all.
  fx.reopen();
  const auto before = std::filesystem::file_size(fx.path());
  ASSERT_GT(before, 4000u * 1000) << "the four rounds' pages are not in the file";
  fx.majorCompact("t");
  ASSERT_TRUE(fx.ws().waitForBackgroundWork().isOk());
  fx.reopen();  // the obsolete files' pages are deleted by now at the latest
  ASSERT_TRUE(fx.ws().waitForBackgroundWork().isOk());
  const auto after = std::filesystem::file_size(fx.path());
  EXPECT_LT(after, before / 2) << before << " -> " << after;
  EXPECT_THAT(describe(fx.getColumn("t", "row7", "f:q")), ElementsAre("1:" + value + "3"));
}

TEST(Workspace, PagesOfFilesLeftForTheNextOpenGoBackToTheFileSystemThere) {
  // A crash between writing a compaction's file and installing it leaves the
  // file's pages behind, listed in pending_files: the next open deletes them,
  // and gives their space back as a deletion in an open workspace does.
  EngineFixture fx;
  fx.createTable("t", {familyOf("f")});
  const std::string value(2000, 'v');
  for (int i = 0; i < 2000; ++i) fx.put("t", "row" + std::to_string(i), "f:q", 1, value);
  fx.flush("t");
  fx.close();
  const int64_t leftover = 999;
  {
    RawDb db(fx.path());
    const int64_t live = db.integer("SELECT min(file_id) FROM store_files");
    const int64_t from = engine::pageRowId(live, 0);
    const int64_t to = from + engine::kMaxPagesPerFile;
    const int64_t shift = engine::pageRowId(leftover, 0) - from;
    db.exec("INSERT INTO pages(page_id, data) SELECT page_id + " + std::to_string(shift) +
            ", data FROM pages WHERE page_id >= " + std::to_string(from) + " AND page_id < " + std::to_string(to));
    db.exec("INSERT INTO pending_files(file_id) VALUES(" + std::to_string(leftover) + ")");
  }
  const auto before = std::filesystem::file_size(fx.path());
  fx.reopen();
  fx.close();  // the file's size settles at the checkpoint of the close
  const auto after = std::filesystem::file_size(fx.path());
  EXPECT_LT(after, before * 2 / 3) << before << " -> " << after;
  {
    RawDb db(fx.path());
    EXPECT_EQ(db.integer("SELECT count(*) FROM pending_files"), 0);
    EXPECT_EQ(db.integer("SELECT count(*) FROM pages WHERE page_id >= " +
                         std::to_string(engine::pageRowId(leftover, 0))), 0);
    EXPECT_EQ(db.integer("PRAGMA freelist_count"), 0);
  }
  fx.reopen();
  EXPECT_THAT(describe(fx.getColumn("t", "row7", "f:q")), ElementsAre("1:" + value));
}

TEST(Workspace, IncrementCountsFromZero) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("f")});
  for (int i = 0; i < 3; ++i) {
    auto r = fx.ws().increment("t", Increment{"r", {{"f", "c", 2}}});
    ASSERT_TRUE(r.isOk()) << r.status().toString();
  }
  const auto cells = fx.getColumn("t", "r", "f:c");
  ASSERT_EQ(cells.size(), 1u);
  EXPECT_EQ(cells[0].value, std::string("\0\0\0\0\0\0\0\x06", 8));
}

}  // namespace
}  // namespace keyscope::test
