// BlockDecodePool: jobs decode to the block they were given whoever runs
// them (a pool thread, or the reader taking a job no thread has started),
// damage is reported rather than decoded, and jobs outlive the pool.
#include "engine/block_decode_pool.h"

#include <gtest/gtest.h>
#include <xxhash.h>
#include <zstd.h>

#include <chrono>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "engine/store_file_format.h"

namespace keyscope::engine {
namespace {

namespace fmt = format;

// A stored block as store_file_format.h lays it out: checksum, compression,
// raw size, then the zstd frame of `raw`.
std::string storedBlock(const std::string& raw, uint64_t seed) {
  std::string frame(ZSTD_compressBound(raw.size()), '\0');
  const size_t n = ZSTD_compress(frame.data(), frame.size(), raw.data(), raw.size(), 3);
  EXPECT_FALSE(ZSTD_isError(n));
  frame.resize(n);
  std::string block(fmt::kChecksumSize, '\0');
  block.push_back(static_cast<char>(fmt::BlockCompression::kZstd));
  fmt::putBigEndian32(&block, static_cast<uint32_t>(raw.size()));
  block += frame;
  fmt::storeBigEndian64(block.data(), XXH3_64bits_withSeed(block.data() + fmt::kChecksumSize,
                                                            block.size() - fmt::kChecksumSize, seed));
  return block;
}

std::string rawBlock(int i) {
  std::mt19937 rng(static_cast<unsigned>(i));
  std::string raw;
  while (raw.size() < 4000) raw += "cell " + std::to_string(rng() % 1000) + " of block " + std::to_string(i) + "; ";
  return raw;
}

BlockDecodeInput inputFor(const std::string& raw, uint64_t seed) {
  BlockDecodeInput input;
  input.stored = storedBlock(raw, seed);
  input.rawSize = static_cast<uint32_t>(raw.size());
  input.block = std::make_shared<std::string>(raw.size(), '\0');
  input.checksumSeed = seed;
  return input;
}

struct Taken {
  bool ok = false;
  std::shared_ptr<const std::string> block;
  std::string error;
  uint64_t bytesDecompressed = 0;
  std::string buffer;
};

Taken take(BlockDecodeJob& job) {
  Taken t;
  t.ok = job.take(&t.block, &t.error, &t.bytesDecompressed, &t.buffer);
  return t;
}

TEST(BlockDecodePoolTest, EveryJobDecodesToItsBlockWhoeverRunsIt) {
  BlockDecodePool pool(2);
  std::vector<std::string> raws;
  std::vector<std::shared_ptr<BlockDecodeJob>> jobs;
  for (int i = 0; i < 200; ++i) {
    raws.push_back(rawBlock(i));
    jobs.push_back(pool.submit(inputFor(raws.back(), 1000 + static_cast<uint64_t>(i))));
  }
  // The first are taken at once (most of them before a thread starts them),
  // the rest after the threads have had time to run them.
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (i == 100) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const Taken t = take(*jobs[i]);
    ASSERT_TRUE(t.ok) << i << ": " << t.error;
    ASSERT_NE(t.block, nullptr);
    EXPECT_EQ(*t.block, raws[i]) << i;
    EXPECT_EQ(t.bytesDecompressed, raws[i].size()) << i;
    EXPECT_EQ(t.buffer, storedBlock(raws[i], 1000 + i)) << "the stored bytes come back for reuse";
  }
}

bool becomesDone(const BlockDecodeJob& job) {
  const auto giveUp = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!job.done() && std::chrono::steady_clock::now() < giveUp) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return job.done();
}

// The pool's thread, not the reader, decodes a job left alone; and it skips
// a job cancelled before it got there (one thread takes the queue in order).
TEST(BlockDecodePoolTest, AThreadDecodesWhatIsLeftToItAndSkipsWhatWasCancelled) {
  BlockDecodePool pool(1);
  const std::string raw = rawBlock(3);
  const auto first = pool.submit(inputFor(raw, 0));
  ASSERT_TRUE(becomesDone(*first)) << "no pool thread decoded the job";
  const Taken t = take(*first);
  ASSERT_TRUE(t.ok) << t.error;
  EXPECT_EQ(*t.block, raw);

  // Occupy the thread with many jobs, submitted back to back (their inputs
  // made beforehand), so the cancelled one is still queued when cancelled.
  std::vector<BlockDecodeInput> inputs;
  for (int i = 0; i < 300; ++i) inputs.push_back(inputFor(rawBlock(i), 0));
  BlockDecodeInput cancelledInput = inputFor(raw, 0);
  BlockDecodeInput lastInput = inputFor(raw, 0);
  std::vector<std::shared_ptr<BlockDecodeJob>> ahead;
  for (BlockDecodeInput& input : inputs) ahead.push_back(pool.submit(std::move(input)));
  const auto cancelled = pool.submit(std::move(cancelledInput));
  cancelled->cancel();
  const auto last = pool.submit(std::move(lastInput));
  ASSERT_TRUE(becomesDone(*last));
  EXPECT_FALSE(cancelled->done()) << "the thread decoded a cancelled job";
}

TEST(BlockDecodePoolTest, ADamagedBlockIsAnErrorNotABlock) {
  BlockDecodePool pool(1);
  const std::string raw = rawBlock(1);
  BlockDecodeInput flipped = inputFor(raw, 5);
  flipped.stored[flipped.stored.size() / 2] ^= 0x10;
  BlockDecodeInput misplaced = inputFor(raw, 5);
  misplaced.checksumSeed = 6;  // the block read for another place
  BlockDecodeInput wrongSize = inputFor(raw, 5);
  wrongSize.rawSize -= 1;
  for (BlockDecodeInput* input : {&flipped, &misplaced, &wrongSize}) {
    const auto job = pool.submit(std::move(*input));
    const Taken t = take(*job);
    EXPECT_FALSE(t.ok);
    EXPECT_EQ(t.block, nullptr);
    EXPECT_FALSE(t.error.empty());
  }
}

TEST(BlockDecodePoolTest, JobsOutliveThePool) {
  std::vector<std::string> raws;
  std::vector<std::shared_ptr<BlockDecodeJob>> jobs;
  {
    BlockDecodePool pool(1);
    for (int i = 0; i < 100; ++i) {
      raws.push_back(rawBlock(i));
      jobs.push_back(pool.submit(inputFor(raws.back(), 0)));
    }
    jobs.front()->cancel();  // a reader that moved on: never taken
  }  // stops with jobs still queued: their reader decodes them
  for (size_t i = 1; i < jobs.size(); ++i) {
    const Taken t = take(*jobs[i]);
    ASSERT_TRUE(t.ok) << i << ": " << t.error;
    EXPECT_EQ(*t.block, raws[i]) << i;
  }
}

}  // namespace
}  // namespace keyscope::engine
