// PauseToken: how a caller holds a long operation (a workload run) between
// two units of work and lets it go on later. The operation calls
// waitWhilePaused() between units; pausing never interrupts a unit.
//
// Thread-safe: pause() and resume() may be called from any thread (not from a
// signal handler: they take a mutex); one operation waits on a token at a time.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>

#include "keyscope/cancel_token.h"

namespace keyscope {

class PauseToken {
 public:
  void pause() {
    std::lock_guard lock(m_mutex);
    m_paused = true;
  }
  void resume() {
    {
      std::lock_guard lock(m_mutex);
      m_paused = false;
    }
    m_resumed.notify_all();
  }
  bool paused() const {
    std::lock_guard lock(m_mutex);
    return m_paused;
  }

  // Returns at once when not paused; otherwise blocks until resume() or
  // until `cancel` (may be null) is cancelled. CancelToken has no way to
  // wake a waiter, so a paused wait looks at it every kCancelPoll.
  // Returns true when it waited.
  bool waitWhilePaused(const CancelToken* cancel) {
    std::unique_lock lock(m_mutex);
    if (!m_paused) return false;
    while (m_paused && (cancel == nullptr || !cancel->cancelled())) m_resumed.wait_for(lock, kCancelPoll);
    return true;
  }

 private:
  // A cancel while paused is noticed within this long: quick for a person, and
  // a wake-up 20 times a second costs nothing.
  static constexpr std::chrono::milliseconds kCancelPoll{50};

  mutable std::mutex m_mutex;
  std::condition_variable m_resumed;
  bool m_paused = false;
};

}  // namespace keyscope
