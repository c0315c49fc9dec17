// Row-key schemas: a row key described as typed components.
//
// A schema is written on one line, components separated by '|':
//
//   salt:salt(16, user) | user:utf8 | ts:i64 desc
//
// Each component is `name:type [modifier...]`. The grammar, the types and the
// byte layout of each are documented in docs/KEY-SCHEMAS.md; the short form:
//
//   utf8 bytes bytes(N) i8 i16 i32 i64 u8 u16 u32 u64 f32 f64 bool
//   salt(N[, field...])      one byte: md5 of the fields (all others if none) mod N
//   md5([N][, field...])     first N (default 16) bytes of md5 of the fields; with no
//                            field named, a digest the caller supplies (md5Prefix)
//   revts                    reverse timestamp: Long.MAX_VALUE - ts, as an i64
//   domain                   host labels reversed: hbase.apache.org -> org.apache.hbase
//   quadkey                  (zoom, x, y) packed into a u64 by Z-order
//   modifiers, each at most once: asc (default) | desc | hbase (Bytes.toBytes layout)
//
// A KeySchema is an immutable value; thread-safe to share once built.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "keyscope/status.h"

namespace keyscope {

enum class ComponentType : uint8_t {
  kUtf8,
  kBytes,       // variable-length bytes
  kFixedBytes,  // exactly `width` bytes
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kUInt8,
  kUInt16,
  kUInt32,
  kUInt64,
  kFloat32,
  kFloat64,
  kBool,
  kSalt,              // derived: one byte, md5(sources) mod buckets
  kMd5,               // first `width` bytes of an md5 digest
  kReverseTimestamp,  // value is a timestamp ts >= 0; stored as i64 (INT64_MAX - ts)
  kReverseDomain,     // value is a host (optionally with a path); stored labels-reversed
  kQuadkey,           // value is a Tile; stored as u64 (see docs/KEY-SCHEMAS.md)
};

enum class SortOrder : uint8_t { kAscending, kDescending };

// How a component's bytes are laid out.
enum class Encoding : uint8_t {
  kSorted,      // Keyscope's order-preserving encoding (default)
  kHBaseBytes,  // HBase's Bytes.toBytes: big-endian two's complement, raw IEEE bits,
                // raw UTF-8 without terminator (so variable-length only in last place)
};

struct KeyComponent {
  std::string name;
  ComponentType type = ComponentType::kBytes;
  SortOrder order = SortOrder::kAscending;
  Encoding encoding = Encoding::kSorted;
  uint32_t width = 0;            // bytes(N): N; md5: digest bytes kept (1..16); else 0
  uint32_t buckets = 0;          // salt: N (1..256); else 0
  std::vector<size_t> sources;   // salt/md5: components hashed, in the order named
  size_t textOffset = 0;         // where the component starts in the schema text

  // Derived components are computed from other components when encoding.
  bool isDerived() const;
  // Bytes the component always takes, or nullopt when variable-length.
  std::optional<size_t> fixedSize() const;
  // "utf8", "bytes(16)", "salt(16)": the type without the fields it covers
  // (KeySchema::typeText names those too).
  std::string typeText() const;
};

class KeySchema {
 public:
  // Parses the one-line syntax above. Errors name the column (1-based) and
  // the reason: "column 12: unknown type 'int64' (did you mean i64?)".
  static Result<KeySchema> parse(std::string_view text);
  // The schema a table stores (TableOptions::keySchema): nullopt when the
  // text is empty, or does not parse (it was checked when it was set, so
  // only a damaged or foreign workspace holds one; views then show raw keys).
  static std::optional<KeySchema> parseStored(std::string_view text);

  const std::vector<KeyComponent>& components() const { return m_components; }
  size_t size() const { return m_components.size(); }
  const KeyComponent& operator[](size_t i) const { return m_components[i]; }
  std::optional<size_t> indexOf(std::string_view name) const;

  // The type of component i as written in a schema: "salt(16, user)".
  std::string typeText(size_t i) const;

  // Canonical text: parse(toString()) yields an equal schema.
  std::string toString() const;

  // Number of components a caller supplies values for (those not derived).
  size_t inputCount() const;

 private:
  std::vector<KeyComponent> m_components;
};

const char* componentTypeName(ComponentType type);

}  // namespace keyscope
