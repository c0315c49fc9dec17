// ValueFormat: how the data browser renders a column's bytes. A cell value is
// arbitrary bytes; the user picks, per column, how to read them:
//
//   NAME     LABEL              READS                                 WHEN THE BYTES DO NOT FIT
//   escaped  Escaped text       HBase's Bytes.toStringBinary           (always fits)
//   hex      Hex                two lowercase digits per byte          (always fits)
//   int      Integer            big-endian two's complement, as        shown escaped, with a note
//                               Bytes.toLong/toInt/toShort: 8, 4, 2
//                               or 1 bytes
//   float    Float              IEEE 754 big-endian, as Bytes.toDouble  shown escaped, with a note
//                               (8 bytes) or Bytes.toFloat (4)
//   epoch    Epoch timestamp    milliseconds since 1970 in UTC: 8      shown escaped, with a note
//                               bytes as Bytes.toLong, or decimal text
//   json     JSON               UTF-8 JSON, shown on one line           shown escaped, with a note
//
// The names are stored in the user's settings: DO NOT CHANGE them.
// Pure functions; thread-safe (QString and QJsonDocument are reentrant).
#pragma once

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <string_view>

#include "keyscope/bytes.h"

namespace keyscope {

enum class ValueFormat : uint8_t { kEscaped, kHex, kInteger, kFloat, kEpochMillis, kJson };

// Every format, in menu order.
inline constexpr ValueFormat kValueFormats[] = {ValueFormat::kEscaped,     ValueFormat::kHex,
                                                ValueFormat::kInteger,     ValueFormat::kFloat,
                                                ValueFormat::kEpochMillis, ValueFormat::kJson};

const char* valueFormatName(ValueFormat format);  // "escaped", "hex", ...
std::optional<ValueFormat> valueFormatFromName(std::string_view name);
QString valueFormatLabel(ValueFormat format);  // "Escaped text", "Hex", ...

struct FormattedValue {
  QString text;
  // Empty when the bytes read as the format; else why not ("5 bytes: an
  // integer needs 1, 2, 4 or 8"), and `text` is the escaped form instead.
  QString problem;
  bool fits() const { return problem.isEmpty(); }
};

FormattedValue formatValue(BytesView bytes, ValueFormat format);

// Milliseconds since the epoch as "2024-03-01 00:00:00.000 UTC"; years past
// 9999 (timeshifted cells: year 52011) print in full.
QString formatEpochMillis(int64_t millis);

}  // namespace keyscope
