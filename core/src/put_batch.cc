#include "keyscope/put_batch.h"

namespace keyscope {

void PutBatch::add(BytesView row, std::string_view family, BytesView qualifier, int64_t timestamp, BytesView value) {
  const bool sameRow =
      !m_cells.empty() && BytesView(m_bytes).substr(m_cells.back().rowOffset, m_cells.back().rowSize) == row;
  const size_t rowOffset = sameRow ? m_cells.back().rowOffset : m_bytes.size();
  if (!sameRow) m_bytes.append(row);
  const size_t offset = m_bytes.size();
  m_bytes.append(family);
  m_bytes.append(qualifier);
  m_bytes.append(value);
  m_cells.push_back(Entry{rowOffset, row.size(), offset, family.size(), qualifier.size(), value.size(), timestamp});
}

void PutBatch::clear() {
  m_bytes.clear();
  m_cells.clear();
}

PutBatch::Cell PutBatch::operator[](size_t i) const {
  const Entry& e = m_cells[i];
  const BytesView bytes(m_bytes);
  return Cell{bytes.substr(e.rowOffset, e.rowSize), bytes.substr(e.offset, e.familySize),
              bytes.substr(e.offset + e.familySize, e.qualifierSize), e.timestamp,
              bytes.substr(e.offset + e.familySize + e.qualifierSize, e.valueSize)};
}

}  // namespace keyscope
