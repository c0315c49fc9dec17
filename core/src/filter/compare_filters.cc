// RowFilter, FamilyFilter, QualifierFilter, ValueFilter (see compare_filters.h),
// after HBase 2's CompareFilter.java and the four subclasses.
#include "filter/compare_filters.h"

#include "filter/filter_util.h"

namespace keyscope::filter {

bool compareFilterOut(CompareOp op, const ByteComparator& comparator, BytesView bytes) {
  if (op == CompareOp::kNoOp) return true;  // CompareFilter.compareRow & co.
  const int compareResult = comparator.compareTo(bytes);
  switch (op) {  // CompareFilter.compare, verbatim
    case CompareOp::kLess: return compareResult <= 0;
    case CompareOp::kLessOrEqual: return compareResult < 0;
    case CompareOp::kEqual: return compareResult != 0;
    case CompareOp::kNotEqual: return compareResult == 0;
    case CompareOp::kGreaterOrEqual: return compareResult > 0;
    case CompareOp::kGreater: return compareResult >= 0;
    case CompareOp::kNoOp: return true;
  }
  return true;
}

std::string CompareFilter::describe(const char* name) const {
  return std::string(name) + " (" + compareOpSymbol(m_op) + ", " + quoted(m_comparator.spec()) + ")";
}

std::unique_ptr<Filter> RowFilter::clone() const { return std::make_unique<RowFilter>(op(), comparator()); }

bool RowFilter::filterRowKey(BytesView row) {
  if (filtersOut(row)) m_filterOutRow = true;
  return m_filterOutRow;
}

FilterCode RowFilter::filterCell(const CellRef& /*cell*/) {
  return m_filterOutRow ? FilterCode::kNextRow : FilterCode::kInclude;
}

std::unique_ptr<Filter> FamilyFilter::clone() const { return std::make_unique<FamilyFilter>(op(), comparator()); }

FilterCode FamilyFilter::filterCell(const CellRef& cell) {
  if (!cell.family.empty() && filtersOut(cell.family)) return FilterCode::kNextRow;
  return FilterCode::kInclude;
}

std::unique_ptr<Filter> QualifierFilter::clone() const {
  return std::make_unique<QualifierFilter>(op(), comparator());
}

FilterCode QualifierFilter::filterCell(const CellRef& cell) {
  return filtersOut(cell.qualifier) ? FilterCode::kSkip : FilterCode::kInclude;
}

std::unique_ptr<Filter> ValueFilter::clone() const { return std::make_unique<ValueFilter>(op(), comparator()); }

FilterCode ValueFilter::filterCell(const CellRef& cell) {
  return filtersOut(cell.value) ? FilterCode::kSkip : FilterCode::kInclude;
}

}  // namespace keyscope::filter
