// SingleColumnValueFilter, SingleColumnValueExcludeFilter, DependentColumnFilter
// (see value_filters.h).
#include "filter/value_filters.h"

#include <algorithm>

#include "filter/compare_filters.h"
#include "filter/filter_util.h"

namespace keyscope::filter {

// ---- SingleColumnValueFilter -----------------------------------------------

std::unique_ptr<Filter> SingleColumnValueFilter::clone() const {
  return std::make_unique<SingleColumnValueFilter>(m_family, m_qualifier, m_op, m_comparator,
                                                   m_filterIfMissing, m_latestVersionOnly);
}

std::string SingleColumnValueFilter::describe(const char* name) const {
  std::string out = std::string(name) + " (" + quoted(m_family) + ", " + quoted(m_qualifier) + ", " +
                    compareOpSymbol(m_op) + ", " + quoted(m_comparator.spec());
  if (m_filterIfMissing || !m_latestVersionOnly) {
    out += m_filterIfMissing ? ", true" : ", false";
    out += m_latestVersionOnly ? ", true" : ", false";
  }
  return out + ")";
}

FilterCode SingleColumnValueFilter::filterCell(const CellRef& cell) {
  if (m_matchedColumn) return FilterCode::kInclude;  // found and matched: the rest passes
  if (m_latestVersionOnly && m_foundColumn) return FilterCode::kNextRow;  // found, did not match
  if (!matchingColumn(cell, m_family, m_qualifier)) return FilterCode::kInclude;
  m_foundColumn = true;
  if (compareFilterOut(m_op, m_comparator, cell.value)) {
    return m_latestVersionOnly ? FilterCode::kNextRow : FilterCode::kInclude;
  }
  m_matchedColumn = true;
  return FilterCode::kInclude;
}

// ---- SingleColumnValueExcludeFilter ----------------------------------------

std::unique_ptr<Filter> SingleColumnValueExcludeFilter::clone() const {
  return std::make_unique<SingleColumnValueExcludeFilter>(family(), qualifier(), op(), comparator(),
                                                          filterIfMissing(), latestVersionOnly());
}

void SingleColumnValueExcludeFilter::filterRowCells(std::vector<Cell>& cells) {
  std::erase_if(cells, [&](const Cell& c) { return c.family == family() && c.qualifier == qualifier(); });
}

// ---- DependentColumnFilter -------------------------------------------------

std::unique_ptr<Filter> DependentColumnFilter::clone() const {
  return std::make_unique<DependentColumnFilter>(m_family, m_qualifier, m_dropDependentColumn, m_test);
}

std::string DependentColumnFilter::toString() const {
  std::string out = "DependentColumnFilter (" + quoted(m_family) + ", " + quoted(m_qualifier);
  if (m_dropDependentColumn || m_test) out += m_dropDependentColumn ? ", true" : ", false";
  if (m_test) out += std::string(", ") + compareOpSymbol(m_test->op) + ", " + quoted(m_test->comparator.spec());
  return out + ")";
}

FilterCode DependentColumnFilter::filterCell(const CellRef& cell) {
  // Other columns are included for now; filterRowCells drops the unmatched ones.
  if (!matchingColumn(cell, m_family, m_qualifier)) return FilterCode::kInclude;
  if (m_test && compareFilterOut(m_test->op, m_test->comparator, cell.value)) return FilterCode::kSkip;
  m_stamps.insert(cell.timestamp);
  return m_dropDependentColumn ? FilterCode::kSkip : FilterCode::kInclude;
}

void DependentColumnFilter::filterRowCells(std::vector<Cell>& cells) {
  std::erase_if(cells, [&](const Cell& c) { return m_stamps.count(c.timestamp) == 0; });
}

}  // namespace keyscope::filter
