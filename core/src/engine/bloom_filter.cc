#include "engine/bloom_filter.h"

#include <xxhash.h>

#include <algorithm>
#include <cmath>

namespace keyscope::engine {

namespace {

constexpr uint8_t kMaxProbes = 30;

// Probe j sets bit (h1 + j*h2) mod m (Kirsch-Mitzenmacher double hashing:
// two hash halves stand in for k independent hashes). A key whose h2 is 0 has
// all its probes on one bit; that costs false positives for the 1 key in 2^32
// it happens to, never a false negative.
struct Probes {
  uint64_t h1;
  uint64_t h2;
  explicit Probes(uint64_t h) : h1(h & 0xffffffffu), h2(h >> 32) {}
  uint64_t bit(uint64_t j, uint64_t bits) const { return (h1 + j * h2) % bits; }
};

}  // namespace

uint64_t bloomHash(BytesView key) { return XXH3_64bits(key.data(), key.size()); }

BloomFilterBuilder::BloomFilterBuilder(int bitsPerKey) : m_bitsPerKey(std::max(1, bitsPerKey)) {}

std::string BloomFilterBuilder::finish() const {
  // k = bits per key * ln 2 minimises the false-positive rate.
  const auto probes = static_cast<uint8_t>(
      std::clamp(static_cast<int>(std::lround(m_bitsPerKey * 0.69)), 1, static_cast<int>(kMaxProbes)));
  uint64_t bits = std::max<uint64_t>(64, m_hashes.size() * static_cast<uint64_t>(m_bitsPerKey));
  const uint64_t bytes = (bits + 7) / 8;
  bits = bytes * 8;
  std::string filter(bytes + 1, '\0');
  auto* array = reinterpret_cast<unsigned char*>(filter.data());
  for (const uint64_t h : m_hashes) {
    const Probes p(h);
    for (uint64_t j = 0; j < probes; ++j) {
      const uint64_t b = p.bit(j, bits);
      array[b / 8] = static_cast<unsigned char>(array[b / 8] | (1u << (b % 8)));
    }
  }
  filter[bytes] = static_cast<char>(probes);
  return filter;
}

bool bloomWellFormed(BytesView filter) {
  if (filter.size() < 2) return false;
  const auto probes = static_cast<uint8_t>(filter.back());
  return probes >= 1 && probes <= kMaxProbes;
}

bool bloomMayContainHash(BytesView filter, uint64_t hash) {
  if (!bloomWellFormed(filter)) return true;
  const auto probes = static_cast<uint8_t>(filter.back());
  const uint64_t bits = (filter.size() - 1) * 8;
  const auto* array = reinterpret_cast<const unsigned char*>(filter.data());
  const Probes p(hash);
  for (uint64_t j = 0; j < probes; ++j) {
    const uint64_t b = p.bit(j, bits);
    if ((array[b / 8] & (1u << (b % 8))) == 0) return false;
  }
  return true;
}

bool bloomMayContain(BytesView filter, BytesView key) { return bloomMayContainHash(filter, bloomHash(key)); }

}  // namespace keyscope::engine
