#include "engine_test_util.h"

#include <limits>
#include <random>

namespace keyscope::test {

TempDir::TempDir() {
  std::random_device rd;
  m_path = std::filesystem::temp_directory_path() / ("keyscope-test-" + std::to_string(rd()) + std::to_string(rd()));
  std::filesystem::create_directories(m_path);
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(m_path, ec);
}

std::vector<std::string> describe(const std::vector<Cell>& cells) {
  std::vector<std::string> out;
  for (const Cell& c : cells) {
    out.push_back(std::to_string(c.timestamp) + ":" + (c.type == CellType::kPut ? c.value : cellTypeName(c.type)));
  }
  return out;
}

std::vector<std::string> describeFull(const std::vector<Cell>& cells) {
  std::vector<std::string> out;
  for (const Cell& c : cells) {
    out.push_back(c.row + "/" + c.family + ":" + c.qualifier + "@" + std::to_string(c.timestamp) + "=" +
                  (c.type == CellType::kPut ? c.value : cellTypeName(c.type)));
  }
  return out;
}

ColumnSelector column(const std::string& spec) {
  const size_t colon = spec.find(':');
  if (colon == std::string::npos) return {spec, std::nullopt};
  return {spec.substr(0, colon), spec.substr(colon + 1)};
}

EngineFixture::EngineFixture(const OpenOptions& options) : m_options(options) { reopen(); }

void EngineFixture::reopen() {
  m_ws.reset();
  auto ws = Workspace::open(path(), m_options);
  if (!ws) ADD_FAILURE() << ws.status().toString();
  m_ws = std::move(ws).value();
}

void EngineFixture::createTable(const std::string& table, std::vector<FamilyOptions> families) {
  TableOptions options;
  options.name = table;
  options.families = std::move(families);
  const Status s = m_ws->createTable(options);
  ASSERT_TRUE(s.isOk()) << s.toString();
}

void EngineFixture::put(const std::string& table, const std::string& row, const std::string& spec, int64_t ts,
                        const std::string& value) {
  const ColumnSelector c = column(spec);
  const Status s = m_ws->put(table, Put{row, {PutCell{c.family, c.qualifier.value_or(""), ts, value}}});
  ASSERT_TRUE(s.isOk()) << s.toString();
}

void EngineFixture::putNow(const std::string& table, const std::string& row, const std::string& spec,
                           const std::string& value) {
  put(table, row, spec, kLatestTimestamp, value);
}

void EngineFixture::deleteCells(const std::string& table, const std::string& row, DeleteScope scope,
                                const std::string& spec, int64_t ts) {
  const ColumnSelector c = column(spec);
  Delete del;
  del.row = row;
  del.specs.push_back(DeleteSpec{scope, c.family, c.qualifier.value_or(""), ts});
  const Status s = m_ws->remove(table, del);
  ASSERT_TRUE(s.isOk()) << s.toString();
}

void EngineFixture::deleteRow(const std::string& table, const std::string& row, int64_t ts) {
  Delete del;
  del.row = row;
  del.timestamp = ts;
  const Status s = m_ws->remove(table, del);
  ASSERT_TRUE(s.isOk()) << s.toString();
}

std::vector<Cell> EngineFixture::get(const std::string& table, GetOptions options) {
  auto result = m_ws->get(table, options);
  if (!result) {
    ADD_FAILURE() << result.status().toString();
    return {};
  }
  return result->cells;
}

std::vector<Cell> EngineFixture::getColumn(const std::string& table, const std::string& row, const std::string& spec,
                                           int32_t versions, TimeRange range) {
  GetOptions options;
  options.row = row;
  options.columns = {column(spec)};
  options.maxVersions = versions;
  options.timeRange = range;
  return get(table, options);
}

std::vector<RowResult> EngineFixture::scan(const std::string& table, const ScanOptions& options) {
  std::vector<RowResult> rows;
  auto scanner = m_ws->scan(table, options);
  if (!scanner) {
    ADD_FAILURE() << scanner.status().toString();
    return rows;
  }
  RowResult row;
  while ((*scanner)->next(&row)) rows.push_back(row);
  if (!(*scanner)->status()) ADD_FAILURE() << (*scanner)->status().toString();
  return rows;
}

std::vector<std::string> EngineFixture::scanRows(const std::string& table, const ScanOptions& options) {
  std::vector<std::string> rows;
  for (const RowResult& r : scan(table, options)) rows.push_back(r.row);
  return rows;
}

std::vector<Cell> EngineFixture::scanCells(const std::string& table, const ScanOptions& options) {
  std::vector<Cell> cells;
  for (const RowResult& r : scan(table, options)) cells.insert(cells.end(), r.cells.begin(), r.cells.end());
  return cells;
}

std::vector<Cell> EngineFixture::rawCells(const std::string& table, TimeRange range) {
  ScanOptions options;
  options.raw = true;
  options.maxVersions = std::numeric_limits<int32_t>::max();
  options.timeRange = range;
  return scanCells(table, options);
}

void EngineFixture::deleteSpecs(const std::string& table, const std::string& row, std::vector<DeleteSpec> specs) {
  Delete del;
  del.row = row;
  del.specs = std::move(specs);
  const Status s = m_ws->remove(table, del);
  ASSERT_TRUE(s.isOk()) << s.toString();
}

size_t EngineFixture::storeFileCount(const std::string& table) {
  auto files = m_ws->storeFiles(table);
  if (!files) {
    ADD_FAILURE() << files.status().toString();
    return 0;
  }
  return files->size();
}

void EngineFixture::createTableWithSplits(const std::string& table, std::vector<FamilyOptions> families,
                                          const std::vector<Bytes>& splits) {
  TableOptions options;
  options.name = table;
  options.families = std::move(families);
  const Status s = m_ws->createTable(options, splits);
  ASSERT_TRUE(s.isOk()) << s.toString();
}

void EngineFixture::flush(const std::string& table) {
  const Status s = m_ws->flush(table);
  ASSERT_TRUE(s.isOk()) << s.toString();
}

void EngineFixture::majorCompact(const std::string& table) {
  const Status s = m_ws->compact(table, true);
  ASSERT_TRUE(s.isOk()) << s.toString();
}

FamilyBuilder familyOf(const std::string& name) {
  FamilyBuilder b;
  b.options.name = name;
  return b;
}

FamilyOptions StorageCase::apply(FamilyOptions family) const {
  family.compression = compression;
  family.blockSize = blockSize;
  return family;
}

std::string StorageCase::name() const {
  static const char* const kStorage[] = {"Memstore", "Flushed", "FlushedTwice", "MajorCompacted", "Split"};
  return std::string(compression == Compression::kZstd ? "Zstd" : "None") + "_" + std::to_string(blockSize / 1024) +
         "KiB_" + kStorage[static_cast<int>(storage)];
}

std::vector<StorageCase> allStorageCases() {
  std::vector<StorageCase> cases;
  for (Compression c : {Compression::kNone, Compression::kZstd}) {
    for (uint32_t blockSize : {1024u, 65536u}) {
      for (Storage s : {Storage::kMemstore, Storage::kFlushed, Storage::kFlushedTwice, Storage::kMajorCompacted,
                        Storage::kSplit})
        cases.push_back({c, blockSize, s});
    }
  }
  return cases;
}

std::string storageCaseName(const ::testing::TestParamInfo<StorageCase>& info) { return info.param.name(); }

void PrintTo(const StorageCase& c, std::ostream* os) { *os << c.name(); }

namespace {
OpenOptions noBackgroundCompaction() {
  OpenOptions options;
  options.backgroundCompaction = false;
  return options;
}
}  // namespace

StorageTest::StorageTest() : m_fx(std::make_unique<EngineFixture>(noBackgroundCompaction())) {}

void StorageTest::createTable(const std::string& table, std::vector<FamilyOptions> families) {
  for (FamilyOptions& f : families) f = GetParam().apply(std::move(f));
  m_fx->createTable(table, std::move(families));
}

void StorageTest::afterPhase(const std::string& table, int phase) {
  switch (GetParam().storage) {
    case Storage::kMemstore:
      break;
    case Storage::kFlushed:
      if (phase == 2) m_fx->flush(table);
      break;
    case Storage::kFlushedTwice:
      m_fx->flush(table);
      break;
    case Storage::kMajorCompacted:
      m_fx->flush(table);
      if (phase == 2) m_fx->majorCompact(table);
      break;
    case Storage::kSplit:
      m_fx->flush(table);
      if (phase == 2) {
        // At the mid key when the table has rows enough, and at "m", so the
        // test's rows are read from daughters whatever they are; a split
        // that cannot happen (one row; "m" already a boundary) is skipped.
        (void)m_fx->ws().split(table);
        (void)m_fx->ws().split(table, Bytes("m"));
      }
      break;
  }
}

Bytes longBytes(int64_t value) {
  Bytes out(8, '\0');
  auto u = static_cast<uint64_t>(value);
  for (int i = 7; i >= 0; --i) {
    out[static_cast<size_t>(i)] = static_cast<char>(u & 0xff);
    u >>= 8;
  }
  return out;
}

int64_t longValue(BytesView bytes) {
  uint64_t x = 0;
  for (char c : bytes) x = (x << 8) | static_cast<uint8_t>(c);
  return static_cast<int64_t>(x);
}

}  // namespace keyscope::test
