// Reservoir: a weighted sample without replacement of the operations on one
// table in one time bucket (Efraimidis and Spirakis' A-Res). Each operation
// gets the key u^(1/w), u uniform in (0, 1] and w its weight; the k largest
// keys are kept. Keys are held as ranks, -ln(key) = -ln(u) / w, so that small
// weights do not underflow: the k smallest ranks are kept.
//
// Why this sample can place load: the rank of an operation of weight w is
// exponential with rate w, so given the smallest rank not kept (threshold()),
// a kept operation was kept with probability 1 - exp(-w * threshold), and
// weighing each kept operation by the inverse of that probability estimates
// any sum over a subset of operations (those in a key range, say) without
// bias (Cohen and Kaplan's rank-conditioning estimator for bottom-k samples).
// A hot row is one operation per call, so it fills slots in proportion to
// its share of the load.
//
// Merging two reservoirs gives exactly the reservoir of both streams, which
// lets a bucket be persisted in parts.
//
// Threads: a plain value; not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "keyscope/bytes.h"

namespace keyscope::stats {

// Why 256: a heat grid column places its load by the samples of the buckets
// it covers; 256 samples put a row holding 1% of a second's load in the
// right key bucket with about 92% probability, and 256 slots of short keys
// are about 20 KiB per table and second stored.
constexpr size_t kReservoirCapacity = 256;

struct OperationSample {
  Bytes row;
  int64_t regionId = 0;
  double rank = 0;     // -ln(u) / weight
  double weight = 1;   // operations it stands for
  double cells = 0;
  double bytes = 0;
  bool write = false;
};

class Reservoir {
 public:
  static constexpr double kNoThreshold = std::numeric_limits<double>::infinity();

  // Keeps `sample` when its rank is among the capacity smallest seen.
  // Allocates only while the reservoir fills (and for rows longer than the
  // evicted slot's capacity).
  void offer(double rank, BytesView row, int64_t regionId, double weight, double cells, double bytes, bool write);
  void offer(const OperationSample& sample);
  // Afterwards this holds the reservoir of both streams.
  void merge(const Reservoir& other);
  // Takes the threshold of a reservoir whose samples were offered one by one
  // (a stored one): the smaller of the two is kept.
  void lowerThreshold(double threshold);

  // The smallest rank offered and not kept; kNoThreshold while every
  // operation offered is kept.
  double threshold() const { return m_threshold; }
  const std::vector<OperationSample>& samples() const { return m_heap; }
  bool empty() const { return m_heap.empty() && m_threshold == kNoThreshold; }
  // Forgets the samples, keeping the storage for reuse.
  void clear();

 private:
  std::vector<OperationSample> m_heap;  // a max-heap by rank
  double m_threshold = kNoThreshold;
};

// The probability that an operation of `weight` was kept, given the
// reservoir's threshold (1 when there is none).
double keptProbability(double weight, double threshold);

// A seeded generator of the uniform variates (splitmix64: fast, 64 bits of
// state, and a reproducible sequence per seed).
class SampleRandom {
 public:
  explicit SampleRandom(uint64_t seed) : m_state(seed) {}
  // Uniform in (0, 1].
  double nextUnit();
  // -ln(u) / weight for a fresh u. REQUIRES: weight > 0.
  double nextRank(double weight);

 private:
  uint64_t m_state;
};

}  // namespace keyscope::stats
