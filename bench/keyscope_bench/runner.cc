// Process-per-peer rounds (see runner.h).
#include "runner.h"

#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <sstream>

extern char** environ;

namespace keyscope_bench {
namespace {

namespace fs = std::filesystem;

// The child's stdout: "name value" lines, or an "error <message>" line.
Metrics parseMetrics(const std::string& text, std::string* error) {
  Metrics m;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("error ", 0) == 0) {
      *error = line.substr(6);
      continue;
    }
    std::istringstream fields(line);
    std::string name;
    double value = 0;
    if (fields >> name >> value) m[name] = value;
  }
  return m;
}

// Spawns this executable with `args`, returns its stdout; *status and *usage
// receive wait4's results.
bool spawnChild(const std::vector<std::string>& args, std::string* out, int* status,
                struct rusage* usage, std::string* error) {
  int pipeFds[2];
  if (pipe(pipeFds) != 0) {
    *error = std::string("pipe: ") + std::strerror(errno);
    return false;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipeFds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipeFds[0]);
  posix_spawn_file_actions_addclose(&actions, pipeFds[1]);

  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  // posix_spawn (vfork + exec in glibc) copies nothing of this process, so the
  // child's peak RSS starts from its own exec.
  const int rc = posix_spawn(&pid, "/proc/self/exe", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipeFds[1]);
  if (rc != 0) {
    close(pipeFds[0]);
    *error = std::string("posix_spawn: ") + std::strerror(rc);
    return false;
  }
  char buffer[4096];
  ssize_t n = 0;
  while ((n = read(pipeFds[0], buffer, sizeof buffer)) != 0) {
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    out->append(buffer, static_cast<size_t>(n));
  }
  close(pipeFds[0]);
  while (wait4(pid, status, 0, usage) < 0) {
    if (errno != EINTR) {
      *error = std::string("wait4: ") + std::strerror(errno);
      return false;
    }
  }
  return true;
}

}  // namespace

std::vector<std::string> childArguments(const RunConfig& config) {
  return {"--cells",        std::to_string(config.workload.cells),
          "--seed",         std::to_string(config.workload.seed),
          "--gets",         std::to_string(config.phases.gets),
          "--prefix-scans", std::to_string(config.phases.prefixScans),
          "--cache-mib",    std::to_string(config.settings.cacheBytes >> 20),
          "--memstore-mib", std::to_string(config.settings.memstoreBytes >> 20)};
}

std::vector<Round> runRounds(const RunConfig& config) {
  std::vector<Round> rounds;
  const size_t peers = config.peers.size();
  for (int r = 0; r < config.rounds; ++r) {
    for (size_t p = 0; p < peers; ++p) {
      Round round;
      round.peer = config.peers[(p + static_cast<size_t>(r)) % peers];
      round.round = r + 1;
      std::fprintf(stderr, "round %d/%d: %s\n", r + 1, config.rounds, round.peer.c_str());
      const fs::path dir = fs::path(config.dir) / (round.peer + "-" + std::to_string(r + 1));
      fs::create_directories(dir);

      std::vector<std::string> args = {"keyscope-bench", "--child", round.peer, "--dir",
                                       dir.string()};
      for (std::string& a : childArguments(config)) args.push_back(std::move(a));
      std::string out;
      int status = 0;
      struct rusage usage {};
      if (!spawnChild(args, &out, &status, &usage, &round.error)) {
        rounds.push_back(std::move(round));
        continue;
      }
      std::string childError;
      const Metrics metrics = parseMetrics(out, &childError);
      if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        round.ok = true;
        round.metrics = metrics;
        round.metrics["peak_rss_bytes"] = static_cast<double>(usage.ru_maxrss) * 1024.0;  // KiB
        std::fprintf(stderr, "    %-24s %8.1f MiB\n", "peak RSS",
                     round.metrics["peak_rss_bytes"] / (1 << 20));
      } else {
        round.error = !childError.empty()   ? childError
                      : WIFSIGNALED(status) ? "killed by signal " + std::to_string(WTERMSIG(status))
                                            : "exit code " + std::to_string(WEXITSTATUS(status));
        std::fprintf(stderr, "    failed: %s\n", round.error.c_str());
      }
      fs::remove_all(dir);
      rounds.push_back(std::move(round));
    }
  }
  return rounds;
}

int runChild(const std::string& peerName, const RunConfig& config) {
  reportErrorsOnStdout();
  const PeerInfo* info = findPeer(peerName);
  if (info == nullptr) die("unknown peer '" + peerName + "'");
  const Workload workload(config.workload);
  std::unique_ptr<Peer> peer = info->make(config.settings);
  const Metrics metrics = runPhases(*peer, workload, config.phases, config.dir);
  peer.reset();
  for (const auto& [name, value] : metrics) std::printf("%s %.17g\n", name.c_str(), value);
  std::fflush(stdout);
  return 0;
}

}  // namespace keyscope_bench
