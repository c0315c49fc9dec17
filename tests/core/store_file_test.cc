// Store files end to end over real SQLite pages: round trips over edge keys,
// seeks, seekToLastRowBefore, the read report and the shared page cache,
// blooms, and damage (flipped bytes, missing pages, garbled metadata) that
// must surface as Corruption naming the page, never as a wrong answer.
#include "engine/store_file.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "engine/block_decode_pool.h"
#include "engine/internal_key.h"
#include "engine/page_cache.h"
#include "engine/sqlite_pages.h"
#include "engine/store_file_format.h"
#include "keyscope/bytes.h"
#include "keyscope/cell.h"

namespace keyscope::engine {
namespace {

struct Entry {
  std::string key;
  std::string value;
  bool operator==(const Entry&) const = default;
};

void PrintTo(const Entry& e, std::ostream* os) { *os << toHex(e.key) << " => " << e.value.size() << " bytes"; }

Entry cell(BytesView row, BytesView qualifier, int64_t ts, std::string value, CellType type = CellType::kPut) {
  return {internalKey(row, qualifier, ts, type), std::move(value)};
}

// Sorted by key, one entry per key.
std::vector<Entry> sorted(std::vector<Entry> entries) {
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.key < b.key; });
  entries.erase(std::unique(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.key == b.key; }),
                entries.end());
  return entries;
}

std::string bytesOf(std::mt19937_64& rng, size_t n) {
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(rng() & 0xff);
  return s;
}

// Rows and qualifiers from a tiny alphabet with 00 and FF, so prefixes and
// escapes are common.
std::string edgyBytes(std::mt19937_64& rng, size_t maxLength) {
  static const char kAlphabet[] = {'\x00', '\x01', 'a', 'b', '\xfe', '\xff'};
  std::string s(rng() % (maxLength + 1), '\0');
  for (char& c : s) c = kAlphabet[rng() % sizeof(kAlphabet)];
  return s;
}

const CellType kTypes[] = {CellType::kPut, CellType::kDelete, CellType::kDeleteFamilyVersion,
                           CellType::kDeleteColumn, CellType::kDeleteFamily};

std::vector<Entry> edgeEntries() {
  std::vector<Entry> e = {
      cell("", "", 0, ""),
      cell("", "q", kLatestTimestamp - 1, "max ts"),
      cell(std::string(1, '\0'), "", 5, "row 00", CellType::kDeleteFamily),
      cell(std::string(1, '\0'), "", 5, "row 00 put"),
      cell(std::string("\x00\x00", 2), std::string("\x00", 1), 1, "00 00"),
      cell(std::string("\x00\xff", 2), std::string("\xff", 1), 1, "00 ff"),
      cell("\xff", "\xff\xff", 3, std::string(100000, 'v')),  // longer than every page size
      cell("\xff", "\xff\xff", 2, std::string(5000, 'w')),    // longer than a block
      cell("\xff\xff", std::string("q\x00", 2), 9, "", CellType::kDeleteColumn),
      cell("\xff\xff", std::string("q\x00", 2), 9, "", CellType::kDelete),
      cell("\xff\xff", std::string("q\x00", 2), 9, "v"),
      cell("row", std::string(300, 'q'), 42, "long qualifier"),
  };
  std::mt19937_64 rng(42);
  for (int i = 0; i < 3000; ++i) {
    const size_t valueLength = rng() % 10 == 0 ? rng() % 3000 : rng() % 40;
    e.push_back({internalKey(edgyBytes(rng, 5), edgyBytes(rng, 3), static_cast<int64_t>(rng() % 1000),
                             kTypes[rng() % 5]),
                 bytesOf(rng, valueLength)});
  }
  return sorted(std::move(e));
}

std::vector<Entry> manyEntries(size_t count) {
  std::vector<Entry> e;
  e.reserve(count);
  char row[32];
  for (size_t i = 0; e.size() < count; ++i) {
    std::snprintf(row, sizeof row, "user%08zu", i * 7919 % 100000000);
    for (int q = 0; q < 4 && e.size() < count; ++q) {
      e.push_back(cell(row, "col" + std::to_string(q), 1700000000000 + static_cast<int64_t>(i),
                       "value-" + std::to_string(i * 31 + static_cast<size_t>(q))));
    }
  }
  return sorted(std::move(e));
}

// A workspace-like SQLite file in a temporary directory with the pages table.
class TempWorkspace {
 public:
  TempWorkspace() {
    std::string dir = ::testing::TempDir() + "keyscope-store-XXXXXX";
    if (mkdtemp(dir.data()) == nullptr) ADD_FAILURE() << "mkdtemp";
    m_dir = dir;
    EXPECT_EQ(sqlite3_open((m_dir + "/ws.sqlite").c_str(), &m_db), SQLITE_OK);
    exec("PRAGMA journal_mode=WAL");
    exec("PRAGMA synchronous=OFF");
    exec(kPagesTableDdl);
  }
  ~TempWorkspace() {
    sqlite3_close(m_db);
    std::filesystem::remove_all(m_dir);
  }
  sqlite3* db() const { return m_db; }
  void exec(const std::string& sql) {
    char* error = nullptr;
    EXPECT_EQ(sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK) << sql << ": " << (error ? error : "");
    sqlite3_free(error);
  }
  std::string page(int64_t fileId, uint32_t pageNo) {
    sqlite3_stmt* stmt = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(m_db, "SELECT data FROM pages WHERE page_id = ?", -1, &stmt, nullptr), SQLITE_OK);
    sqlite3_bind_int64(stmt, 1, pageRowId(fileId, pageNo));
    std::string data;
    if (sqlite3_step(stmt) == SQLITE_ROW) {
      data.assign(static_cast<const char*>(sqlite3_column_blob(stmt, 0)),
                  static_cast<size_t>(sqlite3_column_bytes(stmt, 0)));
    } else {
      ADD_FAILURE() << "no page " << pageNo;
    }
    sqlite3_finalize(stmt);
    return data;
  }
  void setPage(int64_t fileId, uint32_t pageNo, const std::string& data) {
    sqlite3_stmt* stmt = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(m_db, "UPDATE pages SET data = ? WHERE page_id = ?", -1, &stmt, nullptr), SQLITE_OK);
    sqlite3_bind_blob64(stmt, 1, data.data(), data.size(), SQLITE_TRANSIENT);
    sqlite3_bind_int64(stmt, 2, pageRowId(fileId, pageNo));
    EXPECT_EQ(sqlite3_step(stmt), SQLITE_DONE);
    EXPECT_EQ(sqlite3_changes(m_db), 1);
    sqlite3_finalize(stmt);
  }

 private:
  std::string m_dir;
  sqlite3* m_db = nullptr;
};

const StoreFileLabel kLabel{"t", 3, "d"};

// One page source for a reader and its readahead's pool thread at once: they
// take turns on it, as on a LeasedPageSource's connection.
class SharedPageSource final : public PageSource {
 public:
  explicit SharedPageSource(PageSource* inner) : m_inner(inner) {}
  Status readRange(int64_t fileId, uint32_t pageNo, uint32_t offset, uint32_t length, std::string* out) override {
    std::lock_guard lock(m_mutex);
    return m_inner->readRange(fileId, pageNo, offset, length, out);
  }

 private:
  PageSource* m_inner;
  std::mutex m_mutex;
};

// A context that reads ahead: the pool fetches through `pages` too.
ReadContext readingAhead(PageSource* pages, BlockDecodePool* pool, ReadReport* report, bool fillCache) {
  ReadContext context{pages, report, fillCache, pool};
  context.readaheadPages = pages;
  return context;
}

class StoreFileFixture {
 protected:
  // Writes the entries as a new store file and opens a reader on it.
  std::unique_ptr<StoreFileReader> write(const std::vector<Entry>& entries, StoreFileOptions options) {
    const int64_t id = m_nextFileId++;
    m_ws.exec("BEGIN");
    SqlitePageSink sink(m_ws.db());
    StoreFileWriter writer(id, options, &sink);
    for (const Entry& e : entries) {
      const Status s = writer.add(e.key, e.value);
      EXPECT_TRUE(s.isOk()) << s.toString();
    }
    Result<StoreFileMeta> meta = writer.finish();
    m_ws.exec("COMMIT");
    EXPECT_TRUE(meta.isOk()) << meta.status().toString();
    if (!meta.isOk()) return nullptr;
    // Through the catalog's form, as a real open would.
    Result<StoreFileMeta> decoded = StoreFileMeta::decode(meta->encode());
    EXPECT_TRUE(decoded.isOk()) << decoded.status().toString();
    EXPECT_EQ(decoded->indexBytes, meta->indexBytes);
    return std::make_unique<StoreFileReader>(id, std::move(decoded).value(), kLabel, &m_cache);
  }

  ReadContext context(ReadReport* report = nullptr, bool fillCache = true, bool readahead = false) {
    if (readahead) return readingAhead(&m_shared, &m_readahead, report, fillCache);
    return ReadContext{&m_shared, report, fillCache};
  }

  static std::vector<Entry> scan(InternalIterator& it) {
    std::vector<Entry> out;
    for (it.seekToFirst(); it.valid(); it.next()) out.push_back({std::string(it.key()), std::string(it.value())});
    return out;
  }
  std::vector<Entry> readAll(const StoreFileReader& reader, ReadReport* report = nullptr, bool fillCache = true,
                             bool readahead = false) {
    auto it = reader.newIterator(context(report, fillCache, readahead));
    std::vector<Entry> out = scan(*it);
    EXPECT_TRUE(it->status().isOk()) << it->status().toString();
    return out;
  }

  TempWorkspace m_ws;
  SqlitePageSource m_source{m_ws.db()};
  SharedPageSource m_shared{&m_source};
  PageCache m_cache{64 << 20};
  BlockDecodePool m_readahead{2};
  int64_t m_nextFileId = 12;
};

// --- round trips over compression x page size -----------------------------

struct Layout {
  Compression compression;
  uint32_t pageSize;
  // 1: files written before restart arrays; 2: before checksums seeded with
  // the block's place; 3: before dictionaries; 4: before leaf-sized pages;
  // 5: before framed blocks
  uint8_t format = format::kMetaFormatNewest;
  // Lowered so that small files train a dictionary too.
  uint32_t dictionaryTrainBytes = format::kDictionaryTrainBytes;
  // Format 5: lowered so that blocks cross pages, and run on through several.
  uint32_t pageBytes = format::kLeafPageBytes;
};

class StoreFileLayouts : public StoreFileFixture, public ::testing::TestWithParam<Layout> {
 protected:
  StoreFileOptions options(BloomType bloom = BloomType::kRow) const {
    StoreFileOptions o;
    o.compression = GetParam().compression;
    o.pageSize = GetParam().pageSize;
    o.format = GetParam().format;
    o.dictionaryTrainBytes = GetParam().dictionaryTrainBytes;
    o.pageBytes = GetParam().pageBytes;
    o.bloom = bloom;
    return o;
  }
};

void expectMetaDescribes(const StoreFileMeta& meta, const std::vector<Entry>& entries) {
  ASSERT_FALSE(entries.empty());
  EXPECT_EQ(meta.cellCount, entries.size());
  EXPECT_EQ(meta.firstKey, entries.front().key);
  EXPECT_EQ(meta.lastKey, entries.back().key);
  uint64_t markers = 0;
  int64_t minTs = INT64_MAX;
  int64_t maxTs = INT64_MIN;
  for (const Entry& e : entries) {
    ParsedKey parsed;
    ASSERT_TRUE(parseInternalKey(e.key, &parsed));
    markers += parsed.type != CellType::kPut;
    minTs = std::min(minTs, parsed.timestamp);
    maxTs = std::max(maxTs, parsed.timestamp);
  }
  EXPECT_EQ(meta.deleteMarkerCount, markers);
  EXPECT_EQ(meta.minTimestamp, minTs);
  EXPECT_EQ(meta.maxTimestamp, maxTs);
  if (meta.format >= format::kMetaFormatLeafPages) {
    EXPECT_EQ(meta.pageCount, (meta.storedBytes + meta.pageBytes - 1) / meta.pageBytes);
  } else {
    EXPECT_EQ(meta.pageBytes, 0u);
    EXPECT_EQ(meta.pageCount, meta.blocks.back().pageNo + 1);
  }
  EXPECT_GT(meta.indexBytes, 0u);
}

TEST_P(StoreFileLayouts, EdgeKeysRoundTrip) {
  const std::vector<Entry> entries = edgeEntries();
  const auto reader = write(entries, options());
  ASSERT_NE(reader, nullptr);
  EXPECT_EQ(readAll(*reader), entries);
  expectMetaDescribes(reader->meta(), entries);
  EXPECT_TRUE(reader->verify(&m_source).isOk());
}

TEST_P(StoreFileLayouts, SingleCellRoundTrips) {
  const std::vector<Entry> entries = {cell("r", "q", 7, "v")};
  const auto reader = write(entries, options());
  ASSERT_NE(reader, nullptr);
  EXPECT_EQ(readAll(*reader), entries);
  EXPECT_EQ(reader->meta().pageCount, 1u);
  EXPECT_EQ(reader->meta().blocks.size(), 1u);
  expectMetaDescribes(reader->meta(), entries);
}

TEST_P(StoreFileLayouts, HundredThousandCellsRoundTripInBlocksAndPagesOfTheTargetSize) {
  const std::vector<Entry> entries = manyEntries(100000);
  const auto reader = write(entries, options());
  ASSERT_NE(reader, nullptr);
  EXPECT_EQ(readAll(*reader), entries);
  const StoreFileMeta& meta = reader->meta();
  expectMetaDescribes(meta, entries);
  EXPECT_TRUE(reader->verify(&m_source).isOk());

  const uint32_t pageSize = GetParam().pageSize;
  const uint32_t blockTarget = std::min(format::kBlockTarget, pageSize);
  std::map<uint32_t, uint64_t> pageRaw;
  size_t crossing = 0;
  for (size_t i = 0; i < meta.blocks.size(); ++i) {
    const BlockHandle& b = meta.blocks[i];
    EXPECT_LE(b.rawSize, blockTarget);  // small cells: no block passes the target
    if (i + 1 != meta.blocks.size()) {
      EXPECT_GT(b.rawSize, blockTarget * 3 / 4);  // nor stops far short of it
    }
    pageRaw[b.pageNo] += b.rawSize;
    crossing += meta.pageBytes != 0 && b.offset + b.storedSize > meta.pageBytes;
  }
  if (meta.format >= format::kMetaFormatLeafPages) {
    // Pages are cut by stored size: every page but the last holds exactly
    // pageBytes, and blocks run on across the cuts.
    EXPECT_EQ(meta.pageBytes, GetParam().pageBytes);
    for (uint32_t page = 0; page < meta.pageCount; ++page) {
      const uint64_t expected =
          page + 1 < meta.pageCount ? meta.pageBytes : meta.storedBytes - uint64_t{page} * meta.pageBytes;
      ASSERT_EQ(m_ws.page(reader->id(), page).size(), expected) << "page " << page;
    }
    if (meta.pageCount > 1) {
      EXPECT_GT(crossing, 0u);
    }
  } else {
    for (const auto& [page, raw] : pageRaw) {
      EXPECT_LE(raw, pageSize) << "page " << page;
      if (page + 1 < meta.pageCount) {
        EXPECT_GT(raw, pageSize * 3 / 4) << "page " << page;
      }
    }
  }
  // A zstd file of the newest format trains a dictionary on its first blocks.
  EXPECT_EQ(!meta.dictionary.empty(),
            GetParam().compression == Compression::kZstd && GetParam().format >= format::kMetaFormatDictionary);
  if (GetParam().compression == Compression::kZstd) {
    EXPECT_LT(meta.storedBytes, meta.rawBytes * 2 / 3);
  } else {
    EXPECT_EQ(meta.storedBytes, meta.rawBytes + meta.blocks.size() * format::kBlockHeaderSize);
  }
}

TEST_P(StoreFileLayouts, SeekFindsEveryKeyAndTheKeyAfterEveryGap) {
  const std::vector<Entry> entries = edgeEntries();
  const auto reader = write(entries, options());
  ASSERT_NE(reader, nullptr);
  auto it = reader->newIterator(context());
  for (size_t i = 0; i < entries.size(); ++i) {
    it->seek(entries[i].key);
    ASSERT_TRUE(it->valid()) << i;
    EXPECT_EQ(it->key(), entries[i].key);
    EXPECT_EQ(it->value(), entries[i].value);
    // Internal keys are prefix-free, so key + 00 lies strictly between key i and i+1.
    it->seek(entries[i].key + '\0');
    if (i + 1 < entries.size()) {
      ASSERT_TRUE(it->valid()) << i;
      EXPECT_EQ(it->key(), entries[i + 1].key);
    } else {
      EXPECT_FALSE(it->valid());
    }
  }
  it->seek("");
  ASSERT_TRUE(it->valid());
  EXPECT_EQ(it->key(), entries.front().key);
  it->seek(std::string(8, '\xff'));
  EXPECT_FALSE(it->valid());
  EXPECT_TRUE(it->status().isOk());
}

TEST_P(StoreFileLayouts, SeeksInAnyOrderMatchALowerBound) {
  const std::vector<Entry> entries = edgeEntries();
  const auto reader = write(entries, options());
  ASSERT_NE(reader, nullptr);
  auto it = reader->newIterator(context());
  std::mt19937_64 rng(3);
  for (int i = 0; i < 5000; ++i) {
    std::string target;
    switch (rng() % 4) {
      case 0: target = entries[rng() % entries.size()].key; break;
      case 1: target = rowStartKey(edgyBytes(rng, 5)); break;
      case 2: target = columnEndKey(edgyBytes(rng, 5), edgyBytes(rng, 3)); break;
      default: target = entries[rng() % entries.size()].key.substr(0, rng() % 12); break;
    }
    const auto expected = std::lower_bound(entries.begin(), entries.end(), target,
                                           [](const Entry& e, const std::string& t) { return e.key < t; });
    it->seek(target);
    if (expected == entries.end()) {
      EXPECT_FALSE(it->valid()) << toHex(target);
      continue;
    }
    ASSERT_TRUE(it->valid()) << toHex(target);
    EXPECT_EQ(it->key(), expected->key) << toHex(target);
    // And a few steps on from there.
    auto e = expected;
    for (int step = 0; step < 3 && ++e != entries.end(); ++step) {
      it->next();
      ASSERT_TRUE(it->valid());
      EXPECT_EQ(it->key(), e->key);
    }
  }
  EXPECT_TRUE(it->status().isOk());
}

// Ascending seeks (a merge's reseek to the next column) continue inside the
// block they are in, jumping to a restart point ahead when there is one.
TEST_P(StoreFileLayouts, AscendingSeeksMatchALowerBound) {
  const std::vector<Entry> entries = manyEntries(20000);
  const auto reader = write(entries, options());
  ASSERT_NE(reader, nullptr);
  ASSERT_EQ(reader->meta().format, GetParam().format);
  auto it = reader->newIterator(context());
  std::mt19937_64 rng(5);
  for (size_t i = 0; i < entries.size(); i += 1 + rng() % 40) {
    // The key itself, or just after it (lands on the next entry).
    const bool after = rng() % 2 == 1;
    const std::string target = after ? entries[i].key + '\0' : entries[i].key;
    it->seek(target);
    const size_t expected = after ? i + 1 : i;
    if (expected == entries.size()) {
      EXPECT_FALSE(it->valid());
      break;
    }
    ASSERT_TRUE(it->valid()) << i;
    ASSERT_EQ(it->key(), entries[expected].key) << i;
    ASSERT_EQ(it->value(), entries[expected].value) << i;
  }
  EXPECT_TRUE(it->status().isOk());
  EXPECT_TRUE(reader->verify(&m_source).isOk());
}

TEST_P(StoreFileLayouts, SeekToLastRowBeforeFindsTheStartOfThePreviousRow) {
  const std::vector<Entry> entries = edgeEntries();
  const auto reader = write(entries, options());
  ASSERT_NE(reader, nullptr);
  // Each row (as its escaped prefix) and the index of its first entry.
  std::vector<std::pair<std::string, size_t>> rows;
  for (size_t i = 0; i < entries.size(); ++i) {
    const std::string row = entries[i].key.substr(0, escapedRowLength(entries[i].key));
    if (rows.empty() || rows.back().first != row) rows.emplace_back(row, i);
  }
  ASSERT_GT(rows.size(), 100u);
  auto it = reader->newIterator(context());
  for (size_t r = 0; r < rows.size(); ++r) {
    const std::string& row = rows[r].first;
    it->seekToLastRowBefore(row);  // row is its own rowStartKey
    if (r == 0) {
      EXPECT_FALSE(it->valid());
    } else {
      ASSERT_TRUE(it->valid()) << r;
      EXPECT_EQ(it->key(), entries[rows[r - 1].second].key) << r;
    }
    std::string end = row;
    end.back() = '\x02';  // rowEndKey
    it->seekToLastRowBefore(end);
    ASSERT_TRUE(it->valid()) << r;
    EXPECT_EQ(it->key(), entries[rows[r].second].key) << r;
    // The row then reads forward in full.
    const size_t stop = r + 1 < rows.size() ? rows[r + 1].second : entries.size();
    for (size_t i = rows[r].second + 1; i < stop; ++i) {
      it->next();
      ASSERT_TRUE(it->valid());
      EXPECT_EQ(it->key(), entries[i].key);
    }
  }
  it->seekToLastRowBefore(std::string(16, '\xff'));
  ASSERT_TRUE(it->valid());
  EXPECT_EQ(it->key(), entries[rows.back().second].key);
  it->seekToLastRowBefore("");
  EXPECT_FALSE(it->valid());
  EXPECT_TRUE(it->status().isOk());
}

TEST_P(StoreFileLayouts, ReadReportCountsBlocksCacheHitsAndBytes) {
  const std::vector<Entry> entries = manyEntries(20000);
  const auto reader = write(entries, options());
  ASSERT_NE(reader, nullptr);
  const StoreFileMeta& meta = reader->meta();
  ReadReport cold;
  EXPECT_EQ(readAll(*reader, &cold), entries);
  EXPECT_EQ(cold.pagesRead, meta.blocks.size());
  EXPECT_EQ(cold.pageCacheHits, 0u);
  EXPECT_EQ(cold.bytesReadFromStorage, meta.storedBytes);
  if (GetParam().compression == Compression::kZstd) {
    EXPECT_EQ(cold.bytesDecompressed, meta.rawBytes);  // these cells always compress
  } else {
    EXPECT_EQ(cold.bytesDecompressed, 0u);
  }
  ReadReport warm;
  EXPECT_EQ(readAll(*reader, &warm), entries);
  EXPECT_EQ(warm.pagesRead, meta.blocks.size());
  EXPECT_EQ(warm.pageCacheHits, meta.blocks.size());
  EXPECT_EQ(warm.bytesReadFromStorage, 0u);
  // Reads without readahead are a get's: the cache keeps a framed file's
  // blocks as stored, and every read decodes its frames again.
  const bool keptStored =
      meta.format >= format::kMetaFormatFramedBlocks && GetParam().compression == Compression::kZstd;
  EXPECT_EQ(warm.bytesDecompressed, keptStored ? meta.rawBytes : 0u);

  // A point read needs exactly one block.
  ReadReport point;
  auto it = reader->newIterator(context(&point));
  it->seek(entries[entries.size() / 2].key);
  ASSERT_TRUE(it->valid());
  EXPECT_EQ(point.pagesRead, 1u);
}

// A scan reads blocks ahead and has a pool decode them: what it reads and
// what its report counts must not change, nor where a seek lands.
TEST_P(StoreFileLayouts, ReadingAheadReadsAndCountsWhatReadingInTurnDoes) {
  const std::vector<Entry> entries = manyEntries(20000);
  const auto reader = write(entries, options());
  ASSERT_NE(reader, nullptr);
  const StoreFileMeta& meta = reader->meta();
  ASSERT_GT(meta.blocks.size(), 8u);
  ReadReport inTurn;
  ReadReport ahead;
  EXPECT_EQ(readAll(*reader, &inTurn, /*fillCache=*/false, /*readahead=*/false), entries);
  EXPECT_EQ(readAll(*reader, &ahead, /*fillCache=*/false, /*readahead=*/true), entries);
  for (const ReadReport* r : {&inTurn, &ahead}) {
    EXPECT_EQ(r->pagesRead, meta.blocks.size());
    EXPECT_EQ(r->pageCacheHits, 0u);
    EXPECT_EQ(r->bytesReadFromStorage, meta.storedBytes);
  }
  EXPECT_EQ(ahead.bytesDecompressed, inTurn.bytesDecompressed);

  // Reading ahead fills the cache as reading in turn does, and takes what
  // the cache holds.
  ReadReport filling;
  EXPECT_EQ(readAll(*reader, &filling, /*fillCache=*/true, /*readahead=*/true), entries);
  EXPECT_EQ(m_cache.entryCount(), meta.blocks.size());
  ReadReport warm;
  EXPECT_EQ(readAll(*reader, &warm, /*fillCache=*/true, /*readahead=*/true), entries);
  EXPECT_EQ(warm.pagesRead, meta.blocks.size());
  EXPECT_EQ(warm.pageCacheHits, meta.blocks.size());
  EXPECT_EQ(warm.bytesReadFromStorage, 0u);
}

constexpr size_t kNoBlock = std::numeric_limits<size_t>::max();

// The block a read of a page range fetches: the one that begins there (a
// block running on into the next page is read in two ranges, and the
// second begins no block); kNoBlock when none does.
size_t blockStartingAt(const StoreFileMeta& meta, uint32_t pageNo, uint32_t offset) {
  for (size_t b = 0; b < meta.blocks.size(); ++b) {
    if (meta.blocks[b].pageNo == pageNo && meta.blocks[b].offset == offset) return b;
  }
  return kNoBlock;
}

// Which blocks of a file were fetched from storage, by the ranges read, on
// whichever thread.
class FetchRecorder final : public PageSource {
 public:
  FetchRecorder(PageSource* inner, const StoreFileMeta& meta) : m_inner(inner), m_meta(meta) {}
  Status readRange(int64_t fileId, uint32_t pageNo, uint32_t offset, uint32_t length, std::string* out) override {
    if (const size_t block = blockStartingAt(m_meta, pageNo, offset); block != kNoBlock) {
      std::lock_guard lock(m_mutex);
      m_fetched.insert(block);
    }
    return m_inner->readRange(fileId, pageNo, offset, length, out);
  }
  std::set<size_t> fetched() {
    std::lock_guard lock(m_mutex);
    return m_fetched;
  }

 private:
  PageSource* m_inner;
  const StoreFileMeta& m_meta;
  std::mutex m_mutex;
  std::set<size_t> m_fetched;
};

// Returns once a one-thread pool has run (or skipped, cancelled) every job
// submitted to it before: it takes its queue in order.
void drain(BlockDecodePool& pool) {
  struct Marker final : StoredBlockFetcher {
    Status fetchStored(size_t, std::string*) const override { return Status::ioError("the drain marker"); }
  };
  static const Marker marker;
  BlockDecodeInput input;
  input.fetcher = &marker;
  const auto job = pool.submit(std::move(input));
  const auto giveUp = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!job->done() && std::chrono::steady_clock::now() < giveUp) std::this_thread::yield();
  EXPECT_TRUE(job->done()) << "the pool's thread did not reach the marker in 10 s";
  job->cancelAndWait();
}

// A scan reads ahead from its first block on, but never past the block that
// holds the end of the keys it can reach.
TEST_P(StoreFileLayouts, ReadingAheadStartsAtTheFirstBlockAndStopsAtTheScansEnd) {
  const std::vector<Entry> entries = manyEntries(20000);
  const auto reader = write(entries, options());
  ASSERT_NE(reader, nullptr);
  const StoreFileMeta& meta = reader->meta();
  ASSERT_GT(meta.blocks.size(), 12u);
  FetchRecorder recorder(&m_shared, meta);
  BlockDecodePool pool(1);
  ReadContext context = readingAhead(&recorder, &pool, nullptr, /*fillCache=*/false);

  // Keys up to block 8's last: the seek to block 2 fetches 2 and the four after it.
  context.readaheadEnd = std::string(meta.blocks.lastKey(8));
  auto it = reader->newIterator(context);
  const auto firstOf = [&](size_t block) {
    return *std::find_if(entries.begin(), entries.end(),
                         [&](const Entry& e) { return BytesView(e.key) > meta.blocks.lastKey(block - 1); });
  };
  it->seek(firstOf(2).key);
  ASSERT_TRUE(it->valid());
  EXPECT_EQ(it->key(), firstOf(2).key);
  drain(pool);
  EXPECT_EQ(recorder.fetched(), (std::set<size_t>{2, 3, 4, 5, 6}));
  // Stepping to the end fetches up to block 8, the one holding the end, and no further.
  while (it->valid() && it->key() < BytesView(context.readaheadEnd)) it->next();
  ASSERT_TRUE(it->valid());
  EXPECT_EQ(it->key(), meta.blocks.lastKey(8));
  drain(pool);
  EXPECT_EQ(recorder.fetched(), (std::set<size_t>{2, 3, 4, 5, 6, 7, 8}));
  EXPECT_TRUE(it->status().isOk()) << it->status().toString();
}

// Fails the fetch of one block: on every thread, or only on threads other
// than the one that made it (a readahead pool's).
class BlockFetchFailure final : public PageSource {
 public:
  BlockFetchFailure(PageSource* inner, const BlockHandle& block, bool onlyOtherThreads)
      : m_inner(inner), m_block(block), m_onlyOtherThreads(onlyOtherThreads) {}
  Status readRange(int64_t fileId, uint32_t pageNo, uint32_t offset, uint32_t length, std::string* out) override {
    if (pageNo == m_block.pageNo && offset == m_block.offset &&
        (!m_onlyOtherThreads || std::this_thread::get_id() != m_maker)) {
      failures.fetch_add(1);
      return Status::ioError("page " + std::to_string(pageNo) + " could not be read");
    }
    return m_inner->readRange(fileId, pageNo, offset, length, out);
  }
  std::atomic<int> failures{0};

 private:
  PageSource* m_inner;
  BlockHandle m_block;
  bool m_onlyOtherThreads;
  std::thread::id m_maker = std::this_thread::get_id();
};

// Holds the pool's fetch of one block until the reader has fetched `behind`
// of the blocks after it on its own thread meanwhile (or 5 s have passed),
// and notes which of them the reader fetched while the fetch was held. (The
// reader's own read of a block before it may come while it is held too.)
// Counts every block's fetches, on any thread.
class HeldBlockSource final : public PageSource {
 public:
  HeldBlockSource(PageSource* inner, const StoreFileMeta& meta, size_t held, size_t behind)
      : m_inner(inner), m_meta(meta), m_held(held), m_behind(behind) {}
  Status readRange(int64_t fileId, uint32_t pageNo, uint32_t offset, uint32_t length,
                   std::string* out) override {
    const size_t block = blockStartingAt(m_meta, pageNo, offset);
    const bool reader = std::this_thread::get_id() == m_reader;
    if (block != kNoBlock) {
      std::lock_guard lock(m_mutex);
      ++m_fetches[block];
    }
    if (block == m_held && !reader) {
      std::unique_lock lock(m_mutex);
      m_holding = true;
      m_changed.notify_all();
      m_changed.wait_for(lock, std::chrono::seconds(5),
                         [&] { return m_fetchedMeanwhile.size() >= m_behind; });
      m_holding = false;
    } else if (reader && block != kNoBlock && block > m_held) {
      std::lock_guard lock(m_mutex);
      if (m_holding) m_fetchedMeanwhile.insert(block);
      m_changed.notify_all();
    }
    return m_inner->readRange(fileId, pageNo, offset, length, out);
  }
  // Waits until the held fetch has begun; false after 10 s.
  bool holding() {
    std::unique_lock lock(m_mutex);
    return m_changed.wait_for(lock, std::chrono::seconds(10), [&] { return m_holding; });
  }
  std::set<size_t> fetchedMeanwhile() {
    std::lock_guard lock(m_mutex);
    return m_fetchedMeanwhile;
  }
  std::map<size_t, int> fetches() {
    std::lock_guard lock(m_mutex);
    return m_fetches;
  }

 private:
  PageSource* m_inner;
  const StoreFileMeta& m_meta;
  const size_t m_held;
  const size_t m_behind;
  const std::thread::id m_reader = std::this_thread::get_id();
  std::mutex m_mutex;
  std::condition_variable m_changed;
  bool m_holding = false;
  std::set<size_t> m_fetchedMeanwhile;
  std::map<size_t, int> m_fetches;
};

// A reader that needs a block the pool's thread is still decoding decodes
// the blocks queued behind it meanwhile, instead of waiting, and the scan
// reads on as before.
TEST_P(StoreFileLayouts, TheReaderDecodesTheBlocksBehindOneThePoolIsStillDecoding) {
  const std::vector<Entry> entries = manyEntries(20000);
  const auto reader = write(entries, options());
  ASSERT_NE(reader, nullptr);
  const StoreFileMeta& meta = reader->meta();
  ASSERT_GT(meta.blocks.size(), 8u);
  // The reader reads block 0 itself and queues 1-4; the pool's one thread
  // starts on block 1 and is held there.
  HeldBlockSource source(&m_shared, meta, /*held=*/1, /*behind=*/3);
  BlockDecodePool pool(1);
  auto it = reader->newIterator(readingAhead(&source, &pool, nullptr, /*fillCache=*/false));
  std::vector<Entry> read;
  it->seekToFirst();
  ASSERT_TRUE(source.holding()) << "the pool's thread never started on block 1";
  for (; it->valid(); it->next()) {
    read.push_back({std::string(it->key()), std::string(it->value())});
  }
  EXPECT_TRUE(it->status().isOk()) << it->status().toString();
  EXPECT_EQ(read, entries);
  EXPECT_EQ(source.fetchedMeanwhile(), (std::set<size_t>{2, 3, 4}))
      << "the reader waited for block 1 rather than decode the blocks queued behind it";
  // What the reader decoded ahead is what it then read: no block twice.
  std::map<size_t, int> once;
  for (size_t b = 0; b < meta.blocks.size(); ++b) once[b] = 1;
  EXPECT_EQ(source.fetches(), once);
}

// A block whose fetch fails on the pool's thread is read again by the
// reader, whose own read decides: the scan goes on when it succeeds, and
// fails as a scan reading in turn does when it fails too.
TEST_P(StoreFileLayouts, AFetchThatFailsAheadIsLeftToTheReadersOwnRead) {
  const std::vector<Entry> entries = manyEntries(20000);
  const auto reader = write(entries, options());
  ASSERT_NE(reader, nullptr);
  const StoreFileMeta& meta = reader->meta();
  ASSERT_GT(meta.blocks.size(), 12u);
  const BlockHandle& failing = meta.blocks[meta.blocks.size() / 2];
  {
    BlockFetchFailure source(&m_shared, failing, /*onlyOtherThreads=*/true);
    BlockDecodePool pool(1);
    auto it = reader->newIterator(readingAhead(&source, &pool, nullptr, /*fillCache=*/false));
    std::vector<Entry> read;
    // Draining the pool every few entries (fewer than a block holds) has its
    // thread, not the reader, run every job, the failing fetch's too.
    for (it->seekToFirst(); it->valid(); it->next()) {
      if (read.size() % 16 == 0) drain(pool);
      read.push_back({std::string(it->key()), std::string(it->value())});
    }
    EXPECT_TRUE(it->status().isOk()) << it->status().toString();
    EXPECT_EQ(read, entries);
    EXPECT_EQ(source.failures.load(), 1) << "the pool's thread did not meet the failing fetch";
  }
  BlockFetchFailure source(&m_shared, failing, /*onlyOtherThreads=*/false);
  Status inTurn, ahead;
  for (bool readahead : {false, true}) {
    BlockDecodePool pool(1);
    const ReadContext context =
        readahead ? readingAhead(&source, &pool, nullptr, false) : ReadContext{&source, nullptr, false};
    auto it = reader->newIterator(context);
    size_t i = 0;
    for (it->seekToFirst(); it->valid(); it->next(), ++i) ASSERT_EQ(it->key(), entries[i].key);
    (readahead ? ahead : inTurn) = it->status();
  }
  EXPECT_EQ(inTurn.code(), Status::Code::kIOError) << inTurn.toString();
  EXPECT_NE(inTurn.message().find("could not be read"), std::string::npos) << inTurn.toString();
  EXPECT_EQ(ahead.toString(), inTurn.toString());
}

TEST_P(StoreFileLayouts, SeeksAmongStepsLandRightWhileReadingAhead) {
  const std::vector<Entry> entries = manyEntries(20000);
  const auto reader = write(entries, options());
  ASSERT_NE(reader, nullptr);
  auto it = reader->newIterator(context(nullptr, /*fillCache=*/false, /*readahead=*/true));
  std::mt19937 rng(7);
  size_t at = 0;
  it->seekToFirst();
  for (int round = 0; round < 300 && it->valid(); ++round) {
    // Runs of steps long enough to cross blocks (and start reading ahead),
    // then a seek back, ahead within reach, or far ahead.
    const size_t steps = rng() % 400;
    for (size_t i = 0; i < steps && at + 1 < entries.size(); ++i, ++at) it->next();
    ASSERT_TRUE(it->valid()) << round;
    ASSERT_EQ(it->key(), entries[at].key) << round;
    switch (rng() % 3) {
      case 0: at = at >= 500 ? at - rng() % 500 : 0; break;
      case 1: at = std::min(entries.size() - 1, at + rng() % 200); break;
      default: at = rng() % entries.size(); break;
    }
    it->seek(entries[at].key);
    ASSERT_TRUE(it->valid()) << round;
    ASSERT_EQ(it->key(), entries[at].key) << round;
    ASSERT_EQ(it->value(), entries[at].value) << round;
  }
  EXPECT_TRUE(it->status().isOk()) << it->status().toString();
}  // destroyed with blocks still read ahead

TEST_P(StoreFileLayouts, BloomFiltersHaveNoFalseNegatives) {
  const std::vector<Entry> entries = edgeEntries();
  const auto rowReader = write(entries, options(BloomType::kRow));
  const auto columnReader = write(entries, options(BloomType::kRowCol));
  const auto plainReader = write(entries, options(BloomType::kNone));
  ASSERT_TRUE(rowReader && columnReader && plainReader);
  EXPECT_TRUE(plainReader->meta().bloom.empty());
  for (const Entry& e : entries) {
    ParsedKey parsed;
    ASSERT_TRUE(parseInternalKey(e.key, &parsed));
    const std::string row(parsed.rowEscaped);
    const std::string column(parsed.columnPrefix());
    EXPECT_TRUE(rowReader->mayContainRow(row));
    EXPECT_TRUE(rowReader->mayContainColumn(column));
    EXPECT_TRUE(columnReader->mayContainColumn(column));
    EXPECT_TRUE(columnReader->mayContainRow(row));  // a ROWCOL filter cannot rule a row out
    EXPECT_TRUE(plainReader->mayContainRow(row));
  }
  int rowHits = 0;
  int columnHits = 0;
  for (int i = 0; i < 2000; ++i) {
    rowHits += rowReader->mayContainRow(rowStartKey("absent" + std::to_string(i)));
    columnHits += columnReader->mayContainColumn(columnStartKey("r", "absent" + std::to_string(i)));
  }
  EXPECT_LT(rowHits, 60);
  EXPECT_LT(columnHits, 60);
}

std::string layoutName(const ::testing::TestParamInfo<Layout>& info) {
  return std::string(info.param.compression == Compression::kZstd ? "Zstd" : "Raw") + "Page" +
         std::to_string(info.param.pageSize) +
         (info.param.format == format::kMetaFormatNewest ? "" : "Format" + std::to_string(info.param.format)) +
         (info.param.dictionaryTrainBytes == format::kDictionaryTrainBytes
              ? ""
              : "TrainOn" + std::to_string(info.param.dictionaryTrainBytes)) +
         (info.param.pageBytes == format::kLeafPageBytes ? "" : "PagesOf" + std::to_string(info.param.pageBytes));
}

INSTANTIATE_TEST_SUITE_P(StoreFile, StoreFileLayouts,
                         ::testing::Values(Layout{Compression::kNone, 1024}, Layout{Compression::kNone, 4096},
                                           Layout{Compression::kNone, 65536}, Layout{Compression::kZstd, 1024},
                                           Layout{Compression::kZstd, 4096}, Layout{Compression::kZstd, 65536},
                                           Layout{Compression::kNone, 1024, 1}, Layout{Compression::kZstd, 65536, 1},
                                           Layout{Compression::kNone, 1024, 2}, Layout{Compression::kZstd, 65536, 2},
                                           Layout{Compression::kZstd, 65536, 3},
                                           Layout{Compression::kNone, 1024, 4}, Layout{Compression::kZstd, 65536, 4},
                                           Layout{Compression::kZstd, 4096, format::kMetaFormatLeafPages},
                                           Layout{Compression::kZstd, 1024, format::kMetaFormatLeafPages, 8192, 97},
                                           Layout{Compression::kNone, 4096, format::kMetaFormatNewest,
                                                  format::kDictionaryTrainBytes, 1000},
                                           Layout{Compression::kZstd, 1024, format::kMetaFormatNewest, 8192, 97},
                                           Layout{Compression::kZstd, 1024, format::kMetaFormatNewest, 8192},
                                           Layout{Compression::kZstd, 65536, format::kMetaFormatNewest, 32768}),
                         layoutName);

// --- the shared cache, the writer's contract -------------------------------

class StoreFileTest : public StoreFileFixture, public ::testing::Test {};

TEST_F(StoreFileTest, ReadersSharingACacheKeepTheirBlocksApart) {
  // Two files with the same shape (same block numbers) but different values.
  std::vector<Entry> a = manyEntries(5000);
  std::vector<Entry> b = a;
  for (Entry& e : b) e.value += "-b";
  const auto readerA = write(a, {});
  const auto readerB = write(b, {});
  ASSERT_TRUE(readerA && readerB);
  EXPECT_EQ(readAll(*readerA), a);
  EXPECT_EQ(readAll(*readerB), b);
  ReadReport reportA;
  ReadReport reportB;
  EXPECT_EQ(readAll(*readerA, &reportA), a);
  EXPECT_EQ(readAll(*readerB, &reportB), b);
  EXPECT_EQ(reportA.pageCacheHits, readerA->meta().blocks.size());
  EXPECT_EQ(reportB.pageCacheHits, readerB->meta().blocks.size());
  // A dropped file's blocks leave the cache; the other's stay.
  m_cache.eraseFile(readerA->id());
  ReadReport again;
  EXPECT_EQ(readAll(*readerA, &again), a);
  EXPECT_EQ(again.pageCacheHits, 0u);
}

TEST_F(StoreFileTest, ConcurrentIteratorsShareOneReader) {
  const std::vector<Entry> entries = manyEntries(20000);
  StoreFileOptions options;
  options.compression = Compression::kZstd;
  const auto reader = write(entries, options);
  ASSERT_NE(reader, nullptr);
  std::vector<std::thread> threads;
  std::atomic<int> mismatches{0};
  const std::string path = sqlite3_db_filename(m_ws.db(), "main");
  for (int t = 0; t < 3; ++t) {
    threads.emplace_back([&, t] {
      sqlite3* db = nullptr;  // one connection and page source per thread
      sqlite3_open(path.c_str(), &db);
      {
        SqlitePageSource source(db);
        auto it = reader->newIterator(ReadContext{&source, nullptr, true});
        std::mt19937_64 rng(static_cast<uint64_t>(t));
        for (int i = 0; i < 3000; ++i) {
          const Entry& e = entries[rng() % entries.size()];
          it->seek(e.key);
          if (!it->valid() || it->key() != e.key || it->value() != e.value) mismatches.fetch_add(1);
        }
      }
      sqlite3_close(db);
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(mismatches.load(), 0);
}

TEST_F(StoreFileTest, ReadsWithoutFillingOrWithoutACache) {
  const std::vector<Entry> entries = manyEntries(3000);
  const auto reader = write(entries, {});
  ASSERT_NE(reader, nullptr);
  auto it = reader->newIterator(context(nullptr, /*fillCache=*/false));
  EXPECT_EQ(scan(*it), entries);
  EXPECT_EQ(m_cache.entryCount(), 0u);

  StoreFileReader uncached(reader->id(), reader->meta(), kLabel, nullptr);
  ReadReport report;
  auto it2 = uncached.newIterator(context(&report));
  EXPECT_EQ(scan(*it2), entries);
  EXPECT_EQ(report.pageCacheHits, 0u);
  EXPECT_EQ(report.pagesRead, reader->meta().blocks.size());
}

// A split or merge moves a file to another region under a new label: the
// relabelled reader reads the same entries from the same cache, names its
// own region in errors, and shares the metadata (index, bloom filter)
// instead of holding a copy per move.
TEST_F(StoreFileTest, ARelabelledReaderSharesTheMetadataAndNamesItsRegion) {
  const std::vector<Entry> entries = manyEntries(3000);
  const auto reader = write(entries, {});
  ASSERT_NE(reader, nullptr);
  const StoreFileLabel moved{"t", 42, "f"};
  StoreFileReader relabelled(*reader, moved);
  EXPECT_EQ(relabelled.id(), reader->id());
  EXPECT_EQ(&relabelled.meta(), &reader->meta());
  EXPECT_EQ(relabelled.label().regionId, 42);
  EXPECT_EQ(reader->label().regionId, kLabel.regionId);
  EXPECT_EQ(readAll(*reader), entries);
  ReadReport report;
  EXPECT_EQ(readAll(relabelled, &report), entries);
  EXPECT_EQ(report.pageCacheHits, reader->meta().blocks.size()) << "the same blocks in the same cache";
  m_ws.exec("DELETE FROM pages WHERE page_id = " + std::to_string(pageRowId(reader->id(), 0)));
  m_cache.eraseFile(reader->id());
  auto it = relabelled.newIterator(context());
  it->seekToFirst();
  EXPECT_EQ(it->status().code(), Status::Code::kCorruption);
  EXPECT_NE(it->status().message().find("region 42"), std::string::npos) << it->status().message();
}

TEST_F(StoreFileTest, WriterRejectsKeysOutOfOrderOrMalformed) {
  SqlitePageSink sink(m_ws.db());
  StoreFileWriter writer(99, {}, &sink);
  EXPECT_TRUE(writer.add(internalKey("b", "q", 5, CellType::kPut), "v").isOk());
  EXPECT_EQ(writer.add(internalKey("b", "q", 5, CellType::kPut), "v").code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(writer.add(internalKey("a", "q", 5, CellType::kPut), "v").code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(writer.add("not a key", "v").code(), Status::Code::kInvalidArgument);
  EXPECT_TRUE(writer.add(internalKey("b", "q", 4, CellType::kPut), "v").isOk());
  Result<StoreFileMeta> meta = writer.finish();
  ASSERT_TRUE(meta.isOk());
  EXPECT_EQ(meta->cellCount, 2u);
  EXPECT_FALSE(writer.add(internalKey("c", "q", 4, CellType::kPut), "v").isOk());

  StoreFileWriter empty(100, {}, &sink);
  EXPECT_EQ(empty.finish().status().code(), Status::Code::kInvalidArgument);
}

TEST_F(StoreFileTest, WriterReportsRawBytesSoFar) {
  SqlitePageSink sink(m_ws.db());
  StoreFileWriter writer(98, {}, &sink);
  uint64_t last = 0;
  for (const Entry& e : manyEntries(1000)) {
    ASSERT_TRUE(writer.add(e.key, e.value).isOk());
    EXPECT_GT(writer.rawBytesSoFar(), last);
    last = writer.rawBytesSoFar();
  }
  Result<StoreFileMeta> meta = writer.finish();
  ASSERT_TRUE(meta.isOk());
  EXPECT_EQ(meta->rawBytes, last);
}

// --- dictionaries (format 4) ----------------------------------------------

// Time-series cells like the benchmark's: a row per metric and hour, a
// column per second, values of a few recurring words and numbers.
std::vector<Entry> timeSeriesEntries(size_t count) {
  static const char* const kWords[] = {"host=web", " cpu.user ", " region=eu-west ", " ok ", " p99=", " status="};
  std::mt19937_64 rng(7);
  std::vector<Entry> e;
  e.reserve(count);
  for (size_t row = 0; e.size() < count; ++row) {
    char rowKey[16];
    std::snprintf(rowKey, sizeof rowKey, "m%02zue%06zuh", row % 7, row);
    for (int second = 0; second < 60 && e.size() < count; ++second) {
      std::string value;
      const size_t size = 8 + rng() % 57;
      while (value.size() < size) {
        value += kWords[rng() % 6];
        value += std::to_string(rng() % 100000);
      }
      value.resize(size);
      const std::string qualifier{static_cast<char>(second >> 8), static_cast<char>(second)};
      e.push_back(cell(rowKey, qualifier, 1700000000000 + static_cast<int64_t>(row), std::move(value)));
    }
  }
  return sorted(std::move(e));
}

TEST_F(StoreFileTest, AFileTrainsADictionaryOnItsFirstBlocksAndComesOutSmaller) {
  const std::vector<Entry> entries = timeSeriesEntries(60000);  // ~3 MiB raw
  StoreFileOptions options;
  options.compression = Compression::kZstd;
  options.format = format::kMetaFormatPlacedChecksums;
  const auto without = write(entries, options);
  // The last format of whole blocks: format 6's frames store their literals
  // raw, which a dictionary does not make up for on these cells.
  options.format = format::kMetaFormatLeafPages;
  const auto with = write(entries, options);
  ASSERT_NE(without, nullptr);
  ASSERT_NE(with, nullptr);
  EXPECT_TRUE(without->meta().dictionary.empty());
  EXPECT_EQ(without->dictionary(), nullptr);
  const StoreFileMeta& meta = with->meta();
  ASSERT_FALSE(meta.dictionary.empty());
  EXPECT_LE(meta.dictionary.size(), format::kDictionaryMaxBytes);
  EXPECT_NE(with->dictionary(), nullptr);
  // The reader was opened from the encoded metadata (write()): the blocks
  // decode with the dictionary as stored, and every check passes.
  EXPECT_EQ(readAll(*with), entries);
  EXPECT_TRUE(with->verify(&m_source).isOk());
  // The dictionary pays for itself several times over, stored with the file.
  const uint64_t withTotal = meta.storedBytes + meta.dictionary.size();
  EXPECT_LT(withTotal, without->meta().storedBytes * 95 / 100)
      << withTotal << " bytes with a dictionary, " << without->meta().storedBytes << " without";
  // Blocks keep their size and their place in pages: only their bytes shrink.
  ASSERT_EQ(meta.blocks.size(), without->meta().blocks.size());
  for (size_t i = 0; i < meta.blocks.size(); ++i) {
    ASSERT_EQ(meta.blocks.lastKey(i), without->meta().blocks.lastKey(i)) << i;
    ASSERT_EQ(meta.blocks[i].rawSize, without->meta().blocks[i].rawSize) << i;
  }
  // The same cells train the same dictionary.
  const auto again = write(entries, options);
  ASSERT_NE(again, nullptr);
  EXPECT_EQ(again->meta().dictionary, meta.dictionary);
}

// --- framed blocks (format 6) ------------------------------------------------

// Sets the checksum of the block at `block` in *page (its first page) to
// match its bytes: damage that passes the checksum, as a writer's bug would.
void rechecksumBlock(std::string* page, const BlockHandle& block, uint64_t seed) {
  const uint64_t sum = XXH3_64bits_withSeed(page->data() + block.offset + format::kChecksumSize,
                                            block.storedSize - format::kChecksumSize, seed);
  for (int i = 0; i < 8; ++i) (*page)[block.offset + static_cast<size_t>(i)] = static_cast<char>(sum >> (56 - 8 * i));
}

StoreFileOptions framedOptions() {
  StoreFileOptions options;
  options.compression = Compression::kZstd;
  options.format = format::kMetaFormatFramedBlocks;
  return options;
}

TEST_F(StoreFileTest, AFramedFilesBlocksAreCutIntoFramesAtRestartEntries) {
  const std::vector<Entry> entries = manyEntries(20000);
  const auto reader = write(entries, framedOptions());
  ASSERT_NE(reader, nullptr);
  const StoreFileMeta& meta = reader->meta();
  ASSERT_EQ(meta.format, format::kMetaFormatFramedBlocks);
  size_t frames = 0;
  for (size_t b = 0; b < meta.blocks.size(); ++b) {
    std::string stored;
    ASSERT_TRUE(readStoredBlock(m_source, reader->id(), meta, b, &stored).isOk());
    ASSERT_EQ(storedCompression(stored), format::BlockCompression::kZstdFrames) << b;
    FrameTable table;
    std::string error;
    ASSERT_TRUE(table.parse(stored, meta.blocks[b].rawSize, &error)) << b << ": " << error;
    // Frames of about kFrameTarget raw bytes: a full block has three.
    if (meta.blocks[b].rawSize > 3 * format::kFrameTarget) {
      EXPECT_GE(table.size(), 3u) << b;
    }
    for (size_t f = 0; f + 1 < table.size(); ++f) {
      EXPECT_GE(table.rawSize(f), format::kFrameTarget) << b;
      EXPECT_LT(table.rawSize(f), format::kFrameTarget + 64) << b;  // one entry more at most
    }
    frames += table.size();
  }
  EXPECT_GT(frames, 2 * meta.blocks.size());
  // verify() checks every frame against its table: where it begins and the
  // last key the table gives it.
  EXPECT_TRUE(reader->verify(&m_source).isOk());
}

TEST_F(StoreFileTest, AGetDecodesOneFrameAndTheCacheKeepsTheBlockAsStored) {
  const std::vector<Entry> entries = manyEntries(20000);
  const auto reader = write(entries, framedOptions());
  ASSERT_NE(reader, nullptr);
  const StoreFileMeta& meta = reader->meta();
  const Entry& wanted = entries[entries.size() / 2];
  const size_t blockNo = meta.blocks.find(wanted.key);
  const BlockHandle block = meta.blocks[blockNo];

  ReadReport cold;
  auto it = reader->newIterator(context(&cold));
  it->seek(wanted.key);
  ASSERT_TRUE(it->valid());
  EXPECT_EQ(it->value(), wanted.value);
  EXPECT_EQ(cold.pagesRead, 1u);
  EXPECT_EQ(cold.bytesReadFromStorage, block.storedSize);
  EXPECT_GT(cold.bytesDecompressed, 0u);
  EXPECT_LT(cold.bytesDecompressed, block.rawSize / 2);  // one frame of three
  PageCache::Form form = PageCache::Form::kDecoded;
  const PageCache::Block cached = m_cache.lookup(reader->id(), static_cast<uint32_t>(blockNo), &form);
  ASSERT_NE(cached, nullptr);
  EXPECT_EQ(form, PageCache::Form::kStored);
  EXPECT_EQ(cached->size(), block.storedSize);

  // Again: from the cache, one frame decoded, nothing read.
  ReadReport warm;
  it = reader->newIterator(context(&warm));
  it->seek(wanted.key);
  ASSERT_TRUE(it->valid());
  EXPECT_EQ(it->value(), wanted.value);
  EXPECT_EQ(warm.pageCacheHits, 1u);
  EXPECT_EQ(warm.bytesReadFromStorage, 0u);
  EXPECT_EQ(warm.bytesDecompressed, cold.bytesDecompressed);

  // A get walks on from frame to frame and block to block.
  const size_t at = static_cast<size_t>(&wanted - entries.data());
  for (size_t i = at; i < std::min(entries.size(), at + 300); ++i) {
    ASSERT_TRUE(it->valid()) << i;
    ASSERT_EQ(it->key(), entries[i].key) << i;
    it->next();
  }
  EXPECT_TRUE(it->status().isOk());

  // A scan decodes the block the get left as stored without reading it,
  // and caches the blocks it reads as stored too.
  ReadReport scan;
  EXPECT_EQ(readAll(*reader, &scan, true, true), entries);
  EXPECT_EQ(scan.bytesDecompressed, meta.rawBytes);
  EXPECT_GE(scan.pageCacheHits, 1u);
  EXPECT_LE(scan.bytesReadFromStorage, meta.storedBytes - block.storedSize);
  for (size_t b = 0; b < meta.blocks.size(); ++b) {
    ASSERT_NE(m_cache.lookup(reader->id(), static_cast<uint32_t>(b), &form), nullptr) << b;
    EXPECT_EQ(form, PageCache::Form::kStored) << b;
  }
  // The next scan reads nothing from storage; it decodes every block again.
  ReadReport again;
  EXPECT_EQ(readAll(*reader, &again, true, true), entries);
  EXPECT_EQ(again.pageCacheHits, meta.blocks.size());
  EXPECT_EQ(again.bytesReadFromStorage, 0u);
  EXPECT_EQ(again.bytesDecompressed, meta.rawBytes);
}

// A frame table whose checksum passes (a writer's bug, a hostile file) but
// that does not add up is Corruption naming the page, never a crash or a
// read out of bounds.
TEST_F(StoreFileTest, ADamagedFrameTableIsCorruptionNamingThePage) {
  const std::vector<Entry> entries = manyEntries(2000);
  const auto reader = write(entries, framedOptions());
  ASSERT_NE(reader, nullptr);
  const StoreFileMeta& meta = reader->meta();
  ASSERT_GT(meta.blocks.size(), 2u);
  const BlockHandle& block = meta.blocks[0];
  ASSERT_EQ(block.pageNo, 0u);
  const std::string original = m_ws.page(reader->id(), 0);
  const size_t table = block.offset + format::kBlockHeaderSize;
  ASSERT_GE(static_cast<uint8_t>(original[table]), 2u);  // the frame count, one byte
  const uint64_t seed = blockChecksumSeed(meta.format, reader->id(), 0);
  // Where frame 0's stored and raw sizes are (varints after the count).
  uint32_t ignored = 0;
  const char* limit = original.data() + original.size();
  const char* storedSizeAt = format::decodeVarint32(original.data() + table, limit, &ignored);
  const char* rawSizeAt = format::decodeVarint32(storedSizeAt, limit, &ignored);
  ASSERT_NE(rawSizeAt, nullptr);
  const size_t storedSize = static_cast<size_t>(storedSizeAt - original.data());
  const size_t rawSize = static_cast<size_t>(rawSizeAt - original.data());
  const std::vector<std::pair<const char*, std::function<void(std::string*)>>> damages = {
      {"no frames", [&](std::string* p) { (*p)[table] = 0; }},
      {"more frames than the table holds", [&](std::string* p) { (*p)[table] = 0x7f; }},
      {"one frame fewer", [&](std::string* p) { (*p)[table] = static_cast<char>((*p)[table] - 1); }},
      {"a frame's raw size off by one", [&](std::string* p) { (*p)[rawSize] = static_cast<char>((*p)[rawSize] ^ 1); }},
      {"a frame's stored size off by one",
       [&](std::string* p) { (*p)[storedSize] = static_cast<char>((*p)[storedSize] ^ 1); }},
  };
  const std::string where = "store file " + std::to_string(reader->id()) + ", page 0, block 0: ";
  for (const auto& [what, damage] : damages) {
    SCOPED_TRACE(what);
    std::string page = original;
    damage(&page);
    rechecksumBlock(&page, block, seed);
    m_ws.setPage(reader->id(), 0, page);
    m_cache.eraseFile(reader->id());
    auto get = reader->newIterator(context());
    get->seek(entries[1].key);
    EXPECT_FALSE(get->valid());
    EXPECT_EQ(get->status().code(), Status::Code::kCorruption) << get->status().toString();
    EXPECT_NE(get->status().message().find(where), std::string::npos) << get->status().toString();
    m_cache.eraseFile(reader->id());
    auto scan = reader->newIterator(context(nullptr, true, true));
    scan->seekToFirst();
    EXPECT_EQ(scan->status().code(), Status::Code::kCorruption) << scan->status().toString();
    EXPECT_EQ(reader->verify(&m_source).code(), Status::Code::kCorruption);
  }
  m_ws.setPage(reader->id(), 0, original);
  m_cache.eraseFile(reader->id());
  EXPECT_TRUE(reader->verify(&m_source).isOk());
  EXPECT_EQ(readAll(*reader), entries);
}

// A frame's last key in the table that is not the frame's: verify() says
// which frame; a get that walks to the frame's end says so too.
TEST_F(StoreFileTest, AFrameTablesWrongLastKeyIsCaughtByVerifyAndAtTheFramesEnd) {
  const std::vector<Entry> entries = manyEntries(2000);
  const auto reader = write(entries, framedOptions());
  ASSERT_NE(reader, nullptr);
  const StoreFileMeta& meta = reader->meta();
  const BlockHandle& block = meta.blocks[0];
  std::string page = m_ws.page(reader->id(), 0);
  std::string stored = page.substr(block.offset, block.storedSize);
  FrameTable table;
  std::string error;
  ASSERT_TRUE(table.parse(stored, block.rawSize, &error)) << error;
  ASSERT_GE(table.size(), 2u);
  // Frame 0's last key is in the table whole (nothing before it to share
  // with): lower its last byte, which keeps the table's keys in order.
  const std::string key(table.lastKey(0));
  const size_t at = stored.find(key);
  ASSERT_NE(at, std::string::npos);
  const size_t last = at + key.size() - 1;
  page[block.offset + last] = static_cast<char>(page[block.offset + last] - 1);
  rechecksumBlock(&page, block, blockChecksumSeed(meta.format, reader->id(), 0));
  m_ws.setPage(reader->id(), 0, page);
  m_cache.eraseFile(reader->id());
  const Status verified = reader->verify(&m_source);
  EXPECT_EQ(verified.code(), Status::Code::kCorruption);
  EXPECT_NE(verified.message().find("frame 0's last key is not the one in its table"), std::string::npos)
      << verified.toString();
  auto get = reader->newIterator(context());
  get->seekToFirst();
  while (get->valid()) get->next();
  EXPECT_EQ(get->status().code(), Status::Code::kCorruption) << get->status().toString();
  EXPECT_NE(get->status().message().find("page 0, block 0: frame 0's last key"), std::string::npos)
      << get->status().toString();
}

TEST_F(StoreFileTest, OnlyAZstdFileOfTheNewestFormatWithEnoughBytesGetsADictionary) {
  const std::vector<Entry> entries = timeSeriesEntries(20000);  // ~1 MiB raw
  StoreFileOptions options;
  options.compression = Compression::kZstd;
  options.dictionaryTrainBytes = 2 << 20;  // more than the file holds
  const auto small = write(entries, options);
  ASSERT_NE(small, nullptr);
  EXPECT_TRUE(small->meta().dictionary.empty());
  EXPECT_EQ(readAll(*small), entries);  // the held blocks were stored at finish()
  EXPECT_TRUE(small->verify(&m_source).isOk());

  options.compression = Compression::kNone;
  options.dictionaryTrainBytes = 16 << 10;
  const auto raw = write(entries, options);
  ASSERT_NE(raw, nullptr);
  EXPECT_TRUE(raw->meta().dictionary.empty());
  EXPECT_EQ(readAll(*raw), entries);
}

TEST_F(StoreFileTest, EveryFlippedByteInAPageCompressedWithADictionaryIsCorruption) {
  const std::vector<Entry> entries = timeSeriesEntries(3000);
  StoreFileOptions options;
  options.compression = Compression::kZstd;
  options.pageSize = 1024;
  options.format = format::kMetaFormatDictionary;  // one block per page
  options.dictionaryTrainBytes = 16 << 10;
  const auto reader = write(entries, options);
  ASSERT_NE(reader, nullptr);
  ASSERT_FALSE(reader->meta().dictionary.empty());
  const int64_t id = reader->id();
  const std::string original = m_ws.page(id, 40);  // past the training blocks
  for (size_t at = 0; at < original.size(); ++at) {
    std::string damaged = original;
    damaged[at] = static_cast<char>(damaged[at] ^ (1 << (at % 8)));
    m_ws.setPage(id, 40, damaged);
    const Status v = reader->verify(&m_source);
    ASSERT_EQ(v.code(), Status::Code::kCorruption) << "byte " << at;
    ASSERT_NE(v.message().find("page 40, block 0: "), std::string::npos) << v.message();
  }
  m_ws.setPage(id, 40, original);
  EXPECT_TRUE(reader->verify(&m_source).isOk());
}

// --- damage ----------------------------------------------------------------

// Formats 1 to 4 put whole blocks in pages: with a 1 KiB BLOCKSIZE, one
// block per page, so damage to a page is damage to its block 0.
class StoreFileCorruption : public StoreFileFixture, public ::testing::TestWithParam<Compression> {
 protected:
  std::unique_ptr<StoreFileReader> writeSmallPages(const std::vector<Entry>& entries) {
    StoreFileOptions options;
    options.compression = GetParam();
    options.pageSize = 1024;
    options.format = format::kMetaFormatDictionary;
    return write(entries, options);
  }
  // Format 5 with pages of 700 bytes: blocks of about 1 KiB raw begin in one
  // page and end in the next.
  std::unique_ptr<StoreFileReader> writeCutPages(const std::vector<Entry>& entries) {
    StoreFileOptions options;
    options.compression = GetParam();
    options.pageSize = 1024;
    options.pageBytes = 700;
    return write(entries, options);
  }

  // Flips one bit of each byte of page pageNo in turn. Scans (in turn and
  // reading ahead) and verify() must each fail with a Corruption whose
  // message `namesIt` accepts; restored, the file reads whole again.
  void expectEveryFlippedByteIsCorruption(const StoreFileReader& reader, const std::vector<Entry>& entries,
                                          uint32_t pageNo, const std::function<bool(const std::string&)>& namesIt) {
    const int64_t id = reader.id();
    const std::string original = m_ws.page(id, pageNo);
    ASSERT_FALSE(original.empty());
    for (size_t at = 0; at < original.size(); ++at) {
      std::string damaged = original;
      damaged[at] = static_cast<char>(damaged[at] ^ (1 << (at % 8)));
      m_ws.setPage(id, pageNo, damaged);
      const Status s = scanExpectingPrefix(reader, entries);
      ASSERT_EQ(s.code(), Status::Code::kCorruption) << "byte " << at << ": " << s.toString();
      ASSERT_TRUE(namesIt(s.message())) << "byte " << at << ": " << s.message();
      const Status v = reader.verify(&m_source);
      ASSERT_EQ(v.code(), Status::Code::kCorruption) << "byte " << at;
      ASSERT_TRUE(namesIt(v.message())) << "byte " << at << ": " << v.message();
    }
    m_ws.setPage(id, pageNo, original);
    EXPECT_TRUE(scanExpectingPrefix(reader, entries).isOk());
    EXPECT_TRUE(reader.verify(&m_source).isOk());
  }

  // Reads the whole file (uncached, so the damage is seen), in turn and
  // reading ahead, which must fail alike. The entries read must be a prefix
  // of the truth: damage may stop a read, never bend it.
  Status scanExpectingPrefix(const StoreFileReader& reader, const std::vector<Entry>& truth) {
    const Status inTurn = scanOnce(reader, truth, false);
    const Status ahead = scanOnce(reader, truth, true);
    EXPECT_EQ(ahead.toString(), inTurn.toString()) << "reading ahead";
    return inTurn;
  }
  Status scanOnce(const StoreFileReader& reader, const std::vector<Entry>& truth, bool readahead) {
    auto it = reader.newIterator(context(nullptr, false, readahead));
    size_t i = 0;
    for (it->seekToFirst(); it->valid(); it->next(), ++i) {
      if (i >= truth.size() || it->key() != truth[i].key || it->value() != truth[i].value) {
        ADD_FAILURE() << "wrong entry " << i << " read from a damaged file";
        break;
      }
    }
    return it->status();
  }
};

TEST_P(StoreFileCorruption, EveryFlippedByteInAPageIsCorruptionNamingThePage) {
  const std::vector<Entry> entries = manyEntries(2000);
  const auto reader = writeSmallPages(entries);
  ASSERT_NE(reader, nullptr);
  ASSERT_GT(reader->meta().pageCount, 3u);
  const std::string where =
      "table 't', region 3, family 'd', store file " + std::to_string(reader->id()) + ", page 2, block 0: ";
  expectEveryFlippedByteIsCorruption(*reader, entries, 2,
                                     [&](const std::string& message) { return message.rfind(where, 0) == 0; });
}

// A page row that comes back for the wrong page id (a damaged B-tree key in
// SQLite) holds a block that is valid in itself. Two files of the same cells
// in one-block pages of equal size make that as likely as it gets: each
// block must still fail its checksum in any other place, in its own file
// or the other one.
TEST_P(StoreFileCorruption, ABlockInTheWrongPlaceFailsItsChecksum) {
  std::vector<Entry> entries;
  for (int i = 0; i < 400; ++i) entries.push_back(cell("row" + std::to_string(1000 + i), "q", 7, std::string(40, 'v')));
  entries = sorted(std::move(entries));
  StoreFileOptions options;
  options.compression = GetParam();
  options.pageSize = 1024;  // one block per page
  options.format = format::kMetaFormatDictionary;
  const auto first = write(entries, options);
  const auto second = write(entries, options);
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  ASSERT_GT(first->meta().pageCount, 3u);
  if (GetParam() == Compression::kNone) {
    ASSERT_EQ(first->meta().blocks[1].storedSize, first->meta().blocks[2].storedSize) << "blocks of equal size";
  }
  const std::string page1 = m_ws.page(first->id(), 1);
  const std::string page2 = m_ws.page(first->id(), 2);
  ASSERT_EQ(page1.substr(format::kChecksumSize), m_ws.page(second->id(), 1).substr(format::kChecksumSize))
      << "the same block in both files: without its place in the checksum it would pass in either";
  for (const auto& [reader, pageNo, data] :
       {std::tuple{first.get(), 2u, page1}, std::tuple{second.get(), 1u, page2}}) {
    m_ws.setPage(reader->id(), pageNo, data);
    const Status s = scanExpectingPrefix(*reader, entries);
    EXPECT_EQ(s.code(), Status::Code::kCorruption) << s.toString();
    // Uncompressed, the blocks are of equal size: only the checksum tells.
    const std::string why = GetParam() == Compression::kNone ? "block checksum mismatch" : "";
    EXPECT_NE(s.message().find("page " + std::to_string(pageNo) + ", block 0: " + why), std::string::npos)
        << s.message();
  }
  // The first file's page 1 in the second file's page 1, same place but
  // another file, fails too; the first file reads again once repaired.
  m_ws.setPage(first->id(), 2, page2);
  m_ws.setPage(second->id(), 1, page1);
  EXPECT_TRUE(scanExpectingPrefix(*first, entries).isOk());
  EXPECT_EQ(scanExpectingPrefix(*second, entries).code(), Status::Code::kCorruption);
}

TEST_P(StoreFileCorruption, TruncatedPageIsCorruption) {
  const std::vector<Entry> entries = manyEntries(2000);
  const auto reader = writeSmallPages(entries);
  ASSERT_NE(reader, nullptr);
  const std::string original = m_ws.page(reader->id(), 1);
  m_ws.setPage(reader->id(), 1, original.substr(0, original.size() / 2));
  const Status s = scanExpectingPrefix(*reader, entries);
  EXPECT_EQ(s.code(), Status::Code::kCorruption);
  EXPECT_NE(s.message().find(", page 1, block 0: page 1 of store file"), std::string::npos) << s.message();
}

TEST_P(StoreFileCorruption, MissingPageIsCorruptionNamingIt) {
  const std::vector<Entry> entries = manyEntries(2000);
  const auto reader = writeSmallPages(entries);
  ASSERT_NE(reader, nullptr);
  m_ws.exec("DELETE FROM pages WHERE page_id = " + std::to_string(pageRowId(reader->id(), 3)));
  const Status s = scanExpectingPrefix(*reader, entries);
  EXPECT_EQ(s.code(), Status::Code::kCorruption);
  EXPECT_NE(s.message().find("page 3 of store file " + std::to_string(reader->id()) + " is missing"),
            std::string::npos)
      << s.message();
  EXPECT_EQ(reader->verify(&m_source).code(), Status::Code::kCorruption);
}

TEST_P(StoreFileCorruption, CorruptionIsStickyAcrossSeeks) {
  const std::vector<Entry> entries = manyEntries(2000);
  const auto reader = writeSmallPages(entries);
  ASSERT_NE(reader, nullptr);
  std::string page = m_ws.page(reader->id(), 0);
  page[page.size() / 2] ^= 0x40;
  m_ws.setPage(reader->id(), 0, page);
  auto it = reader->newIterator(context(nullptr, false));
  it->seekToFirst();
  EXPECT_FALSE(it->valid());
  EXPECT_EQ(it->status().code(), Status::Code::kCorruption);
  it->seek(entries.back().key);  // an undamaged page: the iterator still reports the damage
  EXPECT_FALSE(it->valid());
  EXPECT_EQ(it->status().code(), Status::Code::kCorruption);
}

// Format 5 cuts pages by stored size, so blocks begin in one page and end in
// the next: damage anywhere in a page must be Corruption naming that page,
// whichever block the byte belongs to.
// True when `message` names a block in page `page`: ", page 2, block 0: " or
// ", pages 1-2, block 3: ".
bool namesPage(const std::string& message, uint32_t page) {
  static const std::regex kWhere(", pages? ([0-9]+)(-([0-9]+))?, block [0-9]+: ");
  std::smatch m;
  if (!std::regex_search(message, m, kWhere)) return false;
  const auto first = static_cast<uint32_t>(std::stoul(m[1].str()));
  const auto last = m[3].matched ? static_cast<uint32_t>(std::stoul(m[3].str())) : first;
  return first <= page && page <= last;
}

TEST_P(StoreFileCorruption, EveryFlippedByteInACutPageIsCorruptionNamingThePage) {
  const std::vector<Entry> entries = manyEntries(2000);
  const auto reader = writeCutPages(entries);
  ASSERT_NE(reader, nullptr);
  const StoreFileMeta& meta = reader->meta();
  ASSERT_GT(meta.pageCount, 4u);
  ASSERT_EQ(m_ws.page(reader->id(), 2).size(), 700u);
  expectEveryFlippedByteIsCorruption(*reader, entries, 2,
                                     [](const std::string& message) { return namesPage(message, 2); });
}

TEST_P(StoreFileCorruption, AMissingOrTruncatedCutPageIsCorruptionNamingIt) {
  const std::vector<Entry> entries = manyEntries(2000);
  const auto reader = writeCutPages(entries);
  ASSERT_NE(reader, nullptr);
  const int64_t id = reader->id();
  // A block that begins in page 2 and ends in page 3: reading it needs both.
  size_t crossing = reader->meta().blocks.size();
  for (size_t b = 0; b < reader->meta().blocks.size(); ++b) {
    const BlockHandle& h = reader->meta().blocks[b];
    if (h.pageNo == 2 && h.offset + h.storedSize > 700) crossing = b;
  }
  ASSERT_LT(crossing, reader->meta().blocks.size()) << "no block crosses from page 2 into page 3";

  const std::string page3 = m_ws.page(id, 3);
  m_ws.setPage(id, 3, page3.substr(0, 10));
  Status s = scanExpectingPrefix(*reader, entries);
  EXPECT_EQ(s.code(), Status::Code::kCorruption);
  EXPECT_NE(s.message().find("page 3 of store file " + std::to_string(id) + " holds 10 bytes"), std::string::npos)
      << s.message();
  EXPECT_TRUE(namesPage(s.message(), 3)) << s.message();

  m_ws.exec("DELETE FROM pages WHERE page_id = " + std::to_string(pageRowId(id, 3)));
  s = scanExpectingPrefix(*reader, entries);
  EXPECT_EQ(s.code(), Status::Code::kCorruption);
  EXPECT_NE(s.message().find("page 3 of store file " + std::to_string(id) + " is missing"), std::string::npos)
      << s.message();
  // A get of the crossing block's last key needs page 3 too.
  auto it = reader->newIterator(context(nullptr, false));
  it->seek(reader->meta().blocks.lastKey(crossing));
  EXPECT_FALSE(it->valid());
  EXPECT_EQ(it->status().code(), Status::Code::kCorruption);
  EXPECT_EQ(reader->verify(&m_source).code(), Status::Code::kCorruption);
}

std::string compressionName(const ::testing::TestParamInfo<Compression>& info) {
  return info.param == Compression::kZstd ? "Zstd" : "Raw";
}

INSTANTIATE_TEST_SUITE_P(StoreFile, StoreFileCorruption, ::testing::Values(Compression::kNone, Compression::kZstd),
                         compressionName);

// Blocks whose checksum is right but whose entries are garbage (a writer bug,
// or deliberate): the iterator must stop cleanly, never read out of bounds.
TEST_F(StoreFileTest, GarbledEntriesWithAValidChecksumStopCleanly) {
  const std::vector<Entry> entries = manyEntries(500);
  StoreFileOptions options;
  options.pageSize = 2048;  // one block per page
  options.format = format::kMetaFormatDictionary;
  const auto reader = write(entries, options);
  ASSERT_NE(reader, nullptr);
  const int64_t id = reader->id();
  const std::string original = m_ws.page(id, 1);
  ASSERT_EQ(reader->meta().blocks[1].pageNo, 1u);
  std::mt19937_64 rng(11);
  int corruptions = 0;
  for (int round = 0; round < 300; ++round) {
    std::string damaged = original;
    const int flips = 1 + static_cast<int>(rng() % 4);
    for (int f = 0; f < flips; ++f) {
      const size_t at = format::kBlockHeaderSize + rng() % (damaged.size() - format::kBlockHeaderSize);
      damaged[at] = static_cast<char>(rng() % 2 ? 0xff : rng());
    }
    format::storeBigEndian64(damaged.data(), XXH3_64bits_withSeed(damaged.data() + 8, damaged.size() - 8,
                                                                  blockChecksumSeed(reader->meta().format, id, 1)));
    m_ws.setPage(id, 1, damaged);
    auto it = reader->newIterator(context(nullptr, false));
    size_t steps = 0;
    for (it->seekToFirst(); it->valid() && steps < entries.size() + 10; it->next()) ++steps;
    EXPECT_LE(steps, entries.size() + 5);
    EXPECT_TRUE(it->status().isOk() || it->status().code() == Status::Code::kCorruption);
    corruptions += it->status().code() == Status::Code::kCorruption;
    it->seek(entries[entries.size() / 3].key);
    it->seekToLastRowBefore(entries.back().key);
    (void)reader->verify(&m_source);
  }
  // Garbled bytes inside keys and values are beyond a checksum that passes;
  // garbled lengths and varints are caught by structure alone.
  EXPECT_GT(corruptions, 0);
  m_ws.setPage(id, 1, original);
  EXPECT_TRUE(reader->verify(&m_source).isOk());
}

// --- metadata --------------------------------------------------------------

class StoreFileMetaTest : public StoreFileFixture, public ::testing::Test {
 protected:
  std::string encodedMeta() {
    StoreFileOptions options;
    options.pageSize = 1024;
    const auto reader = write(manyEntries(300), options);
    return reader ? reader->meta().encode() : std::string();
  }
};

TEST_F(StoreFileMetaTest, RoundTripsEveryField) {
  const auto reader = write(edgeEntries(), {});
  ASSERT_NE(reader, nullptr);
  const StoreFileMeta& m = reader->meta();
  Result<StoreFileMeta> d = StoreFileMeta::decode(m.encode());
  ASSERT_TRUE(d.isOk()) << d.status().toString();
  EXPECT_EQ(d->cellCount, m.cellCount);
  EXPECT_EQ(d->deleteMarkerCount, m.deleteMarkerCount);
  EXPECT_EQ(d->rawBytes, m.rawBytes);
  EXPECT_EQ(d->storedBytes, m.storedBytes);
  EXPECT_EQ(d->pageCount, m.pageCount);
  EXPECT_EQ(m.pageBytes, format::kLeafPageBytes);
  EXPECT_EQ(d->pageBytes, m.pageBytes);
  EXPECT_EQ(d->firstKey, m.firstKey);
  EXPECT_EQ(d->lastKey, m.lastKey);
  EXPECT_EQ(d->minTimestamp, m.minTimestamp);
  EXPECT_EQ(d->maxTimestamp, m.maxTimestamp);
  EXPECT_EQ(d->bloomType, BloomType::kRow);
  EXPECT_EQ(d->bloom, m.bloom);
  EXPECT_EQ(d->indexBytes, m.indexBytes);
  ASSERT_EQ(d->blocks.size(), m.blocks.size());
  for (size_t i = 0; i < m.blocks.size(); ++i) {
    EXPECT_EQ(d->blocks.lastKey(i), m.blocks.lastKey(i));
    EXPECT_EQ(d->blocks[i].pageNo, m.blocks[i].pageNo);
    EXPECT_EQ(d->blocks[i].offset, m.blocks[i].offset);
    EXPECT_EQ(d->blocks[i].storedSize, m.blocks[i].storedSize);
    EXPECT_EQ(d->blocks[i].rawSize, m.blocks[i].rawSize);
  }
}

TEST_F(StoreFileMetaTest, RoundTripsTheDictionaryAndRefusesOneZstdCannotLoad) {
  StoreFileOptions options;
  options.compression = Compression::kZstd;
  options.dictionaryTrainBytes = 16 << 10;
  options.format = format::kMetaFormatDictionary;  // its pages read as format 3's too
  const auto reader = write(manyEntries(5000), options);
  ASSERT_NE(reader, nullptr);
  StoreFileMeta m = reader->meta();
  ASSERT_FALSE(m.dictionary.empty());
  Result<StoreFileMeta> d = StoreFileMeta::decode(m.encode());
  ASSERT_TRUE(d.isOk()) << d.status().toString();
  EXPECT_EQ(d->dictionary, m.dictionary);

  // Damage behind a valid checksum: no dictionary magic, damaged entropy
  // tables, or more than a writer makes.
  const std::string trained = m.dictionary;
  for (const std::string& bad : {std::string(64, 'x'), trained.substr(0, 12),
                                 std::string(format::kDictionaryMaxBytes + 1, '\x37')}) {
    m.dictionary = bad;
    const Status s = StoreFileMeta::decode(m.encode()).status();
    EXPECT_EQ(s.code(), Status::Code::kCorruption);
    EXPECT_NE(s.message().find("dictionary"), std::string::npos) << s.message();
  }
  // A format-3 blob has no dictionary field: its bytes are not read as one.
  m.format = format::kMetaFormatPlacedChecksums;
  m.dictionary.clear();
  Result<StoreFileMeta> older = StoreFileMeta::decode(m.encode());
  ASSERT_TRUE(older.isOk()) << older.status().toString();
  EXPECT_TRUE(older->dictionary.empty());
}

TEST_F(StoreFileMetaTest, EveryTruncationIsCorruption) {
  const std::string encoded = encodedMeta();
  ASSERT_FALSE(encoded.empty());
  for (size_t n = 0; n < encoded.size(); ++n) {
    EXPECT_EQ(StoreFileMeta::decode(encoded.substr(0, n)).status().code(), Status::Code::kCorruption) << n;
  }
}

TEST_F(StoreFileMetaTest, EveryFlippedBitIsCorruption) {
  const std::string encoded = encodedMeta();
  ASSERT_FALSE(encoded.empty());
  for (size_t at = 0; at < encoded.size(); ++at) {
    std::string damaged = encoded;
    damaged[at] = static_cast<char>(damaged[at] ^ (1 << (at % 8)));
    EXPECT_EQ(StoreFileMeta::decode(damaged).status().code(), Status::Code::kCorruption) << at;
  }
}

// Damage behind a recomputed checksum reaches the field checks: each decode
// must end in Corruption or in metadata that passes every check, never a crash
// (run under ASan+UBSan).
TEST_F(StoreFileMetaTest, GarbledBlobsBehindAValidChecksumNeverCrash) {
  const std::string encoded = encodedMeta();
  ASSERT_FALSE(encoded.empty());
  std::mt19937_64 rng(5);
  int rejected = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string damaged = encoded;
    switch (rng() % 3) {
      case 0:
        for (int f = 0; f < 3; ++f) damaged[8 + rng() % (damaged.size() - 8)] = static_cast<char>(rng());
        break;
      case 1:
        damaged.resize(9 + rng() % (damaged.size() - 9));
        break;
      default:
        damaged.insert(9 + rng() % (damaged.size() - 9), bytesOf(rng, 1 + rng() % 4));
        break;
    }
    format::storeBigEndian64(damaged.data(), XXH3_64bits(damaged.data() + 8, damaged.size() - 8));
    Result<StoreFileMeta> d = StoreFileMeta::decode(damaged);
    if (!d.isOk()) {
      EXPECT_EQ(d.status().code(), Status::Code::kCorruption);
      ++rejected;
    }
  }
  EXPECT_GT(rejected, 15000);
  std::string garbage = bytesOf(rng, 200);
  format::storeBigEndian64(garbage.data(), XXH3_64bits(garbage.data() + 8, garbage.size() - 8));
  EXPECT_EQ(StoreFileMeta::decode(garbage).status().code(), Status::Code::kCorruption);
  EXPECT_EQ(StoreFileMeta::decode("").status().code(), Status::Code::kCorruption);
}

}  // namespace
}  // namespace keyscope::engine
