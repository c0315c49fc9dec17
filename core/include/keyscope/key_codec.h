// Encoding and decoding row keys by schema.
//
// The sorted encoding preserves order: for any two complete tuples a and b of
// one schema, sign(memcmp(encodeKey(a), encodeKey(b))) == sign(compareTuples(a, b)).
// Every component is prefix-free, so the encoding of the first k components is
// a scan prefix for every key that starts with them. The byte layouts are
// tabled in docs/KEY-SCHEMAS.md and in key_codec.cc (golden vectors in tests).
//
// Value order, per component type:
//   integers   numerically; bool: false < true
//   floats     IEEE 754 totalOrder restricted to one NaN: -Inf < ... < -0.0 < +0.0
//              < ... < +Inf < NaN. Every NaN is stored as the canonical quiet NaN.
//   utf8/bytes unsigned bytewise, a prefix before its extensions
//   salt/md5   by the stored byte(s); revts by INT64_MAX - ts (newest first);
//   domain     by the reversed form; quadkey by the packed integer
//   desc       reverses the order of its component.
// HBase-compatible components (Encoding::kHBaseBytes) keep HBase's byte layout,
// whose order may differ: see checkByteOrder in key_order.h.
//
// Pure functions of their arguments; thread-safe.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "keyscope/bytes.h"
#include "keyscope/key_schema.h"
#include "keyscope/status.h"

namespace keyscope {

// A map tile for quadkey components. zoom <= 29; x, y < 2^zoom.
struct Tile {
  uint32_t zoom = 0;
  uint32_t x = 0;
  uint32_t y = 0;
  friend bool operator==(const Tile&, const Tile&) = default;
};

// One component's value. The alternative used depends on the component type:
//   monostate  absent: allowed for derived components, which encodeKey computes
//   bool       bool
//   int64_t    i8..i64, revts (the timestamp itself)
//   uint64_t   u8..u64, salt (the bucket)
//   double     f32, f64
//   string     utf8, domain (the natural form), bytes, bytes(N), md5 (the digest
//              bytes kept; see md5Prefix to compute them from an input)
//   Tile       quadkey
using ComponentValue = std::variant<std::monostate, bool, int64_t, uint64_t, double, std::string, Tile>;
using KeyTuple = std::vector<ComponentValue>;

// Encodes the tuple. The tuple may hold fewer values than the schema has
// components: the result is then the prefix for those leading components.
// Derived components left absent are computed; given ones must match, except
// in a prefix that stops before their fields, where the given value is used
// as is (the prefix of one salt bucket).
// Errors name the component and the reason (wrong type, out of range, ...).
Result<Bytes> encodeKey(const KeySchema& schema, const KeyTuple& tuple);

// Fills in derived components and checks every value against its type, as
// encodeKey does. Useful to show the salt a key will get.
Result<KeyTuple> completeTuple(const KeySchema& schema, const KeyTuple& tuple);

struct DecodeError {
  size_t offset = 0;     // byte offset in the key where the problem is
  size_t component = 0;  // index of the component being decoded
  std::string reason;    // "truncated i64 'ts': needs 8 bytes, 3 left"
  std::string toString(const KeySchema& schema) const;  // "offset 9, component 'ts': ..."
};

struct DecodedKey {
  KeyTuple values;                              // fully decoded components, in order
  std::vector<std::pair<size_t, size_t>> spans;  // [begin, end) byte span of each value
  std::optional<DecodeError> error;             // why decoding stopped, or what does not fit
  bool ok() const { return !error.has_value(); }
};

// The exact inverse of encodeKey on complete keys. Bytes that do not fit the
// schema decode as far as they can; `error` then tells where and why. Never
// throws, never reads past `key`.
DecodedKey decodeKey(const KeySchema& schema, BytesView key);

// Compares two complete, valid tuples by the value order described above.
// Returns <0, 0 or >0.
int compareTuples(const KeySchema& schema, const KeyTuple& a, const KeyTuple& b);

// Checks one value against its component's type and range and returns it in
// the alternative that type uses (an i8 given as uint64_t 5 becomes int64_t 5;
// an f32 is rounded to float precision). The error says what is wrong, without
// naming the component: callers add where ("element 2 ('ts', i64): ...").
Result<ComponentValue> checkValue(const KeyComponent& component, const ComponentValue& value);

// Encodes a single component's value with its own encoding (no derivation:
// salt and md5-with-fields take their stored value). For layout displays and
// for the byte-order analysis.
Result<Bytes> encodeComponent(const KeyComponent& component, const ComponentValue& value);

// Bytes.toBytes form of a value, as HBase clients write it: the bytes that
// salt and md5 components hash. Strings are their UTF-8 bytes.
Result<Bytes> hbaseBytes(const KeyComponent& component, const ComponentValue& value);

// The value of an md5 component that names no fields: the first `width`
// bytes of md5(input). (md5 is one-way, so the key keeps only the digest.)
Bytes md5Prefix(const KeyComponent& component, BytesView input);

// Transforms, exposed for display and tests.
std::string reverseDomain(std::string_view host);  // an involution
uint64_t packQuadkey(const Tile& tile);             // REQUIRES: valid tile
std::optional<Tile> unpackQuadkey(uint64_t packed);  // nullopt when not a packed tile
std::string quadkeyDigits(const Tile& tile);         // Bing-style "0231..." digits

}  // namespace keyscope
