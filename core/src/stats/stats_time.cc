// Buckets, windows and time columns (stats_time.h).
#include "stats/stats_time.h"

#include <algorithm>
#include <string>

namespace keyscope::stats {

int64_t floorDiv(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

namespace {
// The first bucket starting at or after `millis`.
int64_t firstBucketFrom(int64_t millis) {
  const int64_t b = floorDiv(millis, kStatsBucketMillis);
  return bucketStart(b) == millis ? b : b + 1;
}
}  // namespace

BucketRange bucketsIn(const TimeWindow& window) {
  if (window.fromMillis >= window.toMillis) return {0, 0};
  return {firstBucketFrom(window.fromMillis), firstBucketFrom(window.toMillis)};
}

bool isFinite(const TimeWindow& w) {
  return w.fromMillis != std::numeric_limits<int64_t>::min() && w.toMillis != std::numeric_limits<int64_t>::max();
}

Status checkWindow(const TimeWindow& w, std::string_view what) {
  if (w.fromMillis < w.toMillis) return Status::ok();
  return Status::invalidArgument(std::string(what) + ": the time window [" + std::to_string(w.fromMillis) + ", " +
                                 std::to_string(w.toMillis) + ") is empty");
}

Status checkFiniteWindow(const TimeWindow& w, std::string_view what) {
  if (!isFinite(w))
    return Status::invalidArgument(std::string(what) + ": the time window must have a finite start and end");
  if (Status s = checkWindow(w, what); !s) return s;
  // Columns are whole milliseconds computed in int64: keep the span well clear of overflow.
  constexpr int64_t kLimit = std::numeric_limits<int64_t>::max() / 4;
  if (w.fromMillis < -kLimit || w.toMillis > kLimit)
    return Status::invalidArgument(std::string(what) + ": the time window lies too far from the epoch");
  return Status::ok();
}

TimeColumns::TimeColumns(const TimeWindow& window, uint32_t columns)
    : m_from(window.fromMillis), m_columns(columns) {
  const int64_t length = window.toMillis - window.fromMillis;
  const auto n = static_cast<int64_t>(columns);
  m_width = (length + n - 1) / n;
  m_end = m_from + m_width * n;
}

uint32_t TimeColumns::columnOf(int64_t bucket) const {
  const int64_t offset = bucketStart(bucket) - m_from;
  return static_cast<uint32_t>(std::min<int64_t>(offset / m_width, m_columns - 1));
}

}  // namespace keyscope::stats
