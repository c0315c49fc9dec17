// keyscope-bench: Keyscope's engine side by side with RocksDB, a plain SQLite
// table and (when built with it) LevelDB, on one seeded time-series workload.
// The parent only spawns children and reports; each child runs one peer.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <keyscope/process_memory.h>

#include "report.h"
#include "runner.h"

namespace {

using namespace keyscope_bench;

void usage(FILE* out) {
  std::string peers;
  for (const PeerInfo& p : availablePeers()) peers += (peers.empty() ? "" : ",") + p.name;
  std::fprintf(out,
               "usage: keyscope-bench [options]\n"
               "  --cells N          cells to load (default 5000000)\n"
               "  --seed N           workload seed (default 42)\n"
               "  --rounds N         repetitions; peers are interleaved (default 3)\n"
               "  --peers LIST       comma-separated, of: %s (default: all)\n"
               "  --gets N           gets per get phase (default 100000)\n"
               "  --prefix-scans N   prefix scans (default 2000)\n"
               "  --cache-mib N      block/page cache per peer (default 64)\n"
               "  --memstore-mib N   memstore flush size = write buffer (default 64)\n"
               "  --dir DIR          scratch directory (default: a new one under $TMPDIR)\n"
               "  --json             print JSON instead of Markdown\n"
               "  --json-out FILE    also write the JSON report to FILE\n",
               peers.c_str());
}

uint64_t number(std::string_view flag, const char* text) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (end == text || *end != '\0') die(std::string(flag) + ": not a number: " + text);
  return v;
}

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= list.size()) {
    const size_t comma = list.find(',', start);
    const size_t end = comma == std::string::npos ? list.size() : comma;
    if (end > start) out.push_back(list.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  // Every peer's process, alike (keyscope/process_memory.h).
  keyscope::configureProcessAllocator();
  RunConfig config;
  std::string child;
  bool json = false;
  std::string jsonOut;
  bool ownDir = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    const auto value = [&]() -> const char* {
      if (i + 1 >= argc) die(std::string(a) + " needs a value");
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      usage(stdout);
      return 0;
    } else if (a == "--cells") {
      config.workload.cells = number(a, value());
    } else if (a == "--seed") {
      config.workload.seed = number(a, value());
    } else if (a == "--rounds") {
      config.rounds = static_cast<int>(number(a, value()));
    } else if (a == "--peers") {
      config.peers = split(value());
    } else if (a == "--gets") {
      config.phases.gets = number(a, value());
    } else if (a == "--prefix-scans") {
      config.phases.prefixScans = number(a, value());
    } else if (a == "--cache-mib") {
      config.settings.cacheBytes = number(a, value()) << 20;
    } else if (a == "--memstore-mib") {
      config.settings.memstoreBytes = number(a, value()) << 20;
    } else if (a == "--dir") {
      config.dir = value();
    } else if (a == "--json") {
      json = true;
    } else if (a == "--json-out") {
      jsonOut = value();
    } else if (a == "--child") {
      child = value();
    } else {
      usage(stderr);
      die("unknown argument '" + std::string(a) + "'");
    }
  }
  if (config.workload.cells == 0) die("--cells must be positive");
  if (config.rounds < 1) die("--rounds must be at least 1");

  if (!child.empty()) {
    if (config.dir.empty()) die("--child needs --dir");
    return runChild(child, config);
  }

  if (config.peers.empty()) {
    for (const PeerInfo& p : availablePeers()) config.peers.push_back(p.name);
  }
  for (const std::string& p : config.peers) {
    if (findPeer(p) == nullptr) die("peer '" + p + "' is not built into this keyscope-bench");
  }
  if (findPeer("keyscope") == nullptr) {
    std::fprintf(stderr,
                 "keyscope-bench: built without Keyscope's engine (KEYSCOPE_BENCH_WITH_ENGINE=OFF):"
                 " peers only, no ratios\n");
  }
  if (config.dir.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern =
        std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/keyscope-bench.XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) die("cannot create a scratch directory in " + pattern);
    config.dir = pattern;
    ownDir = true;
  }

  std::string command;
  if (const char* c = std::getenv("KEYSCOPE_BENCH_COMMAND"); c != nullptr && *c != '\0') {
    command = c;
  } else {
    command = "keyscope-bench";
    for (int i = 1; i < argc; ++i) command += std::string(" ") + argv[i];
  }
  RunInfo info = describeRun(command);
  const std::vector<Round> rounds = runRounds(config);
  info.loadAfter = loadAverage();
  if (ownDir) std::filesystem::remove_all(config.dir);

  const std::string report =
      json ? jsonReport(config, info, rounds) : markdownReport(config, info, rounds);
  std::fputs(report.c_str(), stdout);
  if (!jsonOut.empty()) {
    FILE* f = std::fopen(jsonOut.c_str(), "w");
    if (f == nullptr) die("cannot write " + jsonOut);
    std::fputs(jsonReport(config, info, rounds).c_str(), f);
    std::fclose(f);
  }
  for (const Round& r : rounds) {
    if (!r.ok) return 1;
  }
  return 0;
}
