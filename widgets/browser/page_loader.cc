// loadPage (see page_loader.h). Worker threads; no Qt.
#include "browser/page_loader.h"

#include <map>
#include <utility>

#include "keyscope/key_codec.h"
#include "keyscope/key_json.h"

namespace keyscope {

namespace {

// What one cell or row costs besides its bytes (vector slots, string
// headers): rough, but it keeps the byte budget honest for tiny values.
constexpr size_t kCellOverhead = 64;
constexpr size_t kRowOverhead = 96;

std::string componentText(const KeyComponent& component, const ComponentValue& value) {
  if (const auto* text = std::get_if<std::string>(&value)) {
    const bool readable =
        component.type == ComponentType::kUtf8 || component.type == ComponentType::kReverseDomain;
    return readable ? *text : toStringBinary(*text);
  }
  return valueToJson(component, value);
}

void decodeComponents(const KeySchema& schema, PageRow* row) {
  const DecodedKey decoded = decodeKey(schema, row->key);
  for (size_t i = 0; i < decoded.values.size() && i < schema.size(); ++i) {
    row->components.push_back(componentText(schema[i], decoded.values[i]));
    if (i < decoded.spans.size()) {
      row->componentSpans.emplace_back(static_cast<uint32_t>(decoded.spans[i].first),
                                       static_cast<uint32_t>(decoded.spans[i].second));
    }
  }
  if (decoded.error) row->decodeError = decoded.error->toString(schema);
}

using ColumnKey = std::pair<std::string, Bytes>;  // family, qualifier: sorts as HBase does

// Collapses a row's cells (column asc, timestamp desc) into one PageCell per
// column, numbering columns in order of first use in `columnIds`.
void collapseRow(const RowResult& result, std::map<ColumnKey, uint32_t>* columnIds, PageRow* row) {
  const Cell* previous = nullptr;
  for (const Cell& cell : result.cells) {
    if (previous && previous->family == cell.family && previous->qualifier == cell.qualifier) {
      ++row->cells.back().versions;  // an older version of the same column
      continue;
    }
    previous = &cell;
    const auto [it, inserted] = columnIds->try_emplace(ColumnKey{cell.family, cell.qualifier},
                                                       static_cast<uint32_t>(columnIds->size()));
    PageCell out;
    out.column = it->second;
    out.value = cell.value;
    out.timestamp = cell.timestamp;
    out.versions = 1;
    row->bytes += kCellOverhead + cell.value.size();
    row->cells.push_back(std::move(out));
  }
}

}  // namespace

RowRange effectiveRange(const BrowseQuery& query) {
  RowRange range{query.startRow, query.stopRow, false};
  if (!query.prefix.empty()) {
    ScanOptions prefixScan;
    prefixScan.setRowPrefix(query.prefix);
    if (prefixScan.startRow > range.start) range.start = prefixScan.startRow;
    if (!prefixScan.stopRow.empty() && (range.stop.empty() || prefixScan.stopRow < range.stop)) {
      range.stop = prefixScan.stopRow;
    }
  }
  range.isEmpty = !range.stop.empty() && range.start >= range.stop;
  return range;
}

ScanOptions pageScanOptions(const PageRequest& request) {
  const RowRange range = effectiveRange(request.query);
  ScanOptions scan;
  scan.startRow = range.start;
  scan.stopRow = range.stop;
  if (request.after && *request.after >= scan.startRow) {
    scan.startRow = *request.after;
    scan.startInclusive = false;
  }
  scan.maxVersions = kVersionsCounted;
  scan.now = request.query.now;
  // One row more than the page holds: if it comes, the page is not the end.
  scan.limit = static_cast<int64_t>(request.maxRows) + 1;
  return scan;
}

Result<RowPage> loadPage(const Workspace& ws, const PageRequest& request,
                         const CancelToken& cancel) {
  RowPage page;
  if (effectiveRange(request.query).isEmpty) {
    page.atEnd = true;
    return page;
  }
  Result<std::unique_ptr<Scanner>> scanner = ws.scan(request.query.table, pageScanOptions(request));
  if (!scanner) return scanner.status();

  std::map<ColumnKey, uint32_t> columnIds;  // column -> id in order of first use
  size_t cells = 0;
  size_t bytes = 0;
  RowResult result;
  bool more = false;
  while (scanner.value()->next(&result)) {
    if (cancel.cancelled()) return Status::cancelled("page load cancelled");
    const bool full =
        page.rows.size() >= request.maxRows ||
        (!page.rows.empty() && (cells >= request.maxCells || bytes >= request.maxBytes));
    if (full) {
      more = true;  // a row beyond the budget exists
      break;
    }
    PageRow row;
    row.key = result.row;
    row.bytes = kRowOverhead + row.key.size();
    if (request.query.keySchema) decodeComponents(*request.query.keySchema, &row);
    collapseRow(result, &columnIds, &row);
    cells += result.cells.size();
    bytes += row.bytes;
    page.cellsRead += result.cells.size();
    page.rows.push_back(std::move(row));
  }
  if (!scanner.value()->status().isOk()) return scanner.value()->status();
  page.atEnd = !more;

  // Column ids were handed out in order of first use; renumber them in
  // column order so the page's columns are sorted.
  std::vector<uint32_t> sortedId(columnIds.size());
  page.columns.reserve(columnIds.size());
  for (const auto& [column, id] : columnIds) {
    sortedId[id] = static_cast<uint32_t>(page.columns.size());
    page.columns.push_back(
        {column.first, column.second, column.first + ":" + toStringBinary(column.second)});
  }
  for (PageRow& row : page.rows) {
    for (PageCell& cell : row.cells) cell.column = sortedId[cell.column];
  }
  return page;
}

}  // namespace keyscope
