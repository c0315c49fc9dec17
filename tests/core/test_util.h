// Helpers shared by the core tests: one-line value constructors, tuple
// comparison that treats NaN and -0.0 exactly, hex shorthands, and an
// independent reference for the value order of docs/KEY-SCHEMAS.md (written
// from the spec, not from key_codec.cc, so the codec is checked against it).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "keyscope/bytes.h"
#include "keyscope/key_codec.h"
#include "keyscope/key_schema.h"

namespace keyscope::test {

// Value constructors, so tables read as {i(-1), s("ab")}. A test file takes
// them all with `using namespace test::values;`.
inline namespace values {
inline ComponentValue i(int64_t v) { return ComponentValue(v); }
inline ComponentValue u(uint64_t v) { return ComponentValue(v); }
inline ComponentValue f(double v) { return ComponentValue(v); }
inline ComponentValue s(std::string v) { return ComponentValue(std::move(v)); }
inline ComponentValue b(bool v) { return ComponentValue(v); }
inline ComponentValue tile(uint32_t zoom, uint32_t x, uint32_t y) { return ComponentValue(Tile{zoom, x, y}); }
inline ComponentValue absent() { return ComponentValue(std::monostate{}); }
}  // namespace values

// The schema, or a test failure (and an empty schema) when it does not parse.
KeySchema schemaOf(std::string_view text);

// Hex of encodeKey, or "error: <message>" so a failure shows the reason.
std::string encodeHex(const KeySchema& schema, const KeyTuple& tuple);
std::string encodeHex(std::string_view schemaText, const KeyTuple& tuple);
// encodeKey that must succeed (a test failure otherwise; returns "").
Bytes encodeOk(const KeySchema& schema, const KeyTuple& tuple);
// Bytes of a hex literal (a test failure on bad hex).
Bytes unhex(std::string_view hex);

// Equality of values as the codec must preserve them: doubles bit for bit,
// except that any NaN equals any NaN.
bool sameValue(const ComponentValue& a, const ComponentValue& b);
::testing::AssertionResult sameTuple(const KeyTuple& expected, const KeyTuple& actual);
std::string describe(const ComponentValue& v);
std::string describe(const KeyTuple& t);

inline int sign(int v) { return (v > 0) - (v < 0); }
int byteOrder(BytesView a, BytesView b);  // sign of memcmp, shorter prefix first

// Value order from docs/KEY-SCHEMAS.md, component by component (the first
// `count` components; all when count exceeds the tuples). Tuples must be
// complete (derived components filled in).
int referenceCompare(const KeySchema& schema, const KeyTuple& a, const KeyTuple& b,
                     size_t count = SIZE_MAX);

// A random valid value for component `c`: half the time one of a few edge
// values (so ties and extremes are common), otherwise drawn at random.
ComponentValue randomValue(const KeyComponent& c, std::mt19937_64& rng);
// A random tuple with derived components left absent.
KeyTuple randomTuple(const KeySchema& schema, std::mt19937_64& rng);
// Completed tuple (derived components computed), or a test failure.
KeyTuple completed(const KeySchema& schema, const KeyTuple& tuple);

}  // namespace keyscope::test
