#include "shell/args.h"

#include <algorithm>
#include <charconv>
#include <limits>

#include "shell/lexer.h"

namespace keyscope::shell {

namespace {

// HBase options Keyscope knows of but does not implement: named as such, not
// as typos.
const std::vector<std::string_view>& unsupportedOptions() {
  static const std::vector<std::string_view> kNames = {
      "IN_MEMORY", "BLOCKCACHE", "DATA_BLOCK_ENCODING", "REPLICATION_SCOPE", "COMPRESSION_COMPACT",
      "MOB_THRESHOLD", "IS_MOB", "NEW_VERSION_BEHAVIOR", "CONFIGURATION", "METADATA", "SPLITS_FILE",
      "READONLY", "DURABILITY", "REGION_REPLICATION", "NORMALIZATION_ENABLED", "OWNER",
      "ATTRIBUTES", "VISIBILITY", "AUTHORIZATIONS", "CONSISTENCY", "ISOLATION_LEVEL", "REGION_REPLICA_ID",
      "READ_TYPE", "ALLOW_PARTIAL_RESULTS", "METRICS"};
  return kNames;
}

std::string keyText(const SourceText& src, const Value& key) {
  return std::string(src.text().substr(key.offset, key.end - key.offset));
}

}  // namespace

Status errorAt(const SourceText& src, const Value& value, const std::string& what) {
  return src.errorAt(value.offset, what);
}

namespace {

// "a string" is not what a Bytes.toBytes(...) result is to its reader.
std::string kindOf(const Value& value) {
  return value.fromBytesHelper ? "Bytes.toBytes(...) bytes" : value.kindName();
}

}  // namespace

Result<std::string> readTableName(const SourceText& src, const Value& value) {
  if (!value.isString() || value.fromBytesHelper)
    return errorAt(src, value, "expected a table name (a string), got " + kindOf(value));
  if (value.bytes.empty()) return errorAt(src, value, "a table name cannot be empty");
  return value.bytes;
}

Result<TableAndRow> readTableAndRow(const SourceText& src, const RawStatement& statement) {
  Result<std::string> table = readTableName(src, statement.args[0]);
  if (!table) return table.status();
  Result<Bytes> row = readBytes(src, statement.args[1], "row");
  if (!row) return row.status();
  return TableAndRow{std::move(table).value(), std::move(row).value()};
}

Result<Bytes> readBytes(const SourceText& src, const Value& value, std::string_view what) {
  switch (value.kind) {
    case Value::Kind::kString: return value.bytes;
    case Value::Kind::kInteger: return std::to_string(value.integer);
    case Value::Kind::kBool: return std::string(value.boolean ? "true" : "false");
    case Value::Kind::kNil: return Bytes();
    default:
      return errorAt(src, value, std::string(what) + ": expected a string, got " + value.kindName());
  }
}

Result<std::string> readText(const SourceText& src, const Value& value, std::string_view what) {
  if (!value.isString() || value.fromBytesHelper)
    return errorAt(src, value, std::string(what) + ": expected a string, got " + kindOf(value));
  return value.bytes;
}

Result<int64_t> readInteger(const SourceText& src, const Value& value, std::string_view what, int64_t min,
                            int64_t max, bool digitStrings) {
  int64_t n = 0;
  if (value.kind == Value::Kind::kInteger) {
    n = value.integer;
  } else if (digitStrings && value.isString() && !value.fromBytesHelper && !value.bytes.empty()) {
    const char* first = value.bytes.data();
    const char* last = first + value.bytes.size();
    auto [ptr, ec] = std::from_chars(first, last, n);
    if (ec != std::errc() || ptr != last)
      return errorAt(src, value, std::string(what) + ": expected an integer, got '" + toStringBinary(value.bytes) + "'");
  } else {
    return errorAt(src, value, std::string(what) + ": expected an integer, got " + value.kindName());
  }
  if (n < min || n > max) {
    std::string range = "at least " + std::to_string(min);
    if (max != std::numeric_limits<int64_t>::max()) range = "between " + std::to_string(min) + " and " + std::to_string(max);
    return errorAt(src, value, std::string(what) + " must be " + range + ", got " + std::to_string(n));
  }
  return n;
}

Result<bool> readBool(const SourceText& src, const Value& value, std::string_view what) {
  if (value.kind != Value::Kind::kBool)
    return errorAt(src, value, std::string(what) + ": expected true or false, got " + value.kindName());
  return value.boolean;
}

Result<int64_t> readTimestamp(const SourceText& src, const Value& value, std::string_view what) {
  if (value.kind != Value::Kind::kInteger)
    return errorAt(src, value, std::string(what) + ": expected a timestamp (an integer), got " + value.kindName());
  if (value.integer < 0)
    return errorAt(src, value, std::string(what) + ": timestamps cannot be negative, got " + std::to_string(value.integer));
  return value.integer;
}

std::optional<ValueFormatter> formatterFromName(std::string_view name) {
  constexpr std::string_view kClassPrefix = "c(org.apache.hadoop.hbase.util.Bytes).";
  if (name.substr(0, kClassPrefix.size()) == kClassPrefix) name.remove_prefix(kClassPrefix.size());
  static const std::pair<std::string_view, ValueFormatter> kNames[] = {
      {"toStringBinary", ValueFormatter::kToStringBinary}, {"toString", ValueFormatter::kToString},
      {"toLong", ValueFormatter::kToLong},                 {"toInt", ValueFormatter::kToInt},
      {"toShort", ValueFormatter::kToShort},               {"toDouble", ValueFormatter::kToDouble},
      {"toFloat", ValueFormatter::kToFloat},               {"toBoolean", ValueFormatter::kToBoolean},
      {"toHex", ValueFormatter::kToHex},
  };
  for (const auto& [n, f] : kNames) {
    if (n == name) return f;
  }
  return std::nullopt;
}

Result<ColumnSpec> readColumn(const SourceText& src, const Value& value, ColumnUse use) {
  Result<Bytes> text = readBytes(src, value, "a column");
  if (!text) return text.status();
  const Bytes& spec = *text;
  ColumnSpec column;
  const size_t colon = spec.find(':');
  column.family = spec.substr(0, colon);
  if (column.family.empty())
    return errorAt(src, value, "a column is 'family' or 'family:qualifier', got '" + toStringBinary(spec) + "'");
  if (colon == std::string::npos) return column;
  Bytes rest = spec.substr(colon + 1);
  const size_t second = use == ColumnUse::kRead ? rest.find(':') : std::string::npos;
  if (second != std::string::npos) {
    const std::string name = rest.substr(second + 1);
    std::optional<ValueFormatter> formatter = formatterFromName(name);
    if (!formatter)
      return errorAt(src, value, "unknown formatter '" + toStringBinary(name) + "' in column '" + toStringBinary(spec) +
                                     "' (as in HBase, a second ':' starts a formatter such as toLong)");
    column.formatter = formatter;
    rest.resize(second);
  }
  column.qualifier = rest;
  return column;
}

OptionMap::OptionMap(const SourceText& src, const Value& value, std::string context)
    : m_src(src), m_value(value), m_context(std::move(context)), m_taken(value.entries.size(), false) {}

const Value* OptionMap::take(std::string_view key) {
  for (size_t i = 0; i < m_value.entries.size(); ++i) {
    const Value& k = m_value.entries[i].key;
    if (k.isString() && k.bytes == key) {
      m_taken[i] = true;
      return &m_value.entries[i].value;
    }
  }
  return nullptr;
}

bool OptionMap::has(std::string_view key) const {
  return std::any_of(m_value.entries.begin(), m_value.entries.end(),
                     [&](const MapEntry& e) { return e.key.isString() && e.key.bytes == key; });
}

Status OptionMap::finish(const std::vector<std::string_view>& accepted) const {
  for (size_t i = 0; i < m_value.entries.size(); ++i) {
    if (m_taken[i]) continue;
    const Value& key = m_value.entries[i].key;
    if (!key.isString())
      return errorAt(m_src, key, std::string("option names are strings such as VERSIONS, not ") + key.kindName());
    const std::string& name = key.bytes;
    const auto& unsupported = unsupportedOptions();
    if (std::find(unsupported.begin(), unsupported.end(), name) != unsupported.end())
      return errorAt(m_src, key, m_context + ": " + name + " is not supported by Keyscope");
    if (std::find(accepted.begin(), accepted.end(), name) != accepted.end())
      return errorAt(m_src, key, m_context + ": " + name + " cannot be used here");
    std::string list;
    for (std::string_view a : accepted) list += (list.empty() ? "" : ", ") + std::string(a);
    if (accepted.empty()) return errorAt(m_src, key, "unknown " + m_context + " option " + keyText(m_src, key) + "; " + m_context + " takes no options");
    std::string suggestion = didYouMean(name, accepted);
    return errorAt(m_src, key, "unknown " + m_context + " option " + keyText(m_src, key) + suggestion +
                                   (suggestion.empty() ? "; " + m_context + " takes " + list : ""));
  }
  return Status::ok();
}

Status mapInnerError(const SourceText& src, const Value& value, const Status& inner, std::string_view what) {
  const std::string& message = inner.message();
  constexpr std::string_view kColumn = "column ";
  size_t column = 0;
  if (message.compare(0, kColumn.size(), kColumn) == 0) {
    const char* first = message.data() + kColumn.size();
    const char* last = message.data() + message.size();
    auto [ptr, ec] = std::from_chars(first, last, column);
    if (ec == std::errc() && ptr + 1 < last && ptr[0] == ':' && ptr[1] == ' ' && column > 0 && !value.literalStarts.empty()) {
      const size_t offset = sourceOffsetOfByte(src.text(), value.literalStarts, column - 1);
      return src.errorAt(offset, std::string(what) + ": " + std::string(ptr + 2));
    }
  }
  return errorAt(src, value, std::string(what) + ": " + message);
}

}  // namespace keyscope::shell
