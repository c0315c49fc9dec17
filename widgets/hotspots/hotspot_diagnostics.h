// Hotspot diagnostics: what a heat grid says about the key design, in words,
// each naming the guilty key component where it can:
//   - the diagonal of a monotonic lead key: in most time columns the load sits
//     in a narrow band of keys, and that band moves steadily through the key
//     space as time goes on (a timestamp or sequence in front);
//   - a single hot row: one key bucket takes a large share of all the load,
//     far more than its neighbours, throughout the window;
//   - a hot range: a few neighbouring buckets take most of the load;
//   - a key space too small to bucket evenly: fewer distinct keys than the
//     buckets asked for.
// The thresholds are chosen so a uniform or salted load (even over the keys,
// or spread over several salt buckets at once) raises none of them.
//
// Pure functions; thread-safe.
#pragma once

#include <QString>

#include <optional>
#include <vector>

#include "keyscope/key_schema.h"
#include "keyscope/statistics.h"

namespace keyscope {

struct HotspotDiagnostic {
  enum class Kind { kMonotonicDiagonal, kHotRow, kHotRange, kTooFewKeys };
  enum class Severity { kInfo, kWarning };
  Kind kind = Kind::kHotRow;
  Severity severity = Severity::kWarning;
  QString component;   // the guilty key component's name; empty when none can be named
  QString title;       // "Monotonic lead key 'ts'"
  QString text;        // one or two sentences: what, where, why it matters
};

// REQUIRES: `request` is the one `grid` was computed for; `schema` is the
// table's key schema (nullopt: none, or it does not parse).
std::vector<HotspotDiagnostic> diagnoseHotspots(const HeatGrid& grid, const HeatGridRequest& request,
                                                const std::optional<KeySchema>& schema);

// The parts of a bucket's label, one per decoded key component
// ("salt=7", "user=alice"), as core labels them (statistics.h: components
// joined by " › "); a region's "region 12: " prefix is left out.
QStringList bucketLabelParts(const HeatGridBucket& bucket);

}  // namespace keyscope
