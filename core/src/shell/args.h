// Typed readers over parsed argument values, shared by the command builders.
// Every error is InvalidArgument positioned at the value at fault.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "keyscope/shell_command.h"
#include "keyscope/status.h"
#include "shell/source_text.h"
#include "shell/syntax.h"

namespace keyscope::shell {

Status errorAt(const SourceText& src, const Value& value, const std::string& what);

// A table name: a string.
Result<std::string> readTableName(const SourceText& src, const Value& value);
// Bytes as HBase's shell takes them (value.to_s.to_java_bytes): a string, or
// an integer, true, false or nil as Ruby prints it ("5", "true", "").
Result<Bytes> readBytes(const SourceText& src, const Value& value, std::string_view what);

// The table and row that get, put, delete, incr and get_counter take as their
// first two arguments. REQUIRES: at least two arguments (the arity is checked).
struct TableAndRow {
  std::string table;
  Bytes row;
};
Result<TableAndRow> readTableAndRow(const SourceText& src, const RawStatement& statement);
// A string written as text (not a Bytes.toBytes helper): names, filters, regexes.
Result<std::string> readText(const SourceText& src, const Value& value, std::string_view what);
// An integer in [min, max]; with `digitStrings`, '3' too (as Java's Integer.valueOf reads it).
Result<int64_t> readInteger(const SourceText& src, const Value& value, std::string_view what, int64_t min,
                            int64_t max, bool digitStrings = false);
Result<bool> readBool(const SourceText& src, const Value& value, std::string_view what);
// A timestamp: 0 .. LATEST_TIMESTAMP.
Result<int64_t> readTimestamp(const SourceText& src, const Value& value, std::string_view what);

// A column: FAMILY or FAMILY:QUALIFIER. Reads take FAMILY:QUALIFIER:FORMATTER
// as HBase's parse_column_format_spec splits it (a second ':' starts a
// formatter, which must be known); writes take everything after the first
// ':' as the qualifier, so qualifiers with ':' can be written (HBase 2's put
// would silently drop the part after a second ':').
struct ColumnSpec {
  std::string family;
  std::optional<Bytes> qualifier;
  std::optional<ValueFormatter> formatter;
};
enum class ColumnUse : uint8_t { kRead, kWrite };
Result<ColumnSpec> readColumn(const SourceText& src, const Value& value, ColumnUse use);

// toLong, c(org.apache.hadoop.hbase.util.Bytes).toLong, ...
std::optional<ValueFormatter> formatterFromName(std::string_view name);

// A {KEY => value} map read key by key; finish() rejects what is left.
class OptionMap {
 public:
  // `context` names the command in messages ("scan"). `value` must be a map.
  OptionMap(const SourceText& src, const Value& value, std::string context);

  const Value* take(std::string_view key);
  bool has(std::string_view key) const;
  // Unknown and unsupported keys left over are errors; `accepted` lists the
  // keys the command takes, for the message.
  Status finish(const std::vector<std::string_view>& accepted) const;

 private:
  const SourceText& m_src;
  const Value& m_value;
  std::string m_context;
  std::vector<bool> m_taken;
};

// Maps an inner parser's "column N: message" error (the filter language, key
// schemas) to the shell position of byte N-1 of the string `value`.
Status mapInnerError(const SourceText& src, const Value& value, const Status& inner, std::string_view what);

}  // namespace keyscope::shell
