// Key tuples as JSON, for the command line and scripts.
//
// A tuple is a JSON array, one element per component in schema order:
//   utf8, domain          JSON string
//   bytes, bytes(N), md5  string in Bytes.toStringBinary form ("a\x00b") or {"hex": "6100"};
//                         for md5 also {"md5": "alice"}: the digest of that input
//   integers, revts, salt JSON integer (also accepted: a string of decimal digits)
//   f32, f64              JSON number or "NaN", "Infinity", "-Infinity"
//   bool                  true / false
//   quadkey               [zoom, x, y] or a quadkey digit string "0231"
// Derived components (salt, md5 over fields) may be null or left out entirely:
// an array one value per input component is accepted as well.
// Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "keyscope/key_codec.h"
#include "keyscope/key_schema.h"
#include "keyscope/status.h"

namespace keyscope {

// Errors say where: "element 2 ('ts', i64): expected an integer, got \"abc\"".
Result<KeyTuple> tupleFromJson(const KeySchema& schema, std::string_view json);

// One line of compact JSON: ["alice",1700000000000]. Values in `tuple` beyond
// the schema's size are ignored; missing ones are simply not printed.
std::string tupleToJson(const KeySchema& schema, const KeyTuple& tuple);

// One value as JSON, as above.
std::string valueToJson(const KeyComponent& component, const ComponentValue& value);

}  // namespace keyscope
