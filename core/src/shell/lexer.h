// The shell's lexer: Ruby's literal syntax, as much of it as HBase scripts use.
//
//   'raw'            single quotes: only \' and \\ are escapes
//   "text\x00\n"     double quotes: \xH[H] \uHHHH \u{H..} \NNN (octal) \n \t \r
//                    \0 \a \b \e \f \v \s \" \\ and backslash-newline; any other
//                    escaped character stands for itself; #{...} is refused
//   123 -5 1_000 0x1f 0b101 0o17 017 (octal, as in Ruby)
//   names, , => { } [ ] ( ) . ; = and newlines (statement ends); # comments;
//   a backslash before a newline joins the lines.
//
// Errors come back as kError tokens (the message in `text`) and lexing goes
// on after them, so the parser can report and skip one bad statement.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "keyscope/bytes.h"

namespace keyscope::shell {

enum class TokenKind : uint8_t {
  kName,
  kString,
  kInteger,
  kComma,
  kArrow,     // =>
  kLBrace,
  kRBrace,
  kLBracket,
  kRBracket,
  kLParen,
  kRParen,
  kDot,
  kEquals,    // = (only to say that assignments are not supported)
  kSemicolon,
  kNewline,
  kEnd,
  kError,
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  size_t offset = 0;         // first byte in the source
  size_t end = 0;            // one past the last byte
  std::string text;          // kName: the name; kError: the message
  Bytes bytes;               // kString: the decoded bytes
  int64_t integer = 0;       // kInteger
  size_t errorAt = 0;        // kError: where the problem is (may lie inside the token)
  bool unterminated = false; // kError: a string still open at the end of the source
};

class Lexer {
 public:
  // A UTF-8 byte order mark at the start (editors on some systems write one) is skipped.
  explicit Lexer(std::string_view text) : m_text(text), m_pos(text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0) {}

  Token next();
  // The source ends right after a backslash that continues the line.
  bool continuationAtEnd() const { return m_continuationAtEnd; }

 private:
  Token lexNumber(size_t start);
  Token lexString(size_t start);
  Token error(size_t start, size_t end, std::string message, size_t at);

  std::string_view m_text;
  size_t m_pos;
  bool m_continuationAtEnd = false;
};

// "'VERSIONS'", "',' ", "the end of the line": a token as error messages name it.
std::string describeToken(const Token& token, std::string_view source);

// The offset in `source` of the character that produced byte `index` of the
// string made of the literals starting at `literalStarts` (adjacent literals
// concatenate, as in Ruby). An index past the end maps to the last literal's
// closing quote.
size_t sourceOffsetOfByte(std::string_view source, const std::vector<size_t>& literalStarts, size_t index);

}  // namespace keyscope::shell
