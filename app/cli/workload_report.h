// How `keyscope-cli workload` prints a run: progress, the summary as text
// tables ending with the verdict, or one JSON object per line (jsonl).
// Single-threaded, like the rest of keyscope-cli.
#pragma once

#include <ostream>
#include <string>

#include "keyscope/workload.h"

namespace keyscope::cli {

// "3,400 of 100,000 operations, 3.4 s simulated, 2 regions, 1 split".
std::string progressText(const WorkloadProgress& progress);
// {"type":"progress","operations":3400,...}
std::string progressJson(const WorkloadProgress& progress);

// The summary as text: what ran, servers, intervals, the verdict last.
void printSummaryText(std::ostream& out, const WorkloadSummary& summary);
// {"type":"summary",...}; `error` (when not empty) is the error that stopped the run.
std::string summaryJson(const WorkloadSummary& summary, const std::string& error);

// "2024-01-01T00:00:00.000Z".
std::string isoMillis(int64_t millis);

}  // namespace keyscope::cli
