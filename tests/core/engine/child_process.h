// A fork()ed child process for tests that need a real second process: one
// that runs under a file size limit, holds a workspace open while the test
// tries to open it too, or is killed with SIGKILL.
//
// The child runs a body that never touches GoogleTest (the parent owns it)
// and reports to the parent over a pipe, one line per event; the parent reads
// the lines and asserts on them. Fork before the parent opens a workspace
// (a fork copies only the calling thread; a workspace has a worker thread).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace keyscope::test {

// The child's end of the pipe.
class ChildReporter {
 public:
  explicit ChildReporter(int fd) : m_fd(fd) {}
  // Sends one line (newlines inside become spaces). Exits the child if the
  // parent has gone.
  void say(const std::string& line) const;

 private:
  int m_fd;
};

class ChildProcess {
 public:
  // Forks; the child runs body and _exit()s with its return value (static
  // destructors and GoogleTest's handlers do not run in the child).
  explicit ChildProcess(const std::function<int(const ChildReporter&)>& body);
  ~ChildProcess();  // kills the child if it still runs
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return m_pid; }
  // The next line, or nullopt at the end of the child's output or after the
  // timeout.
  std::optional<std::string> readLine(std::chrono::milliseconds timeout = std::chrono::seconds(60));
  // Reads until a line starting with `prefix` and returns it (nullopt at the
  // end or after the timeout); lines passed over are kept in lines().
  std::optional<std::string> waitFor(const std::string& prefix,
                                     std::chrono::milliseconds timeout = std::chrono::seconds(60));
  // Reads every remaining line, then reaps the child: its exit code, or 128 +
  // the signal that ended it.
  int finish(std::chrono::milliseconds timeout = std::chrono::seconds(120));
  void kill(int signal);
  // Every line read so far.
  const std::vector<std::string>& lines() const { return m_lines; }
  // The lines read so far that start with `prefix`, without it.
  std::vector<std::string> linesStartingWith(const std::string& prefix) const;

 private:
  pid_t m_pid = -1;
  int m_fd = -1;
  bool m_reaped = false;
  int m_exit = -1;
  std::string m_pending;  // bytes read after the last complete line
  std::vector<std::string> m_lines;
};

// The largest of the workspace file and its SQLite companions (-wal, -shm),
// in bytes.
uint64_t largestWorkspaceFile(const std::string& path);

// In the child: limits the size of any file this process writes to `bytes`
// (RLIMIT_FSIZE's soft limit) with SIGXFSZ ignored, so a write past it fails
// with EFBIG instead of killing the process. raiseFileSizeLimit() lifts it
// again (the hard limit stays as it was). False when setrlimit fails.
bool limitFileSize(uint64_t bytes);
bool raiseFileSizeLimit();

}  // namespace keyscope::test
