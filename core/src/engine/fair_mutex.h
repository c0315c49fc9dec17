// FairMutex: a mutex handed to waiters in the order they asked for it.
//
// std::mutex lets the thread that unlocks it take it straight back. A thread
// writing store-file pages in a loop of short transactions thereby kept the
// database mutex from a checkpoint for 0.9 s (checkpointer.h) - and kept
// the writer's log commits waiting likewise - although each transaction held
// it for a millisecond.
//
// Threads: any; BasicLockable (std::lock_guard, std::unique_lock).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace keyscope::engine {

class FairMutex {
 public:
  void lock() {
    std::unique_lock lock(m_mutex);
    const uint64_t ticket = m_nextTicket++;
    m_turn.wait(lock, [&] { return m_serving == ticket; });
  }

  void unlock() {
    {
      std::lock_guard lock(m_mutex);
      ++m_serving;
    }
    m_turn.notify_all();
  }

 private:
  std::mutex m_mutex;
  std::condition_variable m_turn;
  uint64_t m_nextTicket = 0;  // under m_mutex
  uint64_t m_serving = 0;     // under m_mutex
};

}  // namespace keyscope::engine
