// The A/B difference summary of the workload lab: what a new user must see
// at a glance - how much of the writes the busiest server took in each
// design, the splits and regions, how many regions a typical time-range
// read touches (a salt's price: N buckets, N scans) - and each run's verdict.
//
// Pure functions over a run's summary and its regions; thread-safe.
#pragma once

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

#include "keyscope/key_schema.h"
#include "keyscope/statistics.h"
#include "keyscope/workload.h"

namespace keyscope {

// How a typical read - the rows of one time range - is served by a design.
struct ScanFanOut {
  uint32_t scans = 0;    // range scans the read needs (a salt of N buckets: N)
  uint32_t regions = 0;  // distinct regions those scans touch
  bool wholeTable = false;  // no time-ordered key prefix: the read scans every region
  QString how;           // "1 range of ts", "8 ranges: one per salt bucket", ...
};

// The time component a range read would bound: an i64/u64 named ts, time,
// timestamp or t, or a revts; nullopt when the schema has none.
std::optional<size_t> timeComponent(const KeySchema& schema);

// The scans a read of `range` (the simulated time of the keys) needs over
// `regions`: a time-led key reads one range; a salt (its buckets) then time
// reads one range per bucket; any other key reads the whole table.
ScanFanOut typicalScanFanOut(const std::optional<KeySchema>& schema, const std::vector<RegionLoad>& regions,
                             const TimeWindow& range);

// The length of the typical read's time range: the last ten seconds of a run.
constexpr int64_t kTypicalReadMillis = 10000;

struct RunFigures {
  QString label;                  // "A: monotonic"
  QString design;                 // "monotonic"
  double hottestServerShare = 0;  // the busiest server's share of the writes (or reads), 0 ... 1
  uint32_t servers = 0;
  uint32_t splits = 0;
  uint32_t regionsBefore = 0;
  uint32_t regionsAfter = 0;
  ScanFanOut fanOut;
  QString verdict;
  bool cancelled = false;
  // The busiest server took well over an even share (1.5 x 1/servers).
  bool hotspot() const;
};

// The busiest server's share: over the run's summary intervals, weighted by
// their load (so a hot region the balancer moves between servers still
// counts as one hot server at a time); the servers' totals when there are
// no intervals.
double hottestServerShare(const WorkloadSummary& summary);

RunFigures runFigures(const QString& label, const WorkloadSummary& summary, const std::vector<RegionLoad>& regions,
                      const std::optional<KeySchema>& schema);

// One sentence in plain words: which design is bad and why, the other's price.
QString differenceHeadline(const RunFigures& a, const RunFigures& b);
// The summary as rich text: the headline, then a table (rows: busiest
// server's share, splits, regions, typical read, verdict), the worse figure
// of each row in `bad`, the better in `good`.
QString differenceSummaryHtml(const RunFigures& a, const RunFigures& b, const QString& goodColour,
                              const QString& badColour);
// The same figures as CSV: figure, A, B.
std::string differenceSummaryCsv(const RunFigures& a, const RunFigures& b);

}  // namespace keyscope
