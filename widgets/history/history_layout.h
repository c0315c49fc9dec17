// History layout: everything the cell history view draws and lists,
// computed from plain values by a pure function (no Qt widgets, no engine):
//
//   - each version of a cell, or of every column of a family of one row
//     (puts and the four delete markers, as a RAW read returns them);
//   - what a get with a TIMERANGE / TIMESTAMP / VERSIONS would make of each
//     put: returned, masked by which markers, outside the time range, beyond
//     VERSIONS, expired by the family's TTL (HBASE-SEMANTICS.md B2-B4), next
//     to what the real get returned (so a disagreement shows);
//   - which puts each delete marker masks: Delete the exact timestamp in its
//     column, DeleteColumn every timestamp <= its own in its column,
//     DeleteFamily <= its own in every column, DeleteFamilyVersion the exact
//     timestamp in every column;
//   - a broken time axis: timestamps fall into clusters separated by gaps
//     far larger than the clusters (logical 1, 2, 3; epoch milliseconds of
//     2024; timeshifted ones of year 52011), and each cluster gets its own
//     linear segment, so none is squashed into one dot at the end.
//
// Pure functions over values; safe on any thread (the view runs
// layoutHistory on the job runner: a column may hold thousands of versions).
#pragma once

#include <QString>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "keyscope/bytes.h"
#include "keyscope/cell.h"
#include "keyscope/options.h"

namespace keyscope {

// The get whose outcome the history shows.
struct HistoryGet {
  TimeRange timeRange;               // TIMERANGE [min, max)
  std::optional<int64_t> timestamp;  // TIMESTAMP: overrides timeRange with [t, t+1)
  int32_t maxVersions = 1;           // VERSIONS (capped by the family's)
  TimeRange effectiveRange() const {
    return timestamp ? TimeRange::at(*timestamp) : timeRange;
  }
};

struct HistoryInput {
  FamilyOptions family;              // VERSIONS, MIN_VERSIONS, TTL, KEEP_DELETED_CELLS
  std::optional<Bytes> qualifier;    // one column; nullopt: every column of the family
  std::vector<Cell> raw;             // the RAW read: puts and markers, in the engine's order
  std::vector<Cell> returned;        // what the real get returned
  HistoryGet get;
  int64_t now = 0;                   // what TTLs are judged against
};

enum class VersionFate : uint8_t {
  kReturned,        // a get returns it
  kMasked,          // a delete marker hides it
  kOutsideRange,    // not in TIMERANGE / TIMESTAMP
  kBeyondVersions,  // more than min(VERSIONS asked, family VERSIONS) newer ones are returned
  kExpired,         // older than now - TTL (and not kept by MIN_VERSIONS)
  kOverwritten,     // the same column and timestamp was written again later
  kMarker,          // a delete marker itself
};

struct HistoryVersion {
  Bytes qualifier;                   // empty for the family markers
  int lane = 0;                      // index into HistoryLayout::lanes
  int64_t timestamp = 0;
  CellType type = CellType::kPut;
  Bytes value;
  VersionFate fate = VersionFate::kReturned;
  std::vector<int> maskedBy;         // puts: the markers (indices in versions) masking it
  std::vector<int> masks;            // markers: the puts (indices) it masks
  bool returnedByGet = false;        // the real get returned this cell
  double x = 0;                      // its place on the broken axis
};

// One linear piece of the broken axis: timestamps [first, last] drawn over
// [x0, x1]. Epoch-like segments are labelled as date-times, others as integers.
struct AxisSegment {
  int64_t first = 0;
  int64_t last = 0;
  double x0 = 0;
  double x1 = 0;
  bool epochLike = false;
};

struct AxisTick {
  double x = 0;
  QString label;
};

// What a marker masks, for drawing: a band over [x0, x1] in its lane, or in
// every lane (family markers); a point mask (Delete, DeleteFamilyVersion) has x0 == x1.
struct MaskSpan {
  int marker = 0;                    // index in versions
  int lane = -1;                     // -1: every lane
  double x0 = 0;
  double x1 = 0;
};

struct HistoryLayout {
  // Lane names: "q" per qualifier (toStringBinary), and "(family)" first when
  // family markers exist. Lanes are drawn bottom to top in this order.
  std::vector<QString> lanes;
  std::vector<HistoryVersion> versions;  // lane order, then timestamp descending (engine order)
  std::vector<AxisSegment> segments;
  std::vector<AxisTick> ticks;
  std::vector<MaskSpan> masks;
  double xMin = 0;                   // the axis' extent
  double xMax = 1;
  int predictedReturned = 0;
  int returnedByGet = 0;
  int disagreements = 0;             // versions whose predicted and real outcome differ
  int64_t ttlCutoff = 0;             // puts older than this are expired (0: no TTL)

  // Where `timestamp` falls on the axis: inside a segment linearly; in a
  // gap between segments at the gap's middle; beyond the ends at the ends.
  double xOf(int64_t timestamp) const;
};

// Why 1e11: epoch milliseconds past 1973-03-03. Smaller timestamps are
// logical (counts, versions, seconds): labelled as integers.
constexpr int64_t kEpochLikeMillis = 100'000'000'000;

// A gap splits the axis when it is this many times wider than the spans on
// either side of it (and than 1), and a side holds two timestamps or more
// (which a linear axis would squash together). 50: a week of readings and a point a year
// later split; readings five minutes apart over two days stay one segment.
constexpr double kAxisGapFactor = 50;
// At most this many segments: beyond it the smallest gaps are not broken.
constexpr size_t kMaxAxisSegments = 8;

// Clusters sorted distinct timestamps into axis segments (x from 0).
std::vector<AxisSegment> axisSegments(std::vector<int64_t> timestamps);

HistoryLayout layoutHistory(const HistoryInput& input);

// "returned", "masked by DeleteColumn @ 5", "beyond VERSIONS (3)", ...
QString fateText(const HistoryLayout& layout, const HistoryVersion& version);

// A timestamp as the axis labels it: date-time (UTC) when epoch-like, else
// the integer.
QString timestampLabel(int64_t timestamp);

}  // namespace keyscope
