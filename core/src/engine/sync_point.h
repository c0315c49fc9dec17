// Sync points: named places in the engine's background work where a test can
// step in, to force an interleaving of threads that timing alone makes rare
// (a table's flush racing a split, say). A test sets a callback; the engine
// calls it with the point's name each time a thread passes one, and the
// callback may block that thread until the test has arranged what it needs.
//
// With no callback set, passing a point costs one atomic load, so the points
// stay in every build. Thread-safe; the callback runs on the passing thread.
#pragma once

#include <functional>
#include <string_view>

namespace keyscope::engine {

using SyncPointCallback = std::function<void(std::string_view point)>;

// Replaces the process's callback; an empty one turns the points off. A
// callback already running on another thread finishes with the old one.
void setSyncPointCallback(SyncPointCallback callback);

void syncPoint(std::string_view point);

// Sets a callback for a scope (a test's), and clears it at the end.
class ScopedSyncPoints {
 public:
  explicit ScopedSyncPoints(SyncPointCallback callback) { setSyncPointCallback(std::move(callback)); }
  ~ScopedSyncPoints() { setSyncPointCallback(nullptr); }
  ScopedSyncPoints(const ScopedSyncPoints&) = delete;
  ScopedSyncPoints& operator=(const ScopedSyncPoints&) = delete;
};

}  // namespace keyscope::engine
