// SkipFilter and WhileMatchFilter (see wrapper_filters.h).
#include "filter/wrapper_filters.h"

namespace keyscope::filter {

void SkipFilter::reset() {
  m_filter->reset();
  m_filterRow = false;
}

FilterCode SkipFilter::filterCell(const CellRef& cell) {
  const FilterCode rc = m_filter->filterCell(cell);
  m_filterRow = m_filterRow || rc != FilterCode::kInclude;
  return rc;
}

bool WhileMatchFilter::filterRowKey(BytesView row) {
  if (filterAllRemaining()) return true;
  const bool value = m_filter->filterRowKey(row);
  m_filterAllRemaining = m_filterAllRemaining || value;
  return value;
}

FilterCode WhileMatchFilter::filterCell(const CellRef& cell) {
  const FilterCode rc = m_filter->filterCell(cell);
  m_filterAllRemaining = m_filterAllRemaining || rc != FilterCode::kInclude;
  return rc;
}

bool WhileMatchFilter::filterRow() {
  const bool filterRow = m_filter->filterRow();
  m_filterAllRemaining = m_filterAllRemaining || filterRow;
  return filterRow;
}

}  // namespace keyscope::filter
