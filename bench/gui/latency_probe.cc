#include "latency_probe.h"

#include <algorithm>

namespace keyscope::bench {

LatencyProbe::LatencyProbe(QObject* parent) : QObject(parent) {
  // Zero interval: fires whenever the loop has nothing else to do, so the gap
  // between two ticks is the longest anything else held the thread.
  m_timer.setInterval(0);
  m_timer.setTimerType(Qt::PreciseTimer);
  connect(&m_timer, &QTimer::timeout, this, &LatencyProbe::tick);
  m_clock.start();
}

void LatencyProbe::start() {
  m_gapsNs.clear();
  m_lastNs = -1;
  m_timer.start();
}

void LatencyProbe::stop() { m_timer.stop(); }

void LatencyProbe::tick() {
  const int64_t now = m_clock.nsecsElapsed();
  if (m_lastNs >= 0) m_gapsNs.push_back(now - m_lastNs);
  m_lastNs = now;
}

double LatencyProbe::maxStallMs() const {
  if (m_gapsNs.empty()) return 0;
  return static_cast<double>(*std::max_element(m_gapsNs.begin(), m_gapsNs.end())) / 1e6;
}

double LatencyProbe::percentileStallMs(double fraction) const {
  if (m_gapsNs.empty()) return 0;
  std::vector<int64_t> sorted = m_gapsNs;
  const size_t at = std::min(sorted.size() - 1, static_cast<size_t>(fraction * static_cast<double>(sorted.size())));
  std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(at), sorted.end());
  return static_cast<double>(sorted[at]) / 1e6;
}

}  // namespace keyscope::bench
