// Big-endian fixed-width integers in byte buffers: how timestamps sit in
// internal keys, checksums in blocks and log records, and longs in HBase's
// counters. One load or store and a byte swap each.
//
// Pure functions; thread-safe.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace keyscope::engine {

inline uint64_t toBigEndian64(uint64_t v) {
  if constexpr (std::endian::native == std::endian::little) return __builtin_bswap64(v);
  return v;
}

inline uint32_t toBigEndian32(uint32_t v) {
  if constexpr (std::endian::native == std::endian::little) return __builtin_bswap32(v);
  return v;
}

// REQUIRES: p points at 8 (4) readable bytes.
inline uint64_t loadBigEndian64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return toBigEndian64(v);
}

inline uint32_t loadBigEndian32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof v);
  return toBigEndian32(v);
}

// REQUIRES: p points at 8 writable bytes.
inline void storeBigEndian64(char* p, uint64_t v) {
  v = toBigEndian64(v);
  std::memcpy(p, &v, sizeof v);
}

// REQUIRES: p points at 4 writable bytes.
inline void storeBigEndian32(char* p, uint32_t v) {
  v = toBigEndian32(v);
  std::memcpy(p, &v, sizeof v);
}

}  // namespace keyscope::engine
