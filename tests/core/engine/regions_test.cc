// Regions: splits (manual, at the mid key, by size policy), merges, the
// partition invariant under thousands of random splits and merges, split
// lineage across reopen, simulated servers and the balancer, and the upgrade
// of a format-2 workspace.
#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <limits>
#include <future>
#include <map>
#include <random>
#include <set>
#include <thread>

#include "engine/sync_point.h"
#include "engine_test_util.h"
#include "held_point.h"
#include "keyscope/check.h"
#include "older_formats.h"
#include "raw_db.h"

namespace keyscope::test {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kTable = "t";

std::string rowName(int i) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "row%04d", i);
  return buf;
}

class RegionsTest : public ::testing::Test {
 protected:
  RegionsTest() : m_fx(backgroundOff()) {}

  static OpenOptions backgroundOff() {
    OpenOptions options;
    options.backgroundCompaction = false;
    return options;
  }

  EngineFixture& fx() { return m_fx; }
  Workspace& ws() { return m_fx.ws(); }

  void createTable(TableOptions options = {}) {
    options.name = kTable;
    options.families = {familyOf("f"), familyOf("g").versions(3)};
    options.splitPolicy = SplitPolicy::kDisabled;  // splits only when a test asks
    const Status s = ws().createTable(options);
    ASSERT_TRUE(s.isOk()) << s.toString();
  }

  void writeRows(int from, int to, int64_t ts = 1) {
    for (int i = from; i < to; ++i) {
      fx().put(kTable, rowName(i), "f:a", ts, "a" + std::to_string(i));
      fx().put(kTable, rowName(i), "g:b", ts, std::string(100, static_cast<char>('a' + i % 26)));
    }
  }

  // Table t with one zstd family f (so a major compaction writes framed
  // blocks), rows 0-399 with 200-byte values at timestamp 1, in the memstore.
  void createCompressedTableOf400Rows() {
    TableOptions options;
    options.name = kTable;
    options.families = {familyOf("f").compression(Compression::kZstd)};
    options.splitPolicy = SplitPolicy::kDisabled;
    ASSERT_TRUE(ws().createTable(options));
    for (int i = 0; i < 400; ++i) {
      fx().put(kTable, rowName(i), "f:a", 1, std::string(200, static_cast<char>('a' + i % 26)));
    }
  }

  std::vector<RegionInfo> regions() {
    Result<std::vector<RegionInfo>> r = ws().regions(kTable);
    EXPECT_TRUE(r.isOk()) << r.status().toString();
    return r.isOk() ? *r : std::vector<RegionInfo>{};
  }

  std::vector<std::string> everything() { return describeFull(fx().rawCells(kTable)); }

  // Closes the workspace and checks all of it: clean, with these counts.
  CheckCounts closeAndCheck() {
    fx().close();
    Result<CheckReport> report = checkWorkspace(fx().path());
    EXPECT_TRUE(report.isOk()) << report.status().toString();
    if (!report.isOk()) return {};
    EXPECT_TRUE(report->clean());
    return report->counts;
  }

  // The regions cover the key space: no gap, no overlap, each non-empty.
  void expectPartition() {
    const std::vector<RegionInfo> rs = regions();
    ASSERT_FALSE(rs.empty());
    EXPECT_EQ(rs.front().startRow, "");
    EXPECT_EQ(rs.back().endRow, "");
    for (size_t i = 0; i + 1 < rs.size(); ++i) {
      EXPECT_EQ(rs[i].endRow, rs[i + 1].startRow) << "between regions " << rs[i].id << " and " << rs[i + 1].id;
      EXPECT_LT(rs[i].startRow, rs[i].endRow) << "region " << rs[i].id;
    }
  }

 private:
  EngineFixture m_fx;
};

// A split rewrites the files with rows on both sides of it as the files were
// written: flushed files as format 5 (for rewriting), a major compaction's
// as format 6 (framed blocks, for reads), so a split right after a major
// compaction does not leave the region's data in files made for rewriting.
TEST_F(RegionsTest, ASplitWritesItsHalvesInTheFormatOfWhatItRewrites) {
  createCompressedTableOf400Rows();
  ASSERT_FALSE(HasFatalFailure());
  const std::vector<std::string> before = everything();
  // Files by format: {format 5, format 6}, the format being byte 8 of a
  // file's metadata (store_file_format.h).
  const auto formats = [&] {
    fx().close();
    std::pair<int64_t, int64_t> counts;
    {
      RawDb db(fx().path());
      counts.first = db.integer("SELECT count(*) FROM store_files WHERE substr(meta, 9, 1) = x'05'");
      counts.second = db.integer("SELECT count(*) FROM store_files WHERE substr(meta, 9, 1) = x'06'");
    }
    fx().reopen();
    return counts;
  };
  ASSERT_TRUE(ws().flush(kTable));
  ASSERT_TRUE(ws().split(kTable, Bytes("row0100")).isOk());
  EXPECT_EQ(formats(), std::make_pair(int64_t{2}, int64_t{0}));
  ASSERT_TRUE(ws().compact(kTable, true));
  EXPECT_EQ(formats(), std::make_pair(int64_t{0}, int64_t{2}));
  ASSERT_TRUE(ws().split(kTable, Bytes("row0300")).isOk());
  EXPECT_EQ(formats(), std::make_pair(int64_t{0}, int64_t{3}));
  EXPECT_EQ(everything(), before);
  EXPECT_THAT(describe(fx().getColumn(kTable, "row0299", "f:a")), ElementsAre("1:" + std::string(200, 'a' + 299 % 26)));
  closeAndCheck();
}

// A split that rewrites a major compaction's file together with a smaller
// flushed one (both with rows on each side) writes framed halves: framed
// files hold most of the bytes it rewrites.
TEST_F(RegionsTest, ASplitOfMostlyFramedBytesWritesFramedHalves) {
  createCompressedTableOf400Rows();
  ASSERT_FALSE(HasFatalFailure());
  ASSERT_TRUE(ws().flush(kTable));
  ASSERT_TRUE(ws().compact(kTable, true));
  for (int i = 190; i < 210; ++i) fx().put(kTable, rowName(i), "f:a", 2, "new" + std::to_string(i));
  ASSERT_TRUE(ws().flush(kTable));
  ASSERT_TRUE(ws().split(kTable, Bytes("row0200")).isOk());
  fx().close();
  {
    RawDb db(fx().path());
    EXPECT_EQ(db.integer("SELECT count(*) FROM store_files"), 2);
    EXPECT_EQ(db.integer("SELECT count(*) FROM store_files WHERE substr(meta, 9, 1) = x'06'"), 2);
  }
  fx().reopen();
  // The rewrite keeps the newest version of each cell (VERSIONS 1).
  const std::vector<RegionInfo> rs = regions();
  ASSERT_EQ(rs.size(), 2u);
  EXPECT_EQ(rs[0].cells + rs[1].cells, 400u);
  EXPECT_THAT(describe(fx().getColumn(kTable, "row0199", "f:a")), ElementsAre("2:new199"));
  EXPECT_THAT(describe(fx().getColumn(kTable, "row0205", "f:a")), ElementsAre("2:new205"));
  EXPECT_THAT(describe(fx().getColumn(kTable, "row0215", "f:a")), ElementsAre("1:" + std::string(200, 'a' + 215 % 26)));
  closeAndCheck();
}

TEST_F(RegionsTest, DaughtersCoverParentExactly) {
  createTable();
  writeRows(0, 200);
  const std::vector<std::string> before = everything();
  Result<std::vector<int64_t>> daughters = ws().split(kTable, Bytes("row0100"));
  ASSERT_TRUE(daughters.isOk()) << daughters.status().toString();
  ASSERT_EQ(daughters->size(), 2u);
  const std::vector<RegionInfo> rs = regions();
  ASSERT_EQ(rs.size(), 2u);
  EXPECT_EQ(rs[0].startRow, "");
  EXPECT_EQ(rs[0].endRow, "row0100");
  EXPECT_EQ(rs[1].startRow, "row0100");
  EXPECT_EQ(rs[1].endRow, "");
  EXPECT_EQ(rs[0].id, (*daughters)[0]);
  EXPECT_EQ(rs[1].id, (*daughters)[1]);
  EXPECT_EQ(rs[0].cells + rs[1].cells, 400u);
  EXPECT_EQ(everything(), before);
  EXPECT_THAT(describe(fx().getColumn(kTable, "row0099", "f:a")), ElementsAre("1:a99"));
  EXPECT_THAT(describe(fx().getColumn(kTable, "row0100", "f:a")), ElementsAre("1:a100"));
}

TEST_F(RegionsTest, ScansReturnTheSameCellsBeforeAndAfterSplits) {
  createTable();
  writeRows(0, 300);
  fx().deleteRow(kTable, rowName(7), 2);
  fx().deleteCells(kTable, rowName(150), DeleteScope::kColumnAll, "g:b", 5);
  ScanOptions reversed;
  reversed.reversed = true;
  ScanOptions range;
  range.startRow = rowName(90);
  range.stopRow = rowName(210);
  const auto forwardBefore = describeFull(fx().scanCells(kTable, {}));
  const auto reversedBefore = describeFull(fx().scanCells(kTable, reversed));
  const auto rangeBefore = describeFull(fx().scanCells(kTable, range));
  // A split flushes, and a flush drops puts that markers in the same flush
  // mask (as HBase's minor compaction rule does): compare raw cells after one.
  fx().flush(kTable);
  const auto rawBefore = everything();
  for (const char* at : {"row0100", "row0200", "row0150", "row0007"}) {
    Result<std::vector<int64_t>> made = ws().split(kTable, Bytes(at));
    ASSERT_TRUE(made.isOk()) << at << ": " << made.status().toString();
  }
  EXPECT_EQ(regions().size(), 5u);
  EXPECT_EQ(describeFull(fx().scanCells(kTable, {})), forwardBefore);
  EXPECT_EQ(describeFull(fx().scanCells(kTable, reversed)), reversedBefore);
  EXPECT_EQ(describeFull(fx().scanCells(kTable, range)), rangeBefore);
  EXPECT_EQ(everything(), rawBefore);
  fx().reopen();
  EXPECT_EQ(describeFull(fx().scanCells(kTable, {})), forwardBefore);
  EXPECT_EQ(everything(), rawBefore);
}

TEST_F(RegionsTest, SplitWithoutARowSplitsEveryRegionAtItsMidKey) {
  createTable();
  writeRows(0, 400);
  Result<std::vector<int64_t>> made = ws().split(kTable);
  ASSERT_TRUE(made.isOk()) << made.status().toString();
  std::vector<RegionInfo> rs = regions();
  ASSERT_EQ(rs.size(), 2u);
  // The mid key leaves neither daughter empty and is near the middle.
  EXPECT_GT(rs[0].cells, 200u);
  EXPECT_GT(rs[1].cells, 200u);
  made = ws().split(kTable);
  ASSERT_TRUE(made.isOk()) << made.status().toString();
  EXPECT_EQ(made->size(), 4u);
  EXPECT_EQ(regions().size(), 4u);
  expectPartition();
}

TEST_F(RegionsTest, SplitRefusesAnEmptyDaughter) {
  createTable();
  writeRows(0, 10);
  ASSERT_TRUE(ws().split(kTable, Bytes("row0005")).isOk());
  Result<std::vector<int64_t>> atStart = ws().split(kTable, Bytes("row0005"));
  ASSERT_FALSE(atStart.isOk());
  EXPECT_THAT(atStart.status().message(), HasSubstr("a daughter would be empty"));
  EXPECT_FALSE(ws().split(kTable, Bytes("")).isOk());
  EXPECT_EQ(regions().size(), 2u);
}

TEST_F(RegionsTest, ARegionOfOneRowCannotSplitAtItsMidKey) {
  createTable();
  fx().put(kTable, "only", "f:a", 1, "x");
  Result<std::vector<int64_t>> made = ws().split(kTable);
  ASSERT_FALSE(made.isOk());
  EXPECT_THAT(made.status().message(), HasSubstr("no region of table 't' can split"));
  EXPECT_THAT(ws().splitRegion(regions().front().id).status().message(), HasSubstr("cannot split: it holds a single row"));
  EXPECT_EQ(regions().size(), 1u);
}

TEST_F(RegionsTest, WritesAfterASplitGoToTheDaughtersAndSurviveReopen) {
  createTable();
  writeRows(0, 100);
  ASSERT_TRUE(ws().split(kTable, Bytes("row0050")).isOk());
  writeRows(100, 150, 2);
  fx().put(kTable, rowName(10), "f:a", 3, "new10");
  fx().put(kTable, rowName(60), "f:a", 3, "new60");
  const auto rs = regions();
  ASSERT_EQ(rs.size(), 2u);
  EXPECT_GT(rs[0].memstoreBytes, 0u);
  EXPECT_GT(rs[1].memstoreBytes, 0u);
  const auto before = everything();
  fx().reopen();  // the log replays into the daughters
  EXPECT_EQ(everything(), before);
  EXPECT_THAT(describe(fx().getColumn(kTable, rowName(60), "f:a")), ElementsAre("3:new60"));
}

// Store files by id: "region family first..last".
std::map<int64_t, std::string> filesById(Workspace& ws) {
  std::map<int64_t, std::string> out;
  Result<std::vector<StoreFileInfo>> files = ws.storeFiles(kTable);
  EXPECT_TRUE(files.isOk()) << files.status().toString();
  if (!files.isOk()) return out;
  for (const StoreFileInfo& f : *files)
    out[f.id] = std::to_string(f.regionId) + " " + f.family + " " + toStringBinary(f.firstRow) + ".." +
                toStringBinary(f.lastRow);
  return out;
}

TEST_F(RegionsTest, AFileWhollyOnOneSideOfTheSplitMovesToItsDaughterUnwritten) {
  createTable();
  // Three flushes of consecutive rows, as a key-ordered load makes: only the
  // middle one's files hold rows on both sides of row0150.
  for (int from : {0, 100, 200}) {
    writeRows(from, from + 100);
    fx().flush(kTable);
  }
  const std::map<int64_t, std::string> parentFiles = filesById(ws());
  ASSERT_EQ(parentFiles.size(), 6u);
  const auto before = everything();
  Result<std::vector<int64_t>> daughters = ws().split(kTable, Bytes("row0150"));
  ASSERT_TRUE(daughters.isOk()) << daughters.status().toString();
  const int64_t low = (*daughters)[0], high = (*daughters)[1];

  const std::map<int64_t, std::string> after = filesById(ws());
  std::vector<std::string> kept, rewritten;
  for (const auto& [id, what] : after) (parentFiles.contains(id) ? kept : rewritten).push_back(what);
  const std::string l = std::to_string(low) + " ", h = std::to_string(high) + " ";
  EXPECT_THAT(kept, ::testing::UnorderedElementsAre(l + "f row0000..row0099", l + "g row0000..row0099",
                                                    h + "f row0200..row0299", h + "g row0200..row0299"));
  EXPECT_THAT(rewritten, ::testing::UnorderedElementsAre(l + "f row0100..row0149", l + "g row0100..row0149",
                                                         h + "f row0150..row0199", h + "g row0150..row0199"));
  EXPECT_EQ(everything(), before);
  EXPECT_THAT(describe(fx().getColumn(kTable, "row0042", "f:a")), ElementsAre("1:a42"));
  EXPECT_THAT(describe(fx().getColumn(kTable, "row0250", "f:a")), ElementsAre("1:a250"));

  // The moved files belong to their daughters from now on: across a reopen,
  // a compaction that retires them, and a check of the whole workspace.
  fx().reopen();
  EXPECT_EQ(filesById(ws()), after);
  EXPECT_EQ(everything(), before);
  fx().majorCompact(kTable);
  EXPECT_EQ(everything(), before);
  for (const auto& [id, what] : filesById(ws())) EXPECT_FALSE(after.contains(id)) << what;
  fx().reopen();
  EXPECT_EQ(everything(), before);
  EXPECT_EQ(closeAndCheck().storeFiles, 4u);
}

// While a split rewrites its parent's files, no flush task can run (the split
// holds the maintenance lock), so the split flushes the parent itself when
// writes pass the flush size: each memstore as two files cut at the split
// row, which go to the daughters as they are. Before, the writer waited on
// memstore pressure for as long as the rewrite took.
TEST_F(RegionsTest, ASplitFlushesItsParentWhileItRewritesAndHandsTheCutFilesToItsDaughters) {
  TableOptions options;
  options.memstoreFlushSize = 64 << 10;  // the smallest allowed
  createTable(options);
  writeRows(0, 200);
  fx().flush(kTable);
  const std::map<int64_t, std::string> parentFiles = filesById(ws());
  ASSERT_EQ(parentFiles.size(), 2u);  // f and g, each across the split row

  HeldPoint held("split:rewrite");
  auto split = std::async(std::launch::async, [&] { return ws().split(kTable, Bytes(rowName(100))); });
  ASSERT_TRUE(held.reached()) << "the split never began its rewrite";
  // Several flushes' worth on both sides of the split row, written while the
  // rewrite is held: more than the region may hold in memory.
  writeRows(0, 1000, 2);
  ASSERT_EQ(regions().size(), 1u) << "the writes waited for the split to end";
  std::map<int64_t, std::string> cut;
  for (const auto& [id, what] : filesById(ws())) {
    if (!parentFiles.contains(id)) cut[id] = what;
  }
  EXPECT_GE(cut.size(), 4u) << "the parent was not flushed while it split";
  const auto before = everything();
  held.release();
  Result<std::vector<int64_t>> daughters = split.get();
  ASSERT_TRUE(daughters.isOk()) << daughters.status().toString();

  // Each cut file is in the daughter its rows belong to, unwritten.
  Result<std::vector<StoreFileInfo>> files = ws().storeFiles(kTable);
  ASSERT_TRUE(files.isOk()) << files.status().toString();
  size_t moved = 0;
  for (const StoreFileInfo& f : *files) {
    if (!cut.contains(f.id)) continue;
    ++moved;
    EXPECT_EQ(f.regionId, (*daughters)[f.lastRow < Bytes(rowName(100)) ? 0 : 1]) << cut[f.id];
  }
  EXPECT_EQ(moved, cut.size()) << "cut files were rewritten";
  EXPECT_EQ(everything(), before);
  EXPECT_THAT(describe(fx().getColumn(kTable, rowName(42), "f:a")), ElementsAre("2:a42"));
  EXPECT_THAT(describe(fx().getColumn(kTable, rowName(999), "f:a")), ElementsAre("2:a999"));
  fx().reopen();
  EXPECT_EQ(everything(), before);
  closeAndCheck();
}

// The split does the flushes of other regions that fall due meanwhile too:
// their flush tasks wait for it as well.
TEST_F(RegionsTest, ASplitFlushesOtherRegionsDueAFlushWhileItRewrites) {
  createTable();
  writeRows(0, 200);
  fx().flush(kTable);
  TableOptions other;
  other.name = "other";
  other.memstoreFlushSize = 64 << 10;
  other.families = {familyOf("f")};
  ASSERT_TRUE(ws().createTable(other).isOk());

  HeldPoint held("split:rewrite");
  auto split = std::async(std::launch::async, [&] { return ws().split(kTable, Bytes(rowName(100))); });
  ASSERT_TRUE(held.reached()) << "the split never began its rewrite";
  // More than the other table's region may hold in memory.
  for (int i = 0; i < 2000; ++i) fx().put("other", rowName(i), "f:v", 1, std::string(100, 'o'));
  ASSERT_EQ(regions().size(), 1u) << "the writes waited for the split to end";
  EXPECT_GE(fx().storeFileCount("other"), 1u) << "the other table was not flushed while the split ran";
  held.release();
  ASSERT_TRUE(split.get().isOk());
  fx().reopen();
  EXPECT_EQ(fx().rawCells("other").size(), 2000u);
  EXPECT_THAT(describe(fx().getColumn("other", rowName(1999), "f:v")), ElementsAre("1:" + std::string(100, 'o')));
}

TEST_F(RegionsTest, ASplitRewritesAFileThatAgesBetweenTwoItMustRewrite) {
  createTable();
  // Oldest: row0010 f:a@5 = "old", in a file reaching past the split row.
  fx().put(kTable, rowName(10), "f:a", 5, "old");
  fx().put(kTable, rowName(180), "f:a", 5, "x");
  fx().flush(kTable);
  // Then the same cell again, alone: a file wholly below the split row.
  fx().put(kTable, rowName(10), "f:a", 5, "new");
  fx().flush(kTable);
  // Newest: another file reaching past the split row.
  fx().put(kTable, rowName(50), "f:a", 5, "y");
  fx().put(kTable, rowName(150), "f:a", 5, "z");
  fx().flush(kTable);
  ASSERT_THAT(describe(fx().getColumn(kTable, rowName(10), "f:a")), ElementsAre("5:new"));
  const std::map<int64_t, std::string> parentFiles = filesById(ws());
  ASSERT_EQ(parentFiles.size(), 3u);

  // Moving the middle file and rewriting the other two as one, newer than
  // it, would bring "old" back: the middle one is rewritten with them.
  ASSERT_TRUE(ws().split(kTable, Bytes(rowName(100))).isOk());
  EXPECT_THAT(describe(fx().getColumn(kTable, rowName(10), "f:a")), ElementsAre("5:new"));
  for (const auto& [id, what] : filesById(ws())) EXPECT_FALSE(parentFiles.contains(id)) << what;
  fx().reopen();
  EXPECT_THAT(describe(fx().getColumn(kTable, rowName(10), "f:a")), ElementsAre("5:new"));
}

// A scanner that found the parent before a split reads it after the swap.
// What the parent's memstore took while step 2 rewrote its file was written
// into the daughters' files at step 2b, and the parent now serves it from
// there (its memstore is let go before the last writes are copied): every
// row written up to the swap is there, with no gap.
TEST_F(RegionsTest, AScannerOnTheParentSeesEveryRowWrittenWhileItSplit) {
  createTable();
  ASSERT_TRUE(ws().split(kTable, Bytes("m")).isOk());
  fx().put(kTable, "a", "f:a", 1, "before the parent");
  // A parent file big enough that its rewrite takes a while.
  for (int i = 0; i < 20000; ++i) fx().put(kTable, "m" + rowName(i), "g:b", 1, std::string(100, 'v'));
  fx().flush(kTable);

  Result<std::unique_ptr<Scanner>> scanner = ws().scan(kTable, ScanOptions{});
  ASSERT_TRUE(scanner.isOk()) << scanner.status().toString();
  RowResult row;
  ASSERT_TRUE((*scanner)->next(&row));
  ASSERT_EQ(row.row, "a");  // the scanner holds the table as it was: the parent comes next

  const auto written = [](int i) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "n%07d", i);
    return std::string(buf);
  };
  std::atomic<bool> stop{false};
  std::atomic<int> count{0};
  std::thread writer([&] {
    for (int i = 0; !stop.load(); ++i) {
      Put put{written(i), {{"f", "a", 1, "w"}}};
      if (!ws().put(kTable, put).isOk()) return;
      count.store(i + 1);
    }
  });
  while (count.load() < 100) std::this_thread::yield();
  const int beforeSplit = count.load();
  const Result<std::vector<int64_t>> made = ws().split(kTable, Bytes("m" + rowName(10000)));
  stop.store(true);
  writer.join();
  ASSERT_TRUE(made.isOk()) << made.status().toString();

  int parentRows = 0, seen = 0;
  while ((*scanner)->next(&row)) {
    if (row.row[0] == 'm') {
      ++parentRows;
      continue;
    }
    ASSERT_EQ(row.row, written(seen)) << "a row written while the region split is missing from the parent";
    ++seen;
  }
  ASSERT_TRUE((*scanner)->status().isOk()) << (*scanner)->status().toString();
  EXPECT_EQ(parentRows, 20000);
  EXPECT_GE(seen, beforeSplit);
  EXPECT_LE(seen, count.load());
  // And the daughters hold every row the writer wrote.
  EXPECT_EQ(fx().rawCells(kTable).size(), 1u + 20000u + static_cast<size_t>(count.load()));
}

TEST_F(RegionsTest, ASplitTruncatesTheLogOfWhatItFlushedIntoTheDaughters) {
  // One region, a file big enough that its rewrite takes a while, and a
  // writer all along: what it writes while the daughters' files are written
  // (after the parent's own flush) is flushed into them by the split itself.
  // The log must then hold nothing the files hold: nothing at or below the
  // daughters' flushed position, whether or not anything is written after.
  createTable();
  for (int i = 0; i < 20000; ++i) fx().put(kTable, "m" + rowName(i), "g:b", 1, std::string(100, 'v'));
  fx().flush(kTable);
  std::atomic<bool> stop{false};
  std::atomic<int> count{0};
  std::thread writer([&] {
    for (int i = 0; !stop.load(); ++i) {
      Put put{"n" + rowName(i), {{"f", "a", 1, "w"}}};
      if (!ws().put(kTable, put).isOk()) return;
      count.store(i + 1);
    }
  });
  while (count.load() < 100) std::this_thread::yield();
  const Result<std::vector<int64_t>> made = ws().split(kTable, Bytes("m" + rowName(10000)));
  stop.store(true);
  writer.join();
  ASSERT_TRUE(made.isOk()) << made.status().toString();
  const int written = count.load();
  fx().close();
  {
    RawDb db(fx().path());
    const int64_t flushedThrough = db.integer("SELECT min(flushed_seq) FROM regions");
    const std::vector<StoredLogRecord> log = storedLogRecords(db);
    const int64_t oldestLogged = log.empty() ? std::numeric_limits<int64_t>::max() : log.front().seq;
    EXPECT_GT(oldestLogged, flushedThrough) << "the log still holds records the daughters' files hold";
  }
  fx().reopen();
  EXPECT_EQ(fx().rawCells(kTable).size(), 20000u + static_cast<size_t>(written));
}

// A flush or compaction of a table that queued its work for a region the
// moment before a split retired it: the work must reach the daughters, which
// hold what the parent held. The split is held between writing the
// daughters' files and installing them until the background thread has taken
// the table's task for the parent, as it may by chance.
//
// Runs `work` on a thread of its own once `split` reaches the swap, lets the
// split go on once the background thread took the work's task (`taskPoint`),
// and returns what `work` returned. `atTheSwap` runs first, on the split's
// thread: the writes of the split's last moment.
Status runRacingASplit(std::string_view taskPoint, const std::function<void()>& split,
                       const std::function<void()>& atTheSwap, const std::function<Status()>& work) {
  std::promise<void> taken;
  std::atomic<bool> armed{false}, tookIt{false};
  std::thread racer;
  Status result;
  {
    engine::ScopedSyncPoints points([&](std::string_view point) {
      if (point == "split:before-swap") {
        atTheSwap();
        armed.store(true);
        racer = std::thread([&] { result = work(); });
        // Bounded, so a work that never queues fails the test, not hangs it.
        taken.get_future().wait_for(std::chrono::seconds(30));
      } else if (point == taskPoint && armed.load() && !tookIt.exchange(true)) {
        taken.set_value();
      }
    });
    split();
  }
  if (!racer.joinable()) return Status::invalidArgument("the split never reached its swap");
  racer.join();
  if (!tookIt.load()) return Status::invalidArgument("the work never reached the background thread");
  return result;
}

TEST_F(RegionsTest, AFlushOfTheTableReachesTheDaughtersOfASplitItRacedWith) {
  createTable();
  writeRows(0, 100);
  const Status flushed = runRacingASplit(
      "task:flush", [&] { ASSERT_TRUE(ws().split(kTable, Bytes(rowName(50))).isOk()); },
      [&] { fx().put(kTable, rowName(10), "f:a", 2, "last moment"); },
      [&] { return ws().flush(kTable); });
  ASSERT_TRUE(flushed.isOk()) << flushed.toString();
  const std::vector<RegionInfo> rs = regions();
  ASSERT_EQ(rs.size(), 2u);
  for (const RegionInfo& r : rs) EXPECT_EQ(r.memstoreBytes, 0u) << "region " << r.id << " was not flushed";
  fx().close();
  RawDb db(fx().path());
  EXPECT_THAT(storedLogRecords(db), IsEmpty()) << "the log still holds what the flush should have written";
}

TEST_F(RegionsTest, AMajorCompactionOfTheTableReachesTheDaughtersOfASplitItRacedWith) {
  createTable();
  writeRows(0, 100);
  fx().deleteRow(kTable, rowName(10));
  fx().deleteRow(kTable, rowName(70));
  fx().flush(kTable);
  const Status compacted = runRacingASplit(
      "task:major-compaction", [&] { ASSERT_TRUE(ws().split(kTable, Bytes(rowName(50))).isOk()); }, [] {},
      [&] { return ws().compact(kTable, /*major=*/true); });
  ASSERT_TRUE(compacted.isOk()) << compacted.toString();
  ASSERT_EQ(regions().size(), 2u);
  // A major compaction drops the deleted cells and the markers themselves;
  // the split's own rewrite keeps both.
  for (const Cell& cell : fx().rawCells(kTable)) {
    EXPECT_NE(cell.row, Bytes(rowName(10)));
    EXPECT_NE(cell.row, Bytes(rowName(70)));
  }
  EXPECT_EQ(fx().rawCells(kTable).size(), 98u * 2);
}

TEST_F(RegionsTest, AdjacentRegionsMergeKeepingEveryCell) {
  createTable();
  writeRows(0, 120);
  ASSERT_TRUE(ws().split(kTable, Bytes("row0040")).isOk());
  ASSERT_TRUE(ws().split(kTable, Bytes("row0080")).isOk());
  writeRows(30, 50, 4);  // in memory, across the first boundary
  const auto before = everything();
  auto rs = regions();
  ASSERT_EQ(rs.size(), 3u);
  Result<int64_t> merged = ws().mergeRegions(rs[1].id, rs[0].id);  // either order
  ASSERT_TRUE(merged.isOk()) << merged.status().toString();
  rs = regions();
  ASSERT_EQ(rs.size(), 2u);
  EXPECT_EQ(rs[0].id, *merged);
  EXPECT_EQ(rs[0].startRow, "");
  EXPECT_EQ(rs[0].endRow, "row0080");
  EXPECT_EQ(everything(), before);
  fx().reopen();
  EXPECT_EQ(everything(), before);
  expectPartition();
}

TEST_F(RegionsTest, MergeRefusesRegionsThatAreNotAdjacentOrOfAnotherTable) {
  createTable();
  writeRows(0, 90);
  ASSERT_TRUE(ws().split(kTable, Bytes("row0030")).isOk());
  ASSERT_TRUE(ws().split(kTable, Bytes("row0060")).isOk());
  fx().createTable("other", {familyOf("f")});
  const auto rs = regions();
  Result<int64_t> gap = ws().mergeRegions(rs[0].id, rs[2].id);
  ASSERT_FALSE(gap.isOk());
  EXPECT_THAT(gap.status().message(), HasSubstr("not adjacent"));
  const auto other = ws().regions("other");
  ASSERT_TRUE(other.isOk());
  EXPECT_THAT(ws().mergeRegions(rs[0].id, other->front().id).status().message(), HasSubstr("different tables"));
  EXPECT_THAT(ws().mergeRegions(rs[0].id, rs[0].id).status().message(), HasSubstr("itself"));
  EXPECT_EQ(ws().mergeRegions(rs[0].id, 99999).status().code(), Status::Code::kNotFound);
  EXPECT_EQ(regions().size(), 3u);
}

TEST_F(RegionsTest, RandomSplitsAndMergesKeepThePartitionAndTheData) {
  createTable();
  writeRows(0, 300);
  const auto before = everything();
  std::mt19937_64 random(20261121);
  int splits = 0, merges = 0;
  for (int step = 0; step < 2000; ++step) {
    const auto rs = regions();
    if (rs.size() > 1 && (random() % 2 == 0 || rs.size() > 40)) {
      const size_t i = random() % (rs.size() - 1);
      Result<int64_t> merged = ws().mergeRegions(rs[i].id, rs[i + 1].id);
      ASSERT_TRUE(merged.isOk()) << "step " << step << ": " << merged.status().toString();
      ++merges;
    } else {
      const Bytes at = rowName(static_cast<int>(random() % 320)) + (random() % 2 ? "x" : "");
      Result<std::vector<int64_t>> made = ws().split(kTable, at);
      if (made.isOk()) ++splits;
      else ASSERT_THAT(made.status().message(), HasSubstr("a daughter would be empty")) << "step " << step;
    }
    if (step % 100 == 0) {
      expectPartition();
      if (HasFatalFailure()) return;
    }
  }
  expectPartition();
  EXPECT_GT(splits, 500);
  EXPECT_GT(merges, 500);
  EXPECT_EQ(everything(), before);
  fx().reopen();
  expectPartition();
  EXPECT_EQ(everything(), before);
}

TEST_F(RegionsTest, LineageRecordsParentsDaughtersSplitRowsAndTimesAcrossReopen) {
  createTable();
  fx().setClock(1000);
  writeRows(0, 100);
  const int64_t first = regions().front().id;
  fx().setClock(2000);
  ASSERT_TRUE(ws().split(kTable, Bytes("row0050")).isOk());
  auto rs = regions();
  fx().setClock(3000);
  Result<int64_t> merged = ws().mergeRegions(rs[0].id, rs[1].id);
  ASSERT_TRUE(merged.isOk());
  fx().reopen();
  Result<std::vector<RegionHistoryEntry>> history = ws().regionHistory(kTable);
  ASSERT_TRUE(history.isOk()) << history.status().toString();
  std::map<int64_t, RegionHistoryEntry> byId;
  for (const auto& h : *history) byId[h.regionId] = h;
  ASSERT_EQ(byId.size(), 4u);
  EXPECT_EQ(byId[first].origin, RegionOrigin::kCreate);
  EXPECT_EQ(byId[first].retiredMillis, 2000);
  for (int64_t daughter : {rs[0].id, rs[1].id}) {
    EXPECT_EQ(byId[daughter].origin, RegionOrigin::kManualSplit);
    EXPECT_THAT(byId[daughter].parents, ElementsAre(first));
    EXPECT_EQ(byId[daughter].splitRow, "row0050");
    EXPECT_EQ(byId[daughter].createdMillis, 2000);
    EXPECT_EQ(byId[daughter].retiredMillis, 3000);
  }
  EXPECT_EQ(byId[*merged].origin, RegionOrigin::kMerge);
  EXPECT_THAT(byId[*merged].parents, ElementsAre(rs[0].id, rs[1].id));
  EXPECT_EQ(byId[*merged].retiredMillis, std::nullopt);
  EXPECT_EQ(byId[*merged].createdMillis, 3000);
}

TEST_F(RegionsTest, RegionIdsAreNeverReused) {
  createTable();
  writeRows(0, 20);
  ASSERT_TRUE(ws().split(kTable, Bytes("row0010")).isOk());
  std::set<int64_t> seen;
  const auto before = ws().regionHistory(kTable);
  ASSERT_TRUE(before.isOk());
  for (const auto& h : *before) seen.insert(h.regionId);
  ASSERT_TRUE(ws().dropTable(kTable).isOk());
  fx().reopen();
  createTable();
  const auto after = ws().regionHistory(kTable);
  ASSERT_TRUE(after.isOk());
  for (const auto& h : *after) EXPECT_EQ(seen.count(h.regionId), 0u) << h.regionId;
}

TEST_F(RegionsTest, TruncateEndsTheHistoryOfTheOldRegions) {
  createTable();
  writeRows(0, 20);
  ASSERT_TRUE(ws().truncateTable(kTable).isOk());
  fx().reopen();  // the old regions' log records must not come back
  EXPECT_TRUE(fx().rawCells(kTable).empty());
  const auto history = ws().regionHistory(kTable);
  ASSERT_TRUE(history.isOk());
  ASSERT_EQ(history->size(), 2u);
  EXPECT_EQ(std::count_if(history->begin(), history->end(), [](const auto& h) { return h.retiredMillis.has_value(); }),
            1);
}

// --- Split policies -------------------------------------------------------------

TEST(SplitPolicy, IncreasingToUpperBoundMatchesHBasesFormula) {
  // RegionSplitPolicy's javadoc: with 128 MB flushes, splits at 256 MB, then
  // 2^3 x 256 MB = 2048 MB, then 6912 MB, then the 10 GiB maximum.
  TableOptions t;
  t.memstoreFlushSize = 128ull << 20;
  t.maxFileSize = 10ull << 30;
  t.splitPolicy = SplitPolicy::kIncreasingToUpperBound;
  EXPECT_EQ(regionSplitSize(t, 1), 256ull << 20);
  EXPECT_EQ(regionSplitSize(t, 2), 2048ull << 20);
  EXPECT_EQ(regionSplitSize(t, 3), 6912ull << 20);
  EXPECT_EQ(regionSplitSize(t, 4), 10ull << 30);
  EXPECT_EQ(regionSplitSize(t, 0), 10ull << 30);
  EXPECT_EQ(regionSplitSize(t, 101), 10ull << 30);
}

TEST(SplitPolicy, SteppingConstantAndDisabled) {
  TableOptions t;
  t.memstoreFlushSize = 1ull << 20;
  t.maxFileSize = 64ull << 20;
  t.splitPolicy = SplitPolicy::kStepping;
  EXPECT_EQ(regionSplitSize(t, 1), 2ull << 20);
  EXPECT_EQ(regionSplitSize(t, 2), 64ull << 20);
  t.splitPolicy = SplitPolicy::kConstantSize;
  EXPECT_EQ(regionSplitSize(t, 1), 64ull << 20);
  t.splitPolicy = SplitPolicy::kDisabled;
  EXPECT_EQ(regionSplitSize(t, 1), UINT64_MAX);
}

TEST(SplitPolicy, NamesRoundTripAndAcceptHBaseClassNames) {
  for (SplitPolicy p : {SplitPolicy::kIncreasingToUpperBound, SplitPolicy::kConstantSize, SplitPolicy::kStepping,
                        SplitPolicy::kDisabled})
    EXPECT_EQ(parseSplitPolicy(splitPolicyName(p)), p);
  EXPECT_EQ(parseSplitPolicy("org.apache.hadoop.hbase.regionserver.ConstantSizeRegionSplitPolicy"),
            SplitPolicy::kConstantSize);
  EXPECT_EQ(parseSplitPolicy("stepping"), SplitPolicy::kStepping);
  EXPECT_EQ(parseSplitPolicy("Constant"), SplitPolicy::kConstantSize);
  EXPECT_EQ(parseSplitPolicy("constantsizeregionsplitpolicy"), std::nullopt);  // class names as HBase spells them
  EXPECT_EQ(parseSplitPolicy("Nonsense"), std::nullopt);
}

TEST_F(RegionsTest, ATableSplitsBySizeOnItsOwn) {
  TableOptions options;
  options.name = kTable;
  options.families = {familyOf("f").compression(Compression::kNone).blockSize(4096)};
  options.memstoreFlushSize = 64 << 10;
  options.maxFileSize = 128 << 10;
  options.splitPolicy = SplitPolicy::kConstantSize;
  ASSERT_TRUE(ws().createTable(options).isOk());
  for (int i = 0; i < 4000; ++i) fx().put(kTable, rowName(i), "f:a", 1, std::string(200, 'v'));
  ASSERT_TRUE(ws().waitForBackgroundWork().isOk());
  const auto rs = regions();
  EXPECT_GE(rs.size(), 4u);
  expectPartition();
  for (const auto& r : rs) EXPECT_LT(r.storedBytes, 2 * options.maxFileSize) << "region " << r.id;
  const auto history = ws().regionHistory(kTable);
  ASSERT_TRUE(history.isOk());
  EXPECT_TRUE(std::any_of(history->begin(), history->end(),
                          [](const auto& h) { return h.origin == RegionOrigin::kSizeSplit; }));
  EXPECT_EQ(fx().scanRows(kTable, {}).size(), 4000u);
}

// --- Servers --------------------------------------------------------------------

TEST_F(RegionsTest, RegionsAreSpreadOverFourServersByDefault) {
  EXPECT_EQ(ws().serverCount(), 4);
  std::vector<Bytes> splits;
  for (int i = 1; i < 8; ++i) splits.push_back(rowName(i * 10));
  fx().createTableWithSplits(kTable, {familyOf("f")}, splits);
  std::map<int32_t, int> perServer;
  for (const auto& r : regions()) ++perServer[r.server];
  EXPECT_THAT(perServer, ElementsAre(std::pair{0, 2}, std::pair{1, 2}, std::pair{2, 2}, std::pair{3, 2}));
}

TEST_F(RegionsTest, ChangingTheServerCountReassignsAndPersists) {
  std::vector<Bytes> splits;
  for (int i = 1; i < 8; ++i) splits.push_back(rowName(i * 10));
  fx().createTableWithSplits(kTable, {familyOf("f")}, splits);
  ASSERT_TRUE(ws().setServerCount(2).isOk());
  std::map<int32_t, int> perServer;
  for (const auto& r : regions()) ++perServer[r.server];
  EXPECT_THAT(perServer, ElementsAre(std::pair{0, 4}, std::pair{1, 4}));
  EXPECT_FALSE(ws().setServerCount(0).isOk());
  fx().reopen();
  EXPECT_EQ(ws().serverCount(), 2);
  perServer.clear();
  for (const auto& r : regions()) ++perServer[r.server];
  EXPECT_THAT(perServer, ElementsAre(std::pair{0, 4}, std::pair{1, 4}));
}

TEST_F(RegionsTest, DaughtersStayOnTheirParentsServerUntilTheBalancerRuns) {
  ASSERT_TRUE(ws().setBalancerEnabled(false).isOk());
  createTable();
  writeRows(0, 80);
  const int32_t server = regions().front().server;
  for (const char* at : {"row0020", "row0040", "row0060"}) ASSERT_TRUE(ws().split(kTable, Bytes(at)).isOk());
  for (const auto& r : regions()) EXPECT_EQ(r.server, server);
  Result<uint32_t> moved = ws().balance();
  ASSERT_TRUE(moved.isOk());
  EXPECT_EQ(*moved, 3u);
  std::set<int32_t> servers;
  for (const auto& r : regions()) servers.insert(r.server);
  EXPECT_EQ(servers.size(), 4u);
  fx().reopen();
  EXPECT_FALSE(ws().balancerEnabled());
}

TEST_F(RegionsTest, WithTheBalancerOnSplitsAreBalancedAtMostOncePerBalancerPeriod) {
  fx().setClock(1'000'000);
  createTable();
  writeRows(0, 80);
  const auto onServers = [this] {
    std::map<int32_t, int> perServer;
    for (const auto& r : regions()) ++perServer[r.server];
    return perServer;
  };
  // The first split balances; within five minutes of the workspace clock
  // (HBase's hbase.balancer.period) the next ones leave their daughters on
  // their parent's server.
  ASSERT_TRUE(ws().split(kTable, Bytes("row0020")).isOk());
  ASSERT_EQ(onServers().size(), 2u);
  fx().setClock(1'000'000 + 60'000);
  ASSERT_TRUE(ws().split(kTable, Bytes("row0040")).isOk());
  ASSERT_TRUE(ws().split(kTable, Bytes("row0060")).isOk());
  EXPECT_EQ(onServers().size(), 2u);
  fx().setClock(1'000'000 + 5 * 60'000);
  ASSERT_TRUE(ws().split(kTable, Bytes("row0070")).isOk());
  for (const auto& [server, count] : onServers()) EXPECT_LE(count, 2) << "server " << server;
  EXPECT_EQ(onServers().size(), 4u);
}

// --- Format upgrade ---------------------------------------------------------------

TEST(RegionsUpgrade, AFormatTwoWorkspaceGainsHistoryAndServers) {
  TempDir dir;
  const std::string path = dir.file("old.ksw");
  {
    auto ws = Workspace::open(path);
    ASSERT_TRUE(ws.isOk());
    TableOptions t;
    t.name = kTable;
    t.families = {familyOf("f")};
    ASSERT_TRUE((*ws)->createTable(t, {Bytes("m")}).isOk());
    ASSERT_TRUE((*ws)->put(kTable, Put{"a", {{"f", "q", 1, "x"}}}).isOk());
  }
  downgradeToFormat3(path);
  {
    // What format 2 had: no history, no settings, no server column.
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db,
                           "DROP TABLE region_history; DROP TABLE settings;"
                           "ALTER TABLE regions DROP COLUMN server; PRAGMA user_version = 2;",
                           nullptr, nullptr, nullptr),
              SQLITE_OK)
        << sqlite3_errmsg(db);
    sqlite3_close(db);
  }
  auto ws = Workspace::open(path);
  ASSERT_TRUE(ws.isOk()) << ws.status().toString();
  const auto history = (*ws)->regionHistory(kTable);
  ASSERT_TRUE(history.isOk()) << history.status().toString();
  ASSERT_EQ(history->size(), 2u);
  EXPECT_EQ(history->front().origin, RegionOrigin::kPreSplit);
  GetOptions get;
  get.row = "a";
  EXPECT_EQ((*ws)->get(kTable, get)->cells.size(), 1u);
  EXPECT_TRUE((*ws)->split(kTable, Bytes("c")).isOk());
}

}  // namespace
}  // namespace keyscope::test
