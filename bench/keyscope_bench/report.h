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
};

RunInfo describeRun(const std::string& command);

std::string markdownReport(const RunConfig& config, const RunInfo& info,
                           const std::vector<Round>& rounds);
std::string jsonReport(const RunConfig& config, const RunInfo& info,
                       const std::vector<Round>& rounds);

}  // namespace keyscope_bench
