// Who holds a workspace's lock, for the message that refuses a second open.
// Linux only: read from /proc/locks, which lists every flock with its owner's
// pid and the file's device and inode. Thread-safe (reads /proc only).
#pragma once

#include <optional>
#include <string>

#include "keyscope/status.h"

namespace keyscope::engine {

struct LockHolder {
  long pid = 0;
  std::string name;  // /proc/PID/comm ("keyscope-cli"); empty when unreadable
};

// The process holding an exclusive flock on the file open as `fd`; nullopt
// when it cannot be told (no /proc, a pid from another pid namespace, or the
// lock went away meanwhile).
std::optional<LockHolder> flockHolder(int fd);

// Busy: "PATH is open in another Keyscope process (keyscope-cli, pid 1234);
// close it there first", or "... is already open in this process" when the
// lock is this process's own. `fd`: the file, open, whose flock was refused.
Status workspaceInUse(const std::string& path, int fd);

}  // namespace keyscope::engine
