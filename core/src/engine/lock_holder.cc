#include "engine/lock_holder.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

namespace keyscope::engine {

namespace {

// The short name of a process (/proc/PID/comm), or empty.
std::string processName(long pid) {
  std::ifstream comm("/proc/" + std::to_string(pid) + "/comm");
  std::string name;
  std::getline(comm, name);
  return name;
}

}  // namespace

std::optional<LockHolder> flockHolder(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return std::nullopt;
  // Lines look like "1: FLOCK  ADVISORY  WRITE 1234 fe:00:10955066 0 EOF":
  // the device as major:minor in hex, then the inode in decimal. Waiters
  // ("1: -> FLOCK ...") fail the field checks.
  std::ifstream locks("/proc/locks");
  std::string line;
  while (std::getline(locks, line)) {
    std::istringstream fields(line);
    std::string number, kind, mode, access, device;
    long pid = 0;
    if (!(fields >> number >> kind >> mode >> access >> pid >> device)) continue;
    if (kind != "FLOCK" || access != "WRITE" || pid <= 0) continue;
    std::istringstream parts(device);
    unsigned long devMajor = 0, devMinor = 0;
    unsigned long long inode = 0;
    char colon1 = 0, colon2 = 0;
    if (!(parts >> std::hex >> devMajor >> colon1 >> devMinor >> colon2 >> std::dec >> inode))
      continue;
    if (devMajor != major(st.st_dev) || devMinor != minor(st.st_dev) || inode != st.st_ino)
      continue;
    return LockHolder{pid, processName(pid)};
  }
  return std::nullopt;
}

Status workspaceInUse(const std::string& path, int fd) {
  const std::optional<LockHolder> holder = flockHolder(fd);
  if (holder && holder->pid == static_cast<long>(::getpid()))
    return Status::busy(path + " is already open in this process; close it first");
  std::string who;
  if (holder)
    who = " (" + (holder->name.empty() ? std::string() : holder->name + ", ") + "pid " +
          std::to_string(holder->pid) + ")";
  return Status::busy(path + " is open in another Keyscope process" + who +
                      "; close it there first");
}

}  // namespace keyscope::engine
