// Column selection filters (see column_filters.h).
#include "filter/column_filters.h"

#include <iterator>

#include "filter/comparator.h"
#include "filter/filter_util.h"

namespace keyscope::filter {

// ---- ColumnPrefixFilter ----------------------------------------------------

std::string ColumnPrefixFilter::toString() const { return "ColumnPrefixFilter (" + quoted(m_prefix) + ")"; }

FilterCode ColumnPrefixFilter::filterCell(const CellRef& cell) {
  const BytesView q = cell.qualifier;
  if (q.size() < m_prefix.size()) {
    // Compares the qualifier with as many bytes of the prefix.
    const int cmp = compareBytes(q, BytesView(m_prefix).substr(0, q.size()));
    return cmp <= 0 ? FilterCode::kSeekNextUsingHint : FilterCode::kNextRow;
  }
  const int cmp = compareBytes(q.substr(0, m_prefix.size()), m_prefix);
  if (cmp < 0) return FilterCode::kSeekNextUsingHint;
  if (cmp > 0) return FilterCode::kNextRow;
  return FilterCode::kInclude;
}

std::optional<SeekHint> ColumnPrefixFilter::getNextCellHint(const CellRef& cell) {
  return columnHint(cell.family, m_prefix);
}

// ---- MultipleColumnPrefixFilter --------------------------------------------

std::string MultipleColumnPrefixFilter::toString() const {
  std::string out = "MultipleColumnPrefixFilter (";
  bool first = true;
  for (const Bytes& p : m_prefixes) {
    if (!first) out += ", ";
    out += quoted(p);
    first = false;
  }
  return out + ")";
}

FilterCode MultipleColumnPrefixFilter::filterCell(const CellRef& cell) {
  if (m_prefixes.empty()) return FilterCode::kInclude;
  const Bytes qualifier(cell.qualifier);
  auto above = m_prefixes.upper_bound(qualifier);  // first prefix > qualifier
  if (above == m_prefixes.begin()) {               // no prefix <= qualifier
    m_hint = *m_prefixes.begin();
    return FilterCode::kSeekNextUsingHint;
  }
  const Bytes& largestLessOrEqual = *std::prev(above);
  if (qualifier.compare(0, largestLessOrEqual.size(), largestLessOrEqual) == 0 &&
      qualifier.size() >= largestLessOrEqual.size()) {
    return FilterCode::kInclude;
  }
  if (above == m_prefixes.end()) return FilterCode::kNextRow;
  m_hint = *above;
  return FilterCode::kSeekNextUsingHint;
}

std::optional<SeekHint> MultipleColumnPrefixFilter::getNextCellHint(const CellRef& cell) {
  return columnHint(cell.family, m_hint);
}

// ---- ColumnRangeFilter -----------------------------------------------------

std::string ColumnRangeFilter::toString() const {
  // An empty column in the language means "unbounded", as in HBase's parser.
  return "ColumnRangeFilter (" + quoted(m_min.value_or("")) + ", " + (m_minInclusive ? "true" : "false") + ", " +
         quoted(m_max.value_or("")) + ", " + (m_maxInclusive ? "true" : "false") + ")";
}

FilterCode ColumnRangeFilter::filterCell(const CellRef& cell) {
  int cmpMin = 1;
  if (m_min) cmpMin = compareBytes(cell.qualifier, *m_min);
  if (cmpMin < 0) return FilterCode::kSeekNextUsingHint;
  if (!m_minInclusive && cmpMin == 0) return FilterCode::kNextCol;
  if (!m_max) return FilterCode::kInclude;
  const int cmpMax = compareBytes(cell.qualifier, *m_max);
  if ((m_maxInclusive && cmpMax <= 0) || (!m_maxInclusive && cmpMax < 0)) return FilterCode::kInclude;
  return FilterCode::kNextRow;
}

std::optional<SeekHint> ColumnRangeFilter::getNextCellHint(const CellRef& cell) {
  return columnHint(cell.family, m_min.value_or(""));
}

// ---- ColumnCountGetFilter --------------------------------------------------

std::string ColumnCountGetFilter::toString() const {
  return "ColumnCountGetFilter (" + std::to_string(m_limit) + ")";
}

FilterCode ColumnCountGetFilter::filterCell(const CellRef& /*cell*/) {
  ++m_count;
  return filterAllRemaining() ? FilterCode::kNextCol : FilterCode::kIncludeAndNextCol;
}

// ---- ColumnPaginationFilter ------------------------------------------------

std::unique_ptr<Filter> ColumnPaginationFilter::clone() const {
  if (m_columnOffset) return std::make_unique<ColumnPaginationFilter>(m_limit, *m_columnOffset);
  return std::make_unique<ColumnPaginationFilter>(m_limit, m_offset);
}

std::string ColumnPaginationFilter::toString() const {
  // The column-offset form is Keyscope's: HBase's parser reads only (limit, offset).
  return "ColumnPaginationFilter (" + std::to_string(m_limit) + ", " +
         (m_columnOffset ? quoted(*m_columnOffset) : std::to_string(m_offset)) + ")";
}

FilterCode ColumnPaginationFilter::filterCell(const CellRef& cell) {
  if (m_columnOffset) {
    if (m_count >= m_limit) return FilterCode::kNextRow;
    // Only the first column of the row is compared with the offset.
    const int cmp = m_count == 0 ? compareBytes(cell.qualifier, *m_columnOffset) : 0;
    if (cmp < 0) return FilterCode::kSeekNextUsingHint;
    ++m_count;
    return FilterCode::kIncludeAndNextCol;
  }
  if (m_count >= int64_t{m_offset} + m_limit) return FilterCode::kNextRow;
  const FilterCode code = m_count < m_offset ? FilterCode::kNextCol : FilterCode::kIncludeAndNextCol;
  ++m_count;
  return code;
}

std::optional<SeekHint> ColumnPaginationFilter::getNextCellHint(const CellRef& cell) {
  if (!m_columnOffset) return std::nullopt;
  return columnHint(cell.family, *m_columnOffset);
}

}  // namespace keyscope::filter
