#include "profile_window.h"

#include <cstdlib>

namespace keyscope_bench {

ProfileWindow::ProfileWindow() {
  const char* fifo = std::getenv("KEYSCOPE_BENCH_PERF_CTL");
  const char* phases = std::getenv("KEYSCOPE_BENCH_PROFILE");
  if (fifo == nullptr || phases == nullptr) return;
  m_control = std::fopen(fifo, "w");
  if (m_control == nullptr) std::fprintf(stderr, "keyscope-bench: cannot open perf control FIFO %s\n", fifo);
  m_phases = std::string(",") + phases + ",";
}

ProfileWindow::~ProfileWindow() {
  end();
  if (m_control != nullptr) std::fclose(m_control);
}

void ProfileWindow::begin(const char* name) {
  end();
  if (m_control == nullptr || m_phases.find(std::string(",") + name + ",") == std::string::npos) return;
  send("enable");
  m_open = true;
}

void ProfileWindow::end() {
  if (!m_open) return;
  send("disable");
  m_open = false;
}

void ProfileWindow::send(const char* command) {
  std::fprintf(m_control, "%s\n", command);
  std::fflush(m_control);
}

}  // namespace keyscope_bench
