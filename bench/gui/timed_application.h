// TimedApplication: a QApplication that times every event it delivers on
// the GUI thread, to say what a stall the LatencyProbe saw was made of (a
// paint of the table view, a model reset, a queued job result). Only the
// outermost delivery is timed: a paint inside a resize counts once, as the
// resize. A gap with no slow event behind it was the thread waiting for a
// CPU, not Keyscope's code.
//
// GUI thread only.
#pragma once

#include <QApplication>

#include <cstdint>
#include <string>
#include <vector>

namespace keyscope::bench {

class TimedApplication : public QApplication {
 public:
  static constexpr int kSlowMs = 16;  // one frame at 60 Hz

  TimedApplication(int& argc, char** argv) : QApplication(argc, argv) {}

  bool notify(QObject* receiver, QEvent* event) override;

  // The most CPU time one event took since the last call (ms), and resets:
  // a stall's own cost, whatever else the machine was doing.
  double takeMaxEventCpuMs();

  // "48.2 ms (12.0 ms on the CPU)  QTableView Paint", the slowest first.
  std::vector<std::string> slowestEvents(size_t count) const;

 private:
  struct SlowEvent {
    int64_t nanos = 0;     // wall clock
    int64_t cpuNanos = 0;  // this thread on a CPU: the rest was waiting for one
    std::string what;
  };
  int m_depth = 0;
  int64_t m_maxCpuNanos = 0;
  std::vector<SlowEvent> m_slow;
};

}  // namespace keyscope::bench
