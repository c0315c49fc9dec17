// KeyAxisLayout: the key buckets (rows) of a heat grid for the axes that
// place load by key samples: kEqualKeyCounts and kSchemaComponent (with or
// without foldSalt). kRegions needs no layout (heat_grid.cc).
//
// Every axis maps a row key to an axis key, then to the bucket whose start
// is the last at or before it:
//   kEqualKeyCounts            the row itself; bucket starts at quantiles of
//                              the stored keys weighted by their cells
//   foldSalt                   the row without its leading salt or hash bytes;
//                              quantiles of the stored keys so folded
//   kSchemaComponent           the encoded bytes of the component (its value
//                              order); one bucket per value, or runs of
//                              equally many values when there are more values
//                              than buckets
// Rows whose component does not decode go to a last bucket of their own.
// When the table stores no keys, the window's sampled rows stand in.
//
// Threads: an immutable value once built.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "keyscope/statistics.h"
#include "keyscope/status.h"
#include "stats/stats_labels.h"
#include "stats/stats_queries.h"
#include "stats/stats_store.h"

namespace keyscope::stats {

class KeyAxisLayout {
 public:
  // REQUIRES: request.axis != kRegions, and a schema in `labeler` when the
  // request needs one (the caller checks and says so). `samples` are the
  // window's operation samples.
  static Result<KeyAxisLayout> build(const TableContext& table, const HeatGridRequest& request,
                                     const KeyLabeler& labeler, const std::vector<StoredSample>& samples);

  const std::vector<HeatGridBucket>& buckets() const { return m_buckets; }
  size_t bucketOf(BytesView row) const;
  // The buckets holding the region's rows, for load that has no samples:
  // the buckets of up to kRegionProbes stored keys of the region (and of its
  // start row); every bucket when the region holds none.
  void bucketsOfRegion(const TableContext& table, BytesView startRow, BytesView endRow,
                       std::vector<size_t>* out) const;

  // Keys examined per region by bucketsOfRegion: bounds the cost of a
  // region with load but no samples.
  static constexpr size_t kRegionProbes = 64;

 private:
  enum class Mode : uint8_t { kRows, kFolded, kComponent };
  // The axis key of a row (a part of it); nullopt when its component does not decode.
  std::optional<BytesView> axisKey(BytesView row) const;

  Mode m_mode = Mode::kRows;
  size_t m_component = 0;   // kComponent
  size_t m_foldBytes = 0;   // kFolded
  std::optional<KeySchema> m_schema;
  std::vector<Bytes> m_starts;                  // axis key starting each bucket; m_starts[0] is ""
  std::optional<size_t> m_undecodable;          // the bucket of rows that do not decode
  std::vector<HeatGridBucket> m_buckets;
};

}  // namespace keyscope::stats
