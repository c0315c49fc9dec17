// CSV records to mutations (see record_mapper.h).
#include "csv/record_mapper.h"

#include <charconv>

#include "csv/key_text.h"

namespace keyscope::csv {

namespace {

// Bookkeeping bytes per cell in a batch (family, timestamp, vectors): only
// for sizing batches, so a rough figure is enough.
constexpr size_t kCellOverhead = 48;

std::optional<CellType> cellTypeFromName(std::string_view name) {
  for (CellType t : {CellType::kPut, CellType::kDelete, CellType::kDeleteColumn, CellType::kDeleteFamily,
                     CellType::kDeleteFamilyVersion}) {
    if (name == cellTypeName(t)) return t;
  }
  return std::nullopt;
}

DeleteScope scopeOf(CellType type) {
  switch (type) {
    case CellType::kDelete: return DeleteScope::kColumnVersion;
    case CellType::kDeleteColumn: return DeleteScope::kColumnAll;
    case CellType::kDeleteFamily: return DeleteScope::kFamily;
    default: return DeleteScope::kFamilyVersion;
  }
}

}  // namespace

RecordMapper::RecordMapper(const ColumnBinding& binding, const TableOptions& table, ByteFormat bytes,
                           bool skipEmptyValues, int64_t defaultTimestamp)
    : m_binding(binding),
      m_table(table),
      m_bytes(bytes),
      m_skipEmptyValues(skipEmptyValues),
      m_defaultTimestamp(defaultTimestamp) {}

Status RecordMapper::fieldError(size_t index, const std::string& what) const {
  return Status::invalidArgument("field " + std::to_string(index + 1) + " (" +
                                 toStringBinary(m_binding.columns[index].name) + "): " + what);
}

Result<Bytes> RecordMapper::rowKey(const CsvRecord& record) {
  Bytes row;
  if (m_binding.rowKey) {
    Result<Bytes> parsed = parseBytes(record.fields[*m_binding.rowKey], m_bytes);
    if (!parsed) return fieldError(*m_binding.rowKey, parsed.status().message());
    row = std::move(parsed).value();
  } else {
    const KeySchema& schema = *m_binding.schema;
    m_tuple.assign(schema.size(), ComponentValue{});
    for (size_t i = 0; i < m_binding.columns.size(); ++i) {
      const BoundColumn& column = m_binding.columns[i];
      if (column.role != ColumnRole::kComponent) continue;
      Result<ComponentValue> value = componentFromText(schema[column.component], record.fields[i], m_bytes);
      if (!value) return fieldError(i, value.status().message());
      m_tuple[column.component] = std::move(value).value();
    }
    Result<Bytes> key = encodeKey(schema, m_tuple);
    if (!key) return Status::invalidArgument("row key: " + key.status().message());
    row = std::move(key).value();
  }
  if (row.empty()) return Status::invalidArgument("the row key is empty");
  if (row.size() > kMaxRowKeySize)
    return Status::invalidArgument("row key of " + std::to_string(row.size()) + " bytes is longer than the limit of " +
                                   std::to_string(kMaxRowKeySize));
  return row;
}

Result<int64_t> RecordMapper::timestamp(const CsvRecord& record) const {
  if (!m_binding.timestamp) return m_defaultTimestamp;
  const std::string& text = record.fields[*m_binding.timestamp];
  int64_t ts = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, ts);
  if (text.empty() || ec != std::errc() || ptr != end || ts < 0)
    return fieldError(*m_binding.timestamp, "expected a timestamp (milliseconds, 0 or more), got '" +
                                                toStringBinary(text.substr(0, 40)) + "'");
  if (ts == kLatestTimestamp) return fieldError(*m_binding.timestamp, "9223372036854775807 is reserved (LATEST_TIMESTAMP)");
  return ts;
}

Result<size_t> RecordMapper::map(const CsvRecord& record, std::vector<Mutation>* out, size_t* bytes) {
  if (record.fields.size() != m_binding.columns.size())
    return Status::invalidArgument("expected " + std::to_string(m_binding.columns.size()) + " fields, got " +
                                   std::to_string(record.fields.size()));
  Result<Bytes> row = rowKey(record);
  if (!row) return row.status();
  Result<int64_t> ts = timestamp(record);
  if (!ts) return ts.status();
  if (m_binding.layout == CsvLayout::kLong) return mapLong(record, std::move(row).value(), *ts, out, bytes);
  return mapWide(record, std::move(row).value(), *ts, out, bytes);
}

Result<size_t> RecordMapper::mapWide(const CsvRecord& record, Bytes row, int64_t ts, std::vector<Mutation>* out,
                                     size_t* bytes) {
  Put put;
  put.row = std::move(row);
  size_t size = put.row.size();
  for (size_t i = 0; i < m_binding.columns.size(); ++i) {
    const BoundColumn& column = m_binding.columns[i];
    if (column.role != ColumnRole::kCell) continue;
    const std::string& field = record.fields[i];
    if (field.empty() && m_skipEmptyValues) continue;
    Result<Bytes> value = parseBytes(field, m_bytes);
    if (!value) return fieldError(i, value.status().message());
    if (value->size() > kMaxValueSize)
      return fieldError(i, "value of " + std::to_string(value->size()) + " bytes is larger than the limit of " +
                               std::to_string(kMaxValueSize));
    size += column.qualifier.size() + value->size() + kCellOverhead;
    put.cells.push_back({column.family, column.qualifier, ts, std::move(value).value()});
  }
  const size_t cells = put.cells.size();
  if (cells > 0) {
    out->emplace_back(std::move(put));
    *bytes += size;
  }
  return cells;
}

Result<size_t> RecordMapper::mapLong(const CsvRecord& record, Bytes row, int64_t ts, std::vector<Mutation>* out,
                                     size_t* bytes) {
  const size_t familyAt = *m_binding.family;
  const std::string& family = record.fields[familyAt];
  if (m_table.family(family) == nullptr)
    return fieldError(familyAt, "table '" + m_table.name + "' has no column family '" + toStringBinary(family) + "'");
  Bytes qualifier;
  if (m_binding.qualifier) {
    Result<Bytes> q = parseBytes(record.fields[*m_binding.qualifier], m_bytes);
    if (!q) return fieldError(*m_binding.qualifier, q.status().message());
    if (q->size() > kMaxQualifierSize)
      return fieldError(*m_binding.qualifier, "qualifier of " + std::to_string(q->size()) +
                                                  " bytes is longer than the limit of " + std::to_string(kMaxQualifierSize));
    qualifier = std::move(q).value();
  }
  CellType type = CellType::kPut;
  if (m_binding.type) {
    std::optional<CellType> t = cellTypeFromName(record.fields[*m_binding.type]);
    if (!t)
      return fieldError(*m_binding.type, "unknown cell type '" + toStringBinary(record.fields[*m_binding.type]) +
                                             "' (Put, Delete, DeleteColumn, DeleteFamily, DeleteFamilyVersion)");
    type = *t;
  }
  Bytes value;
  if (m_binding.value) {
    Result<Bytes> v = parseBytes(record.fields[*m_binding.value], m_bytes);
    if (!v) return fieldError(*m_binding.value, v.status().message());
    if (v->size() > kMaxValueSize)
      return fieldError(*m_binding.value, "value of " + std::to_string(v->size()) +
                                              " bytes is larger than the limit of " + std::to_string(kMaxValueSize));
    value = std::move(v).value();
  }
  const size_t size = row.size() + qualifier.size() + value.size() + kCellOverhead;
  if (type == CellType::kPut) {
    *bytes += size;
    // Consecutive cells of one row go into one Put.
    Put* last = out->empty() ? nullptr : std::get_if<Put>(&out->back());
    if (last != nullptr && last->row == row) {
      last->cells.push_back({family, std::move(qualifier), ts, std::move(value)});
    } else {
      out->emplace_back(Put{std::move(row), {{family, std::move(qualifier), ts, std::move(value)}}});
    }
    return size_t{1};
  }
  if (!value.empty() && m_binding.value)
    return fieldError(*m_binding.value, std::string("a ") + cellTypeName(type) + " marker has no value");
  if (isFamilyDeleteType(type) && !qualifier.empty() && m_binding.qualifier)
    return fieldError(*m_binding.qualifier, std::string("a ") + cellTypeName(type) + " marker has no qualifier");
  *bytes += size;
  Delete del;
  del.row = std::move(row);
  del.timestamp = ts;
  del.specs.push_back({scopeOf(type), family, std::move(qualifier), ts});
  out->emplace_back(std::move(del));
  return size_t{1};
}

}  // namespace keyscope::csv
