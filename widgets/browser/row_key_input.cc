// Row-key input (see row_key_input.h). Pure functions.
#include "browser/row_key_input.h"

#include "keyscope/byte_format.h"
#include "keyscope/key_codec.h"
#include "keyscope/key_json.h"

namespace keyscope {

Result<Bytes> parseRowKeyInput(const QString& text, RowKeyInputKind kind,
                               const std::optional<KeySchema>& schema) {
  const std::string utf8 = text.toStdString();
  switch (kind) {
    case RowKeyInputKind::kEscaped:
      return fromStringBinary(utf8);
    case RowKeyInputKind::kHex:
      return parseBytes(utf8, ByteFormat::kHex);
    case RowKeyInputKind::kComponents: {
      if (!schema)
        return Status::invalidArgument("the table has no key schema to encode components with");
      Result<KeyTuple> tuple = tupleFromJson(*schema, utf8);
      if (!tuple) return tuple.status();
      return encodeKey(*schema, tuple.value());
    }
  }
  return Status::invalidArgument("unknown key input kind");
}

std::optional<QString> formatRowKeyInput(BytesView key, RowKeyInputKind kind,
                                         const std::optional<KeySchema>& schema) {
  switch (kind) {
    case RowKeyInputKind::kEscaped:
      return QString::fromStdString(toStringBinary(key));
    case RowKeyInputKind::kHex:
      return QString::fromStdString(toHex(key));
    case RowKeyInputKind::kComponents: {
      if (!schema) return std::nullopt;
      const DecodedKey decoded = decodeKey(*schema, key);
      if (!decoded.ok()) return std::nullopt;
      return QString::fromStdString(tupleToJson(*schema, decoded.values));
    }
  }
  return std::nullopt;
}

QString rowKeyPlaceholder(RowKeyInputKind kind) {
  switch (kind) {
    case RowKeyInputKind::kEscaped:
      return QStringLiteral("row key, e.g. user\\x00\\x01");
    case RowKeyInputKind::kHex:
      return QStringLiteral("hex, e.g. 75736572 0001");
    case RowKeyInputKind::kComponents:
      return QStringLiteral("components, e.g. [\"sys.cpu\", 1709251200]");
  }
  return {};
}

}  // namespace keyscope
