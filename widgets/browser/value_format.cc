// Value formats (see value_format.h). Pure functions.
#include "browser/value_format.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QTimeZone>

#include <bit>
#include <charconv>
#include <cstring>

#include "keyscope/byte_format.h"

namespace keyscope {

namespace {

QString escaped(BytesView bytes) {
  return QString::fromStdString(toStringBinary(bytes));
}

FormattedValue misfit(BytesView bytes, const QString& problem) {
  return {escaped(bytes), problem};
}

QString byteCount(size_t n) {
  return n == 1 ? QStringLiteral("1 byte") : QStringLiteral("%1 bytes").arg(n);
}

// Big-endian two's complement of 1, 2, 4 or 8 bytes, sign-extended.
std::optional<int64_t> bigEndianSigned(BytesView bytes) {
  if (bytes.size() != 1 && bytes.size() != 2 && bytes.size() != 4 && bytes.size() != 8) {
    return std::nullopt;
  }
  uint64_t u = 0;
  for (size_t i = 0; i < bytes.size(); ++i) u = (u << 8) | byteAt(bytes, i);
  const unsigned shift = static_cast<unsigned>(64 - 8 * bytes.size());
  // Shift the sign bit to the top and back (arithmetic shift sign-extends).
  return static_cast<int64_t>(u << shift) >> shift;
}

uint64_t bigEndianUnsigned(BytesView bytes) {
  uint64_t u = 0;
  for (size_t i = 0; i < bytes.size(); ++i) u = (u << 8) | byteAt(bytes, i);
  return u;
}

FormattedValue formatInteger(BytesView bytes) {
  const std::optional<int64_t> value = bigEndianSigned(bytes);
  if (!value)
    return misfit(
        bytes, QStringLiteral("%1: an integer is 8, 4, 2 or 1 bytes").arg(byteCount(bytes.size())));
  return {QString::number(*value), {}};
}

FormattedValue formatFloat(BytesView bytes) {
  if (bytes.size() == 8) {
    return {QString::number(std::bit_cast<double>(bigEndianUnsigned(bytes)), 'g', 17), {}};
  }
  if (bytes.size() == 4) {
    const auto bits = static_cast<uint32_t>(bigEndianUnsigned(bytes));
    return {QString::number(static_cast<double>(std::bit_cast<float>(bits)), 'g', 9), {}};
  }
  return misfit(
      bytes, QStringLiteral("%1: a float is 8 bytes (double) or 4").arg(byteCount(bytes.size())));
}

FormattedValue formatEpoch(BytesView bytes) {
  if (bytes.size() == 8) return {formatEpochMillis(*bigEndianSigned(bytes)), {}};
  // Decimal text: counters and timestamps written as strings.
  int64_t millis = 0;
  const char* end = bytes.data() + bytes.size();
  if (!bytes.empty() && std::from_chars(bytes.data(), end, millis).ptr == end) {
    return {formatEpochMillis(millis), {}};
  }
  return misfit(bytes, QStringLiteral("%1: an epoch timestamp is 8 bytes (Bytes.toLong) or decimal "
                                      "digits, in milliseconds")
                           .arg(byteCount(bytes.size())));
}

FormattedValue formatJson(BytesView bytes) {
  QJsonParseError error;
  const QJsonDocument doc = QJsonDocument::fromJson(
      QByteArray(bytes.data(), static_cast<qsizetype>(bytes.size())), &error);
  if (error.error != QJsonParseError::NoError) {
    return misfit(
        bytes,
        QStringLiteral("not JSON: %1 at byte %2").arg(error.errorString()).arg(error.offset));
  }
  return {QString::fromUtf8(doc.toJson(QJsonDocument::Compact)), {}};
}

}  // namespace

const char* valueFormatName(ValueFormat format) {
  switch (format) {
    case ValueFormat::kEscaped:
      return "escaped";
    case ValueFormat::kHex:
      return "hex";
    case ValueFormat::kInteger:
      return "int";
    case ValueFormat::kFloat:
      return "float";
    case ValueFormat::kEpochMillis:
      return "epoch";
    case ValueFormat::kJson:
      return "json";
  }
  return "escaped";
}

std::optional<ValueFormat> valueFormatFromName(std::string_view name) {
  for (ValueFormat format : kValueFormats) {
    if (name == valueFormatName(format)) return format;
  }
  return std::nullopt;
}

QString valueFormatLabel(ValueFormat format) {
  switch (format) {
    case ValueFormat::kEscaped:
      return QStringLiteral("Escaped text");
    case ValueFormat::kHex:
      return QStringLiteral("Hex");
    case ValueFormat::kInteger:
      return QStringLiteral("Integer (8, 4, 2 bytes, big-endian)");
    case ValueFormat::kFloat:
      return QStringLiteral("Float (double or float)");
    case ValueFormat::kEpochMillis:
      return QStringLiteral("Epoch timestamp (ms, UTC)");
    case ValueFormat::kJson:
      return QStringLiteral("JSON");
  }
  return {};
}

FormattedValue formatValue(BytesView bytes, ValueFormat format) {
  switch (format) {
    case ValueFormat::kEscaped:
      return {escaped(bytes), {}};
    case ValueFormat::kHex:
      return {QString::fromStdString(toHex(bytes)), {}};
    case ValueFormat::kInteger:
      return formatInteger(bytes);
    case ValueFormat::kFloat:
      return formatFloat(bytes);
    case ValueFormat::kEpochMillis:
      return formatEpoch(bytes);
    case ValueFormat::kJson:
      return formatJson(bytes);
  }
  return {escaped(bytes), {}};
}

QString formatEpochMillis(int64_t millis) {
  const QDateTime time = QDateTime::fromMSecsSinceEpoch(millis, QTimeZone::utc());
  if (!time.isValid()) return QStringLiteral("%1 ms").arg(millis);
  const QDate date = time.date();
  const QTime clock = time.time();
  // By hand rather than QDateTime::toString, which pads and cuts years to four digits.
  return QStringLiteral("%1-%2-%3 %4:%5:%6.%7 UTC")
      .arg(date.year(), 4, 10, QLatin1Char('0'))
      .arg(date.month(), 2, 10, QLatin1Char('0'))
      .arg(date.day(), 2, 10, QLatin1Char('0'))
      .arg(clock.hour(), 2, 10, QLatin1Char('0'))
      .arg(clock.minute(), 2, 10, QLatin1Char('0'))
      .arg(clock.second(), 2, 10, QLatin1Char('0'))
      .arg(clock.msec(), 3, 10, QLatin1Char('0'));
}

}  // namespace keyscope
