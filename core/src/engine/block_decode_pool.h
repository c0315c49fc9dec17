// BlockDecodePool: background threads that check and decompress the
// store-file blocks a sequential read will want next (readahead), so the
// decompression of one block overlaps the reader's work on the one before.
//
// A scan spends about a third of its time decompressing blocks; a desktop
// has a core to spare for it. A job either gets the stored bytes from the
// reader, or fetches them itself through a StoredBlockFetcher the reader
// gives it (the reader's own SQLite snapshot, taken in turns), and then
// runs decodeStoredBlock.
//
// A job is taken by whichever comes first: a pool thread, or the reader when
// it needs the block before any thread has started it. So a reader waits
// only for a decode already running, never for a queue, and jobs left in the
// queue when the pool shuts down are simply decoded by their reader. A
// reader may also run jobs it does not need yet (runIfUnclaimed()): a scan
// decodes the blocks queued behind the one it waits for.
//
// Threads: submit() and the Job methods are thread-safe. The pool's threads
// start with the first submit().
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "keyscope/bytes.h"
#include "keyscope/status.h"

namespace keyscope::engine {

class DecompressionDictionary;

// Reads a block's stored bytes for a job, on whichever thread runs the job.
// Safe to call beside the reader's own reads. It must outlive every job
// given it, up to their cancelAndWait() or take().
class StoredBlockFetcher {
 public:
  virtual ~StoredBlockFetcher() = default;
  // Into *stored, reusing its buffer.
  virtual Status fetchStored(size_t blockNo, std::string* stored) const = 0;
};

// What decoding one block needs: its stored bytes (or where to fetch them)
// and what the block index says about them (decodeStoredBlock's arguments).
//
// The reader allocates the block (sized rawSize) and the stored bytes' buffer,
// and frees both: a pool thread only fills them. (Memory allocated by one
// thread and freed by another takes glibc's slow path, and a scan frees a
// block for every one the cache evicts.)
struct BlockDecodeInput {
  std::string stored;
  // When set, the job first fetches block blockNo into `stored` with it.
  const StoredBlockFetcher* fetcher = nullptr;
  size_t blockNo = 0;
  std::shared_ptr<std::string> block;  // rawSize bytes, overwritten by the decode
  uint32_t rawSize = 0;
  uint64_t checksumSeed = 0;
  const DecompressionDictionary* dictionary = nullptr;
  std::shared_ptr<const void> keepAlive;  // owns the dictionary while the job may run
};

class BlockDecodeJob {
 public:
  explicit BlockDecodeJob(BlockDecodeInput input) : m_input(std::move(input)) {}

  // The decoded block: runs the job here when no pool thread has started
  // it, else waits for that thread. False when the fetch failed (its Status
  // is fetchStatus()) or, with *error saying what is wrong, when the block
  // is damaged. *bytesDecompressed: the raw bytes zstd produced (0 for a
  // block stored uncompressed). *storedBuffer gets the stored bytes' buffer
  // back, for the next fetch to reuse. Call once, from the reader.
  bool take(std::shared_ptr<const std::string>* block, std::string* error, uint64_t* bytesDecompressed,
            std::string* storedBuffer);
  // After take(): the fetcher's Status (ok without a fetcher).
  const Status& fetchStatus() const { return m_fetchStatus; }

  // The reader will not take it: a thread that has not started it skips it.
  void cancel();
  // The same, and waits for a thread that has started it: after this the
  // job no longer uses its fetcher.
  void cancelAndWait();

  // Decodes unless taken or cancelled already: for the pool's threads, and
  // for a reader with nothing better to do.
  void runIfUnclaimed();

  // The decode has finished (by whoever ran it); take() will not wait.
  bool done() const { return m_state.load(std::memory_order_acquire) == kDone; }
  // A thread is running the job now: take() would wait for it.
  bool running() const { return m_state.load(std::memory_order_relaxed) == kRunning; }

 private:
  enum State : uint8_t { kQueued, kRunning, kDone, kCancelled };
  void run();
  void finish();  // marks the job done and wakes a waiting reader
  void waitWhileRunning();

  BlockDecodeInput m_input;
  std::atomic<uint8_t> m_state{kQueued};
  // Written by whoever claimed the job, read by take() after kDone.
  std::string m_error;
  Status m_fetchStatus;
  uint64_t m_bytesDecompressed = 0;
  bool m_ok = false;
};

class BlockDecodePool {
 public:
  // threads >= 1.
  explicit BlockDecodePool(int threads);
  ~BlockDecodePool();
  BlockDecodePool(const BlockDecodePool&) = delete;
  BlockDecodePool& operator=(const BlockDecodePool&) = delete;

  // One thread fewer than the machine has cores, at least one and at most four:
  // the reader keeps a core of its own.
  static int defaultThreads();

  std::shared_ptr<BlockDecodeJob> submit(BlockDecodeInput input);

 private:
  void startThreads();  // REQUIRES: m_mutex held
  void work();

  // How long an idle thread keeps looking for work before it sleeps.
  static constexpr std::chrono::microseconds kIdleSpin{200};

  const int m_threadCount;
  std::mutex m_mutex;
  std::condition_variable m_wake;
  std::deque<std::shared_ptr<BlockDecodeJob>> m_queue;
  std::atomic<size_t> m_queued{0};  // m_queue.size(), for the idle threads' look without the lock
  int m_sleeping = 0;               // threads waiting on m_wake
  std::vector<std::thread> m_threads;
  bool m_stopping = false;
};

}  // namespace keyscope::engine
