// fetchHistory (see history_fetch.h). Worker threads; no widgets.
#include "history/history_fetch.h"

#include <limits>
#include <utility>

namespace keyscope {

namespace {

// Cells per scanner result: a family of a row can hold far more versions
// than fit one result comfortably.
constexpr int32_t kRawBatch = 1000;

bool wanted(const Cell& cell, const HistoryRequest& request) {
  return !request.qualifier || isFamilyDeleteType(cell.type) || cell.qualifier == *request.qualifier;
}

}  // namespace

Result<HistoryResult> fetchHistory(const Workspace& ws, const HistoryRequest& request,
                                   const CancelToken& cancel) {
  Result<TableOptions> table = ws.describeTable(request.table);
  if (!table) return table.status();
  const FamilyOptions* family = table.value().family(request.family);
  if (!family) {
    return Status::notFound("table '" + request.table + "' has no family '" + request.family + "'");
  }

  HistoryResult result;
  HistoryInput& input = result.input;
  input.family = *family;
  input.qualifier = request.qualifier;
  input.now = request.asOf.value_or(ws.now());
  if (request.get) {
    input.get = *request.get;
  } else {
    input.get.maxVersions = family->maxVersions;
  }

  // The RAW read: the row's whole family (family markers have an empty
  // qualifier, so a read of one column would miss them), every version.
  ScanOptions raw;
  raw.startRow = request.row;
  raw.stopRow = request.row;
  raw.stopInclusive = true;
  raw.raw = true;
  raw.columns = {{request.family, std::nullopt}};
  raw.maxVersions = std::numeric_limits<int32_t>::max();
  raw.batch = kRawBatch;
  raw.now = request.asOf;
  Result<std::unique_ptr<Scanner>> scanner = ws.scan(request.table, raw);
  if (!scanner) return scanner.status();
  RowResult row;
  while (scanner.value()->next(&row)) {
    if (cancel.cancelled()) return Status::cancelled("cell history cancelled");
    for (Cell& cell : row.cells) {
      if (!wanted(cell, request)) continue;
      if (input.raw.size() >= kMaxHistoryCells) {
        result.truncated = true;
        break;
      }
      input.raw.push_back(std::move(cell));
    }
    if (result.truncated) break;
  }
  if (!result.truncated && !scanner.value()->status().isOk()) return scanner.value()->status();
  scanner.value().reset();

  // The get the history explains, as the user would run it.
  GetOptions get;
  get.row = request.row;
  get.columns = {{request.family, request.qualifier}};
  get.timeRange = input.get.effectiveRange();
  get.maxVersions = input.get.maxVersions;
  get.now = request.asOf;
  Result<GetResult> got = ws.get(request.table, get);
  if (!got) return got.status();
  input.returned = std::move(got.value().cells);

  if (cancel.cancelled()) return Status::cancelled("cell history cancelled");
  result.layout = layoutHistory(input);
  return result;
}

}  // namespace keyscope
