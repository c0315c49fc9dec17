#include "async/allocator_limits.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace keyscope {

void limitAllocatorArenas() {
#if defined(__GLIBC__)
  mallopt(M_ARENA_MAX, 2);
#endif
}

void releaseFreedMemory() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

}  // namespace keyscope
