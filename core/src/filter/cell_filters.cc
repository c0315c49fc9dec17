// KeyOnlyFilter, FirstKeyOnlyFilter, TimestampsFilter (see cell_filters.h).
#include "filter/cell_filters.h"

#include <limits>

#include "filter/filter_util.h"

namespace keyscope::filter {

std::string KeyOnlyFilter::toString() const {
  return m_lenAsVal ? "KeyOnlyFilter (true)" : "KeyOnlyFilter ()";
}

void KeyOnlyFilter::transformCell(Cell& cell) const {
  if (!m_lenAsVal) {
    cell.value.clear();
    return;
  }
  // Bytes.toBytes(int valueLength). Values are far below 2 GiB (HBase caps a
  // cell at hbase.client.keyvalue.maxsize), so the length fits.
  const auto len = static_cast<uint32_t>(cell.value.size());
  Bytes v(4, '\0');
  for (int i = 0; i < 4; ++i) v[static_cast<size_t>(i)] = static_cast<char>((len >> (24 - 8 * i)) & 0xFF);
  cell.value = std::move(v);
}

FilterCode FirstKeyOnlyFilter::filterCell(const CellRef& /*cell*/) {
  if (m_foundKV) return FilterCode::kNextRow;
  m_foundKV = true;
  return FilterCode::kInclude;
}

TimestampsFilter::TimestampsFilter(const std::vector<int64_t>& timestamps, bool canHint)
    : m_timestamps(timestamps.begin(), timestamps.end()),
      m_canHint(canHint),
      m_minTimestamp(m_timestamps.empty() ? std::numeric_limits<int64_t>::max() : *m_timestamps.begin()) {}

std::string TimestampsFilter::toString() const {
  std::string out = "TimestampsFilter (";
  bool first = true;
  for (int64_t ts : m_timestamps) {
    if (!first) out += ", ";
    out += std::to_string(ts);
    first = false;
  }
  if (m_canHint) out += first ? "true" : ", true";
  return out + ")";
}

FilterCode TimestampsFilter::filterCell(const CellRef& cell) {
  if (m_timestamps.count(cell.timestamp) != 0) return FilterCode::kInclude;
  // The remaining versions of this column are older than every wanted timestamp.
  if (cell.timestamp < m_minTimestamp) return FilterCode::kNextCol;
  return m_canHint ? FilterCode::kSeekNextUsingHint : FilterCode::kSkip;
}

std::optional<SeekHint> TimestampsFilter::getNextCellHint(const CellRef& cell) {
  if (!m_canHint) return std::nullopt;
  auto it = m_timestamps.lower_bound(cell.timestamp);  // first >= ts; the one before is lower()
  if (it == m_timestamps.begin()) {
    // No wanted timestamp below this cell: past the last version of the column.
    return columnHint(cell.family, Bytes(cell.qualifier) + '\0');
  }
  return std::nullopt;
}

}  // namespace keyscope::filter
