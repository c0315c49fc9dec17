// A run's load summary and verdict (workload_summary.h).
#include "workload/workload_summary.h"

#include <algorithm>
#include <cmath>

namespace keyscope::workload {

namespace {

// An interval is "hot" when one server took at least this share of it: the
// issue's bar for a monotonic key on a small split size.
constexpr double kHotShare = 0.9;
// Load is "spread" while no server takes more than half again its even
// share (37.5% of 4 servers); above that, and below kHotShare, "uneven".
constexpr double kSpreadFactor = 1.5;

uint64_t pick(const LoadCounters& c, LoadMetric metric) { return metric == LoadMetric::kReads ? c.reads : c.writes; }

std::string wholePercent(double value) { return std::to_string(static_cast<long long>(value)) + "%"; }

}  // namespace

IntervalPlan planIntervals(int64_t startMillis, int64_t endMillis, uint32_t intervals) {
  IntervalPlan p;
  const int64_t from = startMillis - (startMillis % kStatsBucketMillis + kStatsBucketMillis) % kStatsBucketMillis;
  const int64_t span = std::max<int64_t>(endMillis + 1 - from, 1);
  const int64_t n = std::max<uint32_t>(intervals, 1);
  const int64_t per = (span + n - 1) / n;
  p.intervalMillis = (per + kStatsBucketMillis - 1) / kStatsBucketMillis * kStatsBucketMillis;
  p.count = static_cast<uint32_t>((span + p.intervalMillis - 1) / p.intervalMillis);
  p.window = TimeWindow{from, from + p.intervalMillis * p.count};
  return p;
}

std::string verdictLine(const std::vector<IntervalLoad>& intervals, LoadMetric metric, size_t servers) {
  const std::string what = metric == LoadMetric::kReads ? "reads" : "writes";
  std::vector<double> shares;
  for (const IntervalLoad& i : intervals) {
    if ((metric == LoadMetric::kReads ? i.reads : i.writes) > 0) shares.push_back(i.hottestServerShare);
  }
  if (shares.empty()) return "no " + what + " were recorded, so there is no verdict";
  const size_t n = shares.size();
  const size_t hot = static_cast<size_t>(std::count_if(shares.begin(), shares.end(), [](double s) { return s >= kHotShare; }));
  const std::string of = std::to_string(n) + (n == 1 ? " interval" : " intervals");
  if (hot > 0) {
    double least = 1;
    for (double s : shares) {
      if (s >= kHotShare) least = std::min(least, s);
    }
    // Rounded down, so that "took 97%" is true of every interval counted.
    return "hottest server took " + wholePercent(std::floor(least * 100 + 1e-9)) + " of " + what + " in " +
           std::to_string(hot) + " of " + of + (hot * 2 >= n ? ": a " + what.substr(0, what.size() - 1) + " hotspot"
                                                             : ": a hotspot part of the time");
  }
  const double most = *std::max_element(shares.begin(), shares.end());
  std::string line = "hottest server took at most " + wholePercent(std::ceil(most * 100 - 1e-9)) + " of " + what +
                     (n == 1 ? " in the one interval" : " in any of " + of);
  if (servers > 1) {
    const double even = 1.0 / static_cast<double>(servers);
    line += " (an even share over " + std::to_string(servers) + " servers is " +
            wholePercent(std::round(100 * even)) + "): " + what + (most <= kSpreadFactor * even ? " spread" : " uneven");
  }
  return line;
}

void summarizeLoad(const Workspace& ws, const std::string& table, uint32_t intervals, WorkloadSummary* summary) {
  const IntervalPlan plan = planIntervals(summary->startMillis, summary->endMillis, intervals);
  summary->window = plan.window;
  summary->metric = summary->puts > 0 ? LoadMetric::kWrites : LoadMetric::kReads;
  summary->servers.clear();
  summary->intervals.clear();
  auto fail = [&](const Status& s) {
    summary->servers.clear();
    summary->intervals.clear();
    summary->statisticsError = s.message();
    summary->verdict = "no verdict: the statistics could not be read (" + s.message() + ")";
  };

  Result<LoadSeries> series = ws.serverLoadSeries(plan.window, plan.count);
  if (!series) return fail(series.status());
  if (series->columns != plan.count || series->values.size() != series->series.size() * plan.count)
    return fail(Status::corruption("the server load series has " + std::to_string(series->columns) +
                                   " columns, not the " + std::to_string(plan.count) + " asked for"));
  HeatGridRequest request;
  request.window = plan.window;
  request.timeColumns = plan.count;
  request.axis = KeyAxis::kRegions;
  request.metric = summary->metric;
  Result<HeatGrid> grid = ws.heatGrid(table, request);
  if (!grid) return fail(grid.status());
  if (grid->columns != plan.count || grid->values.size() != grid->buckets.size() * plan.count)
    return fail(Status::corruption("the heat grid has " + std::to_string(grid->columns) + " columns, not the " +
                                   std::to_string(plan.count) + " asked for"));

  for (size_t s = 0; s < series->series.size(); ++s) {
    ServerTotals totals;
    totals.server = series->series[s];
    for (size_t c = 0; c < plan.count; ++c) {
      totals.writes += series->at(s, c).writes;
      totals.reads += series->at(s, c).reads;
    }
    summary->servers.push_back(totals);
  }
  for (uint32_t c = 0; c < plan.count; ++c) {
    IntervalLoad load;
    load.window = {plan.window.fromMillis + plan.intervalMillis * c, plan.window.fromMillis + plan.intervalMillis * (c + 1)};
    uint64_t top = 0, total = 0;
    for (size_t s = 0; s < series->series.size(); ++s) {
      const LoadCounters& counters = series->at(s, c);
      load.writes += counters.writes;
      load.reads += counters.reads;
      const uint64_t v = pick(counters, summary->metric);
      total += v;
      if (v > top) {
        top = v;
        load.hottestServer = series->series[s];
      }
    }
    if (total > 0) load.hottestServerShare = static_cast<double>(top) / static_cast<double>(total);
    double regionTop = 0, regionTotal = 0;
    for (size_t b = 0; b < grid->buckets.size(); ++b) {
      const double v = grid->at(b, c);
      regionTotal += v;
      if (v > regionTop) {
        regionTop = v;
        load.hottestRegion = grid->buckets[b].regionId.value_or(-1);
        load.hottestRegionStart = grid->buckets[b].startRow;
        load.hottestRegionLabel = grid->buckets[b].label;
      }
    }
    if (regionTotal > 0) load.hottestRegionShare = regionTop / regionTotal;
    summary->intervals.push_back(std::move(load));
  }
  summary->verdict = verdictLine(summary->intervals, summary->metric, summary->servers.size());
}

}  // namespace keyscope::workload
