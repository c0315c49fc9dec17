// ByteComparator: HBase's ByteArrayComparable family as the filter language
// names them: binary:, binaryprefix:, regexstring:, substring:.
//
// compareTo(bytes) follows HBase exactly: it compares the comparator's own value
// (left) against the cell's bytes (right), so BinaryComparator("b").compareTo("a")
// is positive. The regex and substring comparators answer 0 for a match and 1
// otherwise. Immutable after construction; safe to share between threads.
#pragma once

#include <memory>
#include <regex>
#include <string>
#include <string_view>

#include "keyscope/bytes.h"
#include "keyscope/status.h"

namespace keyscope::filter {

class ByteComparator {
 public:
  enum class Kind { kBinary, kBinaryPrefix, kRegexString, kSubstring };

  // The comparator of `kind` over `value`. Fails only for a regex that does not
  // compile (or exceeds the limits documented in docs/FILTERS.md).
  static Result<ByteComparator> make(Kind kind, Bytes value);
  // "binary:abc" and friends; the type is case-sensitive, as in HBase.
  static Result<ByteComparator> parse(BytesView spec);
  // "binary", ...; nullopt for an unknown name.
  static std::optional<Kind> kindFromName(std::string_view name);
  static const char* kindName(Kind kind);

  Kind kind() const { return m_kind; }
  // The value as given (for substring: as given, before lowercasing).
  const Bytes& value() const { return m_value; }
  // "type:value", the form parse() reads.
  Bytes spec() const { return std::string(kindName(m_kind)) + ":" + m_value; }

  // HBase's ByteArrayComparable.compareTo(cellBytes).
  int compareTo(BytesView bytes) const;

  // Only regexstring: and substring: answer match / no match rather than an order.
  bool isMatchOnly() const { return m_kind == Kind::kRegexString || m_kind == Kind::kSubstring; }

 private:
  ByteComparator(Kind kind, Bytes value) : m_kind(kind), m_value(std::move(value)) {}

  Kind m_kind;
  Bytes m_value;
  Bytes m_lowered;                          // substring: the value in ASCII lower case
  std::shared_ptr<const std::regex> m_regex;  // regexstring: the compiled pattern
};

// memcmp order of unsigned bytes, shorter prefix first: Bytes.compareTo. Returns -1, 0 or 1.
int compareBytes(BytesView a, BytesView b);

}  // namespace keyscope::filter
