// Value formatters: HBase's FORMATTER and 'f:q:toLong' column converters,
// after org.apache.hadoop.hbase.util.Bytes' methods of the same names.
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>

#include "keyscope/shell_command.h"
#include "utf8.h"

namespace keyscope::shell {

namespace {

uint64_t bigEndian(BytesView value) {
  uint64_t x = 0;
  for (char ch : value) x = (x << 8) | static_cast<uint8_t>(ch);
  return x;
}

// Java's Double.toString / Float.toString: "1.5", "100.0", "1.0E7", "NaN".
template <typename T>
std::string javaFloat(T v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  char buf[64];
  const T magnitude = std::fabs(v);
  const bool plain = magnitude == 0 || (magnitude >= T(1e-3) && magnitude < T(1e7));
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, plain ? std::chars_format::fixed : std::chars_format::scientific);
  if (ec != std::errc()) return "?";
  std::string text(buf, end);
  if (plain) {
    if (text.find('.') == std::string::npos) text += ".0";
    return text;
  }
  // "1.5e+07" -> "1.5E7"
  const size_t e = text.find('e');
  std::string mantissa = text.substr(0, e);
  if (mantissa.find('.') == std::string::npos) mantissa += ".0";
  int exponent = 0;
  std::from_chars(text.data() + e + 1 + (text[e + 1] == '+' ? 1 : 0), text.data() + text.size(), exponent);
  return mantissa + "E" + std::to_string(exponent);
}

// Bytes.toString: UTF-8, each byte of an invalid sequence as U+FFFD.
std::string utf8Text(BytesView value) {
  std::string out;
  while (!value.empty()) {
    const std::optional<size_t> bad = firstInvalidUtf8(value);
    const size_t good = bad.value_or(value.size());
    out.append(value.substr(0, good));
    if (!bad) break;
    out += "\xEF\xBF\xBD";
    value.remove_prefix(good + 1);
  }
  return out;
}

}  // namespace

const char* valueFormatterName(ValueFormatter formatter) {
  switch (formatter) {
    case ValueFormatter::kToStringBinary: return "toStringBinary";
    case ValueFormatter::kToString: return "toString";
    case ValueFormatter::kToLong: return "toLong";
    case ValueFormatter::kToInt: return "toInt";
    case ValueFormatter::kToShort: return "toShort";
    case ValueFormatter::kToDouble: return "toDouble";
    case ValueFormatter::kToFloat: return "toFloat";
    case ValueFormatter::kToBoolean: return "toBoolean";
    case ValueFormatter::kToHex: return "toHex";
  }
  return "toStringBinary";
}

std::string formatValue(ValueFormatter formatter, BytesView value) {
  switch (formatter) {
    case ValueFormatter::kToStringBinary: break;
    case ValueFormatter::kToString: return utf8Text(value);
    case ValueFormatter::kToHex: return toHex(value);
    case ValueFormatter::kToLong:
      if (value.size() == 8) return std::to_string(static_cast<int64_t>(bigEndian(value)));
      break;
    case ValueFormatter::kToInt:
      if (value.size() == 4) return std::to_string(static_cast<int32_t>(static_cast<uint32_t>(bigEndian(value))));
      break;
    case ValueFormatter::kToShort:
      if (value.size() == 2) return std::to_string(static_cast<int16_t>(static_cast<uint16_t>(bigEndian(value))));
      break;
    case ValueFormatter::kToDouble:
      if (value.size() == 8) return javaFloat(std::bit_cast<double>(bigEndian(value)));
      break;
    case ValueFormatter::kToFloat:
      if (value.size() == 4) return javaFloat(std::bit_cast<float>(static_cast<uint32_t>(bigEndian(value))));
      break;
    case ValueFormatter::kToBoolean:
      if (value.size() == 1) return value[0] != 0 ? "true" : "false";
      break;
  }
  return toStringBinary(value);  // the default, and values the formatter does not fit
}

ValueFormatter OutputFormat::formatterFor(std::string_view family, BytesView qualifier) const {
  if (!columns.empty()) {
    const auto it = columns.find({std::string(family), Bytes(qualifier)});
    if (it != columns.end()) return it->second;
  }
  return values;
}

}  // namespace keyscope::shell
