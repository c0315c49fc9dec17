#include "engine/thread_priority.h"

#if defined(__linux__)
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#endif

namespace keyscope::engine {

void lowerThisThreadsPriority() {
#if defined(__linux__)
  // On Linux a "process" priority of a thread id is that thread's alone.
  // Raising one's own nice value needs no privilege; a failure leaves the
  // thread at its priority, which is only slower for the writer.
  constexpr int kLowestPriority = 19;
  const auto self = static_cast<id_t>(gettid());
  errno = 0;
  const int current = getpriority(PRIO_PROCESS, self);  // -1 is a priority too: errno tells
  if (errno != 0) return;
  (void)setpriority(PRIO_PROCESS, self, std::min(current + kBackgroundNiceIncrement, kLowestPriority));
#endif
}

}  // namespace keyscope::engine
