#include "engine_test_util.h"

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

void EngineFixture::flush(const std::string& table) {
  const Status s = m_ws->flush(table);
  ASSERT_TRUE(s.isOk()) << s.toString();
}

void EngineFixture::majorCompact(const std::string& table) {
  const Status s = m_ws->compact(table, true);
  ASSERT_TRUE(s.isOk()) << s.toString();
}

}  // namespace keyscope::test
