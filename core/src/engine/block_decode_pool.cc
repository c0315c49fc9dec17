#include "engine/block_decode_pool.h"

#include <algorithm>

#include "engine/store_file.h"
#include "keyscope/read_report.h"

namespace keyscope::engine {

// --- BlockDecodeJob ---

void BlockDecodeJob::run() {
  if (m_input.fetcher != nullptr) {
    m_fetchStatus = m_input.fetcher->fetchStored(m_input.blockNo, &m_input.stored);
    if (!m_fetchStatus) {
      finish();
      return;
    }
  }
  ReadReport report;
  m_ok = decodeStoredBlock(m_input.stored, m_input.rawSize, m_input.block.get(), &m_error, &report,
                           m_input.checksumSeed, m_input.dictionary);
  m_bytesDecompressed = report.bytesDecompressed;
  finish();
}

void BlockDecodeJob::finish() {
  m_input.keepAlive.reset();  // the file's dictionary is not needed any more
  m_state.store(kDone, std::memory_order_release);
  m_state.notify_all();
}

void BlockDecodeJob::waitWhileRunning() {
  uint8_t state = m_state.load(std::memory_order_acquire);
  while (state == kRunning) {
    m_state.wait(kRunning, std::memory_order_acquire);
    state = m_state.load(std::memory_order_acquire);
  }
}

void BlockDecodeJob::runIfUnclaimed() {
  uint8_t expected = kQueued;
  if (m_state.compare_exchange_strong(expected, kRunning, std::memory_order_acquire)) run();
}

void BlockDecodeJob::cancel() {
  uint8_t expected = kQueued;
  m_state.compare_exchange_strong(expected, kCancelled, std::memory_order_relaxed);
}

void BlockDecodeJob::cancelAndWait() {
  cancel();
  waitWhileRunning();
}

bool BlockDecodeJob::take(std::shared_ptr<const std::string>* block, std::string* error,
                          uint64_t* bytesDecompressed, std::string* storedBuffer) {
  runIfUnclaimed();
  waitWhileRunning();
  *bytesDecompressed = m_bytesDecompressed;
  storedBuffer->swap(m_input.stored);
  if (!m_ok) {
    *error = m_error;
    return false;
  }
  *block = std::move(m_input.block);
  return true;
}

// --- BlockDecodePool ---

BlockDecodePool::BlockDecodePool(int threads) : m_threadCount(std::max(1, threads)) {}

BlockDecodePool::~BlockDecodePool() {
  {
    std::lock_guard lock(m_mutex);
    m_stopping = true;
  }
  m_wake.notify_all();
  for (std::thread& t : m_threads) t.join();
}

int BlockDecodePool::defaultThreads() {
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  return std::clamp(cores - 1, 1, 4);
}

std::shared_ptr<BlockDecodeJob> BlockDecodePool::submit(BlockDecodeInput input) {
  auto job = std::make_shared<BlockDecodeJob>(std::move(input));
  bool wake = false;
  {
    std::lock_guard lock(m_mutex);
    if (m_threads.empty()) startThreads();
    m_queue.push_back(job);
    m_queued.store(m_queue.size(), std::memory_order_relaxed);
    wake = m_sleeping > 0;
  }
  // A thread that is awake finds the job by itself: no wake-up call per block.
  if (wake) m_wake.notify_one();
  return job;
}

void BlockDecodePool::startThreads() {
  m_threads.reserve(static_cast<size_t>(m_threadCount));
  for (int i = 0; i < m_threadCount; ++i) m_threads.emplace_back([this] { work(); });
}

void BlockDecodePool::work() {
  std::unique_lock lock(m_mutex);
  for (;;) {
    if (m_queue.empty()) {
      // A scan submits its next block within microseconds of taking one:
      // look for it a while before sleeping, as a wake-up costs more.
      lock.unlock();
      const auto giveUp = std::chrono::steady_clock::now() + kIdleSpin;
      while (m_queued.load(std::memory_order_relaxed) == 0 && std::chrono::steady_clock::now() < giveUp) {
        std::this_thread::yield();
      }
      lock.lock();
      ++m_sleeping;
      m_wake.wait(lock, [this] { return m_stopping || !m_queue.empty(); });
      --m_sleeping;
    }
    // Left in the queue at shutdown: their readers decode them (take()).
    if (m_stopping) return;
    std::shared_ptr<BlockDecodeJob> job = std::move(m_queue.front());
    m_queue.pop_front();
    m_queued.store(m_queue.size(), std::memory_order_relaxed);
    lock.unlock();
    job->runIfUnclaimed();
    job.reset();
    lock.lock();
  }
}

}  // namespace keyscope::engine
