// The model scanner's one row, shared by the filter tests
// (filter_test_driver.h) and the filter fuzz target, so both drive filters
// exactly alike; no test framework here.
//
// driveRow offers a row's cells to a filter in the order keyscope/filter.h
// documents (HBase's RegionScannerImpl + UserScanQueryMatcher). HBase reads a
// row through one store scanner per family, so kNextRow and
// kIncludeAndSeekNextRow end only the current family's cells; kNextCol and
// kIncludeAndNextCol skip the rest of the column; kSeekNextUsingHint seeks
// forward to the hint when there is one, it lies ahead and `honourHints` is
// set, otherwise it moves one cell as kSkip does. filterRowCells and
// filterRow are asked as FilterWrapper.filterRowCellsWithRet does.
#pragma once

#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include "keyscope/filter.h"

namespace keyscope::test {

inline CellRef refOf(const Cell& c) { return CellRef{c.row, c.family, c.qualifier, c.timestamp, c.type, c.value}; }

// Where `hint` lies against `cell` (positive: the hint is after the cell), within one row.
inline int hintVersusCell(const SeekHint& hint, const Cell& cell) {
  if (hint.nextRow) return 1;
  if (hint.family != cell.family) return hint.family < cell.family ? -1 : 1;
  if (hint.qualifier != cell.qualifier) return hint.qualifier < cell.qualifier ? -1 : 1;
  return -1;
}

// The cells of one row, [begin, end) of `cells` in scan order, that `f`
// passes; filterRowKey has already let the row through. *offered (when
// given) counts the filterCell calls.
inline std::vector<Cell> driveRow(Filter& f, const std::vector<Cell>& cells, size_t begin, size_t end,
                                  bool honourHints, size_t* offered = nullptr) {
  std::vector<Cell> included;
  size_t i = begin;
  const auto skipWhile = [&](auto same) {
    const Cell& at = cells[i];
    while (i < end && same(at, cells[i])) ++i;
  };
  const auto sameColumn = [](const Cell& a, const Cell& b) { return a.family == b.family && a.qualifier == b.qualifier; };
  const auto sameFamily = [](const Cell& a, const Cell& b) { return a.family == b.family; };
  while (i < end) {
    const Cell& c = cells[i];
    if (offered != nullptr) ++*offered;
    const FilterCode code = f.filterCell(refOf(c));
    const auto include = [&] {
      Cell copy = c;
      f.transformCell(copy);
      included.push_back(std::move(copy));
    };
    switch (code) {
      case FilterCode::kInclude: include(); ++i; break;
      case FilterCode::kIncludeAndNextCol: include(); skipWhile(sameColumn); break;
      case FilterCode::kIncludeAndSeekNextRow: include(); skipWhile(sameFamily); break;
      case FilterCode::kSkip: ++i; break;
      case FilterCode::kNextCol: skipWhile(sameColumn); break;
      case FilterCode::kNextRow: skipWhile(sameFamily); break;
      case FilterCode::kSeekNextUsingHint: {
        const std::optional<SeekHint> hint = honourHints ? f.getNextCellHint(refOf(c)) : std::nullopt;
        if (hint && hintVersusCell(*hint, c) > 0) {
          while (i < end && hintVersusCell(*hint, cells[i]) > 0) ++i;
        } else {
          ++i;
        }
        break;
      }
    }
  }
  if (f.hasFilterRow()) f.filterRowCells(included);
  if (!included.empty() && f.filterRow()) included.clear();
  return included;
}

}  // namespace keyscope::test
