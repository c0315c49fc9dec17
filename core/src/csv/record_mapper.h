// RecordMapper: one CSV record to the mutations it writes, checked exactly as
// the engine will check them (row key, family, size limits, timestamps), so
// that a record it accepts never makes a write fail and a validation pass
// (BadLines::kFail) can promise that the write pass will go through.
// Not thread-safe; one mapper per import pass.
#pragma once

#include <vector>

#include "csv/csv_columns.h"
#include "keyscope/key_codec.h"
#include "keyscope/csv.h"
#include "keyscope/workspace.h"

namespace keyscope::csv {

class RecordMapper {
 public:
  // `binding` and `table` must outlive the mapper.
  RecordMapper(const ColumnBinding& binding, const TableOptions& table, ByteFormat bytes, bool skipEmptyValues,
               int64_t defaultTimestamp);

  // Appends the record's mutations to *out and returns the number of cells
  // (and markers) they hold, adding their approximate size to *bytes. On an
  // error nothing is appended; the message says where, without the line:
  // "field 3 (d:age): bad hex digit 'g' at character 2".
  Result<size_t> map(const CsvRecord& record, std::vector<Mutation>* out, size_t* bytes);

 private:
  Status fieldError(size_t index, const std::string& what) const;
  Result<Bytes> rowKey(const CsvRecord& record);
  Result<int64_t> timestamp(const CsvRecord& record) const;
  Result<size_t> mapWide(const CsvRecord& record, Bytes row, int64_t ts, std::vector<Mutation>* out, size_t* bytes);
  Result<size_t> mapLong(const CsvRecord& record, Bytes row, int64_t ts, std::vector<Mutation>* out, size_t* bytes);

  const ColumnBinding& m_binding;
  const TableOptions& m_table;
  ByteFormat m_bytes;
  bool m_skipEmptyValues;
  int64_t m_defaultTimestamp;
  KeyTuple m_tuple;  // reused
};

}  // namespace keyscope::csv
