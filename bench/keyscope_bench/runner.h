// The runner: starts one child process per peer and round (this executable
// again, with --child), interleaving the peers and rotating their order each
// round so that none always runs first on a cold machine, and collects each
// child's metrics and its peak RSS (wait4's ru_maxrss: the child's own, clean
// of every other peer).
//
// The child side (runChild) runs the phases and prints one "name value" line
// per metric on stdout; its progress goes to stderr.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "phases.h"
#include "workload.h"

namespace keyscope_bench {

struct RunConfig {
  std::vector<std::string> peers;  // names, in the order of the first round
  int rounds = 3;
  WorkloadConfig workload;
  PhaseConfig phases;
  PeerSettings settings;
  std::string dir;  // scratch space; each child works in its own subdirectory
};

struct Round {
  std::string peer;
  int round = 0;
  bool ok = false;
  std::string error;  // when !ok
  Metrics metrics;    // the child's, plus peak_rss_bytes
};

// Runs every round; failed rounds are returned with ok = false.
std::vector<Round> runRounds(const RunConfig& config);

// The child's entry point: runs `peer` and prints its metrics. Returns the exit code.
int runChild(const std::string& peer, const RunConfig& config);

// The arguments that make a child reproduce `config` (without --child/--dir).
std::vector<std::string> childArguments(const RunConfig& config);

}  // namespace keyscope_bench
