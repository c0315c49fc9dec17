#include "shell/source_text.h"

#include <algorithm>

namespace keyscope::shell {

SourceText::SourceText(std::string_view text, int firstLine) : m_text(text), m_firstLine(firstLine) {
  m_lineStarts.push_back(0);
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') m_lineStarts.push_back(i + 1);
  }
}

size_t SourceText::lineIndex(size_t offset) const {
  const auto it = std::upper_bound(m_lineStarts.begin(), m_lineStarts.end(), offset);
  return static_cast<size_t>(it - m_lineStarts.begin()) - 1;
}

int SourceText::lineOf(size_t offset) const { return m_firstLine + static_cast<int>(lineIndex(offset)); }

int SourceText::columnOf(size_t offset) const {
  offset = std::min(offset, m_text.size());
  int column = 1;
  for (size_t i = m_lineStarts[lineIndex(offset)]; i < offset; ++i) {
    if ((static_cast<unsigned char>(m_text[i]) & 0xc0) != 0x80) ++column;  // not a continuation byte
  }
  return column;
}

std::string SourceText::where(size_t offset) const {
  return "line " + std::to_string(lineOf(offset)) + ", column " + std::to_string(columnOf(offset));
}

Status SourceText::errorAt(size_t offset, const std::string& what) const {
  return Status::invalidArgument(where(offset) + ": " + what);
}

}  // namespace keyscope::shell
