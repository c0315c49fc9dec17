// The batch API's JSON form of filters (docs/FILTERS.md): filterFromJson (in
// keyscope/filter.h) reads it; filterToJson writes the canonical form of any
// filter this library built. Pure functions; thread-safe.
#pragma once

#include <string>

#include "keyscope/filter.h"

namespace keyscope::filter {

// Compact canonical JSON: every field written, defaults included; bytes as a
// JSON string when they are valid UTF-8, else {"hex":"..."}.
std::string filterToJson(const Filter& filter);

}  // namespace keyscope::filter
