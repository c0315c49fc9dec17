// CancelToken: how a caller asks a long operation (an import, an export) to
// stop. The operation checks it between units of work and returns
// Status::cancelled; what it finished before stays done (each operation's
// header says what that means for it).
//
// Thread-safe: cancel() may be called from any thread, and from a signal
// handler (a lock-free atomic store).
#pragma once

#include <atomic>

namespace keyscope {

class CancelToken {
 public:
  void cancel() { m_cancelled.store(true, std::memory_order_relaxed); }
  bool cancelled() const { return m_cancelled.load(std::memory_order_relaxed); }

 private:
  std::atomic<bool> m_cancelled{false};
  static_assert(std::atomic<bool>::is_always_lock_free);
};

}  // namespace keyscope
