// PageCache: LRU by bytes per shard, file erase, counters, and concurrent use.
#include "engine/page_cache.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace keyscope::engine {
namespace {

PageCache::Block blockOf(size_t size, char fill = 'x') { return std::make_shared<const std::string>(size, fill); }

// A block whose bytes name its key, so a lookup can tell a mixed-up answer.
PageCache::Block namedBlock(int64_t fileId, uint32_t blockNo, size_t size) {
  std::string name = std::to_string(fileId) + ":" + std::to_string(blockNo) + ";";
  std::string bytes;
  while (bytes.size() < size) bytes += name;
  bytes.resize(std::max(size, name.size()));
  return std::make_shared<const std::string>(bytes);  // a copy: no spare capacity
}

bool names(const PageCache::Block& block, int64_t fileId, uint32_t blockNo) {
  const std::string name = std::to_string(fileId) + ":" + std::to_string(blockNo) + ";";
  return block != nullptr && block->compare(0, name.size(), name) == 0;
}

TEST(PageCache, LookupFindsWhatWasInsertedAndCounts) {
  PageCache cache(1 << 20);
  EXPECT_EQ(cache.lookup(1, 0), nullptr);
  cache.insert(1, 0, namedBlock(1, 0, 100));
  cache.insert(2, 0, namedBlock(2, 0, 100));
  EXPECT_TRUE(names(cache.lookup(1, 0), 1, 0));
  EXPECT_TRUE(names(cache.lookup(2, 0), 2, 0));
  EXPECT_EQ(cache.lookup(1, 1), nullptr);
  EXPECT_EQ(cache.hits(), 2u);
  EXPECT_EQ(cache.misses(), 2u);
  EXPECT_EQ(cache.entryCount(), 2u);
}

TEST(PageCache, EvictsLeastRecentlyUsedByBytes) {
  PageCache cache(1000, /*shardBits=*/0);
  cache.insert(1, 0, blockOf(300));
  cache.insert(1, 1, blockOf(300));
  cache.insert(1, 2, blockOf(300));
  EXPECT_EQ(cache.usage(), 900u);
  ASSERT_NE(cache.lookup(1, 0), nullptr);  // 0 is now more recent than 1
  cache.insert(1, 3, blockOf(300));        // 1200 > 1000: the least recent (1) goes
  EXPECT_EQ(cache.usage(), 900u);
  EXPECT_EQ(cache.lookup(1, 1), nullptr);
  EXPECT_NE(cache.lookup(1, 0), nullptr);
  EXPECT_NE(cache.lookup(1, 2), nullptr);
  EXPECT_NE(cache.lookup(1, 3), nullptr);
  // Recency is now 3, 2, 0 (newest first): 700 more bytes evict 0 and then 2.
  cache.insert(1, 4, blockOf(700));
  EXPECT_LE(cache.usage(), 1000u);
  EXPECT_NE(cache.lookup(1, 4), nullptr);
  EXPECT_NE(cache.lookup(1, 3), nullptr);
  EXPECT_EQ(cache.lookup(1, 0), nullptr);
  EXPECT_EQ(cache.lookup(1, 2), nullptr);
}

TEST(PageCache, ReplacingABlockRecharges) {
  PageCache cache(1000, 0);
  cache.insert(5, 9, blockOf(400, 'a'));
  cache.insert(5, 9, blockOf(100, 'b'));
  EXPECT_EQ(cache.usage(), 100u);
  EXPECT_EQ(cache.entryCount(), 1u);
  EXPECT_EQ(*cache.lookup(5, 9), std::string(100, 'b'));
}

TEST(PageCache, BlockLargerThanItsShardIsNotKept) {
  PageCache cache(1000, 0);
  cache.insert(1, 0, blockOf(200));
  cache.insert(1, 1, blockOf(1001));
  EXPECT_EQ(cache.lookup(1, 1), nullptr);
  EXPECT_NE(cache.lookup(1, 0), nullptr);  // and it evicted nothing
  EXPECT_EQ(cache.usage(), 200u);
}

TEST(PageCache, EraseFileDropsOnlyThatFile) {
  PageCache cache(1 << 20);
  for (uint32_t b = 0; b < 50; ++b) {
    cache.insert(7, b, namedBlock(7, b, 64));
    cache.insert(8, b, namedBlock(8, b, 64));
  }
  cache.eraseFile(7);
  EXPECT_EQ(cache.entryCount(), 50u);
  EXPECT_EQ(cache.usage(), 50u * 64);
  for (uint32_t b = 0; b < 50; ++b) {
    EXPECT_EQ(cache.lookup(7, b), nullptr);
    EXPECT_TRUE(names(cache.lookup(8, b), 8, b));
  }
}

TEST(PageCache, EvictedBlockStaysAliveForItsHolder) {
  PageCache cache(500, 0);
  cache.insert(1, 0, blockOf(400, 'k'));
  const PageCache::Block held = cache.lookup(1, 0);
  cache.insert(1, 1, blockOf(400));
  cache.eraseFile(1);
  EXPECT_EQ(cache.lookup(1, 0), nullptr);
  ASSERT_NE(held, nullptr);
  EXPECT_EQ(*held, std::string(400, 'k'));
}

TEST(PageCache, ShardsShareTheCapacity) {
  PageCache cache(16 * 1024);  // 16 shards of 1 KiB
  for (uint32_t b = 0; b < 1000; ++b) cache.insert(3, b, blockOf(100));
  EXPECT_LE(cache.usage(), 16u * 1024);
  EXPECT_GE(cache.usage(), 8u * 1024);  // every shard got some use
}

TEST(PageCache, ManyBlocksStayFindableAsTheShardGrows) {
  // Thousands of entries in one shard: its buckets are rebuilt several times.
  PageCache cache(1 << 24, 0);
  for (uint32_t b = 0; b < 5000; ++b) cache.insert(b % 3, b, namedBlock(b % 3, b, 32));
  EXPECT_EQ(cache.entryCount(), 5000u);
  EXPECT_EQ(cache.usage(), 5000u * 32);
  for (uint32_t b = 0; b < 5000; ++b) ASSERT_TRUE(names(cache.lookup(b % 3, b), b % 3, b)) << b;
  EXPECT_EQ(cache.lookup(0, 1), nullptr);  // 1 % 3 is 1, not 0
  cache.eraseFile(1);
  EXPECT_EQ(cache.entryCount(), 5000u - 1667);
  for (uint32_t b = 0; b < 5000; ++b) EXPECT_EQ(cache.lookup(b % 3, b) != nullptr, b % 3 != 1) << b;
}

TEST(PageCache, AStreamOfInsertsKeepsTheNewestThatFit) {
  // A scan's pattern: each insert evicts the oldest. What stays is exactly
  // the newest blocks that fit, in one shard or many.
  for (const int shardBits : {0, 4}) {
    PageCache cache(16 * 1000, shardBits);
    for (uint32_t b = 0; b < 10000; ++b) cache.insert(4, b, namedBlock(4, b, 100));
    EXPECT_LE(cache.usage(), 16u * 1000);
    if (shardBits == 0) {
      EXPECT_EQ(cache.entryCount(), 160u);
      for (uint32_t b = 0; b < 10000; ++b) EXPECT_EQ(cache.lookup(4, b) != nullptr, b >= 10000 - 160) << b;
    }
    for (uint32_t b = 9990; b < 10000; ++b) EXPECT_TRUE(names(cache.lookup(4, b), 4, b)) << shardBits << " " << b;
    // One big block evicts many small ones at once.
    cache.insert(5, 0, blockOf(900));
    EXPECT_LE(cache.usage(), 16u * 1000);
    EXPECT_NE(cache.lookup(5, 0), nullptr);
  }
}

// A buffer with room to spare (one reused for a smaller block) holds that
// room in memory: the cache's budget counts it.
TEST(PageCache, ABlockIsChargedTheBytesItsBufferHolds) {
  PageCache cache(10000, 0);
  const auto roomy = [] {
    auto block = std::make_shared<std::string>();
    block->reserve(4000);
    block->assign(100, 'x');
    return block;
  };
  const std::shared_ptr<std::string> first = roomy();
  cache.insert(1, 0, first);
  EXPECT_EQ(cache.usage(), first->capacity());
  EXPECT_GE(cache.usage(), 4000u);
  cache.insert(1, 1, roomy());
  cache.insert(1, 2, roomy());  // 3 x 4000 > 10000: the oldest goes
  EXPECT_EQ(cache.entryCount(), 2u);
  EXPECT_EQ(cache.lookup(1, 0), nullptr);
  EXPECT_LE(cache.usage(), 10000u);
}

TEST(PageCache, ADroppedBlocksBufferIsReusedByTheNextNewBlock) {
  PageCache cache(1 << 20, 0);
  std::shared_ptr<std::string> first = cache.newBlock(4096);
  ASSERT_EQ(first->size(), 4096u);
  const char* buffer = first->data();
  first->assign(4096, 'a');
  // Held by the cache and a reader: given back only when both let go.
  cache.insert(1, 0, first);
  PageCache::Block reader = cache.lookup(1, 0);
  first.reset();
  EXPECT_NE(cache.newBlock(4096)->data(), buffer);  // still in use: a fresh buffer
  cache.eraseFile(1);
  EXPECT_EQ(*reader, std::string(4096, 'a'));  // the reader's copy is intact
  reader.reset();  // the last holder: now it is given back, and reused first
  EXPECT_EQ(cache.newBlock(4000)->data(), buffer);
}

TEST(PageCache, ABlockIsKeptInTheFormItWasInsertedIn) {
  PageCache cache(1 << 20, 0);
  cache.insert(1, 0, namedBlock(1, 0, 4096));
  cache.insert(1, 1, cache.copyStored("1:1;stored"), PageCache::Form::kStored);
  PageCache::Form form = PageCache::Form::kStored;
  EXPECT_TRUE(names(cache.lookup(1, 0, &form), 1, 0));
  EXPECT_EQ(form, PageCache::Form::kDecoded);
  EXPECT_TRUE(names(cache.lookup(1, 1, &form), 1, 1));
  EXPECT_EQ(form, PageCache::Form::kStored);
  // Replacing a block replaces its form too.
  cache.insert(1, 1, namedBlock(1, 1, 100));
  EXPECT_TRUE(names(cache.lookup(1, 1, &form), 1, 1));
  EXPECT_EQ(form, PageCache::Form::kDecoded);
}

// A stored copy's buffer is a multiple of 64 bytes just big enough, charged
// as such; a dropped one is reused for the next copy of about its size,
// without malloc: even a block of memory malloc could hand out again (held
// here meanwhile) does not take its place.
TEST(PageCache, AStoredCopyIsChargedItsSizeClassAndItsBufferIsReused) {
  PageCache cache(1 << 20, 0);
  const std::string stored(1900, 's');
  PageCache::Block copy = cache.copyStored(stored);
  EXPECT_EQ(*copy, stored);
  EXPECT_EQ(copy->capacity(), 1920u);
  cache.insert(1, 0, copy, PageCache::Form::kStored);
  EXPECT_EQ(cache.usage(), 1920u);
  const char* buffer = copy->data();
  copy.reset();
  cache.eraseFile(1);  // the last holder: given back
  const std::string heldMeanwhile(1900, 'h');
  PageCache::Block next = cache.copyStored(std::string(1910, 't'));
  EXPECT_EQ(next->data(), buffer);
  EXPECT_EQ(*next, std::string(1910, 't'));
  // A copy of another size class takes a buffer of its own.
  EXPECT_NE(cache.copyStored(std::string(600, 'u'))->capacity(), 1920u);
}

// A get reads a block from storage straight into newStored()'s buffer and
// keeps it as stored: the same buffers, size classes and charge as
// copyStored(), so the two reuse each other's.
TEST(PageCache, ABlockReadIntoANewStoredBufferIsChargedAndRecycledAsACopy) {
  PageCache cache(1 << 20, 0);
  std::shared_ptr<std::string> read = cache.newStored(1900);
  EXPECT_EQ(read->size(), 1900u);
  EXPECT_EQ(read->capacity(), 1920u);
  read->assign(1900, 'r');  // as a page source fills it
  cache.insert(1, 0, read, PageCache::Form::kStored);
  EXPECT_EQ(cache.usage(), 1920u);
  const char* buffer = read->data();
  read.reset();
  cache.eraseFile(1);
  PageCache::Block copy = cache.copyStored(std::string(1910, 'c'));
  EXPECT_EQ(copy->data(), buffer);
  const char* copied = copy->data();
  copy.reset();
  EXPECT_EQ(cache.newStored(1880)->data(), copied);
}

TEST(PageCache, BlocksGiveTheirBuffersBackEvenAfterTheCacheIsGone) {
  std::shared_ptr<std::string> survivor;
  {
    PageCache cache(1 << 20, 0);
    std::shared_ptr<std::string> block = cache.newBlock(100);
    const char* buffer = block->data();
    block.reset();
    std::shared_ptr<std::string> again = cache.newBlock(80);
    EXPECT_EQ(again->data(), buffer);  // the buffer dropped just before
    EXPECT_EQ(again->size(), 80u);
    survivor = cache.newBlock(4096);
    cache.insert(2, 0, survivor);
  }
  survivor->assign(4096, 'z');  // the cache's recycler lives on with it
  survivor.reset();
}

TEST(PageCache, ConcurrentReadersAndWritersSeeConsistentBlocks) {
  PageCache cache(256 * 1024);
  constexpr int kThreads = 4;
  constexpr int kOps = 20000;
  std::atomic<int> wrong{0};
  std::atomic<uint64_t> lookups{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937 rng(static_cast<unsigned>(t) + 1);
      for (int i = 0; i < kOps; ++i) {
        const int64_t file = static_cast<int64_t>(rng() % 3);
        const auto block = static_cast<uint32_t>(rng() % 400);
        const auto op = rng() % 100;
        if (op < 60) {
          lookups.fetch_add(1);
          const PageCache::Block got = cache.lookup(file, block);
          if (got != nullptr && !names(got, file, block)) wrong.fetch_add(1);
        } else if (op < 99) {
          // Half of them in buffers the cache recycles, which other threads then drop.
          const size_t size = 200 + rng() % 2000;
          if (rng() % 2 == 0) {
            cache.insert(file, block, namedBlock(file, block, size));
          } else {
            std::shared_ptr<std::string> recycled = cache.newBlock(size);
            const PageCache::Block named = namedBlock(file, block, size);
            recycled->assign(*named);
            cache.insert(file, block, std::move(recycled));
          }
        } else {
          cache.eraseFile(file);
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(cache.hits() + cache.misses(), lookups.load());
  EXPECT_GT(cache.hits(), 0u);
  EXPECT_LE(cache.usage(), cache.capacity());
}

}  // namespace
}  // namespace keyscope::engine
