// Byte strings as text, in the four renderings CSV import and export offer.
//
//   FORMAT   TEXT                                          EXACT FOR
//   escaped  HBase's Bytes.toStringBinary: printable ASCII  any bytes (a backslash is
//            as is, every other byte as \xNN               itself written \x5C)
//   hex      two lowercase hex digits per byte             any bytes
//   base64   RFC 4648, standard alphabet, '=' padding      any bytes
//   raw      the bytes themselves                          any bytes, but the text is
//                                                          only UTF-8 if the bytes are
//
// parseBytes inverts formatBytes exactly. Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "keyscope/bytes.h"
#include "keyscope/status.h"

namespace keyscope {

enum class ByteFormat : uint8_t { kEscaped, kHex, kBase64, kRaw };

// "escaped", "hex", "base64", "raw".
const char* byteFormatName(ByteFormat format);
std::optional<ByteFormat> byteFormatFromName(std::string_view name);

std::string formatBytes(BytesView bytes, ByteFormat format);

// InvalidArgument saying what is wrong and at which character (1-based):
// "bad hex digit 'g' at character 3". Escaped and raw text always parse.
Result<Bytes> parseBytes(std::string_view text, ByteFormat format);

std::string toBase64(BytesView bytes);
// Strict RFC 4648: length a multiple of 4, '=' only as final padding. nullopt
// otherwise; `errorAt` (0-based) then receives the offending character.
std::optional<Bytes> fromBase64(std::string_view text, size_t* errorAt = nullptr);

}  // namespace keyscope
