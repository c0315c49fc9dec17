#include "engine/sync_point.h"

#include <atomic>
#include <memory>
#include <mutex>

namespace keyscope::engine {
namespace {

std::atomic<bool> g_enabled{false};
std::mutex g_mutex;
std::shared_ptr<const SyncPointCallback> g_callback;  // under g_mutex

}  // namespace

void setSyncPointCallback(SyncPointCallback callback) {
  std::lock_guard lock(g_mutex);
  g_callback = callback ? std::make_shared<const SyncPointCallback>(std::move(callback)) : nullptr;
  g_enabled.store(g_callback != nullptr, std::memory_order_release);
}

void syncPoint(std::string_view point) {
  if (!g_enabled.load(std::memory_order_acquire)) return;
  std::shared_ptr<const SyncPointCallback> callback;
  {
    std::lock_guard lock(g_mutex);
    callback = g_callback;
  }
  // Called unlocked: the callback may block, and other threads pass points
  // meanwhile.
  if (callback != nullptr) (*callback)(point);
}

}  // namespace keyscope::engine
