// FilterList (see filter_list.h), after HBase 2's FilterListBase,
// FilterListWithAND and FilterListWithOR.
#include "filter/filter_list.h"

#include "filter/filter_util.h"

namespace keyscope::filter {

namespace {

using RC = FilterCode;

bool isInclude(RC rc) { return rc == RC::kInclude || rc == RC::kIncludeAndNextCol || rc == RC::kIncludeAndSeekNextRow; }

template <typename... Codes>
bool isIn(RC rc, Codes... codes) {
  return ((rc == codes) || ...);
}

// FilterListWithAND.mergeReturnCode: the maximal step.
RC mergeAnd(RC rc, RC local) {
  if (rc == RC::kSeekNextUsingHint) return RC::kSeekNextUsingHint;
  switch (local) {
    case RC::kSeekNextUsingHint: return RC::kSeekNextUsingHint;
    case RC::kInclude: return rc;
    case RC::kIncludeAndNextCol:
      if (isIn(rc, RC::kInclude, RC::kIncludeAndNextCol)) return RC::kIncludeAndNextCol;
      if (isIn(rc, RC::kIncludeAndSeekNextRow)) return RC::kIncludeAndSeekNextRow;
      if (isIn(rc, RC::kSkip, RC::kNextCol)) return RC::kNextCol;
      return RC::kNextRow;
    case RC::kIncludeAndSeekNextRow:
      if (isIn(rc, RC::kInclude, RC::kIncludeAndNextCol, RC::kIncludeAndSeekNextRow)) {
        return RC::kIncludeAndSeekNextRow;
      }
      return RC::kNextRow;
    case RC::kSkip:
      if (isIn(rc, RC::kInclude, RC::kSkip)) return RC::kSkip;
      if (isIn(rc, RC::kIncludeAndNextCol, RC::kNextCol)) return RC::kNextCol;
      return RC::kNextRow;
    case RC::kNextCol:
      if (isIn(rc, RC::kInclude, RC::kIncludeAndNextCol, RC::kSkip, RC::kNextCol)) return RC::kNextCol;
      return RC::kNextRow;
    case RC::kNextRow: return RC::kNextRow;
  }
  return RC::kNextRow;
}

// FilterListWithOR.mergeReturnCode: the minimal step; `rc` empty for the first member.
RC mergeOr(std::optional<RC> prev, RC local) {
  if (!prev) return local;
  const RC rc = *prev;
  switch (local) {
    case RC::kInclude: return RC::kInclude;
    case RC::kIncludeAndNextCol:
      if (isIn(rc, RC::kInclude, RC::kSkip, RC::kSeekNextUsingHint)) return RC::kInclude;
      return RC::kIncludeAndNextCol;
    case RC::kIncludeAndSeekNextRow:
      if (isIn(rc, RC::kInclude, RC::kSkip, RC::kSeekNextUsingHint)) return RC::kInclude;
      if (isIn(rc, RC::kIncludeAndNextCol, RC::kNextCol)) return RC::kIncludeAndNextCol;
      return RC::kIncludeAndSeekNextRow;
    case RC::kSkip:
      if (isInclude(rc)) return RC::kInclude;
      return RC::kSkip;
    case RC::kNextCol:
      if (isIn(rc, RC::kInclude)) return RC::kInclude;
      if (isIn(rc, RC::kNextCol, RC::kNextRow)) return RC::kNextCol;
      if (isIn(rc, RC::kIncludeAndNextCol, RC::kIncludeAndSeekNextRow)) return RC::kIncludeAndNextCol;
      return RC::kSkip;
    case RC::kNextRow:
      if (isIn(rc, RC::kSkip, RC::kSeekNextUsingHint)) return RC::kSkip;
      return rc;  // INCLUDE, INCLUDE_AND_NEXT_COL, INCLUDE_AND_SEEK_NEXT_ROW, NEXT_COL, NEXT_ROW
    case RC::kSeekNextUsingHint:
      if (isInclude(rc)) return RC::kInclude;
      if (isIn(rc, RC::kSkip, RC::kNextCol, RC::kNextRow)) return RC::kSkip;
      return RC::kSeekNextUsingHint;
  }
  return RC::kSkip;
}

CellRef refOf(const Cell& c) {
  return CellRef{c.row, c.family, c.qualifier, c.timestamp, c.type, c.value};
}

}  // namespace

FilterList::FilterList(Operator op, std::vector<std::unique_ptr<Filter>> filters)
    : m_op(op), m_filters(std::move(filters)) {
  // AND transforms with every member (all of them included the cell).
  m_includedCell.assign(m_filters.size(), op == Operator::kMustPassAll ? 1 : 0);
  m_prevCode.resize(m_filters.size());
  m_prevCell.resize(m_filters.size());
}

std::unique_ptr<Filter> FilterList::clone() const {
  std::vector<std::unique_ptr<Filter>> copies;
  copies.reserve(m_filters.size());
  for (const auto& f : m_filters) copies.push_back(f->clone());
  return std::make_unique<FilterList>(m_op, std::move(copies));
}

std::string FilterList::toString() const {
  if (m_filters.size() == 1) return m_filters[0]->toString();
  const char* sep = m_op == Operator::kMustPassAll ? " AND " : " OR ";
  std::string out = "(";
  for (size_t i = 0; i < m_filters.size(); ++i) {
    if (i > 0) out += sep;
    out += m_filters[i]->toString();
  }
  return out + ")";
}

void FilterList::reset() {
  for (size_t i = 0; i < m_filters.size(); ++i) {
    m_filters[i]->reset();
    if (m_op == Operator::kMustPassOne) {
      m_includedCell[i] = 0;
      m_prevCode[i].reset();
      m_prevCell[i].reset();
    }
  }
  m_seekHintFilters.clear();
}

bool FilterList::filterAllRemaining() {
  if (m_filters.empty()) return false;
  if (m_op == Operator::kMustPassAll) {
    for (auto& f : m_filters) {
      if (f->filterAllRemaining()) return true;
    }
    return false;
  }
  for (auto& f : m_filters) {
    if (!f->filterAllRemaining()) return false;
  }
  return true;
}

bool FilterList::filterRowKey(BytesView row) {
  if (m_filters.empty()) return false;
  // Every member sees the row key (PrefixFilter & co. track the row change here),
  // so neither loop returns early.
  if (m_op == Operator::kMustPassAll) {
    bool filtered = false;
    for (auto& f : m_filters) {
      if (f->filterAllRemaining() || f->filterRowKey(row)) filtered = true;
    }
    return filtered;
  }
  bool filtered = true;
  for (auto& f : m_filters) {
    if (!f->filterAllRemaining() && !f->filterRowKey(row)) filtered = false;
  }
  return filtered;
}

FilterCode FilterList::filterCell(const CellRef& cell) {
  if (m_filters.empty()) return RC::kInclude;
  return m_op == Operator::kMustPassAll ? filterCellAnd(cell) : filterCellOr(cell);
}

FilterCode FilterList::filterCellAnd(const CellRef& cell) {
  RC rc = RC::kInclude;
  m_seekHintFilters.clear();
  for (size_t i = 0; i < m_filters.size(); ++i) {
    Filter& f = *m_filters[i];
    if (f.filterAllRemaining()) return RC::kNextRow;
    const RC local = f.filterCell(cell);
    if (local == RC::kSeekNextUsingHint) m_seekHintFilters.push_back(i);
    rc = mergeAnd(rc, local);
    // Later members must not count a cell that will not be included (HBASE-20565).
    if (!isInclude(rc)) return rc;
  }
  return m_seekHintFilters.empty() ? rc : RC::kSeekNextUsingHint;
}

// FilterListWithOR.calculateReturnCodeByPrevCellAndRC: the member's previous
// answer when it still covers `cell`; nullopt when the member must be asked.
std::optional<FilterCode> FilterList::codeFromPrevious(size_t i, const CellRef& cell) {
  if (!m_prevCode[i] || !m_prevCell[i]) return std::nullopt;
  const Cell& prev = *m_prevCell[i];
  switch (*m_prevCode[i]) {
    case RC::kInclude:
    case RC::kSkip: return std::nullopt;
    case RC::kSeekNextUsingHint: {
      auto hint = m_filters[i]->getNextCellHint(refOf(prev));
      if (hint && compareHintToCell(*hint, cell) > 0) return RC::kSeekNextUsingHint;
      return std::nullopt;
    }
    case RC::kNextCol:
    case RC::kIncludeAndNextCol:
      // reset() clears the history at each row, so rows are equal here.
      if (prev.family == cell.family && prev.qualifier == cell.qualifier) return RC::kNextCol;
      return std::nullopt;
    case RC::kNextRow:
    case RC::kIncludeAndSeekNextRow:
      // NEXT_ROW ends only the current family's store scanner (HBASE-18368).
      if (prev.family == cell.family) return RC::kNextRow;
      return std::nullopt;
  }
  return std::nullopt;
}

FilterCode FilterList::filterCellOr(const CellRef& cell) {
  std::optional<RC> rc;
  for (size_t i = 0; i < m_filters.size(); ++i) {
    Filter& f = *m_filters[i];
    m_includedCell[i] = 0;
    if (f.filterAllRemaining()) continue;
    std::optional<RC> local = codeFromPrevious(i, cell);
    if (!local) local = f.filterCell(cell);
    m_prevCode[i] = *local;
    if (*local == RC::kInclude || *local == RC::kSkip) {
      m_prevCell[i].reset();
    } else {
      m_prevCell[i] = cell.toCell();
    }
    rc = mergeOr(rc, *local);
    if (isInclude(*local)) m_includedCell[i] = 1;
  }
  return rc.value_or(RC::kSkip);  // every member is done: SKIP
}

std::optional<SeekHint> FilterList::getNextCellHint(const CellRef& cell) {
  if (m_filters.empty()) return std::nullopt;
  std::optional<SeekHint> best;
  if (m_op == Operator::kMustPassAll) {
    for (size_t i : m_seekHintFilters) {
      if (m_filters[i]->filterAllRemaining()) continue;
      auto hint = m_filters[i]->getNextCellHint(cell);
      if (hint && (!best || compareHints(*best, *hint) < 0)) best = std::move(hint);
    }
    return best;
  }
  for (auto& f : m_filters) {
    if (f->filterAllRemaining()) continue;
    auto hint = f->getNextCellHint(cell);
    if (!hint) return std::nullopt;  // a member without a hint might pass any cell
    if (!best || compareHints(*best, *hint) > 0) best = std::move(hint);
  }
  return best;
}

void FilterList::transformCell(Cell& cell) const {
  for (size_t i = 0; i < m_filters.size(); ++i) {
    if (m_includedCell[i] != 0) m_filters[i]->transformCell(cell);
  }
}

bool FilterList::hasFilterRow() const {
  for (const auto& f : m_filters) {
    if (f->hasFilterRow()) return true;
  }
  return false;
}

void FilterList::filterRowCells(std::vector<Cell>& cells) {
  for (auto& f : m_filters) f->filterRowCells(cells);
}

bool FilterList::filterRow() {
  if (m_filters.empty()) return false;
  if (m_op == Operator::kMustPassAll) {
    for (auto& f : m_filters) {
      if (f->filterRow()) return true;
    }
    return false;
  }
  for (auto& f : m_filters) {
    if (!f->filterRow()) return false;
  }
  return true;
}

}  // namespace keyscope::filter
