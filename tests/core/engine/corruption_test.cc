// Damaged workspaces, for real: bytes flipped in a stored page or in a store
// file's metadata through SQLite's own API while the workspace is closed,
// truncated files, files that are not workspaces or are from a newer build.
// Every one must give a clean Status that says what is damaged and where -
// never a wrong answer and never a crash (this file also runs under
// ASan+UBSan) - and reads that do not touch the damage keep working.
#include <sqlite3.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <regex>
#include <string>

#include "engine/catalog.h"
#include "engine_test_util.h"
#include "raw_db.h"

namespace keyscope::test {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

constexpr int kRows = 300;

std::string rowName(int i) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "row%04d", i);
  return buf;
}

// About 120 bytes, different per row and family: pseudo-random letters,
// which zstd compresses by about a third only, so that even compressed the
// family spans several leaf-sized pages.
std::string valueFor(const std::string& family, int i) {
  std::string v = family + "-" + std::to_string(i) + ":";
  uint64_t x = static_cast<uint64_t>(i) * UINT64_C(0x9E3779B97F4A7C15) + static_cast<unsigned char>(family[0]);
  for (int k = 0; k < 110; ++k) {
    x = x * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
    v += static_cast<char>('a' + (x >> 33) % 26);
  }
  return v;
}

struct StoredFile {
  int64_t id = 0;
  int64_t regionId = 0;
  int64_t pages = 0;
};

// The one store file of `table`'s `family` (each test flushes once).
StoredFile storedFile(RawDb& db, const std::string& table, const std::string& family) {
  StoredFile f;
  const std::string where = "FROM store_files s JOIN regions r USING(region_id) JOIN tables t USING(table_id) "
                            "WHERE t.name = '" + table + "' AND s.family = '" + family + "'";
  EXPECT_EQ(db.integer("SELECT count(*) " + where), 1) << table << ":" << family;
  f.id = db.integer("SELECT s.file_id " + where);
  f.regionId = db.integer("SELECT s.region_id " + where);
  f.pages = db.integer("SELECT count(*) FROM pages WHERE page_id >> 20 = " + std::to_string(f.id));
  return f;
}

int64_t pageRowId(int64_t fileId, int64_t pageNo) { return (fileId << 20) | pageNo; }

// --- A workspace to damage -----------------------------------------------------

// Table t (families a and b) and table u (family a), kRows rows each, flushed
// to one store file per family, then closed. Family a of t spans several
// pages, compressed or not.
class DamagedWorkspace : public ::testing::Test {
 protected:
  void build(Compression compression) {
    auto ws = open();
    ASSERT_TRUE(ws);
    for (const char* name : {"t", "u"}) {
      TableOptions table;
      table.name = name;
      for (const char* family : {"a", "b"}) {
        if (std::string(name) == "u" && std::string(family) == "b") continue;
        FamilyOptions f;
        f.name = family;
        f.compression = compression;
        f.blockSize = 8192;
        table.families.push_back(f);
      }
      ASSERT_TRUE((*ws)->createTable(table)) << name;
      for (int i = 0; i < kRows; ++i) {
        Put put{rowName(i), {}};
        for (const FamilyOptions& f : table.families) put.cells.push_back({f.name, "q", 1, valueFor(f.name, i)});
        ASSERT_TRUE((*ws)->put(name, put));
      }
      ASSERT_TRUE((*ws)->flush(name));
    }
  }

  // Major-compacts both tables: their files are then framed (format 6)
  // when compressed.
  void majorCompact() {
    auto ws = open();
    ASSERT_TRUE(ws);
    for (const char* name : {"t", "u"}) ASSERT_TRUE((*ws)->compact(name, true)) << name;
  }

  Result<std::unique_ptr<Workspace>> open() {
    OpenOptions options;
    options.createIfMissing = true;
    return Workspace::open(path(), options);
  }

  std::string path() const { return m_dir.file("damaged.ksw"); }

  TempDir m_dir;
};

// Reads every row of `table`'s `family`, one get each: each must be the right
// value or a Corruption; returns the Corruption messages.
std::vector<std::string> getEveryRow(Workspace& ws, const std::string& table, const std::string& family) {
  std::vector<std::string> corruptions;
  for (int i = 0; i < kRows; ++i) {
    GetOptions get;
    get.row = rowName(i);
    get.columns = {ColumnSelector{family, std::nullopt}};
    auto result = ws.get(table, get);
    if (!result) {
      EXPECT_EQ(result.status().code(), Status::Code::kCorruption) << result.status().toString();
      corruptions.push_back(result.status().message());
      continue;
    }
    EXPECT_THAT(describeFull(result->cells), ::testing::ElementsAre(get.row + "/" + family + ":q@1=" + valueFor(family, i)))
        << table << " " << get.row;
  }
  return corruptions;
}

// Scans `table`'s `family`: the rows returned are right and in order; returns
// the scan's final status.
Status scanFamily(Workspace& ws, const std::string& table, const std::string& family, int* rowsSeen) {
  ScanOptions scan;
  scan.columns = {ColumnSelector{family, std::nullopt}};
  auto scanner = ws.scan(table, scan);
  if (!scanner) return scanner.status();
  RowResult row;
  *rowsSeen = 0;
  while ((*scanner)->next(&row)) {
    EXPECT_EQ(row.row, rowName(*rowsSeen));
    EXPECT_THAT(describeFull(row.cells),
                ::testing::ElementsAre(row.row + "/" + family + ":q@1=" + valueFor(family, *rowsSeen)));
    ++*rowsSeen;
  }
  return (*scanner)->status();
}

// A block's place in a message: ", page 2, block 0: ", or ", pages 1-2, block
// 3: " for a block that runs on from page 1 into page 2 (store_file_format.h).
MATCHER_P(NamesABlockIn, pageNo, "names a block in page " + std::to_string(pageNo)) {
  static const std::regex kWhere(", pages? ([0-9]+)(-([0-9]+))?, block [0-9]+: ");
  std::smatch m;
  if (!std::regex_search(arg, m, kWhere)) return false;
  const int64_t first = std::stoll(m[1].str());
  const int64_t last = m[3].matched ? std::stoll(m[3].str()) : first;
  return first <= pageNo && pageNo <= last;
}

auto namesPage(const StoredFile& f, int64_t pageNo) {
  return AllOf(HasSubstr("table 't'"), HasSubstr("region " + std::to_string(f.regionId)), HasSubstr("family 'a'"),
               HasSubstr("store file " + std::to_string(f.id)), NamesABlockIn(pageNo));
}

// Where in the page the flipped byte sits. Pages are cut from the blocks'
// bytes back to back (store_file_format.h), so page 1 begins inside a block
// as a rule: the first three places are in that block, wherever its header is.
enum class FlipAt { kChecksum, kCompressionByte, kRawSize, kMiddle, kLastByte };

struct FlipCase {
  Compression compression;
  FlipAt at;
  bool majorCompacted = false;  // the page of a major compaction's file (framed blocks when compressed)
};

class FlippedPageByte : public DamagedWorkspace, public ::testing::WithParamInterface<FlipCase> {};

size_t offsetIn(const std::string& page, FlipAt at) {
  switch (at) {
    case FlipAt::kChecksum: return 3;
    case FlipAt::kCompressionByte: return 8;
    case FlipAt::kRawSize: return 11;
    case FlipAt::kMiddle: return page.size() / 2;
    case FlipAt::kLastByte: return page.size() - 1;
  }
  return 0;
}

TEST_P(FlippedPageByte, ReadsThatTouchThePageAreCorruptionNamingItAndOthersWork) {
  build(GetParam().compression);
  if (GetParam().majorCompacted) majorCompact();
  ASSERT_FALSE(HasFailure());
  StoredFile damaged;
  {
    RawDb db(path());
    damaged = storedFile(db, "t", "a");
    // The file's format, byte 8 of its metadata: a flush writes format 5, a
    // major compaction format 6 (its compressed blocks framed).
    const std::string meta = db.blob("SELECT meta FROM store_files WHERE file_id = ?", damaged.id);
    ASSERT_GT(meta.size(), 8u);
    EXPECT_EQ(static_cast<int>(meta[8]), GetParam().majorCompacted ? 6 : 5);
    ASSERT_GE(damaged.pages, 3) << "the family should span several pages";
    const int64_t rowId = pageRowId(damaged.id, 1);
    std::string page = db.blob("SELECT data FROM pages WHERE page_id = ?", rowId);
    ASSERT_GT(page.size(), 16u);
    page[offsetIn(page, GetParam().at)] ^= 0x10;
    db.setBlob("UPDATE pages SET data = ? WHERE page_id = ?", page, rowId);
  }
  auto opened = open();
  ASSERT_TRUE(opened) << opened.status().toString();
  Workspace& ws = **opened;

  // Point reads: the right value or a Corruption naming the page, never a
  // wrong value; the rows in the other pages still read.
  const std::vector<std::string> corruptions = getEveryRow(ws, "t", "a");
  ASSERT_FALSE(corruptions.empty()) << "no read noticed the flipped byte";
  EXPECT_LT(corruptions.size(), static_cast<size_t>(kRows) / 2);
  for (const std::string& message : corruptions) EXPECT_THAT(message, namesPage(damaged, 1));
  // Not cached as good: the same read fails the same way again.
  EXPECT_EQ(getEveryRow(ws, "t", "a").size(), corruptions.size());

  // A scan stops at the page with the same Corruption, after right rows only.
  int rows = 0;
  const Status scan = scanFamily(ws, "t", "a", &rows);
  EXPECT_EQ(scan.code(), Status::Code::kCorruption) << scan.toString();
  EXPECT_THAT(scan.message(), namesPage(damaged, 1));
  EXPECT_LT(rows, kRows);

  // The other family of the table and the other table do not touch the page.
  EXPECT_TRUE(getEveryRow(ws, "t", "b").empty());
  EXPECT_TRUE(getEveryRow(ws, "u", "a").empty());
  EXPECT_TRUE(scanFamily(ws, "t", "b", &rows));
  EXPECT_EQ(rows, kRows);
  EXPECT_TRUE(scanFamily(ws, "u", "a", &rows));
  EXPECT_EQ(rows, kRows);
}

const FlipCase kFlipCases[] = {
    {Compression::kNone, FlipAt::kChecksum}, {Compression::kNone, FlipAt::kCompressionByte},
    {Compression::kNone, FlipAt::kRawSize},  {Compression::kNone, FlipAt::kMiddle},
    {Compression::kNone, FlipAt::kLastByte}, {Compression::kZstd, FlipAt::kChecksum},
    {Compression::kZstd, FlipAt::kCompressionByte}, {Compression::kZstd, FlipAt::kRawSize},
    {Compression::kZstd, FlipAt::kMiddle},   {Compression::kZstd, FlipAt::kLastByte},
    {Compression::kZstd, FlipAt::kChecksum, true}, {Compression::kZstd, FlipAt::kCompressionByte, true},
    {Compression::kZstd, FlipAt::kRawSize, true},  {Compression::kZstd, FlipAt::kMiddle, true},
    {Compression::kZstd, FlipAt::kLastByte, true}, {Compression::kNone, FlipAt::kMiddle, true},
};

std::string flipCaseName(const ::testing::TestParamInfo<FlipCase>& info) {
  static const char* const kAt[] = {"Checksum", "CompressionByte", "RawSize", "Middle", "LastByte"};
  return std::string(info.param.compression == Compression::kZstd ? "Zstd" : "None") +
         kAt[static_cast<int>(info.param.at)] + (info.param.majorCompacted ? "MajorCompacted" : "");
}

INSTANTIATE_TEST_SUITE_P(Corruption, FlippedPageByte, ::testing::ValuesIn(kFlipCases), flipCaseName);

using CorruptionTest = DamagedWorkspace;

TEST_F(CorruptionTest, MissingPageIsCorruptionNamingIt) {
  build(Compression::kZstd);
  ASSERT_FALSE(HasFailure());
  StoredFile damaged;
  {
    RawDb db(path());
    damaged = storedFile(db, "t", "a");
    db.exec("DELETE FROM pages WHERE page_id = " + std::to_string(pageRowId(damaged.id, 2)));
  }
  auto opened = open();
  ASSERT_TRUE(opened) << opened.status().toString();
  const std::vector<std::string> corruptions = getEveryRow(**opened, "t", "a");
  ASSERT_FALSE(corruptions.empty());
  for (const std::string& message : corruptions) EXPECT_THAT(message, AllOf(namesPage(damaged, 2), HasSubstr("missing")));
  EXPECT_TRUE(getEveryRow(**opened, "t", "b").empty());
}

TEST_F(CorruptionTest, ShortenedPageIsCorruptionNamingIt) {
  build(Compression::kNone);
  ASSERT_FALSE(HasFailure());
  StoredFile damaged;
  {
    RawDb db(path());
    damaged = storedFile(db, "t", "a");
    db.exec("UPDATE pages SET data = substr(data, 1, length(data) / 2) WHERE page_id = " +
            std::to_string(pageRowId(damaged.id, 1)));
  }
  auto opened = open();
  ASSERT_TRUE(opened) << opened.status().toString();
  const std::vector<std::string> corruptions = getEveryRow(**opened, "t", "a");
  ASSERT_FALSE(corruptions.empty());
  for (const std::string& message : corruptions) EXPECT_THAT(message, namesPage(damaged, 1));
}

auto namesFile(const std::string& table, const StoredFile& f, const std::string& family) {
  return AllOf(HasSubstr("'" + table + "'"), HasSubstr("region " + std::to_string(f.regionId)),
               HasSubstr("'" + family + "'"), HasSubstr("store file " + std::to_string(f.id)));
}

// A store file whose metadata does not verify: the workspace opens, every
// read that needs the file (its region and family) is a Corruption naming
// it, and the rest reads as before. Writes go on; flushes and compactions
// of the region refuse, so the file is never folded into a new one or
// dropped unnoticed; storeFiles() lists it as damaged.
void expectOnlyTheStoreFails(Workspace& ws, const StoredFile& damaged, const std::string& family,
                             const std::string& other) {
  const auto names = namesFile("t", damaged, family);
  GetOptions get;
  get.row = rowName(7);
  auto result = ws.get("t", get);  // every family of the row
  ASSERT_FALSE(result);
  EXPECT_EQ(result.status().code(), Status::Code::kCorruption) << result.status().toString();
  EXPECT_THAT(result.status().message(), names);
  const std::vector<std::string> failed = getEveryRow(ws, "t", family);
  EXPECT_EQ(failed.size(), static_cast<size_t>(kRows)) << "every read of the damaged store fails";
  for (const std::string& message : failed) EXPECT_THAT(message, names);
  int rows = 0;
  const Status scan = scanFamily(ws, "t", family, &rows);
  EXPECT_EQ(scan.code(), Status::Code::kCorruption) << scan.toString();
  EXPECT_EQ(rows, 0);
  EXPECT_TRUE(getEveryRow(ws, "t", other).empty());
  EXPECT_TRUE(getEveryRow(ws, "u", "a").empty());
  EXPECT_TRUE(scanFamily(ws, "t", other, &rows));
  EXPECT_EQ(rows, kRows);

  auto files = ws.storeFiles("t");
  ASSERT_TRUE(files);
  bool listed = false;
  for (const StoreFileInfo& info : *files) {
    if (info.id != damaged.id) continue;
    listed = true;
    EXPECT_THAT(info.damage, HasSubstr("metadata"));
  }
  EXPECT_TRUE(listed);
  auto regions = ws.regions("t");
  ASSERT_TRUE(regions);
  ASSERT_EQ(regions->size(), 1u);
  EXPECT_EQ(regions->front().damagedStoreFiles, 1u);

  // Writes go on, into the memstore and the log; flushes and compactions
  // of the region refuse, naming the file.
  ASSERT_TRUE(ws.put("t", Put{"zzz", {PutCell{other, "q", 2, "after"}}}));
  const Status flush = ws.flush("t");
  EXPECT_EQ(flush.code(), Status::Code::kCorruption) << flush.toString();
  EXPECT_THAT(flush.message(), names);
  const Status compact = ws.compact("t", true);
  EXPECT_EQ(compact.code(), Status::Code::kCorruption) << compact.toString();
  GetOptions written;
  written.row = "zzz";
  written.columns = {ColumnSelector{other, std::nullopt}};
  auto after = ws.get("t", written);
  ASSERT_TRUE(after) << after.status().toString();
  EXPECT_THAT(describeFull(after->cells), ::testing::ElementsAre("zzz/" + other + ":q@2=after"));
  // The other table flushes as ever.
  ASSERT_TRUE(ws.put("u", Put{"zzz", {PutCell{"a", "q", 2, "after"}}}));
  EXPECT_TRUE(ws.flush("u"));
}

TEST_F(CorruptionTest, GarbledStoreFileMetadataFailsOnlyTheReadsThatNeedTheFile) {
  for (const size_t at : {size_t{0}, size_t{8}, size_t{20}, size_t{0} - 1}) {
    SCOPED_TRACE("byte " + std::to_string(at));
    std::filesystem::remove(path());
    build(Compression::kZstd);
    ASSERT_FALSE(HasFailure());
    StoredFile damaged;
    {
      RawDb db(path());
      damaged = storedFile(db, "t", "a");
      std::string meta = db.blob("SELECT meta FROM store_files WHERE file_id = ?", damaged.id);
      ASSERT_GT(meta.size(), 24u);
      meta[at < meta.size() ? at : meta.size() - 1] ^= 0x01;
      db.setBlob("UPDATE store_files SET meta = ? WHERE file_id = ?", meta, damaged.id);
    }
    {
      auto opened = open();
      ASSERT_TRUE(opened) << opened.status().toString();
      expectOnlyTheStoreFails(**opened, damaged, "a", "b");
    }
    // Nothing was dropped or rewritten: the file is still listed, and the
    // write after the damage is in the log.
    RawDb db(path());
    EXPECT_EQ(db.integer("SELECT count(*) FROM store_files WHERE file_id = " + std::to_string(damaged.id)), 1);
    EXPECT_EQ(db.integer("SELECT count(*) FROM store_files s JOIN regions r USING(region_id) JOIN tables t "
                         "USING(table_id) WHERE t.name = 't'"),
              2);
  }
}

TEST_F(CorruptionTest, CutShortStoreFileMetadataFailsOnlyTheReadsThatNeedTheFile) {
  build(Compression::kNone);
  ASSERT_FALSE(HasFailure());
  StoredFile damaged;
  {
    RawDb db(path());
    damaged = storedFile(db, "t", "b");
    db.exec("UPDATE store_files SET meta = substr(meta, 1, 12) WHERE file_id = " + std::to_string(damaged.id));
  }
  auto opened = open();
  ASSERT_TRUE(opened) << opened.status().toString();
  expectOnlyTheStoreFails(**opened, damaged, "b", "a");
}

// SQLite's own structure damaged under the pages (an invalid B-tree page
// type at the root of the pages table, which an open does not check): reads
// of store files are a Corruption naming the workspace file and what was
// being read, reads of the memstore still work.
TEST_F(CorruptionTest, SqlitesOwnDamageUnderThePagesIsCorruptionNamingTheFile) {
  build(Compression::kNone);
  ASSERT_FALSE(HasFailure());
  int64_t root = 0;
  {
    RawDb db(path());
    root = db.integer("SELECT rootpage FROM sqlite_schema WHERE name = 'pages'");
  }
  std::string bytes = readFile(path());
  const size_t header = static_cast<size_t>(root - 1) * 8192 + (root == 1 ? 100 : 0);
  ASSERT_LT(header, bytes.size());
  bytes[header] = 0x00;  // not a B-tree page type
  writeFile(path(), bytes);
  auto opened = open();
  ASSERT_TRUE(opened) << opened.status().toString();
  GetOptions get;
  get.row = rowName(3);
  auto result = (*opened)->get("t", get);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.status().code(), Status::Code::kCorruption) << result.status().toString();
  EXPECT_THAT(result.status().message(),
              AllOf(HasSubstr("table 't'"), HasSubstr("page 0"), HasSubstr("in " + path()), HasSubstr("malformed")));
  ASSERT_TRUE((*opened)->put("t", Put{"new", {PutCell{"a", "q", 9, "in the memstore"}}}));
  GetOptions fresh;
  fresh.row = "new";
  auto written = (*opened)->get("t", fresh);
  ASSERT_TRUE(written) << written.status().toString();
  EXPECT_THAT(describeFull(written->cells), ::testing::ElementsAre("new/a:q@9=in the memstore"));
}

// SQLite itself refuses a database file with fewer pages than its header
// says; the refusal must name the file. Under 16 bytes it is not an SQLite
// file at all. A file cut inside its last page still has that many (partly
// zero) pages and may open: then every read is right or a Corruption.
TEST_F(CorruptionTest, TruncatedWorkspaceFileIsRefusedNamingIt) {
  build(Compression::kZstd);
  ASSERT_FALSE(HasFailure());
  const std::string whole = readFile(path());
  ASSERT_GT(whole.size(), 3 * 8192u);
  for (const size_t size : {whole.size() / 2, whole.size() - 8192, whole.size() - 1, size_t{8192}, size_t{100},
                            size_t{10}}) {
    SCOPED_TRACE("truncated to " + std::to_string(size) + " of " + std::to_string(whole.size()) + " bytes");
    writeFile(path(), whole.substr(0, size));
    auto opened = open();
    if (opened && size % 8192 != 0) {
      int rows = 0;
      for (const auto& [table, family] : {std::pair{"t", "a"}, std::pair{"t", "b"}, std::pair{"u", "a"}}) {
        for (const std::string& message : getEveryRow(**opened, table, family)) EXPECT_THAT(message, HasSubstr("page"));
        const Status scan = scanFamily(**opened, table, family, &rows);
        EXPECT_TRUE(scan || scan.code() == Status::Code::kCorruption) << scan.toString();
      }
      continue;
    }
    ASSERT_FALSE(opened) << "opened a truncated workspace";
    EXPECT_EQ(opened.status().code(), size < 16 ? Status::Code::kInvalidArgument : Status::Code::kCorruption)
        << opened.status().toString();
    EXPECT_THAT(opened.status().message(), HasSubstr(path()));
    EXPECT_EQ(readFile(path()), whole.substr(0, size)) << "refusing the file must not change it";
  }
}

TEST_F(CorruptionTest, FileThatIsNotSqliteIsRefusedAndLeftAlone) {
  std::string text;
  for (int i = 0; i < 200; ++i) text += "this is a shopping list, not a database\n";
  writeFile(path(), text);
  auto opened = open();
  ASSERT_FALSE(opened);
  EXPECT_THAT(opened.status().message(), AllOf(HasSubstr(path()), HasSubstr("not an SQLite database")));
  EXPECT_EQ(readFile(path()), text);

  // The SQLite magic followed by garbage.
  std::string fake = std::string("SQLite format 3\0", 16) + text;
  writeFile(path(), fake);
  opened = open();
  ASSERT_FALSE(opened);
  EXPECT_EQ(opened.status().code(), Status::Code::kCorruption) << opened.status().toString();
  EXPECT_THAT(opened.status().message(), HasSubstr(path()));
  EXPECT_EQ(readFile(path()), fake);
}

TEST_F(CorruptionTest, SqliteFileOfAnotherApplicationIsRefusedAndLeftAlone) {
  for (const int applicationId : {0, 0x12345678}) {
    SCOPED_TRACE("application_id " + std::to_string(applicationId));
    std::filesystem::remove(path());
    {
      RawDb db(path(), SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
      db.exec("PRAGMA application_id = " + std::to_string(applicationId) +
              "; CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes(body) VALUES('milk')");
    }
    const std::string before = readFile(path());
    auto opened = open();
    ASSERT_FALSE(opened);
    EXPECT_THAT(opened.status().message(), AllOf(HasSubstr(path()), HasSubstr("not a Keyscope workspace")));
    EXPECT_EQ(readFile(path()), before) << "refusing the file must not change it";
    EXPECT_FALSE(std::filesystem::exists(path() + "-wal")) << "refusing the file must not switch its journal mode";
  }
}

TEST_F(CorruptionTest, WorkspaceOfANewerFormatIsRefused) {
  build(Compression::kNone);
  ASSERT_FALSE(HasFailure());
  {
    RawDb db(path());
    db.exec("PRAGMA user_version = " + std::to_string(engine::kFormatVersion + 1));
  }
  auto opened = open();
  ASSERT_FALSE(opened);
  EXPECT_THAT(opened.status().message(),
              AllOf(HasSubstr(path()), HasSubstr("newer"), HasSubstr(std::to_string(engine::kFormatVersion + 1))));
}

// Format 1 workspaces (store files without restart arrays) open, read, and
// are marked format 2 from then on, since new store files are format 2.
TEST_F(CorruptionTest, WorkspaceOfTheOlderFormatIsUpgradedOnOpen) {
  build(Compression::kZstd);
  ASSERT_FALSE(HasFailure());
  {
    RawDb db(path());
    db.exec("PRAGMA user_version = 1");
  }
  {
    auto opened = open();
    ASSERT_TRUE(opened) << opened.status().toString();
  }
  RawDb db(path());
  EXPECT_EQ(db.integer("PRAGMA user_version"), engine::kFormatVersion);
}

TEST_F(CorruptionTest, WorkspaceWithoutAFormatVersionIsCorruption) {
  build(Compression::kNone);
  ASSERT_FALSE(HasFailure());
  {
    RawDb db(path());
    db.exec("PRAGMA user_version = 0");
  }
  auto opened = open();
  ASSERT_FALSE(opened);
  EXPECT_EQ(opened.status().code(), Status::Code::kCorruption) << opened.status().toString();
  EXPECT_THAT(opened.status().message(), AllOf(HasSubstr(path()), HasSubstr("format version")));
}

}  // namespace
}  // namespace keyscope::test
