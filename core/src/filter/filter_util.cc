// Helpers shared by the filter classes (see filter_util.h).
#include "filter/filter_util.h"

namespace keyscope::filter {

std::string quoted(BytesView bytes) {
  std::string out;
  out.reserve(bytes.size() + 2);
  out += '\'';
  for (char c : bytes) {
    if (c == '\'') out += '\'';
    out += c;
  }
  out += '\'';
  return out;
}

int compareHintToCell(const SeekHint& hint, const CellRef& cell) {
  if (hint.nextRow) return 1;
  int c = compareBytes(hint.family, cell.family);
  if (c != 0) return c;
  c = compareBytes(hint.qualifier, cell.qualifier);
  // Same column: the hint sorts before every version of it.
  return c != 0 ? c : -1;
}

int compareHints(const SeekHint& a, const SeekHint& b) {
  if (a.nextRow || b.nextRow) return int{a.nextRow} - int{b.nextRow};
  int c = compareBytes(a.family, b.family);
  return c != 0 ? c : compareBytes(a.qualifier, b.qualifier);
}

}  // namespace keyscope::filter

namespace keyscope::filter {

const char* compareOpSymbol(CompareOp op) {
  switch (op) {
    case CompareOp::kLess: return "<";
    case CompareOp::kLessOrEqual: return "<=";
    case CompareOp::kEqual: return "=";
    case CompareOp::kNotEqual: return "!=";
    case CompareOp::kGreaterOrEqual: return ">=";
    case CompareOp::kGreater: return ">";
    case CompareOp::kNoOp: return "";
  }
  return "";
}

}  // namespace keyscope::filter
