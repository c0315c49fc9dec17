// The get phases' targets and their timed, checked run, shared by
// keyscope-bench and keyscope-read-probe so both measure the same gets.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "peer.h"
#include "workload.h"

namespace keyscope_bench {

struct GetTarget {
  std::string row;
  std::string qualifier;
  std::string expected;  // empty: must be absent
};

// `count` targets drawn from the seed, a fraction missFraction of them rows
// that do not exist (between two real ones). Drawn before timing, so the
// timed loop is only gets.
std::vector<GetTarget> getTargets(const Workload& workload, uint64_t count, double missFraction, uint64_t seed);

// Runs the gets and returns the seconds they took; any wrong answer ends the
// process through die(), naming `phase`.
double timedGets(Peer& peer, const std::vector<GetTarget>& targets, const char* phase);

}  // namespace keyscope_bench
