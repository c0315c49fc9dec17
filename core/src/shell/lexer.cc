#include "shell/lexer.h"

#include <limits>

namespace keyscope::shell {

namespace {

bool isNameStart(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool isNameChar(char c) { return isNameStart(c) || (c >= '0' && c <= '9'); }
bool isDigit(char c) { return c >= '0' && c <= '9'; }

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void appendUtf8(Bytes* out, uint32_t cp) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xc0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xe0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  } else {
    out->push_back(static_cast<char>(0xf0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3f)));
  }
}

// What decoding one literal found.
struct Decoded {
  size_t end = 0;             // one past the closing quote (or the end of the text)
  bool unterminated = false;
  std::string error;          // the first problem inside the literal, if any
  size_t errorAt = 0;
};

// Decodes the literal whose opening quote is text[start] into `out`; with
// `offsets`, records for each byte the offset of the character it came from.
Decoded decodeLiteral(std::string_view text, size_t start, Bytes* out, std::vector<size_t>* offsets) {
  const char quote = text[start];
  const bool interpolating = quote == '"';
  Decoded d;
  auto fail = [&d](size_t at, std::string message) {
    if (d.error.empty()) {
      d.error = std::move(message);
      d.errorAt = at;
    }
  };
  auto emit = [&](char byte, size_t from) {
    out->push_back(byte);
    if (offsets) offsets->push_back(from);
  };
  size_t i = start + 1;
  while (i < text.size()) {
    const char c = text[i];
    if (c == quote) {
      d.end = i + 1;
      return d;
    }
    if (c != '\\') {
      if (interpolating && c == '#' && i + 1 < text.size() && text[i + 1] == '{')
        fail(i, "string interpolation ('#{...}') is not supported; write the text itself");
      emit(c, i);
      ++i;
      continue;
    }
    // A backslash.
    const size_t at = i;
    if (i + 1 >= text.size()) {
      emit(c, i);
      ++i;
      continue;
    }
    const char e = text[i + 1];
    if (!interpolating) {
      if (e == '\\' || e == '\'') {
        emit(e, at);
        i += 2;
      } else {
        emit('\\', at);
        ++i;
      }
      continue;
    }
    i += 2;
    switch (e) {
      case 'n': emit('\n', at); break;
      case 't': emit('\t', at); break;
      case 'r': emit('\r', at); break;
      case 'a': emit('\a', at); break;
      case 'b': emit('\b', at); break;
      case 'e': emit('\x1b', at); break;
      case 'f': emit('\f', at); break;
      case 'v': emit('\v', at); break;
      case 's': emit(' ', at); break;
      case '\n': break;  // a backslash-newline joins the lines
      case 'x': {
        int value = 0, digits = 0;
        while (digits < 2 && i < text.size() && hexValue(text[i]) >= 0) {
          value = value * 16 + hexValue(text[i]);
          ++i;
          ++digits;
        }
        if (digits == 0) fail(at, "invalid hex escape: '\\x' needs a hex digit");
        else emit(static_cast<char>(value), at);
        break;
      }
      case 'u': {
        std::vector<uint32_t> points;
        if (i < text.size() && text[i] == '{') {
          ++i;
          bool any = false;
          while (i < text.size() && text[i] != '}' && text[i] != quote) {
            if (text[i] == ' ' || text[i] == '\t') {
              ++i;
              continue;
            }
            uint32_t cp = 0;
            int digits = 0;
            while (i < text.size() && hexValue(text[i]) >= 0 && digits < 7) {
              cp = cp * 16 + static_cast<uint32_t>(hexValue(text[i]));
              ++i;
              ++digits;
            }
            if (digits == 0 || digits > 6) {
              fail(at, "invalid Unicode escape: '\\u{...}' takes hex code points separated by spaces");
              while (i < text.size() && text[i] != '}' && text[i] != quote) ++i;
              break;
            }
            points.push_back(cp);
            any = true;
          }
          if (i < text.size() && text[i] == '}') ++i;
          else fail(at, "invalid Unicode escape: '\\u{' is not closed with '}'");
          if (!any) fail(at, "invalid Unicode escape: '\\u{}' is empty");
        } else {
          uint32_t cp = 0;
          int digits = 0;
          while (digits < 4 && i < text.size() && hexValue(text[i]) >= 0) {
            cp = cp * 16 + static_cast<uint32_t>(hexValue(text[i]));
            ++i;
            ++digits;
          }
          if (digits != 4) fail(at, "invalid Unicode escape: '\\u' takes exactly 4 hex digits (or \\u{...})");
          else points.push_back(cp);
        }
        for (uint32_t cp : points) {
          if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
            fail(at, "invalid Unicode escape: not a Unicode scalar value");
            continue;
          }
          Bytes utf8;
          appendUtf8(&utf8, cp);
          for (char b : utf8) emit(b, at);
        }
        break;
      }
      case 'c':
      case 'C':
      case 'M':
        fail(at, std::string("the control/meta escape '\\") + e + "' is not supported; use \\xNN");
        break;
      default:
        if (e >= '0' && e <= '7') {
          int value = e - '0', digits = 1;
          while (digits < 3 && i < text.size() && text[i] >= '0' && text[i] <= '7') {
            value = value * 8 + (text[i] - '0');
            ++i;
            ++digits;
          }
          emit(static_cast<char>(value & 0xff), at);
        } else {
          // Ruby: any other escaped character stands for itself (\" \\ \# \' ...),
          // a multi-byte character included.
          emit(e, at);
          while (i < text.size() && (static_cast<unsigned char>(text[i]) & 0xc0) == 0x80) emit(text[i++], at);
        }
    }
  }
  d.end = text.size();
  d.unterminated = true;
  return d;
}

}  // namespace

Token Lexer::error(size_t start, size_t end, std::string message, size_t at) {
  Token t;
  t.kind = TokenKind::kError;
  t.offset = start;
  t.end = end;
  t.text = std::move(message);
  t.errorAt = at;
  m_pos = end;
  return t;
}

Token Lexer::next() {
  // Spaces, comments and backslash-newline continuations.
  while (m_pos < m_text.size()) {
    const char c = m_text[m_pos];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++m_pos;
    } else if (c == '#') {
      while (m_pos < m_text.size() && m_text[m_pos] != '\n') ++m_pos;
    } else if (c == '\\' && (m_pos + 1 == m_text.size() || m_text[m_pos + 1] == '\n' ||
                             (m_text[m_pos + 1] == '\r' && m_pos + 2 < m_text.size() && m_text[m_pos + 2] == '\n'))) {
      size_t after = m_pos + 1;
      if (after < m_text.size() && m_text[after] == '\r') ++after;
      if (after < m_text.size()) ++after;  // the newline
      m_continuationAtEnd = after >= m_text.size();
      m_pos = after;
    } else {
      break;
    }
  }
  Token t;
  t.offset = m_pos;
  if (m_pos >= m_text.size()) {
    t.kind = TokenKind::kEnd;
    t.end = m_pos;
    return t;
  }
  m_continuationAtEnd = false;
  const size_t start = m_pos;
  const char c = m_text[m_pos];
  auto single = [&](TokenKind kind) {
    t.kind = kind;
    t.end = ++m_pos;
    return t;
  };
  switch (c) {
    case '\n': return single(TokenKind::kNewline);
    case ',': return single(TokenKind::kComma);
    case '{': return single(TokenKind::kLBrace);
    case '}': return single(TokenKind::kRBrace);
    case '[': return single(TokenKind::kLBracket);
    case ']': return single(TokenKind::kRBracket);
    case '(': return single(TokenKind::kLParen);
    case ')': return single(TokenKind::kRParen);
    case '.': return single(TokenKind::kDot);
    case ';': return single(TokenKind::kSemicolon);
    case '=':
      if (m_pos + 1 < m_text.size() && m_text[m_pos + 1] == '>') {
        t.kind = TokenKind::kArrow;
        m_pos += 2;
        t.end = m_pos;
        return t;
      }
      if (m_pos + 1 < m_text.size() && m_text[m_pos + 1] == '=')
        return error(start, start + 2, "comparisons ('==') are not supported", start);
      return single(TokenKind::kEquals);
    case '\'':
    case '"':
      return lexString(start);
    case ':': {
      const bool afterName = start > 0 && isNameChar(m_text[start - 1]);
      if (m_pos + 1 < m_text.size() && m_text[m_pos + 1] == ':')
        return error(start, start + 2, "'::' (Java and Ruby constants) is not supported", start);
      if (afterName)
        return error(start, start + 1, "'KEY: value' makes a Ruby symbol key, which the shell does not read; write KEY => value",
                     start);
      return error(start, start + 1, "symbols (':name') are not supported; write a string ('name')", start);
    }
    default:
      break;
  }
  if (isDigit(c) || ((c == '-' || c == '+') && m_pos + 1 < m_text.size() && isDigit(m_text[m_pos + 1])))
    return lexNumber(start);
  if (isNameStart(c)) {
    while (m_pos < m_text.size() && isNameChar(m_text[m_pos])) ++m_pos;
    t.kind = TokenKind::kName;
    t.end = m_pos;
    t.text = std::string(m_text.substr(start, m_pos - start));
    return t;
  }
  // One whole UTF-8 character, so the message shows it intact.
  size_t end = start + 1;
  while (end < m_text.size() && (static_cast<unsigned char>(m_text[end]) & 0xc0) == 0x80 && end - start < 4) ++end;
  const auto u = static_cast<unsigned char>(c);
  std::string shown = u >= 0x20 && u != 0x7f ? "'" + std::string(m_text.substr(start, end - start)) + "'"
                                             : "byte " + std::string("\\x") + "0123456789ABCDEF"[u >> 4] +
                                                   "0123456789ABCDEF"[u & 15];
  return error(start, end, "unexpected character " + shown, start);
}

Token Lexer::lexNumber(size_t start) {
  bool negative = false;
  if (m_text[m_pos] == '-' || m_text[m_pos] == '+') {
    negative = m_text[m_pos] == '-';
    ++m_pos;
  }
  int base = 10;
  if (m_text[m_pos] == '0' && m_pos + 1 < m_text.size()) {
    const char p = m_text[m_pos + 1];
    if (p == 'x' || p == 'X') base = 16;
    else if (p == 'b' || p == 'B') base = 2;
    else if (p == 'o' || p == 'O') base = 8;
    else if (p == 'd' || p == 'D') base = 10;
    if (base != 10 || p == 'd' || p == 'D') m_pos += 2;  // past the prefix
    else if (isDigit(p) || p == '_') base = 8;           // Ruby: a leading 0 means octal (the 0 is a digit)
  }
  const size_t digitsStart = m_pos;
  uint64_t magnitude = 0;
  bool overflow = false;
  bool lastUnderscore = false;
  size_t badDigitAt = std::string_view::npos;
  while (m_pos < m_text.size()) {
    const char c = m_text[m_pos];
    if (c == '_') {
      if (lastUnderscore || m_pos == digitsStart) break;
      lastUnderscore = true;
      ++m_pos;
      continue;
    }
    const int v = hexValue(c);
    if (v < 0 || (base != 16 && !isDigit(c))) break;
    if (v >= base) {
      if (badDigitAt == std::string_view::npos) badDigitAt = m_pos;
    }
    lastUnderscore = false;
    if (magnitude > (std::numeric_limits<uint64_t>::max() - static_cast<uint64_t>(v)) / static_cast<uint64_t>(base))
      overflow = true;
    else
      magnitude = magnitude * static_cast<uint64_t>(base) + static_cast<uint64_t>(v);
    ++m_pos;
  }
  // A literal runs on while it looks like one, so "12abc" is one bad token.
  size_t end = m_pos;
  const bool isFloat = end + 1 < m_text.size() && m_text[end] == '.' && isDigit(m_text[end + 1]);
  if (isFloat || (end < m_text.size() && (m_text[end] == 'e' || m_text[end] == 'E') && base == 10)) {
    while (end < m_text.size() && (isNameChar(m_text[end]) || m_text[end] == '.' ||
                                   ((m_text[end] == '-' || m_text[end] == '+') && (m_text[end - 1] == 'e' || m_text[end - 1] == 'E'))))
      ++end;
    return error(start, end, "floating-point numbers are not supported; write an integer", start);
  }
  if (end < m_text.size() && isNameChar(m_text[end])) {
    while (end < m_text.size() && isNameChar(m_text[end])) ++end;
    return error(start, end, "'" + std::string(m_text.substr(start, end - start)) + "' is not a number", start);
  }
  if (m_pos == digitsStart || lastUnderscore)
    return error(start, end, "'" + std::string(m_text.substr(start, end - start)) + "' is not a number", start);
  if (badDigitAt != std::string_view::npos)
    return error(start, end, std::string("invalid digit '") + m_text[badDigitAt] + "' in a base-" + std::to_string(base) +
                                 " number" + (base == 8 ? " (a leading 0 makes a number octal, as in Ruby)" : ""),
                 badDigitAt);
  const uint64_t limit = negative ? uint64_t{1} << 63 : static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  if (overflow || magnitude > limit)
    return error(start, end, "integer out of range: '" + std::string(m_text.substr(start, end - start)) +
                                 "' does not fit in 64 bits",
                 start);
  Token t;
  t.kind = TokenKind::kInteger;
  t.offset = start;
  t.end = end;
  t.integer = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
  return t;
}

Token Lexer::lexString(size_t start) {
  Token t;
  Decoded d = decodeLiteral(m_text, start, &t.bytes, nullptr);
  if (d.unterminated) {
    Token e = error(start, m_text.size(),
                    std::string("unterminated string: the ") + (m_text[start] == '"' ? "\"" : "'") +
                        " opened here is never closed",
                    start);
    e.unterminated = true;
    return e;
  }
  if (!d.error.empty()) return error(start, d.end, d.error, d.errorAt);
  t.kind = TokenKind::kString;
  t.offset = start;
  t.end = d.end;
  m_pos = d.end;
  return t;
}

std::string describeToken(const Token& token, std::string_view source) {
  switch (token.kind) {
    case TokenKind::kEnd: return "the end of the input";
    case TokenKind::kNewline: return "the end of the line";
    case TokenKind::kName: return "'" + token.text + "'";
    case TokenKind::kString: {
      std::string text(source.substr(token.offset, token.end - token.offset));
      if (text.size() > 40) text = text.substr(0, 37) + "...";
      return "the string " + toStringBinary(text);
    }
    case TokenKind::kInteger: return "the number " + std::to_string(token.integer);
    case TokenKind::kError: return "an invalid token";
    default: return "'" + std::string(source.substr(token.offset, token.end - token.offset)) + "'";
  }
}

size_t sourceOffsetOfByte(std::string_view source, const std::vector<size_t>& literalStarts, size_t index) {
  size_t closing = 0;
  for (size_t start : literalStarts) {
    Bytes bytes;
    std::vector<size_t> offsets;
    const Decoded d = decodeLiteral(source, start, &bytes, &offsets);
    if (index < offsets.size()) return offsets[index];
    index -= offsets.size();
    closing = d.end > 0 ? d.end - 1 : start;
  }
  return closing;
}

}  // namespace keyscope::shell
