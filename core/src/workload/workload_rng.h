// The simulator's random sources: splitmix64 and a Zipf sampler. Both give
// the same sequence on every platform and standard library (no std::
// distributions, whose results differ between implementations), which is
// what makes a run reproducible from its seed.
//
// Not thread-safe: one Rng per logical client; a ZipfTable is immutable once
// built and may be shared.
#pragma once

#include <cstdint>
#include <mutex>
#include <vector>

namespace keyscope::workload {

// splitmix64 (Steele, Lea, Flood 2014): tiny, fast, good enough for load.
class Rng {
 public:
  explicit Rng(uint64_t seed) : m_state(seed) {}
  uint64_t next() {
    uint64_t z = (m_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n); REQUIRES: n > 0. The modulo bias (n / 2^64) is far
  // below anything a workload shows.
  uint64_t below(uint64_t n) { return next() % n; }
  // Uniform in [0, 1), 53 bits.
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  uint64_t m_state;
};

// The seed of client `client`'s source in a run seeded `seed`: distinct
// streams for distinct clients, and for the same client under other seeds.
uint64_t clientSeed(uint64_t seed, uint32_t client);

// Ranks 0 .. n-1 drawn with P(r) ~ 1 / (r + 1)^s, by binary search in the
// cumulative table (8 bytes per rank). The table is built at the first
// sample (once, thread-safely), so that checking options costs nothing.
class ZipfTable {
 public:
  // REQUIRES: n >= 1, s > 0.
  ZipfTable(uint64_t n, double s) : m_n(n), m_s(s) {}
  uint64_t sample(Rng& rng) const;
  uint64_t size() const { return m_n; }

 private:
  void build() const;
  uint64_t m_n;
  double m_s;
  mutable std::once_flag m_built;
  mutable std::vector<double> m_cumulative;  // normalised: the last is 1
};

}  // namespace keyscope::workload
