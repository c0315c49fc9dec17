// WideSpool (see wide_spool.h).
#include "csv/wide_spool.h"

#include <algorithm>

namespace keyscope::csv {

Result<std::unique_ptr<WideSpool>> WideSpool::create() {
  std::FILE* file = std::tmpfile();
  if (file == nullptr) return Status::ioError("cannot create a temporary file for the wide layout's rows");
  return std::unique_ptr<WideSpool>(new WideSpool(file));
}

WideSpool::~WideSpool() { std::fclose(m_file); }

void WideSpool::putVarint(uint64_t v) {
  while (v >= 0x80) {
    m_buffer.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  m_buffer.push_back(static_cast<char>(v));
}

bool WideSpool::getVarint(uint64_t* v) {
  *v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    const int c = std::getc(m_file);
    if (c == EOF) return false;
    *v |= static_cast<uint64_t>(c & 0x7f) << shift;
    if ((c & 0x80) == 0) return true;
  }
  return false;
}

bool WideSpool::getBytes(size_t n, Bytes* out) {
  out->resize(n);
  return n == 0 || std::fread(out->data(), 1, n, m_file) == n;
}

Status WideSpool::add(const RowResult& row) {
  m_buffer.clear();
  putVarint(row.row.size());
  m_buffer += row.row;
  putVarint(row.cells.size());
  for (const Cell& cell : row.cells) {
    auto [it, inserted] = m_index.try_emplace(ColumnName(cell.family, cell.qualifier), static_cast<uint32_t>(m_names.size()));
    if (inserted) m_names.push_back(it->first);
    putVarint(it->second);
    putVarint(cell.value.size());
    m_buffer += cell.value;
  }
  if (std::fwrite(m_buffer.data(), 1, m_buffer.size(), m_file) != m_buffer.size())
    return Status::ioError("writing the wide layout's temporary file failed (disk full?)");
  return Status::ok();
}

std::vector<ColumnName> WideSpool::sortedColumns() const {
  std::vector<ColumnName> sorted;
  sorted.reserve(m_index.size());
  for (const auto& [name, index] : m_index) sorted.push_back(name);  // a std::map iterates in key order
  return sorted;
}

Status WideSpool::replay(const Visitor& visit) {
  // Index of first appearance -> position in the sorted columns.
  std::vector<size_t> position(m_names.size());
  size_t p = 0;
  for (const auto& [name, index] : m_index) position[index] = p++;
  if (std::fflush(m_file) != 0 || std::fseek(m_file, 0, SEEK_SET) != 0)
    return Status::ioError("rewinding the wide layout's temporary file failed");
  const Status damaged = Status::ioError("reading back the wide layout's temporary file failed");
  Bytes row;
  std::vector<std::pair<size_t, Bytes>> cells;
  for (;;) {
    uint64_t rowSize = 0;
    const int c = std::getc(m_file);
    if (c == EOF) break;
    std::ungetc(c, m_file);
    uint64_t count = 0;
    if (!getVarint(&rowSize) || !getBytes(rowSize, &row) || !getVarint(&count)) return damaged;
    cells.resize(count);
    for (auto& [column, value] : cells) {
      uint64_t index = 0, size = 0;
      if (!getVarint(&index) || index >= position.size() || !getVarint(&size) || !getBytes(size, &value)) return damaged;
      column = position[index];
    }
    std::sort(cells.begin(), cells.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    if (Status s = visit(row, cells); !s) return s;
  }
  if (std::ferror(m_file) != 0) return damaged;
  return Status::ok();
}

}  // namespace keyscope::csv
