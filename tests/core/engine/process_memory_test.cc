// configureProcessAllocator(): once a large block is freed, blocks of a few
// hundred KiB to a few MiB are still served by their own mappings (returned
// to the system on free) rather than from a heap that keeps them resident.
#include "keyscope/process_memory.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define KEYSCOPE_TEST_OWN_ALLOCATOR 1  // the sanitizer brings its own allocator: nothing to set
#endif

namespace keyscope {
namespace {

#if defined(__GLIBC__) && !defined(KEYSCOPE_TEST_OWN_ALLOCATOR)

// Written through, so the compiler cannot drop an allocation it sees unused.
void* volatile g_sink = nullptr;

void* touched(size_t bytes) {
  void* p = std::malloc(bytes);
  std::memset(p, 1, bytes);
  g_sink = p;
  return g_sink;
}

TEST(ProcessAllocator, AMiBBlockIsMappedAfterALargerOneWasFreed) {
  ASSERT_TRUE(configureProcessAllocator());
  // Left to itself, glibc would raise its mmap threshold to 8 MiB here, and
  // serve the 1 MiB block below from a heap.
  std::free(touched(size_t{8} << 20));
  const size_t mappedBefore = mallinfo2().hblkhd;
  void* block = touched(size_t{1} << 20);
  const size_t mappedWith = mallinfo2().hblkhd;
  std::free(block);
  EXPECT_GE(mappedWith - mappedBefore, size_t{1} << 20) << "the 1 MiB block came from a heap";
  EXPECT_EQ(mallinfo2().hblkhd, mappedBefore) << "freeing it did not unmap it";
}

#else

TEST(ProcessAllocator, DoesNothingWithoutGlibcsOwnAllocator) { EXPECT_FALSE(configureProcessAllocator()); }

#endif

}  // namespace
}  // namespace keyscope
