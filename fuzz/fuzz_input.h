// Helpers shared by the fuzz targets that read structured input: a byte
// reader that yields zeros once the input runs out, and the way a target
// reports a broken invariant (abort, so libFuzzer and the corpus replay both
// see the crash).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace keyscope::fuzz {

[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "%s\n", what.c_str());
  std::abort();
}

// Consumes the input a byte at a time; zeros once it runs out.
class Input {
 public:
  Input(const uint8_t* data, size_t size) : m_data(data), m_size(size) {}
  bool empty() const { return m_pos >= m_size; }
  uint8_t byte() { return m_pos < m_size ? m_data[m_pos++] : 0; }
  uint16_t u16() {
    const uint8_t high = byte();
    return static_cast<uint16_t>((high << 8) | byte());
  }
  // The next n bytes, or as many as are left.
  std::string bytes(size_t n) {
    n = std::min(n, m_size - std::min(m_pos, m_size));
    std::string out(reinterpret_cast<const char*>(m_data + m_pos), n);
    m_pos += n;
    return out;
  }

 private:
  const uint8_t* m_data;
  size_t m_size;
  size_t m_pos = 0;
};

}  // namespace keyscope::fuzz
