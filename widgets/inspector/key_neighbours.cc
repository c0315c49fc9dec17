// Key neighbours (see key_neighbours.h). Worker threads; no Qt.
#include "inspector/key_neighbours.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "keyscope/filter.h"

namespace keyscope {

namespace {

// Only row keys are wanted: one cell per row, without its value.
ScanOptions keysOnlyScan() {
  ScanOptions options;
  static const std::shared_ptr<const Filter> kKeysOnly = [] {
    Result<std::shared_ptr<const Filter>> filter =
        parseFilter("FirstKeyOnlyFilter () AND KeyOnlyFilter ()");
    return filter ? filter.value() : nullptr;  // a parse failure only costs the values
  }();
  options.filter = kKeysOnly;
  options.cacheBlocks = false;  // a glance at a few rows should not evict the browser's pages
  return options;
}

// Reads up to `limit` row keys of `options`' scan (limit applied here, plus
// one to learn whether more follow).
Status readKeys(const Workspace& ws, const std::string& table, ScanOptions options,
                size_t limit, const CancelToken* cancel, std::vector<Bytes>* keys, bool* more) {
  options.limit = static_cast<int64_t>(limit) + 1;
  Result<std::unique_ptr<Scanner>> scanner = ws.scan(table, options);
  if (!scanner) return scanner.status();
  RowResult row;
  *more = false;
  while ((*scanner)->next(&row)) {
    if (cancel != nullptr && cancel->cancelled()) return Status::cancelled("cancelled");
    if (keys->size() == limit) {
      *more = true;
      break;
    }
    keys->push_back(row.row);
  }
  return (*scanner)->status();
}

}  // namespace

Result<KeyNeighbours> readKeyNeighbours(const Workspace& ws, const std::string& table,
                                        const Bytes& key, int perSide, const CancelToken* cancel) {
  KeyNeighbours out;
  out.key = key;
  const size_t count = static_cast<size_t>(std::max(perSide, 0));

  // Before: a reversed scan from the key, exclusive. An empty start would
  // mean "from the table's end", but nothing sorts before the empty key.
  if (key.empty()) {
    out.atStart = true;
  } else {
    ScanOptions reverse = keysOnlyScan();
    reverse.reversed = true;
    reverse.startRow = key;
    reverse.startInclusive = false;
    bool more = false;
    Status status = readKeys(ws, table, reverse, count, cancel, &out.before, &more);
    if (!status.isOk()) return status;
    std::reverse(out.before.begin(), out.before.end());
    out.atStart = !more;
  }

  // The key itself and after: a forward scan from the key, inclusive.
  ScanOptions forward = keysOnlyScan();
  forward.startRow = key;
  forward.startInclusive = true;
  bool more = false;
  Status status = readKeys(ws, table, forward, count + 1, cancel, &out.after, &more);
  if (!status.isOk()) return status;
  if (!out.after.empty() && out.after.front() == key) {
    out.present = true;
    out.after.erase(out.after.begin());
  } else if (out.after.size() > count) {
    out.after.pop_back();  // read one more for the key itself, which is absent
    more = true;
  }
  out.atEnd = !more;
  return out;
}

Result<std::optional<Bytes>> readFirstRowKey(const Workspace& ws, const std::string& table,
                                             const CancelToken* cancel) {
  std::vector<Bytes> keys;
  bool more = false;
  Status status = readKeys(ws, table, keysOnlyScan(), 1, cancel, &keys, &more);
  if (!status.isOk()) return status;
  if (keys.empty()) return std::optional<Bytes>();
  return std::optional<Bytes>(std::move(keys.front()));
}

std::optional<size_t> firstDifference(BytesView a, BytesView b) {
  const size_t common = std::min(a.size(), b.size());
  for (size_t i = 0; i < common; ++i) {
    if (a[i] != b[i]) return i;
  }
  if (a.size() == b.size()) return std::nullopt;
  return common;
}

}  // namespace keyscope
