// Time for the statistics: buckets of the workspace clock, which buckets a
// window selects, and the equal time columns of a grid or series.
//
// A bucket counts toward a window when its start lies in the window: the
// second [b * 1000, b * 1000 + 1000) belongs to [from, to) when from <=
// b * 1000 < to. Windows on whole seconds therefore take whole buckets, and
// every recorded operation belongs to exactly one bucket of adjacent windows.
//
// Threads: pure functions and plain values.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string_view>

#include "keyscope/statistics.h"
#include "keyscope/status.h"

namespace keyscope::stats {

int64_t floorDiv(int64_t a, int64_t b);  // REQUIRES: b > 0
inline int64_t bucketOf(int64_t millis) { return floorDiv(millis, kStatsBucketMillis); }
inline int64_t bucketStart(int64_t bucket) { return bucket * kStatsBucketMillis; }

// Buckets [first, end) whose start lies in the window.
struct BucketRange {
  int64_t first = 0;
  int64_t end = 0;
};
BucketRange bucketsIn(const TimeWindow& window);

bool isFinite(const TimeWindow& window);

// InvalidArgument unless the window is finite and not empty; `what` names the
// query ("heat grid").
Status checkFiniteWindow(const TimeWindow& window, std::string_view what);
// InvalidArgument when the window is empty (from >= to).
Status checkWindow(const TimeWindow& window, std::string_view what);

// `columns` columns of equal whole milliseconds from window.fromMillis; the
// last one ends at or after window.toMillis (the width is rounded up).
class TimeColumns {
 public:
  // REQUIRES: a finite, non-empty window; columns >= 1.
  TimeColumns(const TimeWindow& window, uint32_t columns);

  int64_t columnMillis() const { return m_width; }
  uint32_t columns() const { return m_columns; }
  // [from, from + width * columns)
  TimeWindow covered() const { return {m_from, m_end}; }

  // The column holding a bucket's start. REQUIRES: the start is covered.
  uint32_t columnOf(int64_t bucket) const;
  // Spreads one bucket over the columns its second overlaps (clipped to the
  // columns' end), in proportion to the overlap: calls f(column, share) with
  // shares adding up to 1. REQUIRES: the bucket's start is covered.
  template <typename F>
  void spread(int64_t bucket, F&& f) const {
    const int64_t start = bucketStart(bucket);
    const int64_t stop = std::min(start + kStatsBucketMillis, m_end);
    const auto length = static_cast<double>(stop - start);
    int64_t t = start;
    uint32_t column = columnOf(bucket);
    while (t < stop) {
      const int64_t columnEnd = m_from + m_width * static_cast<int64_t>(column + 1);
      const int64_t next = std::min(columnEnd, stop);
      f(column, static_cast<double>(next - t) / length);
      t = next;
      ++column;
    }
  }

 private:
  int64_t m_from;
  int64_t m_width;
  int64_t m_end;
  uint32_t m_columns;
};

}  // namespace keyscope::stats
