// LEB128 varints for the engine's own record formats. Pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace keyscope::engine {

inline void putVarint(std::string* out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

// Reads a varint at *pos; false when cut short or longer than 10 bytes.
inline bool getVarint(std::string_view in, size_t* pos, uint64_t* v) {
  uint64_t result = 0;
  for (int shift = 0; shift <= 63 && *pos < in.size(); shift += 7) {
    const auto byte = static_cast<uint8_t>(in[(*pos)++]);
    result |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      *v = result;
      return true;
    }
  }
  return false;
}

inline void putLengthPrefixed(std::string* out, std::string_view bytes) {
  putVarint(out, bytes.size());
  out->append(bytes);
}

inline bool getLengthPrefixed(std::string_view in, size_t* pos, std::string_view* out) {
  uint64_t length = 0;
  if (!getVarint(in, pos, &length) || length > in.size() - *pos) return false;
  *out = in.substr(*pos, length);
  *pos += length;
  return true;
}

}  // namespace keyscope::engine
