// LatencyProbe: measures how long the GUI thread's event loop goes without
// running, the stall a user feels as a frozen window. A zero-interval timer
// fires every time the loop is idle; the gap between two firings is the time
// the loop spent elsewhere (in one event handler, a paint, a layout). Gaps
// are kept per phase, so a benchmark can say "while a scan ran, the longest
// the window froze was 12 ms".
//
// GUI thread only.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <cstdint>
#include <vector>

namespace keyscope::bench {

class LatencyProbe : public QObject {
  Q_OBJECT

 public:
  explicit LatencyProbe(QObject* parent = nullptr);

  // Forgets the gaps seen so far and starts measuring.
  void start();
  void stop();

  // Over the gaps since start(), in milliseconds.
  double maxStallMs() const;
  double percentileStallMs(double fraction) const;  // 0.99: the 99th percentile
  size_t samples() const { return m_gapsNs.size(); }

 private:
  void tick();

  QTimer m_timer;
  QElapsedTimer m_clock;
  int64_t m_lastNs = -1;
  std::vector<int64_t> m_gapsNs;
};

}  // namespace keyscope::bench
