#include "keyscope/process_memory.h"

#include <cstdlib>  // defines __GLIBC__ under glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace keyscope {

bool configureProcessAllocator() {
#if defined(__GLIBC__)
  // glibc's starting value. Setting it at all turns the dynamic adjustment
  // off (for the trim threshold too).
  constexpr int kMmapThresholdBytes = 128 * 1024;
  return mallopt(M_MMAP_THRESHOLD, kMmapThresholdBytes) == 1;
#else
  return false;
#endif
}

}  // namespace keyscope
