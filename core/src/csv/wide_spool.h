// WideSpool: the rows of a wide export parked in a temporary file while its
// column set is still growing; replayed once the header can be written.
//
// Record layout in the file (varint: LEB128, 7 bits per byte, low first):
//   varint row length, row bytes, varint cell count,
//   then per cell: varint column index (order of first appearance),
//                  varint value length, value bytes
// The file is std::tmpfile(): unnamed, deleted when closed or at exit.
// Memory holds the column names only. Not thread-safe.
#pragma once

#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "keyscope/bytes.h"
#include "keyscope/status.h"
#include "keyscope/workspace.h"

namespace keyscope::csv {

using ColumnName = std::pair<std::string, Bytes>;  // family, qualifier

class WideSpool {
 public:
  // IOError when no temporary file can be made.
  static Result<std::unique_ptr<WideSpool>> create();
  ~WideSpool();
  WideSpool(const WideSpool&) = delete;
  WideSpool& operator=(const WideSpool&) = delete;

  Status add(const RowResult& row);
  size_t columnCount() const { return m_names.size(); }

  // The columns in (family, qualifier) byte order.
  std::vector<ColumnName> sortedColumns() const;

  // Calls visit for each row added, in order, with the row's cells as
  // (index into sortedColumns(), value). Stops at the first error.
  using Visitor = std::function<Status(BytesView row, const std::vector<std::pair<size_t, Bytes>>& cells)>;
  Status replay(const Visitor& visit);

 private:
  explicit WideSpool(std::FILE* file) : m_file(file) {}
  void putVarint(uint64_t v);
  bool getVarint(uint64_t* v);
  bool getBytes(size_t n, Bytes* out);

  std::FILE* m_file;
  std::map<ColumnName, uint32_t> m_index;
  std::vector<ColumnName> m_names;  // by index
  std::string m_buffer;             // one row's record before it is written
};

}  // namespace keyscope::csv
