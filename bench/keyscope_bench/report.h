// The report: medians and spread (min-max) per peer and metric over the
// rounds, the ratios Keyscope / peer for every metric of issue 3's targets
// table, and whether each target was met; as Markdown (for the README's
// Performance section) or JSON.
//
// Ratios are "how many times better Keyscope is": rate / rate for
// throughputs, and size / size for the stored size and peak RSS, where the
// targets ask for at most (<=) a ratio. Ratios use medians.
#pragma once

#include <string>
#include <vector>

#include "runner.h"

namespace keyscope_bench {

struct RunInfo {
  std::string command;  // as the user typed it
  std::string date;     // UTC, YYYY-MM-DD HH:MM
  int cores = 0;        // online processors (nproc)
  std::string cpu;      // "model name" from /proc/cpuinfo
  // /proc/loadavg's 1/5/15-minute figures before and after the rounds: the
  // machine may be shared, and a busy one slows every peer (not equally).
  std::string loadBefore;
  std::string loadAfter;
};

RunInfo describeRun(const std::string& command);
// "0.52 0.61 0.70", or "" when /proc/loadavg cannot be read.
std::string loadAverage();

std::string markdownReport(const RunConfig& config, const RunInfo& info,
                           const std::vector<Round>& rounds);
std::string jsonReport(const RunConfig& config, const RunInfo& info,
                       const std::vector<Round>& rounds);

}  // namespace keyscope_bench
