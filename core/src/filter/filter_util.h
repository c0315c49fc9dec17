// Small helpers shared by the filter classes: filter-language quoting, column
// matching, and the order of seek hints against cells. Pure functions.
#pragma once

#include <string>
#include <string_view>

#include "filter/comparator.h"
#include "keyscope/compare_op.h"
#include "keyscope/filter.h"

namespace keyscope::filter {

// A filter-language byte-string argument: 'abc', with each ' doubled. Every other
// byte is written as is (the language has no escapes), so any bytes round-trip.
std::string quoted(BytesView bytes);

inline bool matchingColumn(const CellRef& cell, std::string_view family, BytesView qualifier) {
  return cell.family == family && cell.qualifier == qualifier;
}

// Where `hint` lies against `cell` of the same row: negative when the hint is
// before the cell (a seek there would not move forward), positive after. A
// hint names the first cell of (family, qualifier), before all its versions.
int compareHintToCell(const SeekHint& hint, const CellRef& cell);
// Order of two hints within one row (nextRow after everything).
int compareHints(const SeekHint& a, const SeekHint& b);

// The first cell of the current row's `family` whose qualifier is >= `qualifier`.
inline SeekHint columnHint(std::string_view family, BytesView qualifier) {
  return SeekHint{std::string(family), Bytes(qualifier), false};
}

}  // namespace keyscope::filter

namespace keyscope::filter {

// The filter language's symbol for op: "<", "<=", "=", "!=", ">=", ">"; "" for NO_OP.
const char* compareOpSymbol(CompareOp op);

}  // namespace keyscope::filter
