// Source text with line and column lookup, for positioned error messages.
//
// Offsets are byte offsets into the text. Lines count from `firstLine`;
// columns count UTF-8 code points from 1, so a column matches what an editor
// shows for text with non-ASCII characters. Immutable after construction;
// holds a view: the text must outlive it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "keyscope/status.h"

namespace keyscope::shell {

class SourceText {
 public:
  SourceText(std::string_view text, int firstLine);

  std::string_view text() const { return m_text; }
  int lineOf(size_t offset) const;
  int columnOf(size_t offset) const;
  // "line 3, column 17"
  std::string where(size_t offset) const;
  // InvalidArgument "line 3, column 17: <what>"
  Status errorAt(size_t offset, const std::string& what) const;

 private:
  size_t lineIndex(size_t offset) const;

  std::string_view m_text;
  int m_firstLine;
  std::vector<size_t> m_lineStarts;  // offset of each line's first byte
};

}  // namespace keyscope::shell
