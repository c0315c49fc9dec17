// UTF-8 validation for utf8 key components (RFC 3629: no overlong forms, no
// surrogates, nothing above U+10FFFF). Pure; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace keyscope {

// Offset of the first byte that does not start or continue a valid UTF-8
// sequence, or nullopt when the whole text is valid.
inline std::optional<size_t> firstInvalidUtf8(std::string_view text) {
  size_t i = 0;
  const size_t n = text.size();
  auto at = [&](size_t k) { return static_cast<uint8_t>(text[k]); };
  while (i < n) {
    uint8_t b = at(i);
    if (b < 0x80) { ++i; continue; }
    size_t len;
    uint8_t lo = 0x80, hi = 0xbf;  // allowed range of the second byte
    if (b >= 0xc2 && b <= 0xdf) len = 2;
    else if (b >= 0xe0 && b <= 0xef) { len = 3; if (b == 0xe0) lo = 0xa0; if (b == 0xed) hi = 0x9f; }
    else if (b >= 0xf0 && b <= 0xf4) { len = 4; if (b == 0xf0) lo = 0x90; if (b == 0xf4) hi = 0x8f; }
    else return i;
    if (i + len > n) return i;
    if (at(i + 1) < lo || at(i + 1) > hi) return i;
    for (size_t k = 2; k < len; ++k)
      if (at(i + k) < 0x80 || at(i + k) > 0xbf) return i;
    i += len;
  }
  return std::nullopt;
}

}  // namespace keyscope
