// Background work: flushes do not wait behind compactions. A writer held
// back by memstore pressure waits for a flush; with one background thread
// that flush queued behind every compaction before it, however long.
#include <atomic>
#include <chrono>
#include <future>

#include "engine/sync_point.h"
#include "engine_test_util.h"

namespace keyscope::test {
namespace {

constexpr auto kPatience = std::chrono::seconds(30);

// Holds the first major compaction to pass its sync point until released.
class HeldCompaction {
 public:
  HeldCompaction()
      : m_points([this](std::string_view point) {
          if (point != "task:major-compaction" || m_held.exchange(true)) return;
          m_reached.set_value();
          m_released.wait_for(kPatience);  // bounded: a failing test ends
        }) {}
  ~HeldCompaction() { release(); }

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

TEST(BackgroundWork, AFlushCompletesWhileAnotherTablesCompactionRuns) {
  EngineFixture fx;
  fx.createTable("busy", {familyOf("f")});
  fx.createTable("other", {familyOf("f")});
  for (int i = 0; i < 3; ++i) {
    fx.put("busy", "row" + std::to_string(i), "f:q", 1, "v");
    fx.flush("busy");
  }
  HeldCompaction held;
  auto compaction = std::async(std::launch::async, [&] { return fx.ws().compact("busy", /*major=*/true); });
  ASSERT_TRUE(held.reached()) << "the major compaction never started";

  fx.put("other", "row", "f:q", 1, "written while busy compacts");
  auto flush = std::async(std::launch::async, [&] { return fx.ws().flush("other"); });
  const bool flushed = flush.wait_for(kPatience) == std::future_status::ready;
  held.release();
  EXPECT_TRUE(flushed) << "the flush waited for the other table's compaction";
  const Status flushStatus = flush.get();
  EXPECT_TRUE(flushStatus.isOk()) << flushStatus.toString();
  const Status compactionStatus = compaction.get();
  ASSERT_TRUE(compactionStatus.isOk()) << compactionStatus.toString();

  EXPECT_EQ(fx.storeFileCount("other"), 1u);
  EXPECT_EQ(fx.storeFileCount("busy"), 1u);
  fx.reopen();
  ASSERT_EQ(fx.getColumn("other", "row", "f:q").size(), 1u);
  EXPECT_EQ(fx.getColumn("other", "row", "f:q")[0].value, "written while busy compacts");
  for (int i = 0; i < 3; ++i) EXPECT_EQ(fx.getColumn("busy", "row" + std::to_string(i), "f:q").size(), 1u);
}

}  // namespace
}  // namespace keyscope::test
