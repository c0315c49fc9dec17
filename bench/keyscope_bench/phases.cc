// The timed phases of one peer (see phases.h).
#include "phases.h"

#include "get_targets.h"
#include "profile_window.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <utility>
#include <vector>

namespace keyscope_bench {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The process's peak resident set so far (VmHWM), in MiB; 0 when /proc is not there.
// Printed after each phase, so the phase that set the peak is the one where it grows.
double peakRssMiB() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;  // kB
  }
  return 0;
}

void progress(const char* phase, double seconds, double items, const char* unit) {
  std::fprintf(stderr, "    %-24s %8.2f s  %12.0f %s/s  (peak RSS so far %.1f MiB)\n", phase,
               seconds, items / seconds, unit, peakRssMiB());
}

uint64_t directoryBytes(const fs::path& dir) {
  uint64_t total = 0;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file()) total += entry.file_size();
  }
  return total;
}

// Where the bytes went, on stderr: file count and size per extension.
void listFiles(const fs::path& dir) {
  std::map<std::string, std::pair<int, uint64_t>> byKind;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    const std::string ext = entry.path().extension().string();
    auto& [count, bytes] = byKind[ext.empty() ? entry.path().filename().string() : "*" + ext];
    ++count;
    bytes += entry.file_size();
  }
  std::string line;
  for (const auto& [kind, stats] : byKind) {
    if (stats.second < (64u << 10)) continue;
    char item[160];
    std::snprintf(item, sizeof item, "%s%d x %s %.1f MiB", line.empty() ? "" : ", ", stats.first,
                  kind.c_str(), static_cast<double>(stats.second) / (1 << 20));
    line += item;
  }
  std::fprintf(stderr, "    %-24s %s\n", "files (64 KiB or more)", line.c_str());
}

void freshDirectory(const fs::path& dir) {
  fs::remove_all(dir);
  fs::create_directories(dir);
}

// Loads every cell in key order (random = false) or the seeded random order;
// returns the seconds spent inside peer.write(). *valueBytes: the values' total size.
double load(Peer& peer, const Workload& workload, const PhaseConfig& config, bool random,
            uint64_t* valueBytes) {
  std::vector<CellData> batch(config.batchCells);
  Clock::duration inside{};
  for (uint64_t first = 0; first < workload.cells(); first += config.batchCells) {
    const uint64_t n = std::min<uint64_t>(config.batchCells, workload.cells() - first);
    for (uint64_t k = 0; k < n; ++k) {
      const uint64_t i = random ? workload.permutedIndex(first + k) : first + k;
      workload.cellAt(i, &batch[k]);
      *valueBytes += batch[k].valueSize;
    }
    const auto start = Clock::now();
    peer.write(std::span<const CellData>(batch.data(), n));
    inside += Clock::now() - start;
  }
  return std::chrono::duration<double>(inside).count();
}

}  // namespace

Metrics runPhases(Peer& peer, const Workload& workload, const PhaseConfig& config,
                  const std::string& dir) {
  Metrics m;
  ProfileWindow profile;
  const auto cells = static_cast<double>(workload.cells());

  // 1. Sorted load.
  const fs::path sortedDir = fs::path(dir) / "sorted";
  freshDirectory(sortedDir);
  peer.open(sortedDir.string(), true);
  uint64_t valueBytes = 0;
  profile.begin("load_sorted");
  m["load_sorted_client_seconds"] = load(peer, workload, config, false, &valueBytes);
  profile.begin("compact_sorted");
  auto start = Clock::now();
  peer.flushAndCompact();
  profile.end();
  m["load_sorted_compacted_seconds"] = m["load_sorted_client_seconds"] + secondsSince(start);
  peer.close();
  m["stored_bytes_sorted"] = static_cast<double>(directoryBytes(sortedDir));
  fs::remove_all(sortedDir);
  progress("load, key order", m["load_sorted_client_seconds"], cells, "cells");
  progress("  until compacted", m["load_sorted_compacted_seconds"], cells, "cells");

  // 2. Random load.
  const fs::path randomDir = fs::path(dir) / "random";
  freshDirectory(randomDir);
  peer.open(randomDir.string(), true);
  uint64_t randomValueBytes = 0;
  profile.begin("load_random");
  m["load_random_client_seconds"] = load(peer, workload, config, true, &randomValueBytes);
  profile.end();
  if (randomValueBytes != valueBytes)
    die("the random-order load wrote other values than the key-order load");
  profile.begin("compact_random");
  start = Clock::now();
  peer.flushAndCompact();
  profile.end();
  m["load_random_compacted_seconds"] = m["load_random_client_seconds"] + secondsSince(start);
  progress("load, random order", m["load_random_client_seconds"], cells, "cells");
  progress("  until compacted", m["load_random_compacted_seconds"], cells, "cells");

  // 3. Reopen: the reads start from a cold cache.
  peer.close();
  peer.open(randomDir.string(), false);

  // 4-5. Gets.
  const auto warm = getTargets(workload, config.getWarmup, 0.0, workload.seed() + 1);
  timedGets(peer, warm, "get warm-up");
  const auto hits = getTargets(workload, config.gets, 0.0, workload.seed() + 2);
  profile.begin("get_hit");
  m["get_hit_seconds"] = timedGets(peer, hits, "get, all hits");
  profile.end();
  m["gets"] = static_cast<double>(config.gets);
  progress("get, all hits", m["get_hit_seconds"], m["gets"], "gets");
  const auto mixed = getTargets(workload, config.gets, config.missFraction, workload.seed() + 3);
  profile.begin("get_miss");
  m["get_miss_seconds"] = timedGets(peer, mixed, "get, 20% misses");
  profile.end();
  progress("get, 20% misses", m["get_miss_seconds"], m["gets"], "gets");

  // 6. Prefix scans.
  Rng rng(workload.seed() + 4);
  std::vector<uint64_t> series(config.prefixScans);
  for (uint64_t& s : series) s = rng.below(workload.series());
  uint64_t prefixCells = 0;
  profile.begin("prefix_scan");
  start = Clock::now();
  for (uint64_t s : series) {
    const ScanTally tally = peer.scan(workload.seriesPrefix(s));
    if (tally.cells != workload.cellsInSeries(s)) {
      die("prefix scan of series " + std::to_string(s) + ": " + std::to_string(tally.cells) +
          " cells, expected " + std::to_string(workload.cellsInSeries(s)));
    }
    prefixCells += tally.cells;
  }
  m["prefix_scan_seconds"] = secondsSince(start);
  profile.end();
  m["prefix_scans"] = static_cast<double>(config.prefixScans);
  m["prefix_scan_cells"] = static_cast<double>(prefixCells);
  progress("prefix scans", m["prefix_scan_seconds"], m["prefix_scan_cells"], "cells");

  // 7. Full scan.
  profile.begin("full_scan");
  start = Clock::now();
  const ScanTally full = peer.scan({});
  m["full_scan_seconds"] = secondsSince(start);
  profile.end();
  if (full.cells != workload.cells() || full.valueBytes != valueBytes) {
    die("full scan: " + std::to_string(full.cells) + " cells of " +
        std::to_string(full.valueBytes) + " value bytes, expected " +
        std::to_string(workload.cells()) + " of " + std::to_string(valueBytes));
  }
  m["full_scan_value_bytes"] = static_cast<double>(full.valueBytes);
  m["raw_bytes"] = static_cast<double>(workload.cells() * kFlatKeySize + valueBytes);
  progress("full scan", m["full_scan_seconds"], cells, "cells");

  // 8. Size on disk.
  peer.close();
  m["stored_bytes"] = static_cast<double>(directoryBytes(randomDir));
  listFiles(randomDir);
  fs::remove_all(randomDir);
  return m;
}

}  // namespace keyscope_bench
