#include "keyscope/bytes.h"

#include <cstring>

namespace keyscope {

namespace {

constexpr char kHexDigits[] = "0123456789abcdef";

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The characters HBase's Bytes.toStringBinary leaves as they are.
bool isStringBinaryPlain(uint8_t c) {
  if ((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) return true;
  return c != 0 && std::strchr(" `~!@#$%^&*()-_=+[]{}|;:'\",.<>/?", c) != nullptr;
}

}  // namespace

std::string toHex(BytesView bytes) {
  std::string out;
  out.reserve(bytes.size() * 2);
  for (char ch : bytes) {
    auto b = static_cast<uint8_t>(ch);
    out.push_back(kHexDigits[b >> 4]);
    out.push_back(kHexDigits[b & 0x0f]);
  }
  return out;
}

std::optional<Bytes> fromHex(std::string_view text, size_t* errorAt) {
  size_t start = 0;
  while (start < text.size() && text[start] == ' ') ++start;
  if (text.size() - start >= 2 && text[start] == '0' && (text[start + 1] == 'x' || text[start + 1] == 'X'))
    start += 2;
  Bytes out;
  int high = -1;
  size_t highAt = 0;
  for (size_t i = start; i < text.size(); ++i) {
    char c = text[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
    int v = hexValue(c);
    if (v < 0) {
      if (errorAt) *errorAt = i;
      return std::nullopt;
    }
    if (high < 0) {
      high = v;
      highAt = i;
    } else {
      out.push_back(static_cast<char>((high << 4) | v));
      high = -1;
    }
  }
  if (high >= 0) {
    if (errorAt) *errorAt = highAt;
    return std::nullopt;
  }
  return out;
}

std::string toStringBinary(BytesView bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (char ch : bytes) {
    auto b = static_cast<uint8_t>(ch);
    if (isStringBinaryPlain(b)) {
      out.push_back(ch);
    } else {
      out += "\\x";
      out.push_back("0123456789ABCDEF"[b >> 4]);
      out.push_back("0123456789ABCDEF"[b & 0x0f]);
    }
  }
  return out;
}

Bytes fromStringBinary(std::string_view text) {
  Bytes out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 3 < text.size() && text[i + 1] == 'x') {
      int hi = hexValue(text[i + 2]);
      int lo = hexValue(text[i + 3]);
      if (hi >= 0 && lo >= 0) {
        out.push_back(static_cast<char>((hi << 4) | lo));
        i += 3;
        continue;
      }
    }
    out.push_back(text[i]);
  }
  return out;
}

}  // namespace keyscope
