// HeldPoint: holds the first thread to pass a named sync point
// (engine/sync_point.h) until the test releases it, so a test can act while
// background work stands at a known place. Every wait is bounded: a test
// whose work never gets there fails instead of hanging.
#pragma once

#include <atomic>
#include <chrono>
#include <future>
#include <string>
#include <string_view>

#include "engine/sync_point.h"

namespace keyscope::test {

inline constexpr auto kPatience = std::chrono::seconds(30);

class HeldPoint {
 public:
  explicit HeldPoint(std::string heldPoint)
      : m_points([this, heldPoint = std::move(heldPoint)](std::string_view point) {
          if (point != heldPoint || m_held.exchange(true)) return;
          m_reached.set_value();
          m_released.wait_for(kPatience);
        }) {}
  ~HeldPoint() { release(); }
  HeldPoint(const HeldPoint&) = delete;
  HeldPoint& operator=(const HeldPoint&) = delete;

  bool reached() { return m_reached.get_future().wait_for(kPatience) == std::future_status::ready; }
  void release() {
    if (!m_releasedOnce.exchange(true)) m_release.set_value();
  }

 private:
  std::atomic<bool> m_held{false};
  std::atomic<bool> m_releasedOnce{false};
  std::promise<void> m_reached;
  std::promise<void> m_release;
  std::shared_future<void> m_released = m_release.get_future().share();
  engine::ScopedSyncPoints m_points;
};

}  // namespace keyscope::test
