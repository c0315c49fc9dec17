// SplitMix64 (Steele, Lea, Flood 2014): the random source of everything
// Keyscope generates from a seed (the demo, the workload simulator). Tiny,
// fast, and the same sequence on every platform and standard library (no
// std:: distributions, whose results differ between implementations).
//
// Not thread-safe: one per thread or logical client.
#pragma once

#include <cstdint>

namespace keyscope {

class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : m_state(seed) {}
  uint64_t next() {
    uint64_t z = (m_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n); REQUIRES: n > 0. The modulo bias (n / 2^64) is far
  // below anything generated data shows.
  uint64_t below(uint64_t n) { return next() % n; }
  // Uniform in [0, 1), 53 bits.
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  uint64_t m_state;
};

}  // namespace keyscope
