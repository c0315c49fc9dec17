// Byte strings and their renderings.
//
// Row keys, qualifiers and values are arbitrary bytes. Keyscope holds them in
// std::string (owning) and reads them through std::string_view (borrowed: valid
// only while the owner lives and is unmodified). Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace keyscope {

using Bytes = std::string;
using BytesView = std::string_view;

// Lowercase hex, two digits per byte: "00ff".
std::string toHex(BytesView bytes);

// Parses hex digits (either case; spaces and an optional "0x" prefix are
// ignored). nullopt on an odd digit count or a non-hex character; when `errorAt`
// is given it receives the character offset of the problem.
std::optional<Bytes> fromHex(std::string_view text, size_t* errorAt = nullptr);

// HBase's Bytes.toStringBinary: letters, digits and the printable punctuation
// " `~!@#$%^&*()-_=+[]{}|;:'\",.<>/?" as is; every other byte (the backslash
// included) as \xNN with uppercase hex.
std::string toStringBinary(BytesView bytes);

// Inverse of toStringBinary: "\xNN" escapes (either case) become bytes,
// everything else is taken as is. A backslash that starts no valid escape is
// kept (HBase's toBytesBinary would drop it silently).
Bytes fromStringBinary(std::string_view text);

inline uint8_t byteAt(BytesView bytes, size_t i) { return static_cast<uint8_t>(bytes[i]); }

}  // namespace keyscope
