// CompareOp names and the meaning of each operator on a three-way comparison.
#include "keyscope/compare_op.h"

namespace keyscope {

const char* compareOpName(CompareOp op) {
  switch (op) {
    case CompareOp::kLess: return "LESS";
    case CompareOp::kLessOrEqual: return "LESS_OR_EQUAL";
    case CompareOp::kEqual: return "EQUAL";
    case CompareOp::kNotEqual: return "NOT_EQUAL";
    case CompareOp::kGreaterOrEqual: return "GREATER_OR_EQUAL";
    case CompareOp::kGreater: return "GREATER";
    case CompareOp::kNoOp: return "NO_OP";
  }
  return "NO_OP";
}

std::optional<CompareOp> compareOpFromString(std::string_view text) {
  struct Entry {
    std::string_view name;
    std::string_view symbol;
    CompareOp op;
  };
  static constexpr Entry kEntries[] = {
      {"LESS", "<", CompareOp::kLess},
      {"LESS_OR_EQUAL", "<=", CompareOp::kLessOrEqual},
      {"EQUAL", "=", CompareOp::kEqual},
      {"NOT_EQUAL", "!=", CompareOp::kNotEqual},
      {"GREATER_OR_EQUAL", ">=", CompareOp::kGreaterOrEqual},
      {"GREATER", ">", CompareOp::kGreater},
      {"NO_OP", "", CompareOp::kNoOp},  // no symbol: the filter language has none
  };
  for (const Entry& e : kEntries) {
    if (text == e.name || (!e.symbol.empty() && text == e.symbol)) return e.op;
  }
  return std::nullopt;
}

bool compareResultMatches(CompareOp op, int comparison) {
  switch (op) {
    case CompareOp::kLess: return comparison < 0;
    case CompareOp::kLessOrEqual: return comparison <= 0;
    case CompareOp::kEqual: return comparison == 0;
    case CompareOp::kNotEqual: return comparison != 0;
    case CompareOp::kGreaterOrEqual: return comparison >= 0;
    case CompareOp::kGreater: return comparison > 0;
    case CompareOp::kNoOp: return false;  // NO_OP matches nothing (HBase's filters drop every cell)
  }
  return false;
}

}  // namespace keyscope
