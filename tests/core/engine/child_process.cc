#include "child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>

namespace keyscope::test {

using Clock = std::chrono::steady_clock;

void ChildReporter::say(const std::string& line) const {
  std::string text = line;
  std::replace(text.begin(), text.end(), '\n', ' ');
  text += '\n';
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(m_fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) ::_exit(3);  // the parent is gone
    done += static_cast<size_t>(n);
  }
}

ChildProcess::ChildProcess(const std::function<int(const ChildReporter&)>& body) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return;
  m_pid = ::fork();
  if (m_pid == 0) {
    ::close(fds[0]);
    const int code = body(ChildReporter(fds[1]));
    ::_exit(code);
  }
  ::close(fds[1]);
  if (m_pid < 0) {
    ::close(fds[0]);
    return;
  }
  m_fd = fds[0];
}

ChildProcess::~ChildProcess() {
  if (m_pid > 0 && !m_reaped) {
    ::kill(m_pid, SIGKILL);
    int status = 0;
    while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  if (m_fd >= 0) ::close(m_fd);
}

std::optional<std::string> ChildProcess::readLine(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    const size_t newline = m_pending.find('\n');
    if (newline != std::string::npos) {
      std::string line = m_pending.substr(0, newline);
      m_pending.erase(0, newline + 1);
      m_lines.push_back(line);
      return line;
    }
    if (m_fd < 0) return std::nullopt;
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return std::nullopt;
    pollfd p{m_fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(left));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) return std::nullopt;
    char buffer[4096];
    const ssize_t n = ::read(m_fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(m_fd);
      m_fd = -1;
      continue;  // a last line without a newline is dropped
    }
    m_pending.append(buffer, static_cast<size_t>(n));
  }
}

std::optional<std::string> ChildProcess::waitFor(const std::string& prefix,
                                                 std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return std::nullopt;
    std::optional<std::string> line = readLine(left);
    if (!line) return std::nullopt;
    if (line->starts_with(prefix)) return line;
  }
}

int ChildProcess::finish(std::chrono::milliseconds timeout) {
  if (m_reaped) return m_exit;
  if (m_pid <= 0) return -1;
  const auto deadline = Clock::now() + timeout;
  while (m_fd >= 0 && Clock::now() < deadline) {
    (void)readLine(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()));
  }
  if (m_fd >= 0) ::kill(m_pid, SIGKILL);  // it hung: the test fails on the code
  int status = 0;
  while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
  }
  m_reaped = true;
  m_exit = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return m_exit;
}

void ChildProcess::kill(int signal) {
  if (m_pid > 0 && !m_reaped) ::kill(m_pid, signal);
}

std::vector<std::string> ChildProcess::linesStartingWith(const std::string& prefix) const {
  std::vector<std::string> out;
  for (const std::string& line : m_lines) {
    if (line.starts_with(prefix)) out.push_back(line.substr(prefix.size()));
  }
  return out;
}

uint64_t largestWorkspaceFile(const std::string& path) {
  uint64_t largest = 0;
  for (const char* suffix : {"", "-wal", "-shm"}) {
    struct stat st {};
    if (::stat((path + suffix).c_str(), &st) == 0)
      largest = std::max(largest, static_cast<uint64_t>(st.st_size));
  }
  return largest;
}

bool limitFileSize(uint64_t bytes) {
  ::signal(SIGXFSZ, SIG_IGN);
  rlimit limit{};
  if (::getrlimit(RLIMIT_FSIZE, &limit) != 0) return false;
  limit.rlim_cur = static_cast<rlim_t>(bytes);
  return ::setrlimit(RLIMIT_FSIZE, &limit) == 0;
}

bool raiseFileSizeLimit() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_FSIZE, &limit) != 0) return false;
  limit.rlim_cur = limit.rlim_max;
  return ::setrlimit(RLIMIT_FSIZE, &limit) == 0;
}

}  // namespace keyscope::test
