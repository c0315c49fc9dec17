// WorkspaceImpl: gets, scans and count.
#include <chrono>

#include "engine/internal_key.h"
#include "engine/region_reader.h"
#include "engine/table_scanner.h"
#include "engine/workspace_impl.h"

namespace keyscope::engine {

namespace {

Status checkReadOptions(const ReadOptions& options) {
  if (Status s = validateTimeRange(options.timeRange); !s) return s;
  for (const auto& [family, range] : options.familyTimeRanges) {
    if (Status s = validateTimeRange(range); !s) return Status::invalidArgument("family '" + family + "': " + s.message());
  }
  if (options.maxVersions < 1) return Status::invalidArgument("max versions must be at least 1");
  if (options.rowOffsetPerFamily < 0) return Status::invalidArgument("the row offset per family cannot be negative");
  return Status::ok();
}

}  // namespace

Result<GetResult> WorkspaceImpl::getFromTable(const Table& table, const GetOptions& options,
                                             const Region** visited) const {
  const auto started = std::chrono::steady_clock::now();
  if (options.row.empty()) return Status::invalidArgument("a get needs a row key");
  if (options.row.size() > kMaxRowKeySize) return Status::invalidArgument("row key longer than the limit");
  if (Status s = checkReadOptions(options); !s) return s;
  GetResult result;
  auto region = table.regionFor(options.row);
  if (region == nullptr) return result;
  if (visited != nullptr) *visited = region.get();
  LeasedPageSource pages(m_readers.get());
  ReadSettings settings;
  settings.options = &options;
  settings.now = options.now.value_or(now());
  settings.readPoint = m_readPoint.load(std::memory_order_acquire);
  settings.pages = &pages;
  settings.report = &result.report;
  settings.singleRow = true;
  settings.rowLimits = m_options.rowResultLimits;
  RegionReader reader(region, settings);
  const std::string rowKey = rowStartKey(options.row);
  std::string rowEnd = rowKey;
  toRowEndKey(&rowEnd);
  if (Status s = reader.open(rowKey, rowEnd, /*isGet=*/true); !s) return s;
  ++result.report.regionsVisited;
  reader.seekToGetRow();
  std::unique_ptr<Filter> filter = options.filter != nullptr ? options.filter->clone() : nullptr;
  if (filter == nullptr || !filter->filterAllRemaining()) {
    bool doneScan = false;
    if (Status s = readFilteredRow(reader, rowKey, filter.get(), &result.cells, &doneScan); !s) return s;
  }
  result.report.cellsReturned = result.cells.size();
  result.report.rowsReturned = result.cells.empty() ? 0 : 1;
  result.report.elapsedMicros =
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - started).count();
  return result;
}

Result<GetResult> WorkspaceImpl::get(std::string_view tableName, const GetOptions& options) const {
  Result<std::shared_ptr<const Table>> table = requireTable(tableName);
  if (!table) return table.status();
  const Region* region = nullptr;
  Result<GetResult> result = getFromTable(**table, options, &region);
  if (!result) return result;
  // A get counts as a read of its region whether or not it found the row.
  if (region != nullptr) {
    uint64_t bytes = 0;
    for (const Cell& cell : result->cells)
      bytes += cell.row.size() + cell.family.size() + cell.qualifier.size() + 8 + cell.value.size();
    const BytesView row(options.row);
    m_stats->recordReads({region->tableId, region->id, region->server.load(std::memory_order_relaxed)}, 1,
                         result->cells.size(), bytes, std::span<const BytesView>(&row, 1), now());
  }
  return result;
}

Result<std::unique_ptr<Scanner>> WorkspaceImpl::scan(std::string_view tableName, const ScanOptions& options) const {
  return scanTable(tableName, options, m_options.rowResultLimits);
}

Result<std::unique_ptr<Scanner>> WorkspaceImpl::scanTable(std::string_view tableName, const ScanOptions& options,
                                                          std::optional<RowResultLimits> rowLimits) const {
  Result<std::shared_ptr<const Table>> table = requireTable(tableName);
  if (!table) return table.status();
  if (Status s = checkReadOptions(options); !s) return s;
  if (options.startRow.size() > kMaxRowKeySize || options.stopRow.size() > kMaxRowKeySize)
    return Status::invalidArgument("start or stop row longer than the row key limit");
  if (options.batch == 0 || options.batch < -1) return Status::invalidArgument("batch must be a positive number of cells");
  if (options.limit < -1) return Status::invalidArgument("limit cannot be negative");
  if (options.batch > 0 && options.filter != nullptr && options.filter->clone()->hasFilterRow())
    return Status::invalidArgument("a scan batch cannot be combined with a filter that filters whole rows (" +
                                   options.filter->toString() + ")");
  for (const ColumnSelector& column : options.columns) {
    if ((*table)->options.family(column.family) == nullptr)
      return Status::invalidArgument("table '" + (*table)->options.name + "' has no column family '" + column.family + "'");
  }
  ScanEnvironment env;
  env.pool = m_readers.get();
  env.readahead = m_readahead.get();
  env.readPoint = [this] { return m_readPoint.load(std::memory_order_acquire); };
  env.now = now();
  env.stats = m_stats.get();
  env.clock = [this] { return now(); };
  env.rowLimits = rowLimits;
  return std::unique_ptr<Scanner>(std::make_unique<TableScanner>(*table, options, std::move(env)));
}

Result<uint64_t> WorkspaceImpl::count(std::string_view tableName, const ScanOptions& options) const {
  // Counting keeps no cells: a row of any size counts.
  Result<std::unique_ptr<Scanner>> scanner = scanTable(tableName, options, std::nullopt);
  if (!scanner) return scanner.status();
  uint64_t rows = 0;
  RowResult row;
  while ((*scanner)->next(&row)) {
    if (!row.mayHaveMoreCellsInRow) ++rows;
  }
  if (Status s = (*scanner)->status(); !s) return s;
  return rows;
}

}  // namespace keyscope::engine
