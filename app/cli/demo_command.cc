// `keyscope-cli demo WORKSPACE [--force]`: builds the demo workspace (one
// table per schema-design lesson, keyscope/demo.h) into a new file.
//
// The workspace is built under a temporary name in the same directory and
// renamed into place when it is complete, so an interrupted or failed build
// leaves no half-built workspace behind (and, with --force, the old one
// untouched). An existing file is replaced only with --force, only when it is
// a Keyscope workspace (or empty), and never while a Keyscope process has it
// open.
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>

#include "cli_io.h"
#include "csv_cli.h"
#include "keyscope/demo.h"
#include "keyscope/workspace.h"

namespace keyscope::cli {

namespace {

constexpr const char* kDemoUsage =
    "usage: keyscope-cli demo WORKSPACE [--force] [--quiet]\n"
    "  Builds the demo workspace: one table per lesson of HBase schema design (monotonic\n"
    "  versus salted keys, reverse timestamps, timeshifted metadata, ...), each with a\n"
    "  description and example commands (keyscope-cli shell WORKSPACE -e \"describe 'tsdb'\").\n"
    "  The build is deterministic: two builds hold the same cells.\n"
    "  --force   replace WORKSPACE if it exists (it must be a Keyscope workspace)\n"
    "  --quiet   no progress on stderr\n"
    "Exit status: 0 built, 1 the build failed or was interrupted, 2 bad usage or WORKSPACE exists.\n";

int usageError(Streams io, const std::string& message) {
  io.err << "keyscope-cli: demo: " << message << "\n";
  return kExitBadInput;
}

// An empty file, or an SQLite database marked with Keyscope's application id
// (the header's big-endian int at offset 68; engine/catalog.h kApplicationId).
bool isWorkspaceOrEmpty(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char header[72] = {};
  in.read(header, sizeof header);
  const std::streamsize n = in.gcount();
  if (n == 0) return true;
  if (n < static_cast<std::streamsize>(sizeof header) || std::memcmp(header, "SQLite format 3\0", 16) != 0)
    return false;
  return std::memcmp(header + 68, "KSCO", 4) == 0;
}

// Busy when another process holds the workspace's lock (the engine keeps an
// flock on the file while it is open).
Status checkNotOpen(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::ioError("cannot open " + path + ": " + std::strerror(errno));
  const bool locked = ::flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  ::close(fd);  // drops the lock again if it was taken
  if (locked) return Status::busy(path + " is open in another Keyscope process; close it there first");
  return Status::ok();
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

// Removes a workspace file and its SQLite side files; missing ones are fine.
void removeWorkspaceFiles(const std::string& path) {
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) std::remove((path + suffix).c_str());
}

}  // namespace

int runDemoCommand(const Args& args, Streams io) {
  std::vector<std::string> positional;
  bool force = false;
  bool quiet = false;
  for (const std::string& a : args) {
    if (a == "-h" || a == "--help") {
      io.out << kDemoUsage;
      return kExitOk;
    }
    if (a == "--force") force = true;
    else if (a == "--quiet" || a == "-q") quiet = true;
    else if (a.size() > 1 && a[0] == '-') return usageError(io, "unknown option '" + a + "' (try keyscope-cli demo --help)");
    else positional.push_back(a);
  }
  if (positional.size() != 1) {
    io.err << kDemoUsage;
    return kExitBadInput;
  }
  const std::string path = positional[0];
  if (exists(path)) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return usageError(io, path + " is not a regular file");
    if (!force) return usageError(io, path + " exists; pass --force to replace it with a new demo workspace");
    if (!isWorkspaceOrEmpty(path))
      return usageError(io, path + " is not a Keyscope workspace; not replacing it, even with --force");
    if (Status s = checkNotOpen(path); !s) return usageError(io, s.message());
  }

  // A unique temporary name beside the target, so the final rename stays on one file system.
  std::string building = path + ".building-XXXXXX";
  const int fd = ::mkstemp(building.data());
  if (fd < 0) return usageError(io, "cannot create a file beside " + path + ": " + std::strerror(errno));
  const mode_t mask = ::umask(0);  // mkstemp makes 0600; a workspace gets the usual 0666 & ~umask
  ::umask(mask);
  (void)::fchmod(fd, 0666 & ~mask);
  ::close(fd);

  const auto started = std::chrono::steady_clock::now();
  CancelToken cancel;
  demo::BuildOptions options;
  options.cancel = &cancel;
  if (!quiet) options.progress = [&io](const std::string& line) { io.err << "demo: " << line << "\n" << std::flush; };
  Result<demo::BuildSummary> summary = demo::BuildSummary{};
  {
    OpenOptions open;
    open.backgroundCompaction = false;  // the build decides its store files (one per flush)
    Result<std::unique_ptr<Workspace>> ws = Workspace::open(building, open);
    if (!ws) {
      removeWorkspaceFiles(building);
      return usageError(io, ws.status().message());
    }
    CancelOnInterrupt interrupt(cancel);
    summary = demo::build(**ws, options);
  }  // closed: SQLite checkpoints its log into the file
  if (!summary) {
    removeWorkspaceFiles(building);
    io.err << "keyscope-cli: demo: " << summary.status().message() << "\n";
    return kExitFailed;
  }
  // Replacing: the old file's side files must not be read as the new one's.
  for (const char* suffix : {"-wal", "-shm", "-journal"}) std::remove((path + suffix).c_str());
  if (exists(building + "-wal") && std::rename((building + "-wal").c_str(), (path + "-wal").c_str()) != 0) {
    removeWorkspaceFiles(building);
    return usageError(io, "cannot move the new workspace's log to " + path + "-wal: " + std::strerror(errno));
  }
  std::remove((building + "-shm").c_str());
  if (std::rename(building.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    removeWorkspaceFiles(building);
    return usageError(io, "cannot rename the new workspace to " + path + ": " + reason);
  }
  const auto elapsed =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
  if (!quiet) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.1f", static_cast<double>(elapsed) / 1000.0);
    io.err << "demo: " << summary->tables << " tables, " << withCommas(summary->rows) << " rows, "
           << withCommas(summary->cells) << " cells in " << seconds << " s: " << path << "\n";
  }
  return kExitOk;
}

}  // namespace keyscope::cli
