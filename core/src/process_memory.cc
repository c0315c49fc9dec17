#include "keyscope/process_memory.h"

#include <cstdlib>  // defines __GLIBC__ under glibc

// AddressSanitizer and ThreadSanitizer bring allocators of their own:
// ASan's mallopt ignores the call, and TSan's leaves it to glibc's, which
// then sets a threshold nothing reads. Either way there is nothing to set.
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#define KEYSCOPE_GLIBC_MALLOC 1
#include <malloc.h>
#endif

namespace keyscope {

bool configureProcessAllocator() {
#if defined(KEYSCOPE_GLIBC_MALLOC)
  // glibc's starting value. Setting it at all turns the dynamic adjustment
  // off (for the trim threshold too).
  constexpr int kMmapThresholdBytes = 128 * 1024;
  return mallopt(M_MMAP_THRESHOLD, kMmapThresholdBytes) == 1;
#else
  return false;
#endif
}

}  // namespace keyscope
