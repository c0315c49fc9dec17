// A tiny scanner for the filter tests: drives a clone of a filter over sorted
// cells in the order keyscope/filter.h documents (HBase's RegionScannerImpl +
// UserScanQueryMatcher), so filters are tested without the engine.
//
// Return codes move through the row as HBase's scanners do. HBase reads a row
// through one store scanner per family, so kNextRow and kIncludeAndSeekNextRow
// end only the current family's cells; kNextCol and kIncludeAndNextCol skip the
// rest of the column; kSeekNextUsingHint seeks forward to the hint when there
// is one and `honourHints` is set, otherwise it moves one cell as kSkip does.
// filterRow() is asked for rows that still have cells, as RegionScannerImpl
// does (FilterWrapper.filterRowCellsWithRet).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "keyscope/filter.h"

namespace keyscope::test {

inline Cell put(std::string row, std::string family, std::string qualifier, int64_t ts, std::string value = "v") {
  return Cell{std::move(row), std::move(family), std::move(qualifier), ts, CellType::kPut, std::move(value)};
}

// "row/family:qualifier@ts=value" with bytes as Bytes.toStringBinary shows them.
inline std::string show(const Cell& c) {
  return toStringBinary(c.row) + "/" + toStringBinary(c.family) + ":" + toStringBinary(c.qualifier) + "@" +
         std::to_string(c.timestamp) + "=" + toStringBinary(c.value);
}

inline std::vector<std::string> shown(const std::vector<Cell>& cells) {
  std::vector<std::string> out;
  for (const Cell& c : cells) out.push_back(show(c));
  return out;
}

struct DriveStats {
  size_t rowsOffered = 0;     // rows that reached filterRowKey
  size_t cellsOffered = 0;    // filterCell calls
  bool endedByFilter = false;  // filterAllRemaining() ended the scan
};

// Cells in scan order: row, family, qualifier ascending, timestamp descending.
inline void sortCells(std::vector<Cell>& cells) {
  std::stable_sort(cells.begin(), cells.end(), [](const Cell& a, const Cell& b) {
    if (a.row != b.row) return a.row < b.row;
    if (a.family != b.family) return a.family < b.family;
    if (a.qualifier != b.qualifier) return a.qualifier < b.qualifier;
    return a.timestamp > b.timestamp;
  });
}

inline CellRef refOf(const Cell& c) { return CellRef{c.row, c.family, c.qualifier, c.timestamp, c.type, c.value}; }

// Where `hint` lies against `cell` (positive: the hint is after the cell).
inline int hintVersusCell(const SeekHint& hint, const Cell& cell) {
  if (hint.nextRow) return 1;
  if (hint.family != cell.family) return hint.family < cell.family ? -1 : 1;
  if (hint.qualifier != cell.qualifier) return hint.qualifier < cell.qualifier ? -1 : 1;
  return -1;
}

inline std::vector<Cell> drive(const Filter& prototype, std::vector<Cell> cells, bool honourHints = true,
                               DriveStats* stats = nullptr) {
  sortCells(cells);
  DriveStats local;
  DriveStats& st = stats ? *stats : local;
  std::unique_ptr<Filter> f = prototype.clone();
  std::vector<Cell> out;
  size_t rowStart = 0;
  while (rowStart < cells.size()) {
    size_t rowEnd = rowStart;
    while (rowEnd < cells.size() && cells[rowEnd].row == cells[rowStart].row) ++rowEnd;
    if (f->filterAllRemaining()) {
      st.endedByFilter = true;
      break;
    }
    f->reset();
    ++st.rowsOffered;
    const Bytes row = cells[rowStart].row;
    if (f->filterRowKey(row)) {
      rowStart = rowEnd;
      continue;
    }
    std::vector<Cell> included;
    size_t i = rowStart;
    auto skipWhile = [&](auto same) {
      const Cell& at = cells[i];
      while (i < rowEnd && same(at, cells[i])) ++i;
    };
    auto sameColumn = [](const Cell& a, const Cell& b) { return a.family == b.family && a.qualifier == b.qualifier; };
    auto sameFamily = [](const Cell& a, const Cell& b) { return a.family == b.family; };
    while (i < rowEnd) {
      const Cell& c = cells[i];
      ++st.cellsOffered;
      const FilterCode code = f->filterCell(refOf(c));
      auto include = [&] {
        Cell copy = c;
        f->transformCell(copy);
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
          auto hint = honourHints ? f->getNextCellHint(refOf(c)) : std::nullopt;
          if (hint && hintVersusCell(*hint, c) > 0) {
            while (i < rowEnd && hintVersusCell(*hint, cells[i]) > 0) ++i;
          } else {
            ++i;
          }
          break;
        }
      }
    }
    if (f->hasFilterRow()) f->filterRowCells(included);
    if (!included.empty() && f->filterRow()) included.clear();
    for (Cell& c : included) out.push_back(std::move(c));
    rowStart = rowEnd;
  }
  return out;
}

// The filter passes exactly `expected` over `cells`, with and without honouring
// seek hints (the engine may ignore a hint; the result must not change).
inline ::testing::AssertionResult passes(const Filter& filter, const std::vector<Cell>& cells,
                                         const std::vector<std::string>& expected) {
  for (bool hints : {true, false}) {
    auto got = shown(drive(filter, cells, hints));
    if (got != expected) {
      auto fail = ::testing::AssertionFailure();
      fail << filter.toString() << (hints ? " (hints honoured)" : " (hints ignored)") << "\n  got:     ";
      for (auto& s : got) fail << s << "  ";
      fail << "\n  expected: ";
      for (auto& s : expected) fail << s << "  ";
      return fail;
    }
  }
  return ::testing::AssertionSuccess();
}

// parseFilter that must succeed (a test failure and nullptr otherwise).
inline std::shared_ptr<const Filter> parsed(std::string_view text) {
  auto f = parseFilter(text);
  EXPECT_TRUE(f.isOk()) << text << ": " << f.status().toString();
  return f.isOk() ? *f : nullptr;
}

}  // namespace keyscope::test

namespace keyscope::test {

// passes() for a filter given in the filter language.
inline ::testing::AssertionResult textPasses(std::string_view text, const std::vector<Cell>& cells,
                                             const std::vector<std::string>& expected) {
  auto f = parseFilter(text);
  if (!f) return ::testing::AssertionFailure() << text << ": " << f.status().toString();
  return passes(**f, cells, expected);
}

}  // namespace keyscope::test
