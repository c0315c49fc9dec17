// The load half of a run's summary: per server and per interval, from the
// engine's statistics queries (Workspace::serverLoadSeries and heatGrid by
// region), and the verdict line.
//
// Reads the workspace as any reader does; call on the run's thread after the
// run's last write.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "keyscope/workload.h"
#include "keyscope/workspace.h"

namespace keyscope::workload {

// [start of startMillis' bucket, ...) cut into at most `intervals` equal
// intervals of whole seconds, covering endMillis.
struct IntervalPlan {
  TimeWindow window;
  int64_t intervalMillis = kStatsBucketMillis;
  uint32_t count = 1;
};
IntervalPlan planIntervals(int64_t startMillis, int64_t endMillis, uint32_t intervals);

// Fills summary->window, metric, servers, intervals and verdict from the
// statistics of summary->startMillis .. endMillis (summary->puts picks the
// metric); on a failed query, statisticsError instead (and a verdict saying so).
void summarizeLoad(const Workspace& ws, const std::string& table, uint32_t intervals, WorkloadSummary* summary);

// "hottest server took 97% of writes in 9 of 10 intervals: a write hotspot".
std::string verdictLine(const std::vector<IntervalLoad>& intervals, LoadMetric metric, size_t servers);

}  // namespace keyscope::workload
