// A tiny scanner for the filter tests: drives a clone of a filter over sorted
// cells in the order keyscope/filter.h documents (HBase's RegionScannerImpl +
// UserScanQueryMatcher), so filters are tested without the engine. A row's
// cells go through driveRow (filter_row_driver.h, which says how return codes
// move through the row); filterRowKey, reset and filterAllRemaining are asked
// per row here.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "filter_row_driver.h"
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
    std::vector<Cell> included = driveRow(*f, cells, rowStart, rowEnd, honourHints, &st.cellsOffered);
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
