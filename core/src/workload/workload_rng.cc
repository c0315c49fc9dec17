// The simulator's random sources (workload_rng.h).
#include "workload/workload_rng.h"

#include <algorithm>
#include <cmath>

namespace keyscope::workload {

uint64_t clientSeed(uint64_t seed, uint32_t client) {
  Rng mix(seed ^ (0xd1b54a32d192ed03ull * (uint64_t{client} + 1)));
  return mix.next();
}

void ZipfTable::build() const {
  m_cumulative.reserve(m_n);
  double sum = 0;
  for (uint64_t r = 0; r < m_n; ++r) {
    sum += 1.0 / std::pow(static_cast<double>(r + 1), m_s);
    m_cumulative.push_back(sum);
  }
  for (double& c : m_cumulative) c /= sum;
  m_cumulative.back() = 1.0;
}

uint64_t ZipfTable::sample(Rng& rng) const {
  std::call_once(m_built, [this] { build(); });
  const double u = rng.unit();
  const auto it = std::upper_bound(m_cumulative.begin(), m_cumulative.end(), u);
  return static_cast<uint64_t>(std::min<std::ptrdiff_t>(it - m_cumulative.begin(),
                                                       static_cast<std::ptrdiff_t>(m_cumulative.size()) - 1));
}

}  // namespace keyscope::workload
