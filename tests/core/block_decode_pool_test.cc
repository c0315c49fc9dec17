// BlockDecodePool: jobs decode to the block they were given whoever runs
// them (a pool thread, or the reader taking a job no thread has started),
// damage is reported rather than decoded, and jobs outlive the pool.
#include "engine/block_decode_pool.h"

#include <gtest/gtest.h>
#include <xxhash.h>
#include <zstd.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <random>
#include <set>
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

// Whether `holds` comes true within 10 s.
template <typename Condition>
bool within10s(Condition holds) {
  const auto giveUp = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!holds() && std::chrono::steady_clock::now() < giveUp) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return holds();
}

bool becomesDone(const BlockDecodeJob& job) {
  return within10s([&] { return job.done(); });
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

// Serves stored blocks by number, as a reader's page source would, and
// notes the threads it was called on.
class BlockShelf final : public StoredBlockFetcher {
 public:
  explicit BlockShelf(std::vector<std::string> stored) : m_stored(std::move(stored)) {}
  Status fetchStored(size_t blockNo, std::string* stored) const override {
    {
      std::lock_guard lock(m_mutex);
      m_threads.insert(std::this_thread::get_id());
    }
    if (blockNo >= m_stored.size()) return Status::corruption("block " + std::to_string(blockNo) + " is missing");
    stored->assign(m_stored[blockNo]);
    return Status::ok();
  }
  bool calledOnAnotherThread() const {
    std::lock_guard lock(m_mutex);
    return m_threads.size() > 1 || (m_threads.size() == 1 && !m_threads.contains(std::this_thread::get_id()));
  }

 private:
  std::vector<std::string> m_stored;
  mutable std::mutex m_mutex;
  mutable std::set<std::thread::id> m_threads;
};

BlockDecodeInput fetchedInput(const BlockShelf& shelf, size_t blockNo, const std::string& raw, uint64_t seed) {
  BlockDecodeInput input;
  input.fetcher = &shelf;
  input.blockNo = blockNo;
  input.rawSize = static_cast<uint32_t>(raw.size());
  input.block = std::make_shared<std::string>(raw.size(), '\0');
  input.checksumSeed = seed;
  return input;
}

// A job given a fetcher reads its stored bytes itself, on the thread that
// runs it, and hands them back with the block.
TEST(BlockDecodePoolTest, AJobWithAFetcherFetchesAndDecodesItsBlock) {
  std::vector<std::string> raws, stored;
  for (int i = 0; i < 50; ++i) {
    raws.push_back(rawBlock(i));
    stored.push_back(storedBlock(raws.back(), 70 + static_cast<uint64_t>(i)));
  }
  const BlockShelf shelf(stored);
  BlockDecodePool pool(1);
  std::vector<std::shared_ptr<BlockDecodeJob>> jobs;
  for (size_t i = 0; i < raws.size(); ++i) jobs.push_back(pool.submit(fetchedInput(shelf, i, raws[i], 70 + i)));
  ASSERT_TRUE(becomesDone(*jobs.back()));
  for (size_t i = 0; i < jobs.size(); ++i) {
    const Taken t = take(*jobs[i]);
    ASSERT_TRUE(t.ok) << i << ": " << t.error << jobs[i]->fetchStatus().toString();
    EXPECT_TRUE(jobs[i]->fetchStatus().isOk());
    EXPECT_EQ(*t.block, raws[i]) << i;
    EXPECT_EQ(t.buffer, stored[i]) << "the fetched bytes come back for reuse";
  }
  EXPECT_TRUE(shelf.calledOnAnotherThread()) << "the pool's thread fetched nothing";
}

// A failed fetch is the fetcher's Status, not a damaged block.
TEST(BlockDecodePoolTest, AFailedFetchIsTheFetchersStatus) {
  const BlockShelf shelf({});
  BlockDecodePool pool(1);
  const std::string raw = rawBlock(2);
  const auto job = pool.submit(fetchedInput(shelf, 4, raw, 0));
  const Taken t = take(*job);
  EXPECT_FALSE(t.ok);
  EXPECT_EQ(t.block, nullptr);
  EXPECT_TRUE(t.error.empty()) << t.error;
  EXPECT_EQ(job->fetchStatus().code(), Status::Code::kCorruption);
  EXPECT_EQ(job->fetchStatus().message(), "block 4 is missing");
}

// A fetcher that holds its caller until let go, to catch a job mid-fetch.
class HeldFetcher final : public StoredBlockFetcher {
 public:
  explicit HeldFetcher(std::string stored) : m_stored(std::move(stored)) {}
  Status fetchStored(size_t, std::string* stored) const override {
    started.store(true);
    while (!released.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    stored->assign(m_stored);
    return Status::ok();
  }
  mutable std::atomic<bool> started{false};
  std::atomic<bool> released{false};

 private:
  std::string m_stored;
};

// cancelAndWait() returns only once a job a thread has started is done with
// its fetcher (a reader that drops its readahead then frees the fetcher);
// one still queued is skipped.
TEST(BlockDecodePoolTest, CancelAndWaitWaitsForAFetchUnderWay) {
  const std::string raw = rawBlock(5);
  HeldFetcher held(storedBlock(raw, 0));
  BlockDecodePool pool(1);
  BlockDecodeInput input;
  input.fetcher = &held;
  input.rawSize = static_cast<uint32_t>(raw.size());
  input.block = std::make_shared<std::string>(raw.size(), '\0');
  const auto running = pool.submit(std::move(input));
  const BlockShelf shelf({storedBlock(raw, 0)});
  const auto queued = pool.submit(fetchedInput(shelf, 0, raw, 0));
  if (!within10s([&] { return held.started.load(); })) {
    held.released.store(true);  // so the pool can stop
    FAIL() << "the pool's thread never started the job";
  }
  EXPECT_TRUE(running->running());
  EXPECT_FALSE(queued->running());
  queued->cancelAndWait();  // behind the held job in the one thread's queue: returns at once

  std::atomic<bool> returned{false};
  std::thread canceller([&] {
    running->cancelAndWait();
    returned.store(true);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(returned.load()) << "cancelAndWait() returned while the fetch was under way";
  held.released.store(true);
  canceller.join();
  EXPECT_TRUE(returned.load());
  EXPECT_TRUE(running->done());
  EXPECT_FALSE(running->running());

  const auto after = pool.submit(fetchedInput(shelf, 0, raw, 0));
  ASSERT_TRUE(becomesDone(*after));
  EXPECT_FALSE(queued->done()) << "the thread ran a cancelled job";
}

}  // namespace
}  // namespace keyscope::engine
