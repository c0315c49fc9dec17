#include "get_targets.h"

#include <chrono>

namespace keyscope_bench {

std::vector<GetTarget> getTargets(const Workload& workload, uint64_t count, double missFraction, uint64_t seed) {
  Rng rng(seed);
  std::vector<GetTarget> targets(count);
  CellData cell;
  const auto missPerMillion = static_cast<uint64_t>(missFraction * 1e6);
  for (GetTarget& t : targets) {
    if (rng.below(1'000'000) < missPerMillion) {
      t.row = workload.absentRow(rng.below(workload.series()));
      workload.latestAt(rng.below(workload.cells()), &cell);
      t.qualifier.assign(cell.qualifierView());
    } else {
      workload.latestAt(rng.below(workload.cells()), &cell);
      t.row.assign(cell.rowView());
      t.qualifier.assign(cell.qualifierView());
      t.expected.assign(cell.valueView());
    }
  }
  return targets;
}

double timedGets(Peer& peer, const std::vector<GetTarget>& targets, const char* phase) {
  std::string value;
  uint64_t wrong = 0;
  const auto start = std::chrono::steady_clock::now();
  for (const GetTarget& t : targets) {
    const bool found = peer.getLatest(t.row, t.qualifier, &value);
    if (found != !t.expected.empty() || (found && value != t.expected)) ++wrong;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (wrong != 0) {
    die(std::string(phase) + ": " + std::to_string(wrong) + " of " + std::to_string(targets.size()) +
        " gets returned a wrong answer");
  }
  return seconds;
}

}  // namespace keyscope_bench
