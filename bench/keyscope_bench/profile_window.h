// Profiling one phase at a time: when the environment names a perf control
// FIFO, the phases open and close perf's recording window around the phases
// asked for, so `perf record` sees only them. For example, gets alone:
//
//   mkfifo /tmp/perf.ctl
//   KEYSCOPE_BENCH_PERF_CTL=/tmp/perf.ctl KEYSCOPE_BENCH_PROFILE=get_hit,get_miss
//     perf record -D -1 --control fifo:/tmp/perf.ctl -g -- keyscope-bench --peers keyscope --rounds 1
//
// Phase names: load_sorted, compact_sorted, load_random, compact_random,
// get_hit, get_miss, prefix_scan, full_scan. Without the variables this does
// nothing. Single-threaded, like the phases.
#pragma once

#include <cstdio>
#include <string>

namespace keyscope_bench {

class ProfileWindow {
 public:
  ProfileWindow();
  ~ProfileWindow();
  ProfileWindow(const ProfileWindow&) = delete;
  ProfileWindow& operator=(const ProfileWindow&) = delete;

  // Recording on while phase `name` runs, if it was asked for.
  void begin(const char* name);
  void end();

 private:
  void send(const char* command);

  FILE* m_control = nullptr;
  std::string m_phases;  // ",a,b," for whole-word matching
  bool m_open = false;
};

}  // namespace keyscope_bench
