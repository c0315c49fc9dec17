// The phases one peer runs in its own child process, timed, with every answer
// checked against the workload (a peer that returns a wrong value or a wrong
// cell count fails the run rather than posting a figure).
//
// Phases, in order:
//   1. load in key order into a fresh store (batches of 1,000 cells), then
//      flush + full compaction; the store is then deleted
//   2. load in random order into a fresh store, then flush + full compaction
//   3. close and reopen (read phases start from a cold block/page cache)
//   4. random gets of the latest version, all hits (after an untimed warm-up)
//   5. random gets, 20% of them for absent rows
//   6. prefix scans of one metric|entity series (about 1,000 cells each)
//   7. one full scan of every version of every cell
//   8. close; size of the store's files on disk
// Load times are client-visible: the time spent inside the peer's write calls
// (generating the cells is not counted). "Until compacted" adds the flush and
// compaction that follow.
//
// Single-threaded; one call per process.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "peer.h"
#include "workload.h"

namespace keyscope_bench {

struct PhaseConfig {
  uint64_t batchCells = 1000;
  uint64_t gets = 100'000;
  uint64_t getWarmup = 10'000;
  uint64_t prefixScans = 2'000;
  double missFraction = 0.2;
};

// Metric name -> value (seconds, counts, bytes); the names are the runner's.
using Metrics = std::map<std::string, double>;

// Runs every phase against `peer` in the empty directory `dir`.
Metrics runPhases(Peer& peer, const Workload& workload, const PhaseConfig& config,
                  const std::string& dir);

}  // namespace keyscope_bench
