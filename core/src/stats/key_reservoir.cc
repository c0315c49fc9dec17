// Reservoir and SampleRandom (key_reservoir.h).
#include "stats/key_reservoir.h"

#include <algorithm>
#include <cmath>

namespace keyscope::stats {

namespace {
bool byRank(const OperationSample& a, const OperationSample& b) { return a.rank < b.rank; }
}  // namespace

void Reservoir::offer(double rank, BytesView row, int64_t regionId, double weight, double cells, double bytes,
                      bool write) {
  if (m_heap.size() < kReservoirCapacity) {
    if (m_heap.capacity() == 0) m_heap.reserve(kReservoirCapacity);
    m_heap.push_back(OperationSample{Bytes(row), regionId, rank, weight, cells, bytes, write});
    std::push_heap(m_heap.begin(), m_heap.end(), byRank);
    return;
  }
  if (rank >= m_heap.front().rank) {
    m_threshold = std::min(m_threshold, rank);
    return;
  }
  m_threshold = std::min(m_threshold, m_heap.front().rank);
  std::pop_heap(m_heap.begin(), m_heap.end(), byRank);
  OperationSample& slot = m_heap.back();
  slot.row.assign(row.data(), row.size());
  slot.regionId = regionId;
  slot.rank = rank;
  slot.weight = weight;
  slot.cells = cells;
  slot.bytes = bytes;
  slot.write = write;
  std::push_heap(m_heap.begin(), m_heap.end(), byRank);
}

void Reservoir::offer(const OperationSample& s) {
  offer(s.rank, s.row, s.regionId, s.weight, s.cells, s.bytes, s.write);
}

void Reservoir::merge(const Reservoir& other) {
  for (const OperationSample& s : other.m_heap) offer(s);
  lowerThreshold(other.m_threshold);
}

void Reservoir::lowerThreshold(double threshold) { m_threshold = std::min(m_threshold, threshold); }

void Reservoir::clear() {
  m_heap.clear();
  m_threshold = kNoThreshold;
}

double keptProbability(double weight, double threshold) {
  if (!(threshold < Reservoir::kNoThreshold)) return 1.0;
  // -expm1(-x) = 1 - exp(-x), exact for the small x of a long stream.
  const double p = -std::expm1(-weight * threshold);
  return p > 0 ? p : 0.0;
}

double SampleRandom::nextUnit() {
  m_state += 0x9e3779b97f4a7c15ull;
  uint64_t z = m_state;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return static_cast<double>((z >> 11) + 1) * 0x1.0p-53;
}

double SampleRandom::nextRank(double weight) { return -std::log(nextUnit()) / weight; }

}  // namespace keyscope::stats
