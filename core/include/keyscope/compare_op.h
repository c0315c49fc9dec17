// HBase's CompareOperator, shared by filters and checkAndMutate.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace keyscope {

// Stored in filter JSON by name only; the order is not persisted.
enum class CompareOp : uint8_t { kLess, kLessOrEqual, kEqual, kNotEqual, kGreaterOrEqual, kGreater, kNoOp };

// "LESS", "LESS_OR_EQUAL", "EQUAL", "NOT_EQUAL", "GREATER_OR_EQUAL", "GREATER", "NO_OP".
const char* compareOpName(CompareOp op);
// Accepts those names and the filter language's symbols <, <=, =, !=, >=, >.
std::optional<CompareOp> compareOpFromString(std::string_view text);
// Applies op to the result of a three-way comparison (negative, zero, positive)
// of left against right: compareResultMatches(kLess, -1) is true.
bool compareResultMatches(CompareOp op, int comparison);

}  // namespace keyscope
