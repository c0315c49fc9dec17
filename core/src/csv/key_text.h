// Key schema component values as CSV text: what an export's row.NAME columns
// hold and what an import's row.NAME columns are read as.
//
//   TYPE                   TEXT
//   i8..i64, revts         decimal, optional '-': "-42" (revts: the timestamp itself)
//   u8..u64, salt          decimal: "42" (salt: the bucket)
//   f32, f64               shortest text that reads back exactly: "0.1", "1e+300";
//                          "NaN", "Infinity", "-Infinity" (also read: nan, inf, ...)
//   bool                   "true" / "false" (also read: 1 / 0)
//   utf8, domain           the text itself
//   bytes, bytes(N), md5   the bytes in the import's or export's ByteFormat
//   quadkey                quadkey digits "0231" (also read: "zoom/x/y")
//
// Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "keyscope/byte_format.h"
#include "keyscope/key_codec.h"
#include "keyscope/key_schema.h"
#include "keyscope/status.h"

namespace keyscope::csv {

// The value, checked against the component's type and range (checkValue).
// Errors say what is wrong, not where: "expected an integer, got 'abc'".
Result<ComponentValue> componentFromText(const KeyComponent& component, std::string_view text, ByteFormat bytes);

// REQUIRES: `value` is a valid value of the component (as decodeKey yields).
std::string componentToText(const KeyComponent& component, const ComponentValue& value, ByteFormat bytes);

}  // namespace keyscope::csv
