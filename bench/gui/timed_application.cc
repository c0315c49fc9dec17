#include "timed_application.h"

#include <QElapsedTimer>
#include <QEvent>
#include <QMetaEnum>

#include <algorithm>
#include <cstdio>
#include <ctime>

namespace keyscope::bench {
namespace {

int64_t threadCpuNanos() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
}

}  // namespace

bool TimedApplication::notify(QObject* receiver, QEvent* event) {
  if (m_depth > 0) return QApplication::notify(receiver, event);
  // Read before delivery: the receiver may delete itself or the event.
  const QEvent::Type type = event->type();
  const char* className = receiver->metaObject()->className();
  QElapsedTimer clock;
  clock.start();
  const int64_t cpuBefore = threadCpuNanos();
  ++m_depth;
  const bool handled = QApplication::notify(receiver, event);
  --m_depth;
  const int64_t nanos = clock.nsecsElapsed();
  const int64_t cpuNanos = threadCpuNanos() - cpuBefore;
  m_maxCpuNanos = std::max(m_maxCpuNanos, cpuNanos);
  if (nanos >= int64_t{kSlowMs} * 1'000'000) {
    const char* typeName = QMetaEnum::fromType<QEvent::Type>().valueToKey(type);
    m_slow.push_back({nanos, cpuNanos, std::string(className) + " " + (typeName ? typeName : std::to_string(type))});
  }
  return handled;
}

double TimedApplication::takeMaxEventCpuMs() {
  const double ms = static_cast<double>(m_maxCpuNanos) / 1e6;
  m_maxCpuNanos = 0;
  return ms;
}

std::vector<std::string> TimedApplication::slowestEvents(size_t count) const {
  std::vector<SlowEvent> sorted = m_slow;
  std::sort(sorted.begin(), sorted.end(), [](const SlowEvent& a, const SlowEvent& b) { return a.nanos > b.nanos; });
  std::vector<std::string> lines;
  for (size_t i = 0; i < std::min(count, sorted.size()); ++i) {
    char ms[64];
    std::snprintf(ms, sizeof ms, "%6.1f ms (%5.1f ms on the CPU)  ", static_cast<double>(sorted[i].nanos) / 1e6,
                  static_cast<double>(sorted[i].cpuNanos) / 1e6);
    lines.push_back(ms + sorted[i].what);
  }
  if (lines.empty()) lines.push_back("none");
  return lines;
}

}  // namespace keyscope::bench
