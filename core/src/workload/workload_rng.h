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

#include "splitmix64.h"

namespace keyscope::workload {

// splitmix64 (splitmix64.h).
using Rng = SplitMix64;

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
