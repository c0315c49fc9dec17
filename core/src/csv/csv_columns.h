// Binding an import's column names (from a spec or a header) to what each
// CSV column feeds: the row key or one of its components, the timestamp, a
// cell, or a long-layout coordinate. The names are those of csv_table.h.
// Pure values; thread-safe once built.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "keyscope/csv_table.h"
#include "keyscope/key_schema.h"
#include "keyscope/options.h"

namespace keyscope::csv {

enum class ColumnRole : uint8_t {
  kRowKey,
  kComponent,  // row.NAME
  kTimestamp,
  kCell,       // wide: family:qualifier
  kFamily,     // long
  kQualifier,  // long
  kType,       // long
  kValue,      // long
  kSkip,
};

struct BoundColumn {
  ColumnRole role = ColumnRole::kSkip;
  std::string name;       // as written
  std::string family;     // kCell
  Bytes qualifier;        // kCell
  size_t component = 0;   // kComponent: index in the schema (when the key is built from components)
};

struct ColumnBinding {
  CsvLayout layout = CsvLayout::kWide;
  std::vector<BoundColumn> columns;  // one per CSV column
  // Where each thing comes from (an index into columns).
  std::optional<size_t> rowKey, timestamp, family, qualifier, type, value;
  // The key is built from row.NAME columns (there is no row column).
  std::optional<KeySchema> schema;
  std::vector<std::string> notes;
};

// Binds `names` for an import into `table`. `layout` kAuto picks long when a
// column is named "family". `schemaText` (or, when empty, the table's own
// schema) resolves row.NAME columns. Errors name the column:
// "column 3 'x:q': table 't' has no column family 'x'".
Result<ColumnBinding> bindColumns(const std::vector<std::string>& names, CsvLayout layout, const TableOptions& table,
                                  const std::string& schemaText);

}  // namespace keyscope::csv
