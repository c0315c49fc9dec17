// checkWorkspace (keyscope/check.h): a healthy workspace is clean; each kind
// of damage is reported where it is; --repair drops exactly the damaged
// store file or log record and says what is lost, after which the check is
// clean and the rest of the data is intact; damage it cannot fix is refused
// with nothing changed.
#include <algorithm>
#include <cstdio>
#include <set>

#include "engine/catalog.h"
#include "engine/catalog_checksum.h"
#include "engine_test_util.h"
#include "keyscope/check.h"
#include "log_on_disk.h"
#include "raw_db.h"

namespace keyscope::test {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr int kRows = 200;

std::string rowName(int i) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "row%03d", i);
  return buf;
}

// About 70 bytes: a family's 100 rows fill a few 4 KiB pages.
std::string valueFor(const std::string& family, int i) {
  return family + "-value-" + std::to_string(i * 7919 % 1000) + "-" + std::string(static_cast<size_t>(50 + i % 7), 'v');
}

// Table t: families a (ZSTD, 4 KiB blocks) and b, two regions split at
// row100; table u: family a. Every row flushed to one store file per region
// and family; then rows "zz0".."zz2" of t only in the log.
class WorkspaceCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    auto ws = Workspace::open(path());
    ASSERT_TRUE(ws) << ws.status().toString();
    TableOptions t;
    t.name = "t";
    t.families = {familyOf("a").compression(Compression::kZstd).blockSize(4096), familyOf("b").blockSize(2048)};
    ASSERT_TRUE((*ws)->createTable(t, {Bytes(rowName(kRows / 2))}));
    TableOptions u;
    u.name = "u";
    u.families = {familyOf("a").bloom(BloomType::kRowCol)};
    ASSERT_TRUE((*ws)->createTable(u));
    for (int i = 0; i < kRows; ++i) {
      ASSERT_TRUE((*ws)->put("t", Put{rowName(i), {PutCell{"a", "q", 1, valueFor("a", i)},
                                                   PutCell{"b", "q", 1, valueFor("b", i)}}}));
      ASSERT_TRUE((*ws)->put("u", Put{rowName(i), {PutCell{"a", "q", 1, valueFor("u", i)}}}));
    }
    ASSERT_TRUE((*ws)->flush("t"));
    ASSERT_TRUE((*ws)->flush("u"));
    for (int i = 0; i < 3; ++i)
      ASSERT_TRUE((*ws)->put("t", Put{"zz" + std::to_string(i), {PutCell{"b", "q", 5, "logged"}}}));
    m_before = everything(**ws);
  }

  std::string path() const { return m_dir.file("check.ksw"); }

  static std::string everything(Workspace& ws) {
    std::string out;
    for (const char* table : {"t", "u"}) {
      auto scanner = ws.scan(table, ScanOptions{});
      if (!scanner) return scanner.status().toString();
      RowResult row;
      while ((*scanner)->next(&row)) {
        for (const std::string& cell : describeFull(row.cells)) out += std::string(table) + ":" + cell + "\n";
      }
      if (!(*scanner)->status()) return (*scanner)->status().toString();
    }
    return out;
  }

  // The store file of `table`'s `family` in the region holding `row`.
  int64_t fileOf(const std::string& table, const std::string& family, const std::string& row) {
    RawDb db(path());
    return db.integer("SELECT s.file_id FROM store_files s JOIN regions r USING(region_id) JOIN tables t USING(table_id)"
                      " WHERE t.name = '" + table + "' AND s.family = '" + family + "' AND r.start_row <= CAST('" +
                      row + "' AS BLOB) AND (r.end_row = x'' OR r.end_row > CAST('" + row + "' AS BLOB))");
  }
  int64_t regionOf(int64_t fileId) {
    RawDb db(path());
    return db.integer("SELECT region_id FROM store_files WHERE file_id = " + std::to_string(fileId));
  }

  void flipPageByte(int64_t fileId, int64_t pageNo, size_t at) {
    RawDb db(path());
    const int64_t rowId = (fileId << 20) | pageNo;
    std::string page = db.blob("SELECT data FROM pages WHERE page_id = ?", rowId);
    ASSERT_GT(page.size(), at);
    page[at] ^= 0x40;
    db.setBlob("UPDATE pages SET data = ? WHERE page_id = ?", page, rowId);
  }

  CheckReport check(bool repair = false) {
    CheckOptions options;
    options.repair = repair;
    Result<CheckReport> report = checkWorkspace(path(), options);
    EXPECT_TRUE(report) << report.status().toString();
    return report ? *report : CheckReport{};
  }

  TempDir m_dir;
  std::string m_before;
};

TEST_F(WorkspaceCheck, AHealthyWorkspaceIsCleanAndCountsWhatItRead) {
  const std::string bytes = readFile(path());
  const CheckReport report = check();
  EXPECT_TRUE(report.clean());
  EXPECT_TRUE(report.sqliteFindings.empty());
  EXPECT_TRUE(report.notes.empty()) << report.notes.front();
  EXPECT_EQ(report.path, path());
  EXPECT_EQ(report.formatVersion, engine::kFormatVersion);
  EXPECT_EQ(report.counts.tables, 2u);
  EXPECT_EQ(report.counts.regions, 3u);
  EXPECT_EQ(report.counts.storeFiles, 5u);  // t: 2 regions x 2 families; u: 1
  EXPECT_EQ(report.counts.cells, 3u * kRows);
  EXPECT_EQ(report.counts.bloomFilters, 5u);
  EXPECT_GT(report.counts.pages, 5u);
  EXPECT_GT(report.counts.blocks, report.counts.pages);
  EXPECT_EQ(report.counts.logRecords, 3u);
  EXPECT_EQ(report.counts.logEntries, 3u);
  EXPECT_EQ(readFile(path()), bytes) << "a check changes nothing";

  const CheckReport repaired = check(/*repair=*/true);
  EXPECT_TRUE(repaired.clean());
  EXPECT_TRUE(repaired.repairAttempted);
  EXPECT_TRUE(repaired.repairRefused.empty());
  EXPECT_TRUE(repaired.droppedFiles.empty());
  EXPECT_EQ(repaired.afterRepair, nullptr) << "nothing to repair: no second check";
  EXPECT_EQ(readFile(path()), bytes);
}

TEST_F(WorkspaceCheck, AFlippedPageByteIsReportedWithItsPageAndRepairDropsExactlyThatFile) {
  const int64_t file = fileOf("t", "a", rowName(kRows - 1));
  const int64_t region = regionOf(file);
  flipPageByte(file, 0, 100);  // the file's blocks fit its one leaf-sized page
  const std::string bytes = readFile(path());
  const CheckReport report = check();
  ASSERT_EQ(report.problems.size(), 1u);
  const CheckProblem& p = report.problems.front();
  EXPECT_EQ(p.area, CheckArea::kStoreFile);
  EXPECT_EQ(p.table, "t");
  EXPECT_EQ(p.regionId, region);
  EXPECT_EQ(p.family, "a");
  EXPECT_EQ(p.storeFileId, file);
  EXPECT_EQ(p.page, std::optional<uint32_t>(0));
  EXPECT_TRUE(p.repairable);
  EXPECT_THAT(p.message, AllOf(HasSubstr("table 't', region " + std::to_string(region) + ", family 'a', store file " +
                                         std::to_string(file)),
                               HasSubstr("page 0, block 0: "), HasSubstr("checksum mismatch")));
  EXPECT_EQ(readFile(path()), bytes) << "a check without --repair changes nothing";

  const CheckReport repaired = check(/*repair=*/true);
  ASSERT_TRUE(repaired.repairRefused.empty()) << repaired.repairRefused;
  ASSERT_EQ(repaired.droppedFiles.size(), 1u);
  const LostStoreFile& lost = repaired.droppedFiles.front();
  EXPECT_EQ(lost.id, file);
  EXPECT_EQ(lost.table, "t");
  EXPECT_EQ(lost.regionId, region);
  EXPECT_EQ(lost.family, "a");
  EXPECT_TRUE(lost.metadataReadable);
  EXPECT_EQ(lost.firstRow, rowName(kRows / 2));
  EXPECT_EQ(lost.lastRow, rowName(kRows - 1));
  EXPECT_EQ(lost.minTimestamp, 1);
  EXPECT_EQ(lost.maxTimestamp, 1);
  EXPECT_EQ(lost.cells, static_cast<uint64_t>(kRows / 2));
  ASSERT_NE(repaired.afterRepair, nullptr);
  EXPECT_TRUE(repaired.afterRepair->clean());
  EXPECT_EQ(repaired.afterRepair->counts.storeFiles, 4u);

  // The workspace opens and reads cleanly: everything but the dropped
  // file's cells, exactly.
  auto ws = Workspace::open(path());
  ASSERT_TRUE(ws) << ws.status().toString();
  std::string expected;
  std::istringstream lines(m_before);
  for (std::string line; std::getline(lines, line);) {
    const bool dropped = line.rfind("t:row", 0) == 0 && line.substr(2, 6) >= rowName(kRows / 2) &&
                         line.find("/a:q@1=") != std::string::npos;
    if (!dropped) expected += line + "\n";
  }
  EXPECT_EQ(everything(**ws), expected);
  RawDb db(path());
  EXPECT_EQ(db.integer("SELECT count(*) FROM pages WHERE page_id >> 20 = " + std::to_string(file)), 0);
}

TEST_F(WorkspaceCheck, UnreadableMetadataIsDroppedSayingWhatItHeldIsUnknown) {
  const int64_t file = fileOf("u", "a", rowName(0));
  {
    RawDb db(path());
    std::string meta = db.blob("SELECT meta FROM store_files WHERE file_id = ?", file);
    meta[meta.size() / 2] ^= 0x01;
    db.setBlob("UPDATE store_files SET meta = ? WHERE file_id = ?", meta, file);
  }
  const CheckReport report = check(/*repair=*/true);
  ASSERT_EQ(report.problems.size(), 1u);
  EXPECT_THAT(report.problems.front().message,
              AllOf(HasSubstr("table 'u'"), HasSubstr("store file " + std::to_string(file)), HasSubstr("metadata")));
  ASSERT_EQ(report.droppedFiles.size(), 1u);
  EXPECT_FALSE(report.droppedFiles.front().metadataReadable);
  EXPECT_EQ(report.droppedFiles.front().table, "u");
  ASSERT_NE(report.afterRepair, nullptr);
  EXPECT_TRUE(report.afterRepair->clean());
  auto ws = Workspace::open(path());
  ASSERT_TRUE(ws);
  auto count = (*ws)->count("u", ScanOptions{});
  ASSERT_TRUE(count);
  EXPECT_EQ(*count, 0u);
  auto t = (*ws)->count("t", ScanOptions{});
  ASSERT_TRUE(t);
  EXPECT_EQ(*t, static_cast<uint64_t>(kRows + 3));
}

// A store file whose catalog row says it belongs to a region or family that
// does not exist (written with a valid checksum: the row is consistent, the
// catalog is not).
TEST_F(WorkspaceCheck, AStoreFileOutsideTheLiveRegionsAndFamiliesIsReportedAndDropped) {
  const int64_t noRegion = fileOf("t", "b", rowName(0));
  const int64_t noFamily = fileOf("u", "a", rowName(0));
  {
    RawDb db(path());
    const auto rewrite = [&](int64_t file, int64_t region, const std::string& family) {
      const int64_t maxSeq = db.integer("SELECT max_seq FROM store_files WHERE file_id = " + std::to_string(file));
      db.exec("UPDATE store_files SET region_id = " + std::to_string(region) + ", family = '" + family +
              "', checksum = " + std::to_string(engine::storeFileRowChecksum(file, region, family, maxSeq)) +
              " WHERE file_id = " + std::to_string(file));
    };
    rewrite(noRegion, 999, "b");
    rewrite(noFamily, regionOf(noFamily), "zz");
  }
  auto opened = Workspace::open(path());
  ASSERT_FALSE(opened);
  EXPECT_THAT(opened.status().message(), HasSubstr("region 999, which the catalog does not hold"));

  const CheckReport report = check(/*repair=*/true);
  ASSERT_EQ(report.problems.size(), 2u);
  std::set<int64_t> ids;
  for (const CheckProblem& p : report.problems) {
    EXPECT_EQ(p.area, CheckArea::kStoreFile);
    EXPECT_TRUE(p.repairable);
    ids.insert(p.storeFileId);
  }
  EXPECT_EQ(ids, (std::set<int64_t>{noRegion, noFamily}));
  EXPECT_THAT(report.problems[0].message + report.problems[1].message,
              AllOf(HasSubstr("region 999"), HasSubstr("family 'zz', which table 'u' does not have")));
  ASSERT_NE(report.afterRepair, nullptr);
  EXPECT_TRUE(report.afterRepair->clean());
  EXPECT_TRUE(Workspace::open(path()));
}

TEST_F(WorkspaceCheck, ADamagedLogRecordIsDroppedAndTheRestReplays) {
  {
    RawDb db(path());
    const StoredLogRecord first = storedLogRecords(db).front();
    std::string record = first.data;
    record[4] ^= 0x08;
    rewriteSlotRecord(db, first, first.seq, record);
  }
  EXPECT_FALSE(Workspace::open(path()));
  const CheckReport report = check(/*repair=*/true);
  ASSERT_EQ(report.problems.size(), 1u);
  EXPECT_EQ(report.problems.front().area, CheckArea::kLog);
  EXPECT_THAT(report.problems.front().message, HasSubstr("checksum mismatch"));
  ASSERT_EQ(report.droppedLogRecords.size(), 1u);
  ASSERT_NE(report.afterRepair, nullptr);
  EXPECT_TRUE(report.afterRepair->clean());
  EXPECT_EQ(report.afterRepair->counts.logRecords, 2u);
  auto ws = Workspace::open(path());
  ASSERT_TRUE(ws) << ws.status().toString();
  std::string expected = m_before;
  const std::string lost = "t:zz0/b:q@5=logged\n";
  expected.erase(expected.find(lost), lost.size());
  EXPECT_EQ(everything(**ws), expected);
}

// A log frame's header damaged: the records before it in its slot read, the
// ones from it on cannot be found. The open refuses, naming the slot and the
// byte; repair ends the slot there.
TEST_F(WorkspaceCheck, AnUnreadableLogFrameIsRefusedAndRepairEndsItsSlotThere) {
  StoredLogRecord second;
  {
    RawDb db(path());
    const std::vector<StoredLogRecord> log = storedLogRecords(db);
    ASSERT_EQ(log.size(), 3u);
    ASSERT_EQ(log[1].slot, log[0].slot) << "the three small records share a slot";
    second = log[1];
    damageLogFrame(db, second, 2);  // its length
  }
  const std::string where = "log slot " + std::to_string(second.slot) + ", byte " + std::to_string(second.frame);
  const auto refused = Workspace::open(path());
  ASSERT_FALSE(refused);
  EXPECT_THAT(refused.status().message(),
              AllOf(HasSubstr(where), HasSubstr("fails its checksum"), HasSubstr("check --repair")));
  const CheckReport report = check(/*repair=*/true);
  ASSERT_EQ(report.problems.size(), 1u);
  EXPECT_EQ(report.problems.front().area, CheckArea::kLog);
  EXPECT_TRUE(report.problems.front().repairable);
  EXPECT_THAT(report.problems.front().message, HasSubstr(where));
  ASSERT_EQ(report.droppedLogRecords.size(), 1u);
  EXPECT_EQ(report.droppedLogRecords.front().slot, second.slot);
  EXPECT_EQ(report.droppedLogRecords.front().slotOffset, second.frame);
  ASSERT_NE(report.afterRepair, nullptr);
  EXPECT_TRUE(report.afterRepair->clean());
  EXPECT_EQ(report.afterRepair->counts.logRecords, 1u);
  {
    auto ws = Workspace::open(path());
    ASSERT_TRUE(ws) << ws.status().toString();
    std::string expected = m_before;
    for (const std::string lost : {"t:zz1/b:q@5=logged\n", "t:zz2/b:q@5=logged\n"})
      expected.erase(expected.find(lost), lost.size());
    EXPECT_EQ(everything(**ws), expected);
    // Writing goes on in the slot it ended.
    ASSERT_TRUE((*ws)->put("t", Put{"zz9", {PutCell{"b", "q", 6, "after"}}}));
  }
  RawDb db(path());
  const std::vector<StoredLogRecord> log = storedLogRecords(db);
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[1].frame, second.frame) << "the new record took the place the repair freed";
}

// A VACUUM in the sqlite3 shell after `PRAGMA auto_vacuum = NONE` moves the
// catalog's tables and keeps their rows. Check refuses to repair, and says
// how to rebuild the file with the tables back in place; doing so gives the
// workspace back. (Tables moved by damage get no such advice:
// DamagedSchemaPlacesGetNoRebuildAdvice.)
TEST_F(WorkspaceCheck, ARebuildWithoutAutoVacuumIsRefusedWithTheRebuildThatUndoesIt) {
  {
    RawDb db(path());
    db.exec("PRAGMA auto_vacuum = NONE");
    db.exec("VACUUM");
  }
  const CheckReport report = check(/*repair=*/true);
  ASSERT_EQ(report.problems.size(), 1u);
  EXPECT_EQ(report.problems[0].area, CheckArea::kCatalog);
  EXPECT_THAT(report.problems[0].message, HasSubstr("rebuilt without auto-vacuum"));
  EXPECT_THAT(report.repairRefused, HasSubstr("'PRAGMA auto_vacuum = INCREMENTAL; VACUUM;'"));
  {
    RawDb db(path());
    db.exec("PRAGMA auto_vacuum = INCREMENTAL");
    db.exec("VACUUM");
  }
  EXPECT_TRUE(check(/*repair=*/false).clean());
  auto ws = Workspace::open(path());
  ASSERT_TRUE(ws) << ws.status().toString();
  EXPECT_EQ(everything(**ws), m_before);
}

// Two catalog tables' places swapped in the schema (each B-tree still used
// once, so SQLite's own check passes): damage, with auto-vacuum still on,
// and no advice to rebuild.
TEST_F(WorkspaceCheck, DamagedSchemaPlacesGetNoRebuildAdvice) {
  {
    RawDb db(path());
    const int64_t pendingRoot = db.integer("SELECT rootpage FROM sqlite_schema WHERE name = 'pending_files'");
    const int64_t walRoot = db.integer("SELECT rootpage FROM sqlite_schema WHERE name = 'wal'");
    db.exec("PRAGMA writable_schema = ON; UPDATE sqlite_schema SET rootpage = CASE name WHEN 'wal' THEN " +
            std::to_string(pendingRoot) + " ELSE " + std::to_string(walRoot) +
            " END WHERE name IN ('wal', 'pending_files'); PRAGMA writable_schema = OFF");
  }
  const CheckReport report = check(/*repair=*/true);
  EXPECT_TRUE(std::any_of(report.problems.begin(), report.problems.end(), [](const CheckProblem& p) {
    return p.message.find("(a damaged schema page)") != std::string::npos;
  }));
  EXPECT_THAT(report.repairRefused, HasSubstr("cannot repair"));
  EXPECT_THAT(report.repairRefused, Not(HasSubstr("VACUUM")));
}

TEST_F(WorkspaceCheck, DamagedCatalogRecordsAreReportedAndRepairIsRefusedChangingNothing) {
  {
    RawDb db(path());
    db.exec("UPDATE tables SET options = replace(options, '\"versions\":1', '\"versions\":5') WHERE name = 'u'");
  }
  const int64_t file = fileOf("t", "a", rowName(0));
  flipPageByte(file, 0, 30);
  const std::string bytes = readFile(path());
  const CheckReport report = check(/*repair=*/true);
  ASSERT_EQ(report.problems.size(), 2u) << report.problems.front().message;
  EXPECT_EQ(report.problems[0].area, CheckArea::kCatalog);
  EXPECT_FALSE(report.problems[0].repairable);
  EXPECT_THAT(report.problems[0].message, HasSubstr("table 2 ('u') fails its checksum"));
  EXPECT_EQ(report.problems[1].storeFileId, file);
  EXPECT_THAT(report.repairRefused, HasSubstr("cannot repair"));
  EXPECT_TRUE(report.droppedFiles.empty());
  EXPECT_EQ(readFile(path()), bytes) << "a refused repair changes nothing";
}

TEST_F(WorkspaceCheck, RegionsThatDoNotPartitionTheKeySpaceAreReported) {
  {
    RawDb db(path());
    // A gap: the first region of t ends at row090, the second starts at row100.
    engine::RegionRecord r;
    r.id = db.integer("SELECT region_id FROM regions WHERE start_row = x'' AND table_id = 1");
    r.tableId = 1;
    r.endRow = rowName(90);
    r.flushedSeq = db.integer("SELECT flushed_seq FROM regions WHERE region_id = " + std::to_string(r.id));
    r.server = static_cast<int32_t>(db.integer("SELECT server FROM regions WHERE region_id = " + std::to_string(r.id)));
    db.exec("UPDATE regions SET end_row = CAST('" + rowName(90) + "' AS BLOB), checksum = " +
            std::to_string(engine::regionRowChecksum(r)) + " WHERE region_id = " + std::to_string(r.id));
  }
  const CheckReport report = check(/*repair=*/true);
  bool gap = false;
  for (const CheckProblem& p : report.problems) {
    if (p.area == CheckArea::kRegions) {
      gap = true;
      EXPECT_THAT(p.message, HasSubstr("table 't': its regions leave a gap or overlap"));
    }
  }
  EXPECT_TRUE(gap);
  EXPECT_FALSE(report.repairRefused.empty());
}

// Damage to SQLite's own structure (a page header's count of fragmented
// bytes, in the pages table, which an open does not check) is beyond repair.
TEST_F(WorkspaceCheck, SqliteStructureDamageIsReportedAndRepairIsRefusedPointingAtRecover) {
  int64_t page = 0;
  {
    RawDb db(path());
    page = db.integer("SELECT rootpage FROM sqlite_schema WHERE name = 'pages'");
  }
  std::string bytes = readFile(path());
  const size_t header = static_cast<size_t>(page - 1) * 8192 + (page == 1 ? 100 : 0);
  ASSERT_LT(header + 8, bytes.size());
  ASSERT_TRUE(bytes[header] == 0x05 || bytes[header] == 0x0d) << "a table B-tree page";
  bytes[header + 7] = static_cast<char>(bytes[header + 7] + 37);  // fragmented free bytes
  writeFile(path(), bytes);
  const CheckReport report = check(/*repair=*/true);
  ASSERT_FALSE(report.problems.empty());
  EXPECT_EQ(report.problems.front().area, CheckArea::kSqlite);
  EXPECT_FALSE(report.sqliteFindings.empty());
  EXPECT_THAT(report.repairRefused, AllOf(HasSubstr("SQLite's own structure"), HasSubstr(".recover")));
  EXPECT_EQ(readFile(path()), bytes);
}

TEST_F(WorkspaceCheck, LeftoversAreNotesThatRepairClears) {
  const int64_t live = fileOf("u", "a", rowName(0));
  {
    RawDb db(path());
    db.exec("INSERT INTO pages(page_id, data) VALUES(" + std::to_string((int64_t{4000} << 20) | 3) + ", x'00')");
    db.exec("INSERT INTO pending_files(file_id) VALUES(" + std::to_string(live) + ")");
  }
  const CheckReport report = check();
  EXPECT_TRUE(report.clean());
  ASSERT_EQ(report.notes.size(), 2u);
  EXPECT_THAT(report.notes[0] + report.notes[1],
              AllOf(HasSubstr("store file 4000, which the catalog does not list"),
                    HasSubstr("store file " + std::to_string(live) + " is also listed for deletion")));
  const CheckReport repaired = check(/*repair=*/true);
  EXPECT_EQ(repaired.cleared.size(), 2u);
  ASSERT_NE(repaired.afterRepair, nullptr);
  EXPECT_TRUE(repaired.afterRepair->notes.empty());
  auto ws = Workspace::open(path());
  ASSERT_TRUE(ws);
  EXPECT_EQ(everything(**ws), m_before);
}

TEST_F(WorkspaceCheck, WhatCannotBeCheckedIsAnError) {
  {
    auto ws = Workspace::open(path());
    ASSERT_TRUE(ws);
    auto busy = checkWorkspace(path());
    ASSERT_FALSE(busy);
    EXPECT_EQ(busy.status().code(), Status::Code::kBusy);
    EXPECT_THAT(busy.status().message(), HasSubstr(path()));
  }
  EXPECT_EQ(checkWorkspace(m_dir.file("missing.ksw")).status().code(), Status::Code::kNotFound);
  writeFile(m_dir.file("notes.txt"), "not a workspace\n");
  EXPECT_EQ(checkWorkspace(m_dir.file("notes.txt")).status().code(), Status::Code::kInvalidArgument);
  {
    RawDb db(path());
    db.exec("PRAGMA user_version = 3");
  }
  auto older = checkWorkspace(path());
  ASSERT_FALSE(older);
  EXPECT_THAT(older.status().message(), HasSubstr("open it once"));
}

}  // namespace
}  // namespace keyscope::test
