// The pool of memstore arena blocks: what it keeps, up to its maximum, and
// when it lets go of them.
#include "engine/arena_block_pool.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

namespace keyscope::engine {
namespace {

constexpr size_t kBlock = ArenaBlockPool::kBlockBytes;

char* newBlock() {
  char* block = ArenaBlockPool::mapBlock(kBlock);
  EXPECT_NE(block, nullptr);
  return block;
}

TEST(ArenaBlockPool, GivesBackTheBlocksItWasGivenAndNothingBefore) {
  ArenaBlockPool pool(4 * kBlock);
  EXPECT_EQ(pool.take(), nullptr);
  char* block = newBlock();
  pool.give(block);
  EXPECT_EQ(pool.keptBytes(), kBlock);
  EXPECT_EQ(pool.take(), block);
  EXPECT_EQ(pool.keptBytes(), 0u);
  EXPECT_EQ(pool.take(), nullptr);
  ArenaBlockPool::unmapBlock(block, kBlock);
}

TEST(ArenaBlockPool, AKeptBlockComesBackAsItsLastUserLeftIt) {
  // Not zeroed again: that is the cost it saves, and why the memstore's
  // arena initializes everything it hands out.
  ArenaBlockPool pool(kBlock);
  char* block = newBlock();
  std::memset(block, 0x5A, kBlock);
  pool.give(block);
  char* again = pool.take();
  ASSERT_EQ(again, block);
  EXPECT_EQ(again[0], 0x5A);
  EXPECT_EQ(again[kBlock - 1], 0x5A);
  ArenaBlockPool::unmapBlock(again, kBlock);
}

TEST(ArenaBlockPool, KeepsNoMoreThanItsMaximum) {
  ArenaBlockPool pool(2 * kBlock + kBlock / 2);  // room for two whole blocks
  for (int i = 0; i < 4; ++i) pool.give(newBlock());
  EXPECT_EQ(pool.keptBytes(), 2 * kBlock);

  ArenaBlockPool none(0);
  none.give(newBlock());
  EXPECT_EQ(none.keptBytes(), 0u);
}

TEST(ArenaBlockPool, KeepsNoMoreThanTheRoomItIsGiven) {
  ArenaBlockPool pool(8 * kBlock);
  for (int i = 0; i < 4; ++i) pool.give(newBlock(), 2 * kBlock + kBlock / 2);  // room for two
  EXPECT_EQ(pool.keptBytes(), 2 * kBlock);
  pool.give(newBlock(), 0);
  EXPECT_EQ(pool.keptBytes(), 2 * kBlock) << "no room: unmapped";
  pool.give(newBlock());  // no room named: up to the maximum
  EXPECT_EQ(pool.keptBytes(), 3 * kBlock);
}

TEST(ArenaBlockPool, ReleasesOnlyOnceNobodyAskedForTheIdleTime) {
  using namespace std::chrono_literals;
  ArenaBlockPool pool(4 * kBlock);
  pool.give(newBlock());
  pool.give(pool.take());  // asked and served just now, then given back
  pool.releaseIfIdle(ArenaBlockPool::Clock::now(), 2s);
  EXPECT_EQ(pool.keptBytes(), kBlock) << "a memstore asked within the idle time";
  pool.releaseIfIdle(ArenaBlockPool::Clock::now() + 3s, 2s);
  EXPECT_EQ(pool.keptBytes(), 0u) << "nobody asked for longer than the idle time";
}

TEST(ArenaBlockPool, AnAskItCouldNotServeStillSaysBlocksAreWanted) {
  using namespace std::chrono_literals;
  ArenaBlockPool pool(4 * kBlock);
  EXPECT_EQ(pool.take(), nullptr);  // the memstore mapped a block of its own
  pool.give(newBlock());
  pool.releaseIfIdle(ArenaBlockPool::Clock::now(), 2s);
  EXPECT_EQ(pool.keptBytes(), kBlock);
}

TEST(ArenaBlockPool, APoolNeverAskedReleasesAtItsFirstCheck) {
  using namespace std::chrono_literals;
  ArenaBlockPool pool(4 * kBlock);
  pool.give(newBlock());
  pool.give(newBlock());
  pool.releaseIfIdle(ArenaBlockPool::Clock::now(), 2s);
  EXPECT_EQ(pool.keptBytes(), 0u);
}

TEST(ArenaBlockPool, ReleaseAllLetsGoOfEverything) {
  ArenaBlockPool pool(4 * kBlock);
  pool.give(newBlock());
  pool.give(newBlock());
  pool.releaseAll();
  EXPECT_EQ(pool.keptBytes(), 0u);
}

// The VmFlags line of the mapping of /proc/self/smaps that holds `at`, or ""
// when none does.
std::string vmFlagsOf(const void* at) {
  const auto address = reinterpret_cast<uintptr_t>(at);
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    uintptr_t begin = 0;
    uintptr_t end = 0;
    char dash = 0;
    std::istringstream head(line);
    if (head >> std::hex >> begin >> dash >> end && dash == '-' &&
        line.find(':') > line.find(' ')) {
      inside = begin <= address && address < end;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line;
    }
  }
  return "";
}

bool advisedForHugePages(const void* at) {
  return vmFlagsOf(at).find(" hg") != std::string::npos;
}

TEST(ArenaBlockPool, AFullSizeBlockIsOneHugePageAlignedAndAdvisedForIt) {
  static_assert(kBlock % ArenaBlockPool::kHugePageBytes == 0);
  char* block = ArenaBlockPool::mapBlock(kBlock);
  ASSERT_NE(block, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(block) % ArenaBlockPool::kHugePageBytes, 0u);
  ASSERT_NE(vmFlagsOf(block), "") << "the block is not in /proc/self/smaps";
  EXPECT_TRUE(advisedForHugePages(block)) << vmFlagsOf(block);
  EXPECT_TRUE(advisedForHugePages(block + kBlock - 1)) << vmFlagsOf(block + kBlock - 1);
  // Zeroed, and every byte of it writable.
  EXPECT_EQ(block[0], 0);
  EXPECT_EQ(block[kBlock - 1], 0);
  std::memset(block, 0x5A, kBlock);
  EXPECT_EQ(block[kBlock / 2], 0x5A);
  ArenaBlockPool::unmapBlock(block, kBlock);
  EXPECT_EQ(vmFlagsOf(block), "") << "unmapped";
}

TEST(ArenaBlockPool, ASmallerBlockIsAPlainMapping) {
  constexpr size_t kSmall = 64 << 10;
  char* block = ArenaBlockPool::mapBlock(kSmall);
  ASSERT_NE(block, nullptr);
  EXPECT_FALSE(advisedForHugePages(block)) << vmFlagsOf(block);
  EXPECT_EQ(block[kSmall - 1], 0);
  std::memset(block, 0x5A, kSmall);
  ArenaBlockPool::unmapBlock(block, kSmall);
}

}  // namespace
}  // namespace keyscope::engine
