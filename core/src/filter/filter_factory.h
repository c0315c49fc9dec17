// Building a filter from the filter language's name and positional arguments
// (HBase's createFilterFromArguments, one per filter), with argument errors that
// name the column they point at. Used by the parser; pure functions.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "filter/comparator.h"
#include "keyscope/compare_op.h"
#include "keyscope/filter.h"
#include "keyscope/status.h"

namespace keyscope::filter {

// One argument as written: a quoted byte string, an integer, true/false, or a
// comparison operator.
struct FilterArg {
  enum class Kind { kString, kInteger, kBool, kOp };
  Kind kind = Kind::kString;
  Bytes text;  // kString: the unquoted bytes; otherwise the token as written
  int64_t integer = 0;
  bool boolean = false;
  CompareOp op = CompareOp::kEqual;
  size_t column = 1;  // 1-based byte column of the argument's first character
};

// True for the names of the filter language's filters.
bool isKnownFilterName(std::string_view name);

// The filter `name` (known) with `args`; `closeColumn` is where its ')' is, for
// errors about the argument count.
Result<std::unique_ptr<Filter>> buildFilter(std::string_view name, const std::vector<FilterArg>& args,
                                            size_t closeColumn);

// Shared with the JSON reader: the rules HBase's parser adds to the constructors.
// regexstring: and substring: answer only match / no match, so HBase's
// parser allows them only with = and != (CompareFilter.extractArguments).
Status checkOpForComparator(CompareOp op, const ByteComparator& comparator);

}  // namespace keyscope::filter
