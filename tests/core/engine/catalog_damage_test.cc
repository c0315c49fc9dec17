// Damage to the catalog - the rows the engine trusts about tables, regions,
// store files, the log, settings - and to where SQLite keeps them. SQLite
// keeps no checksum of its data, so each such change reads back silently as
// another value; the engine must refuse it with a Corruption naming the row
// and the file, never act on it. Also the upgrade of a format-3 workspace,
// whose rows had no checksums yet.
#include "engine/catalog.h"
#include "engine_test_util.h"
#include "older_formats.h"
#include "raw_db.h"

namespace keyscope::test {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

// Table t (families a, b; regions split at "m") and table u (family a), each
// with flushed rows and rows only in the log; then closed.
class CatalogDamage : public ::testing::Test {
 protected:
  void SetUp() override {
    auto ws = open();
    ASSERT_TRUE(ws) << ws.status().toString();
    TableOptions t;
    t.name = "t";
    t.families = {familyOf("a").versions(2), familyOf("b")};
    ASSERT_TRUE((*ws)->createTable(t, {"m"}));
    TableOptions u;
    u.name = "u";
    u.families = {familyOf("a")};
    ASSERT_TRUE((*ws)->createTable(u));
    for (const char* row : {"c", "k", "p", "x"}) {
      ASSERT_TRUE((*ws)->put("t", Put{row, {PutCell{"a", "q", 1, std::string("a1-") + row},
                                            PutCell{"b", "q", 1, std::string("b1-") + row}}}));
      ASSERT_TRUE((*ws)->put("u", Put{row, {PutCell{"a", "q", 1, std::string("u1-") + row}}}));
    }
    ASSERT_TRUE((*ws)->flush("t"));
    ASSERT_TRUE((*ws)->flush("u"));
    for (const char* row : {"c", "x"}) {
      ASSERT_TRUE((*ws)->put("t", Put{row, {PutCell{"a", "q", 2, std::string("a2-") + row}}}));
    }
  }

  Result<std::unique_ptr<Workspace>> open() { return Workspace::open(path()); }
  std::string path() const { return m_dir.file("catalog.ksw"); }

  // Opening fails with a Corruption that names the file and says `what`.
  void expectOpenFails(const std::string& what) {
    auto opened = open();
    ASSERT_FALSE(opened) << "opened a workspace whose catalog was changed behind its back";
    EXPECT_EQ(opened.status().code(), Status::Code::kCorruption) << opened.status().toString();
    EXPECT_THAT(opened.status().message(), AllOf(HasSubstr(path()), HasSubstr(what)));
  }

  // Every cell of t and u as an open finds them (empty if it fails).
  std::vector<std::string> everythingOnOpen() {
    auto ws = open();
    if (!ws) {
      ADD_FAILURE() << ws.status().toString();
      return {};
    }
    return everything(**ws);
  }

  // Opens the workspace (upgrading an older one), expects `before` in it,
  // writes t:k's a:q at 3 and returns every cell then.
  std::vector<std::string> openExpectAndWrite(const std::vector<std::string>& before) {
    auto ws = open();
    if (!ws) {
      ADD_FAILURE() << ws.status().toString();
      return {};
    }
    EXPECT_EQ(everything(**ws), before);
    EXPECT_TRUE((*ws)->put("t", Put{"k", {PutCell{"a", "q", 3, "a3-k"}}}));
    return everything(**ws);
  }

  // Every cell of t and u, or the first error.
  std::vector<std::string> everything(Workspace& ws) {
    std::vector<std::string> out;
    for (const char* table : {"t", "u"}) {
      ScanOptions scan;
      scan.maxVersions = 10;
      auto scanner = ws.scan(table, scan);
      EXPECT_TRUE(scanner) << scanner.status().toString();
      if (!scanner) return out;
      RowResult row;
      while ((*scanner)->next(&row)) {
        for (const std::string& cell : describeFull(row.cells)) out.push_back(std::string(table) + ":" + cell);
      }
      EXPECT_TRUE((*scanner)->status()) << (*scanner)->status().toString();
    }
    return out;
  }

  TempDir m_dir;
};

TEST_F(CatalogDamage, ATablesOptionsChangedAreCorruptionNamingTheTable) {
  {
    RawDb db(path());
    db.exec("UPDATE tables SET options = replace(options, '\"versions\":2', '\"versions\":3') WHERE name = 't'");
    ASSERT_EQ(sqlite3_changes(db.db()), 1);
  }
  expectOpenFails("record of table 1 ('t') fails its checksum");
}

TEST_F(CatalogDamage, ARegionsFlushedSequenceChangedIsCorruption) {
  // A higher flushed_seq would skip acknowledged writes in the log as if
  // they were in store files.
  {
    RawDb db(path());
    db.exec("UPDATE regions SET flushed_seq = flushed_seq + 1 WHERE start_row = x''"
            " AND table_id = (SELECT table_id FROM tables WHERE name = 't')");
  }
  expectOpenFails("fails its checksum");
}

TEST_F(CatalogDamage, ARegionsBoundsChangedAreCorruption) {
  {
    RawDb db(path());
    db.exec("UPDATE regions SET start_row = CAST('n' AS BLOB) WHERE start_row = CAST('m' AS BLOB)");
  }
  expectOpenFails("fails its checksum");
}

TEST_F(CatalogDamage, AStoreFileMovedToAnotherRegionIsCorruptionNamingIt) {
  int64_t file = 0;
  {
    RawDb db(path());
    file = db.integer("SELECT min(file_id) FROM store_files");
    db.exec("UPDATE store_files SET region_id = (SELECT max(region_id) FROM regions) WHERE file_id = " +
            std::to_string(file));
  }
  expectOpenFails("store file " + std::to_string(file) + ": its catalog record (region, family, sequence) fails");
}

TEST_F(CatalogDamage, AStoreFilesFamilyOrSequenceChangedIsCorruption) {
  for (const auto& [change, undo] : {std::pair{"family = 'b'", "family = 'a'"},
                                     std::pair{"max_seq = max_seq + 100", "max_seq = max_seq - 100"}}) {
    SCOPED_TRACE(change);
    int64_t file = 0;
    {
      RawDb db(path());
      file = db.integer("SELECT min(file_id) FROM store_files WHERE family = 'a'");
      db.exec("UPDATE store_files SET " + std::string(change) + " WHERE file_id = " + std::to_string(file));
    }
    expectOpenFails("store file " + std::to_string(file));
    RawDb db(path());
    db.exec("UPDATE store_files SET " + std::string(undo) + " WHERE file_id = " + std::to_string(file));
  }
  EXPECT_TRUE(open());
}

TEST_F(CatalogDamage, ALogRecordUnderAnotherNumberIsCorruption) {
  {
    RawDb db(path());
    const std::vector<StoredLogRecord> log = storedLogRecords(db);
    ASSERT_GE(log.size(), 2u);
    rewriteSlotRecord(db, log.back(), log.back().seq + 1000, log.back().data);
  }
  expectOpenFails("checksum mismatch");
}

TEST_F(CatalogDamage, ADroppedFamilysSequenceChangedIsCorruption) {
  {
    auto ws = open();
    ASSERT_TRUE(ws);
    TableOptions t = *(*ws)->describeTable("t");
    t.families.pop_back();  // drops b
    ASSERT_TRUE((*ws)->alterTable(t));
  }
  {
    RawDb db(path());
    db.exec("UPDATE dropped_families SET seq = seq + 1000");
    ASSERT_EQ(sqlite3_changes(db.db()), 1);
  }
  expectOpenFails("dropped family of table 1 fails its checksum");
}

TEST_F(CatalogDamage, ASettingChangedIsCorruption) {
  {
    RawDb db(path());
    db.exec("UPDATE settings SET value = '7' WHERE key = 'servers'");
    if (sqlite3_changes(db.db()) == 0) db.exec("UPDATE settings SET value = '99' WHERE key = 'max_region_id'");
  }
  expectOpenFails("setting");
}

TEST_F(CatalogDamage, ARegionsHistoryChangedIsCorruption) {
  {
    RawDb db(path());
    db.exec("UPDATE region_history SET created = created + 1 WHERE region_id = (SELECT min(region_id) FROM regions)");
  }
  expectOpenFails("history of region");
}

// A damaged root page number in sqlite_schema can make a table read as
// another, empty one: the log as the (empty) pending list here. No row is
// damaged, so only the record of where the tables live tells.
TEST_F(CatalogDamage, ATableReadFromAnotherPlaceIsCorruption) {
  {
    RawDb db(path());
    const int64_t pendingRoot = db.integer("SELECT rootpage FROM sqlite_schema WHERE name = 'pending_files'");
    ASSERT_EQ(db.integer("SELECT count(*) FROM pending_files"), 0);
    db.exec("PRAGMA writable_schema = ON; UPDATE sqlite_schema SET rootpage = " + std::to_string(pendingRoot) +
            " WHERE name = 'wal'; PRAGMA writable_schema = OFF");
  }
  expectOpenFails("no longer places the catalog's tables where they were created");
}

// The sqlite3 shell's `PRAGMA auto_vacuum = NONE; VACUUM;` rebuilds the
// file with the tables elsewhere and their rows intact. The workspace is
// refused (where its tables are is not where it recorded them), naming the
// rebuild rather than damage: only a VACUUM turns auto-vacuum off.
TEST_F(CatalogDamage, AWorkspaceRebuiltWithoutAutoVacuumIsRefusedNamingTheRebuild) {
  {
    RawDb db(path());
    db.exec("PRAGMA auto_vacuum = NONE");
    db.exec("VACUUM");
    ASSERT_EQ(db.integer("PRAGMA auto_vacuum"), 0);
  }
  expectOpenFails("the file was rebuilt without auto-vacuum");
}

TEST_F(CatalogDamage, AWorkspaceWhoseHeaderLostItsMarkIsCorruptionNotAnotherApplicationsFile) {
  {
    RawDb db(path());
    db.exec("PRAGMA application_id = " + std::to_string(engine::kApplicationId ^ 0x100));
  }
  expectOpenFails("header is damaged");
}

// pending_files lists pages to delete at open; a live file listed there (a
// damaged row id) must not lose its pages.
TEST_F(CatalogDamage, ALiveFileListedForDeletionKeepsItsPages) {
  std::vector<std::string> before;
  {
    auto ws = open();
    ASSERT_TRUE(ws);
    before = everything(**ws);
  }
  {
    RawDb db(path());
    db.exec("INSERT INTO pending_files(file_id) SELECT file_id FROM store_files");
  }
  auto ws = open();
  ASSERT_TRUE(ws) << ws.status().toString();
  EXPECT_EQ(everything(**ws), before);
  ASSERT_EQ(before.size(), 14u);
}

// --- the upgrade from format 3 -------------------------------------------

TEST_F(CatalogDamage, AFormat3WorkspaceOpensReadsTheSameAndIsProtectedFromThenOn) {
  std::vector<std::string> before;
  {
    auto ws = open();
    ASSERT_TRUE(ws);
    before = everything(**ws);
  }
  downgradeToFormat3(path());
  {
    auto ws = open();
    ASSERT_TRUE(ws) << ws.status().toString();
    EXPECT_EQ(everything(**ws), before);
  }
  {
    RawDb db(path());
    EXPECT_EQ(db.integer("PRAGMA user_version"), engine::kFormatVersion);
    for (const char* table : {"tables", "regions", "region_history", "settings", "store_files"})
      EXPECT_EQ(db.integer(std::string("SELECT count(*) FROM ") + table + " WHERE checksum = 0"), 0) << table;
    EXPECT_EQ(db.integer("SELECT count(*) FROM wal WHERE substr(data, 1, 1) = x'01'"), 0);
    db.exec("UPDATE regions SET flushed_seq = flushed_seq + 1");
  }
  expectOpenFails("fails its checksum");
}

// --- the upgrade from format 6 -------------------------------------------

// Format 6 wrote log records with whole keys (version 2). They replay as
// they are; records written from then on are prefix-coded (version 3), and
// the workspace says format 7, so an older build refuses it.
TEST_F(CatalogDamage, AFormat6WorkspacesLogReplaysAndNewRecordsAreTheNewVersion) {
  const std::vector<std::string> before = everythingOnOpen();
  downgradeToFormat6(path());
  {
    RawDb db(path());
    ASSERT_GT(db.integer("SELECT count(*) FROM wal"), 0);
    ASSERT_EQ(db.integer("SELECT count(*) FROM wal WHERE substr(data, 1, 1) <> x'02'"), 0);
  }
  const std::vector<std::string> after = openExpectAndWrite(before);
  RawDb db(path());
  EXPECT_EQ(db.integer("PRAGMA user_version"), engine::kFormatVersion);
  const std::vector<StoredLogRecord> log = storedLogRecords(db);
  ASSERT_FALSE(log.empty());
  EXPECT_EQ(log.back().data[0], 3) << "the new record is of version 3";
  EXPECT_NE(log.back().slot, 0) << "the new record is in a slot";
  EXPECT_EQ(std::count_if(log.begin(), log.end(), [](const StoredLogRecord& r) { return r.data[0] == 2; }),
            db.integer("SELECT count(*) FROM wal"))
      << "the records of format 6 stay where they are, as they are";
  EXPECT_EQ(everythingOnOpen(), after);
}

// Format 7 kept the log as rows of the wal table. They replay as they are;
// records written from then on go to slots, and the flush that writes the
// rows' cells truncates the rows.
TEST_F(CatalogDamage, AFormat7WorkspacesLogReplaysAndNewRecordsGoToSlots) {
  const std::vector<std::string> before = everythingOnOpen();
  downgradeToFormat7(path());
  {
    RawDb db(path());
    ASSERT_EQ(db.integer("SELECT count(*) FROM wal"), 2);
    ASSERT_EQ(db.integer("SELECT count(*) FROM sqlite_schema WHERE name = 'wal_slots'"), 0);
  }
  const std::vector<std::string> after = openExpectAndWrite(before);
  {
    RawDb db(path());
    EXPECT_EQ(db.integer("PRAGMA user_version"), engine::kFormatVersion);
    const std::vector<StoredLogRecord> log = storedLogRecords(db);
    ASSERT_EQ(log.size(), 3u);
    EXPECT_EQ(log[0].slot, 0);
    EXPECT_EQ(log[1].slot, 0);
    EXPECT_NE(log[2].slot, 0) << "the new record is in a slot";
  }
  {
    auto ws = open();
    ASSERT_TRUE(ws) << ws.status().toString();
    EXPECT_EQ(everything(**ws), after);
    ASSERT_TRUE((*ws)->flush("t"));
  }
  RawDb db(path());
  EXPECT_EQ(db.integer("SELECT count(*) FROM wal"), 0);
  EXPECT_THAT(storedLogRecords(db), ::testing::IsEmpty());
  EXPECT_EQ(everythingOnOpen(), after);
}

// A format number damaged to an older one runs the upgrade again over a
// current workspace: it must change nothing (and bless no damage).
TEST_F(CatalogDamage, TheUpgradeChangesNothingInACurrentWorkspace) {
  std::vector<std::string> before;
  {
    auto ws = open();
    ASSERT_TRUE(ws);
    before = everything(**ws);
  }
  {
    RawDb db(path());
    db.exec("PRAGMA user_version = 3; UPDATE regions SET server = server + 1");
  }
  expectOpenFails("fails its checksum");
  {
    RawDb db(path());
    db.exec("UPDATE regions SET server = server - 1; PRAGMA user_version = 3");
  }
  auto ws = open();
  ASSERT_TRUE(ws) << ws.status().toString();
  EXPECT_EQ(everything(**ws), before);
}

}  // namespace
}  // namespace keyscope::test
