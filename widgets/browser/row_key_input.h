// Row-key input: what the user types into the data browser's key box, read
// as bytes. Three ways to write a key:
//
//   KIND        EXAMPLE                        BYTES
//   escaped     user\x00\x01\x7F               Bytes.toStringBinary's inverse: \xNN is
//                                              one byte (either case), the rest as is
//   hex         75 73 65 72 00 01 / 0x7573     two hex digits per byte; spaces and a
//                                              leading 0x ignored
//   components  ["sys.cpu", 1709251200]        a JSON tuple encoded by the table's key
//                                              schema; fewer elements than components
//                                              give the prefix of those components
//
// Pure functions; thread-safe.
#pragma once

#include <QString>

#include <cstdint>
#include <optional>

#include "keyscope/bytes.h"
#include "keyscope/key_schema.h"
#include "keyscope/status.h"

namespace keyscope {

enum class RowKeyInputKind : uint8_t { kEscaped, kHex, kComponents };

// InvalidArgument says what is wrong and where ("bad hex digit 'g' at
// character 3"; components without a schema; the schema's tuple errors).
// `schema` is needed for kComponents only.
Result<Bytes> parseRowKeyInput(const QString& text, RowKeyInputKind kind,
                               const std::optional<KeySchema>& schema = std::nullopt);

// The key written back in `kind`, for showing where a view starts. nullopt
// when the key cannot be written that way (components: it does not decode
// completely).
std::optional<QString> formatRowKeyInput(BytesView key, RowKeyInputKind kind,
                                         const std::optional<KeySchema>& schema = std::nullopt);

// A key box's placeholder for `kind`: an example of what to type.
QString rowKeyPlaceholder(RowKeyInputKind kind);

}  // namespace keyscope
