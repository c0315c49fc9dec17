// FairMutex: a mutex handed to waiters in the order they asked for it.
//
// std::mutex lets the thread that unlocks it take it straight back. A thread
// writing store-file pages in a loop of short transactions thereby kept the
// database mutex from a checkpoint for 0.9 s (checkpointer.h) - and kept
// the writer's log commits waiting likewise - although each transaction held
// it for a millisecond.
//
// Threads: any; Lockable (std::lock_guard, std::unique_lock).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <shared_mutex>

namespace keyscope::engine {

class FairMutex {
 public:
  void lock() {
    std::unique_lock lock(m_mutex);
    const uint64_t ticket = m_nextTicket++;
    m_turn.wait(lock, [&] { return m_serving == ticket; });
  }

  // Taken only when nobody holds it or waits for it.
  bool try_lock() {
    std::lock_guard lock(m_mutex);
    if (m_serving != m_nextTicket) return false;
    ++m_nextTicket;
    return true;
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

// FairSharedMutex: a shared mutex whose exclusive lockers are not starved.
//
// std::shared_mutex (glibc's rwlock, reader-preferring) lets a new shared
// locker in while an exclusive one waits, so two background workers taking
// turns with shared locks could keep a split or a DDL waiting for good. Here
// every locker passes a FairMutex turnstile first; an exclusive locker keeps
// it while it waits for the shared holders to leave, so no new one enters.
//
// Threads: any; Lockable and SharedLockable (std::lock_guard,
// std::unique_lock, std::shared_lock). Not recursive, shared locks included.
class FairSharedMutex {
 public:
  void lock() {
    std::lock_guard turn(m_turnstile);
    m_mutex.lock();
  }
  // Never waits, so it keeps nobody out meanwhile.
  bool try_lock() {
    if (!m_turnstile.try_lock()) return false;
    const bool locked = m_mutex.try_lock();
    m_turnstile.unlock();
    return locked;
  }
  void unlock() { m_mutex.unlock(); }

  void lock_shared() {
    std::lock_guard turn(m_turnstile);
    m_mutex.lock_shared();
  }
  void unlock_shared() { m_mutex.unlock_shared(); }

 private:
  FairMutex m_turnstile;
  std::shared_mutex m_mutex;
};

}  // namespace keyscope::engine
