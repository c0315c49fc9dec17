// PrefixFilter, InclusiveStopFilter, PageFilter (see row_filters.h).
#include "filter/row_filters.h"

#include "filter/comparator.h"
#include "filter/filter_util.h"

namespace keyscope::filter {

std::string PrefixFilter::toString() const { return "PrefixFilter (" + quoted(m_prefix) + ")"; }

bool PrefixFilter::filterRowKey(BytesView row) {
  if (filterAllRemaining()) return true;
  if (row.size() < m_prefix.size()) return true;  // leaves m_filterRow as reset() set it
  const int cmp = compareBytes(row.substr(0, m_prefix.size()), m_prefix);
  // Rows past the prefix in the scan's direction end the scan.
  if ((!isReversed() && cmp > 0) || (isReversed() && cmp < 0)) m_passedPrefix = true;
  m_filterRow = cmp != 0;
  return m_filterRow;
}

FilterCode PrefixFilter::filterCell(const CellRef& /*cell*/) {
  return m_filterRow ? FilterCode::kNextRow : FilterCode::kInclude;
}

std::string InclusiveStopFilter::toString() const { return "InclusiveStopFilter (" + quoted(m_stopRow) + ")"; }

bool InclusiveStopFilter::filterRowKey(BytesView row) {
  if (filterAllRemaining()) return true;
  const int cmp = compareBytes(row, m_stopRow);
  m_done = isReversed() ? cmp < 0 : cmp > 0;
  return m_done;
}

FilterCode InclusiveStopFilter::filterCell(const CellRef& /*cell*/) {
  return m_done ? FilterCode::kNextRow : FilterCode::kInclude;
}

std::string PageFilter::toString() const { return "PageFilter (" + std::to_string(m_pageSize) + ")"; }

bool PageFilter::filterRow() {
  ++m_rowsAccepted;
  return m_rowsAccepted > m_pageSize;
}

}  // namespace keyscope::filter
