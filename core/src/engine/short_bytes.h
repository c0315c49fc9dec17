// Equality, prefix tests and copies for the short byte strings of the read
// path's per-cell loop: escaped rows, qualifiers and family names, mostly
// under 16 bytes. The standard library's versions call memcmp and memmove
// out of line, which for a few bytes costs more than the work: those calls
// were ~17% of a full scan's reading thread. Here up to 16 bytes are handled
// inline with two overlapping word loads; longer strings use the library.
//
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace keyscope::engine {

namespace short_bytes_detail {

template <typename Word>
Word load(const char* p) {
  Word w;
  std::memcpy(&w, p, sizeof w);
  return w;
}

template <typename Word>
void store(char* p, Word w) {
  std::memcpy(p, &w, sizeof w);
}

}  // namespace short_bytes_detail

inline bool equalBytes(std::string_view a, std::string_view b) {
  using short_bytes_detail::load;
  const size_t n = a.size();
  if (n != b.size()) return false;
  const char* x = a.data();
  const char* y = b.data();
  if (n >= 8) {
    if (n > 16) return std::memcmp(x, y, n) == 0;
    return ((load<uint64_t>(x) ^ load<uint64_t>(y)) | (load<uint64_t>(x + n - 8) ^ load<uint64_t>(y + n - 8))) == 0;
  }
  if (n >= 4) {
    return ((load<uint32_t>(x) ^ load<uint32_t>(y)) | (load<uint32_t>(x + n - 4) ^ load<uint32_t>(y + n - 4))) == 0;
  }
  for (size_t i = 0; i < n; ++i) {
    if (x[i] != y[i]) return false;
  }
  return true;
}

inline bool startsWithBytes(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && equalBytes(s.substr(0, prefix.size()), prefix);
}

// Copies n bytes between buffers that do not overlap.
inline void copyBytes(char* to, const char* from, size_t n) {
  using short_bytes_detail::load;
  using short_bytes_detail::store;
  if (n >= 8) {
    if (n > 16) {
      std::memcpy(to, from, n);
      return;
    }
    const uint64_t head = load<uint64_t>(from), tail = load<uint64_t>(from + n - 8);
    store(to, head);
    store(to + n - 8, tail);
  } else if (n >= 4) {
    const uint32_t head = load<uint32_t>(from), tail = load<uint32_t>(from + n - 4);
    store(to, head);
    store(to + n - 4, tail);
  } else {
    for (size_t i = 0; i < n; ++i) to[i] = from[i];
  }
}

// to = from, in to's own buffer when it fits. `from` must not point into `to`.
inline void assignBytes(std::string& to, std::string_view from) {
  if (from.size() > to.capacity()) {
    to.assign(from.data(), from.size());
    return;
  }
  to.resize(from.size());  // within the capacity: no allocation
  copyBytes(to.data(), from.data(), from.size());
}

}  // namespace keyscope::engine
