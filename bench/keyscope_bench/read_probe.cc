// keyscope-read-probe: the benchmark's read phases on a workspace loaded once
// and kept, so that two builds (or two BLOCKSIZEs) can be timed against the
// same files in interleaved processes, many rounds each, where a whole
// `scripts/bench` run (loads included, about 20 minutes) is too coarse to
// separate a change of a few percent.
//
//   keyscope-read-probe load DIR [--cells N] [--blocksize BYTES] [--key-order 1]
//   keyscope-read-probe gets DIR [--cells N] [--gets N] [--rounds N]
//   keyscope-read-probe scans DIR [--cells N] [--rounds N] [--prefix-scans N]
//   keyscope-read-probe reads DIR [--cells N] [--gets N] [--rounds N] [--prefix-scans N]
//
// `load` writes the benchmark's cells (keyscope-bench's workload, seed 42)
// in its random order (or in key order, with --key-order 1) through the
// same Keyscope peer, then flushes and major-compacts; DIR is emptied
// first. `gets` and `scans` reopen DIR (a cold page cache, as
// keyscope-bench's reads start) and print one line per round; --cells must
// match the load's, as the answers are checked. `reads` runs keyscope-bench's
// read phases in its order, each round from a reopened workspace: gets,
// then prefix scans over the cache the gets left, then the full scan.
// Engine only: no RocksDB is needed.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include <keyscope/process_memory.h>

#include "get_targets.h"
#include "peer.h"
#include "workload.h"

namespace keyscope_bench {

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "keyscope-read-probe: %s\n", what.c_str());
  std::exit(2);
}

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  std::string command;
  std::string dir;
  uint64_t cells = 5'000'000;
  uint32_t blockSize = 0;
  bool keyOrder = false;
  uint64_t gets = 100'000;
  uint64_t prefixScans = 2'000;
  int rounds = 3;
};

double secondsSince(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// This thread's CPU time (user and system): how much of a load the writing
// thread spent on a core rather than waiting.
double threadCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

uint64_t number(const std::string& flag, const char* text) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (end == text || *end != '\0') die(flag + ": not a number: " + text);
  return v;
}

Options parse(int argc, char** argv) {
  if (argc < 3) {
    die("usage: keyscope-read-probe load|gets|scans|reads DIR [--cells N] [--blocksize BYTES] [--gets N] "
        "[--rounds N] [--prefix-scans N] [--key-order 0|1]");
  }
  Options o;
  o.command = argv[1];
  o.dir = argv[2];
  if (o.command != "load" && o.command != "gets" && o.command != "scans" && o.command != "reads") {
    die("unknown command '" + o.command + "'");
  }
  for (int i = 3; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) die(flag + " needs a value");
    const uint64_t v = number(flag, argv[++i]);
    if (flag == "--cells") o.cells = v;
    else if (flag == "--blocksize") o.blockSize = static_cast<uint32_t>(v);
    else if (flag == "--gets") o.gets = v;
    else if (flag == "--rounds") o.rounds = static_cast<int>(v);
    else if (flag == "--prefix-scans") o.prefixScans = v;
    else if (flag == "--key-order") o.keyOrder = v != 0;
    else die("unknown option " + flag);
  }
  if (o.cells == 0 || o.gets == 0 || o.rounds < 1) die("--cells, --gets and --rounds must be positive");
  return o;
}

void load(Peer& peer, const Workload& workload, const std::string& dir, bool keyOrder) {
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  peer.open(dir, true);
  std::vector<CellData> batch(1000);
  const double writerCpuBefore = threadCpuSeconds();
  const auto start = Clock::now();
  for (uint64_t first = 0; first < workload.cells(); first += batch.size()) {
    const uint64_t n = std::min<uint64_t>(batch.size(), workload.cells() - first);
    for (uint64_t k = 0; k < n; ++k) {
      workload.cellAt(keyOrder ? first + k : workload.permutedIndex(first + k), &batch[k]);
    }
    peer.write(std::span<const CellData>(batch.data(), n));
  }
  const double written = secondsSince(start);
  const double writerCpu = threadCpuSeconds() - writerCpuBefore;
  peer.flushAndCompact();
  peer.close();
  std::printf("load: %.2f s client-visible, %.2f s until compacted, writer on a core %.2f s\n", written,
              secondsSince(start), writerCpu);
}

void gets(Peer& peer, const Workload& workload, const Options& o) {
  constexpr uint64_t kWarmupGets = 10'000;  // as keyscope-bench
  timedGets(peer, getTargets(workload, kWarmupGets, 0.0, workload.seed() + 99), "warm-up gets");
  for (int round = 0; round < o.rounds; ++round) {
    for (const double missFraction : {0.0, 0.2}) {
      const uint64_t seed = workload.seed() + 100 + static_cast<uint64_t>(round) * 2 + (missFraction > 0 ? 1 : 0);
      const double seconds = timedGets(peer, getTargets(workload, o.gets, missFraction, seed), "gets");
      std::printf("round %d: gets, %2.0f%% misses: %8.1f k gets/s (%.2f us a get)\n", round + 1, missFraction * 100,
                  static_cast<double>(o.gets) / seconds / 1e3, seconds * 1e6 / static_cast<double>(o.gets));
    }
  }
}

// Cells read and the seconds they took.
struct TimedScan {
  uint64_t cells = 0;
  double seconds = 0;
  double millionsPerSecond() const { return static_cast<double>(cells) / seconds / 1e6; }
};

TimedScan fullScan(Peer& peer, const Workload& workload) {
  const auto start = Clock::now();
  const ScanTally full = peer.scan({});
  const double seconds = secondsSince(start);
  if (full.cells != workload.cells()) die("the full scan read " + std::to_string(full.cells) + " cells");
  return {full.cells, seconds};
}

// The round's prefix scans, of series drawn from its own seed; each checked.
TimedScan prefixScans(Peer& peer, const Workload& workload, const Options& o, int round) {
  Rng rng(workload.seed() + 200 + static_cast<uint64_t>(round));
  TimedScan timed;
  const auto start = Clock::now();
  for (uint64_t i = 0; i < o.prefixScans; ++i) {
    const uint64_t series = rng.below(workload.series());
    const ScanTally tally = peer.scan(workload.seriesPrefix(series));
    if (tally.cells != workload.cellsInSeries(series)) die("a prefix scan read a wrong number of cells");
    timed.cells += tally.cells;
  }
  timed.seconds = secondsSince(start);
  return timed;
}

void scans(Peer& peer, const Workload& workload, const Options& o) {
  for (int round = 0; round < o.rounds; ++round) {
    const TimedScan full = fullScan(peer, workload);
    const TimedScan prefix = prefixScans(peer, workload, o, round);
    std::printf("round %d: full scan %6.2f M cells/s, prefix scans %6.2f M cells/s\n", round + 1,
                full.millionsPerSecond(), prefix.millionsPerSecond());
  }
}

// keyscope-bench's read phases in its order, each round on a reopened
// workspace (a cold cache): the scans meet the cache the gets left.
void reads(Peer& peer, const Workload& workload, const Options& o) {
  constexpr uint64_t kWarmupGets = 10'000;  // as keyscope-bench
  for (int round = 0; round < o.rounds; ++round) {
    peer.open(o.dir, false);
    timedGets(peer, getTargets(workload, kWarmupGets, 0.0, workload.seed() + 99), "warm-up gets");
    double getSeconds[2] = {};
    for (const int i : {0, 1}) {
      const uint64_t seed = workload.seed() + 100 + static_cast<uint64_t>(round) * 2 + static_cast<uint64_t>(i);
      getSeconds[i] = timedGets(peer, getTargets(workload, o.gets, i == 0 ? 0.0 : 0.2, seed), "gets");
    }
    const TimedScan prefix = prefixScans(peer, workload, o, round);
    const TimedScan full = fullScan(peer, workload);
    peer.close();
    const auto perSecond = [&](double seconds) { return static_cast<double>(o.gets) / seconds / 1e3; };
    std::printf("round %d: gets %6.1f k/s, with 20%% misses %6.1f k/s, prefix scans %6.2f M cells/s, full scan %6.2f M cells/s\n",
                round + 1, perSecond(getSeconds[0]), perSecond(getSeconds[1]), prefix.millionsPerSecond(),
                full.millionsPerSecond());
  }
}

}  // namespace
}  // namespace keyscope_bench

int main(int argc, char** argv) {
  using namespace keyscope_bench;
  keyscope::configureProcessAllocator();  // as keyscope-bench's peers run
  const Options o = parse(argc, argv);
  const Workload workload(WorkloadConfig{o.cells, 42});
  PeerSettings settings;
  settings.keyscopeBlockSize = o.blockSize;
  std::unique_ptr<Peer> peer = makeKeyscopePeer(settings);
  if (o.command == "load") {
    load(*peer, workload, o.dir, o.keyOrder);
    return 0;
  }
  if (o.command == "reads") {
    reads(*peer, workload, o);
    return 0;
  }
  peer->open(o.dir, false);
  if (o.command == "gets") gets(*peer, workload, o);
  else scans(*peer, workload, o);
  peer->close();
  return 0;
}
