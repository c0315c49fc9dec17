// Column names to roles for CSV import (see csv_columns.h).
#include "csv/csv_columns.h"

#include <set>

namespace keyscope::csv {

namespace {

constexpr std::string_view kComponentPrefix = "row.";

Status columnError(size_t index, const std::string& name, const std::string& what) {
  return Status::invalidArgument("column " + std::to_string(index + 1) + " '" + toStringBinary(name) + "': " + what);
}

bool isLongName(const std::string& name) {
  return name == "family" || name == "qualifier" || name == "type" || name == "value";
}

}  // namespace

Result<ColumnBinding> bindColumns(const std::vector<std::string>& names, CsvLayout layout, const TableOptions& table,
                                  const std::string& schemaText) {
  ColumnBinding binding;
  if (names.empty()) return Status::invalidArgument("no columns");
  if (layout == CsvLayout::kAuto) {
    layout = CsvLayout::kWide;
    for (const std::string& name : names) {
      if (name == "family") layout = CsvLayout::kLong;
    }
  }
  binding.layout = layout;
  const bool isLong = layout == CsvLayout::kLong;

  auto setOnce = [&](std::optional<size_t>& slot, size_t i, const std::string& name) -> Status {
    if (slot) return columnError(i, name, "named twice (first as column " + std::to_string(*slot + 1) + ")");
    slot = i;
    return Status::ok();
  };

  std::vector<std::pair<size_t, std::string>> componentColumns;  // column index, component name
  std::set<std::pair<std::string, Bytes>> cells;
  for (size_t i = 0; i < names.size(); ++i) {
    const std::string& name = names[i];
    BoundColumn column;
    column.name = name;
    Status status;
    if (name == "row" || name == "HBASE_ROW_KEY") {
      column.role = ColumnRole::kRowKey;
      status = setOnce(binding.rowKey, i, name);
    } else if (name == "timestamp" || name == "HBASE_TS_KEY") {
      column.role = ColumnRole::kTimestamp;
      status = setOnce(binding.timestamp, i, name);
    } else if (name == "-" || name == "HBASE_SKIP") {
      column.role = ColumnRole::kSkip;
    } else if (name.starts_with(kComponentPrefix)) {
      column.role = ColumnRole::kComponent;
      componentColumns.emplace_back(i, name.substr(kComponentPrefix.size()));
    } else if (name.starts_with("HBASE_")) {
      return columnError(i, name, "not supported (known: HBASE_ROW_KEY, HBASE_TS_KEY, HBASE_SKIP)");
    } else if (isLong && isLongName(name)) {
      column.role = name == "family" ? ColumnRole::kFamily
                    : name == "qualifier" ? ColumnRole::kQualifier
                    : name == "type" ? ColumnRole::kType
                                     : ColumnRole::kValue;
      std::optional<size_t>& slot = name == "family" ? binding.family
                                    : name == "qualifier" ? binding.qualifier
                                    : name == "type" ? binding.type
                                                     : binding.value;
      status = setOnce(slot, i, name);
    } else if (isLong) {
      return columnError(i, name,
                         "not a column of the long layout (row, family, qualifier, timestamp, type, value, row.NAME, -)");
    } else {
      // family:qualifier, or a bare family (the empty qualifier), as ImportTsv reads them.
      const size_t colon = name.find(':');
      column.role = ColumnRole::kCell;
      column.family = name.substr(0, colon);
      column.qualifier = colon == std::string::npos ? Bytes() : fromStringBinary(std::string_view(name).substr(colon + 1));
      if (column.family.empty()) return columnError(i, name, "no family before ':'");
      if (table.family(column.family) == nullptr)
        return columnError(i, name, "table '" + table.name + "' has no column family '" + column.family + "'");
      if (column.qualifier.size() > kMaxQualifierSize)
        return columnError(i, name, "qualifier of " + std::to_string(column.qualifier.size()) +
                                        " bytes is longer than the limit of " + std::to_string(kMaxQualifierSize));
      if (!cells.insert({column.family, column.qualifier}).second) return columnError(i, name, "named twice");
    }
    if (!status) return status;
    binding.columns.push_back(std::move(column));
  }

  if (isLong && !binding.family) return Status::invalidArgument("the long layout needs a 'family' column");
  if (!isLong && cells.empty())
    return Status::invalidArgument("no family:qualifier column to import (name at least one, e.g. d:name)");

  if (binding.rowKey) {
    if (!componentColumns.empty()) {
      std::string list;
      for (const auto& [i, component] : componentColumns) list += (list.empty() ? "" : ", ") + names[i];
      binding.notes.push_back("not read: " + list + " (the row column gives the key)");
      for (const auto& [i, component] : componentColumns) binding.columns[i].role = ColumnRole::kSkip;
    }
    return binding;
  }
  if (componentColumns.empty())
    return Status::invalidArgument(
        "no row key column: name one 'row' (or HBASE_ROW_KEY), or build the key from row.NAME columns and a key schema");
  const std::string& text = schemaText.empty() ? table.keySchema : schemaText;
  if (text.empty())
    return Status::invalidArgument("columns row.NAME build the key from a key schema, and there is none "
                                   "(give one, or set one on the table)");
  Result<KeySchema> schema = KeySchema::parse(text);
  if (!schema) return Status::invalidArgument("key schema: " + schema.status().message());
  std::vector<bool> bound(schema->size(), false);
  for (const auto& [i, component] : componentColumns) {
    std::optional<size_t> index = schema->indexOf(component);
    if (!index) return columnError(i, names[i], "the key schema has no component '" + component + "'");
    if (bound[*index]) return columnError(i, names[i], "named twice");
    bound[*index] = true;
    binding.columns[i].component = *index;
  }
  for (size_t c = 0; c < schema->size(); ++c) {
    if (!bound[c] && !(*schema)[c].isDerived())
      return Status::invalidArgument("key component '" + (*schema)[c].name + "' has no column (name one row." +
                                     (*schema)[c].name + ")");
  }
  binding.schema = std::move(schema).value();
  return binding;
}

}  // namespace keyscope::csv
