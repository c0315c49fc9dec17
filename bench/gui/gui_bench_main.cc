// keyscope-gui-bench: the data browser's responsiveness on a table of 10
// million cells (issue 6's figures), measured on the real widgets on Qt's
// offscreen platform.
//
//   keyscope-gui-bench [--runs N] [--workspace FILE]
//
// Each run, in one process:
//   first screen   showTable() until the first page is in the model and painted
//   jump to key    goToKey() of a random key until its row is loaded and painted
//                  (the median and the slowest of 20)
//   scroll         scrolling to the bottom again and again until the model's
//                  memory budget stops it: pages per second, the resident set
//                  (VmRSS) after and the peak (VmHWM)
//   scan, export   the GUI thread's longest stall (LatencyProbe) while a count
//                  of the whole table, then a CSV export of it, run on the job
//                  runner, with the browser jumping to keys and showing the
//                  job's progress meanwhile
// and prints each figure's median over the runs. The table is built into
// ~/.cache/keyscope/gui-bench.ksw the first time (a minute or two).
//
// GUI thread, apart from the jobs on the runner.
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLabel>
#include <QScrollBar>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "async/job_runner.h"
#include "bench_table.h"
#include "browser/cell_table_model.h"
#include "browser/column_format_store.h"
#include "browser/data_browser.h"
#include "keyscope/csv_table.h"
#include "keyscope/workspace.h"
#include "latency_probe.h"
#include "session.h"
#include "timed_application.h"

namespace {

using keyscope::bench::LatencyProbe;

// Runs the event loop until `done` or `timeoutMs`; false on timeout.
bool waitUntil(const std::function<bool()>& done, int timeoutMs = 60000) {
  QElapsedTimer clock;
  clock.start();
  while (!done()) {
    if (clock.elapsed() > timeoutMs) return false;
    QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
  }
  return true;
}

// "VmRSS" or "VmHWM" of /proc/self/status, in MiB.
double procStatusMiB(const char* field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(field, 0) == 0) return std::stod(line.substr(line.find(':') + 1)) / 1024.0;
  }
  return 0;
}

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

double takeMaxEventCpuMs() { return static_cast<keyscope::bench::TimedApplication*>(qApp)->takeMaxEventCpuMs(); }

double msSince(const QElapsedTimer& clock) { return static_cast<double>(clock.nsecsElapsed()) / 1e6; }

// One run's figures by name, in the order they are first reported.
class Figures {
 public:
  void add(const std::string& name, double value) {
    if (!m_values.count(name)) m_order.push_back(name);
    m_values[name].push_back(value);
  }
  void print() const {
    std::printf("\n| figure | median | runs |\n|---|---:|---|\n");
    for (const std::string& name : m_order) {
      std::string runs;
      for (double v : m_values.at(name)) runs += (runs.empty() ? "" : " ") + std::to_string(static_cast<int>(v + 0.5));
      std::printf("| %s | %.1f | %s |\n", name.c_str(), median(m_values.at(name)), runs.c_str());
    }
  }

 private:
  std::vector<std::string> m_order;
  std::map<std::string, std::vector<double>> m_values;
};

class Bench {
 public:
  Bench(keyscope::Workspace* ws, Figures* figures)
      : m_ws(ws), m_figures(figures), m_settings(m_dir.filePath("settings.ini"), QSettings::IniFormat),
        m_formats(&m_settings), m_browser(&m_runner, &m_formats), m_progress(&m_browser) {
    m_browser.resize(1400, 900);
    m_browser.show();
    m_browser.setWorkspace(ws, QStringLiteral("bench"));
    m_table = ws->describeTable(keyscope::bench::kBenchTable).value();
  }

  void run() {
    firstScreen();
    jumpToKeys();
    scrollUntilBudget();
    stallsWhileJobsRun();
  }

 private:
  keyscope::CellTableModel* model() const { return m_browser.model(); }
  bool loaded() const { return !model()->isLoading() && model()->rowCount() > 0; }

  void firstScreen() {
    m_browser.clearTable();
    waitUntil([] { return true; });
    QElapsedTimer clock;
    clock.start();
    m_browser.showTable(m_table);
    if (!waitUntil([this] { return loaded(); })) std::fprintf(stderr, "first page never came\n");
    m_browser.repaint();  // synchronous: the first screen is on the window
    m_figures->add("first screen (ms)", msSince(clock));
  }

  void jumpToKeys() {
    std::vector<double> times;
    takeMaxEventCpuMs();
    m_probe.start();
    for (int i = 0; i < 20; ++i) {
      const keyscope::Bytes key = keyscope::bench::benchRowKey(m_random() % keyscope::bench::kBenchRows);
      QElapsedTimer clock;
      clock.start();
      m_browser.goToKey(QString::fromStdString(keyscope::toStringBinary(key)));
      waitUntil([this] { return loaded(); });
      m_browser.repaint();
      times.push_back(msSince(clock));
      const int row = model()->firstRowAtOrAfter(key);
      if (row < 0 || model()->rowKey(row) != key) std::fprintf(stderr, "jump %d did not land on its key\n", i);
    }
    m_probe.stop();
    m_figures->add("jump to key, median (ms)", median(times));
    m_figures->add("jump to key, slowest (ms)", *std::max_element(times.begin(), times.end()));
    m_figures->add("jump to key: longest GUI stall (ms)", m_probe.maxStallMs());
    m_figures->add("jump to key: slowest GUI event's CPU time (ms)", takeMaxEventCpuMs());
  }

  void scrollUntilBudget() {
    m_browser.showTable(m_table);
    waitUntil([this] { return loaded(); });
    QScrollBar* bar = m_browser.view()->verticalScrollBar();
    takeMaxEventCpuMs();
    m_probe.start();
    QElapsedTimer clock;
    clock.start();
    const int firstPages = model()->pagesLoaded();
    while (!model()->budgetReached() && !model()->isComplete() && clock.elapsed() < 120000) {
      bar->setValue(bar->maximum());
      waitUntil([this] { return !model()->isLoading(); });
      QCoreApplication::processEvents();
    }
    const double seconds = msSince(clock) / 1000;
    m_probe.stop();
    m_figures->add("scroll: pages per second", (model()->pagesLoaded() - firstPages) / seconds);
    m_figures->add("scroll: rows loaded at the budget", model()->rowCount());
    m_figures->add("scroll: longest GUI stall (ms)", m_probe.maxStallMs());
    m_figures->add("scroll: slowest GUI event's CPU time (ms)", takeMaxEventCpuMs());
    m_figures->add("resident set after scrolling (MiB)", procStatusMiB("VmRSS"));
    m_figures->add("peak resident set (MiB)", procStatusMiB("VmHWM"));
  }

  // A job on its own channel, while the browser keeps jumping and showing
  // its progress; returns the GUI thread's longest stall.
  template <typename Work>
  double stallWhile(const char* name, Work work) {
    const keyscope::JobRunner::ChannelId channel = m_runner.newChannel(keyscope::JobPriority::kBackground);
    bool done = false;
    QElapsedTimer clock;
    clock.start();
    takeMaxEventCpuMs();
    m_probe.start();
    m_runner.submit(
        channel, &m_progress, std::move(work), [&done](bool) { done = true; },
        [this](const keyscope::JobProgress& p) { m_progress.setText(QString::number(p.done)); });
    int jumps = 0;
    while (!done && clock.elapsed() < 600000) {
      const keyscope::Bytes key = keyscope::bench::benchRowKey(m_random() % keyscope::bench::kBenchRows);
      m_browser.goToKey(QString::fromStdString(keyscope::toStringBinary(key)));
      waitUntil([this, &done] { return done || !model()->isLoading(); });
      ++jumps;
    }
    m_probe.stop();
    m_figures->add(std::string(name) + " (s)", msSince(clock) / 1000);
    m_figures->add(std::string(name) + ": slowest GUI event's CPU time (ms)", takeMaxEventCpuMs());
    std::fprintf(stderr, "  %s: %d jumps meanwhile\n", name, jumps);
    return m_probe.maxStallMs();
  }

  void stallsWhileJobsRun() {
    const keyscope::Workspace* ws = m_ws;
    const double countStall = stallWhile("count of the whole table", [ws](keyscope::JobControl&) {
      keyscope::ScanOptions all;
      return ws->count(keyscope::bench::kBenchTable, all).isOk();
    });
    m_figures->add("count running: longest GUI stall (ms)", countStall);

    const std::string out = m_dir.filePath("export.csv").toStdString();
    const double exportStall = stallWhile("CSV export of the whole table", [ws, out](keyscope::JobControl& job) {
      std::ofstream file(out, std::ios::binary);
      keyscope::CsvExportOptions options;
      options.layout = keyscope::CsvLayout::kWide;
      options.decodeKey = true;
      options.cancel = job.cancelToken();
      options.progress = [&job](const keyscope::CsvExportProgress& p) {
        job.reportProgress({static_cast<qint64>(p.rows), 0, {}});
      };
      keyscope::CsvExportReport report;
      return keyscope::exportCsv(*ws, keyscope::bench::kBenchTable, file, options, &report).isOk();
    });
    m_figures->add("export running: longest GUI stall (ms)", exportStall);
  }

  keyscope::Workspace* m_ws;
  Figures* m_figures;
  QTemporaryDir m_dir;
  QSettings m_settings;
  keyscope::ColumnFormatStore m_formats;
  keyscope::JobRunner m_runner;
  keyscope::DataBrowser m_browser;
  QLabel m_progress;
  LatencyProbe m_probe;
  keyscope::TableOptions m_table;
  std::mt19937_64 m_random{20261121};
};

}  // namespace

int main(int argc, char* argv[]) {
  qputenv("QT_QPA_PLATFORM", qgetenv("QT_QPA_PLATFORM").isEmpty() ? "offscreen" : qgetenv("QT_QPA_PLATFORM"));
  // The offscreen platform says so on every resize; nothing to learn there.
  qInstallMessageHandler([](QtMsgType type, const QMessageLogContext& context, const QString& message) {
    if (message.contains(QStringLiteral("propagateSizeHints"))) return;
    qt_message_output(type, context, message);
  });
  keyscope::bench::TimedApplication app(argc, argv);
  int runs = 5;
  QString path = QDir(QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation))
                     .filePath(QStringLiteral("keyscope/gui-bench.ksw"));
  const QStringList args = QCoreApplication::arguments();
  for (int i = 1; i < args.size(); ++i) {
    if (args[i] == QStringLiteral("--runs") && i + 1 < args.size()) {
      runs = std::max(1, args[++i].toInt());
    } else if (args[i] == QStringLiteral("--workspace") && i + 1 < args.size()) {
      path = args[++i];
    } else {
      std::fprintf(stderr, "usage: keyscope-gui-bench [--runs N] [--workspace FILE]\n");
      return 2;
    }
  }
  QDir().mkpath(QFileInfo(path).absolutePath());
  if (keyscope::Status s = keyscope::bench::ensureBenchTable(path.toStdString()); !s.isOk()) {
    std::fprintf(stderr, "cannot build %s: %s\n", qPrintable(path), s.toString().c_str());
    return 1;
  }
  // Opened as the GUI opens it (its page cache size).
  auto ws = keyscope::Workspace::open(path.toStdString(), keyscope::Session::openOptions(/*create=*/false));
  if (!ws.isOk()) {
    std::fprintf(stderr, "cannot open %s: %s\n", qPrintable(path), ws.status().toString().c_str());
    return 1;
  }
  std::printf("keyscope-gui-bench: %s, %llu rows x %u columns, %d runs, platform %s\n", qPrintable(path),
              static_cast<unsigned long long>(keyscope::bench::kBenchRows), keyscope::bench::kBenchColumns, runs,
              qPrintable(QGuiApplication::platformName()));
  Figures figures;
  for (int run = 0; run < runs; ++run) {
    std::fprintf(stderr, "run %d of %d\n", run + 1, runs);
    Bench bench(ws.value().get(), &figures);
    bench.run();
  }
  figures.print();
  std::printf("\nGUI-thread events over %d ms (outermost only), slowest first:\n", keyscope::bench::TimedApplication::kSlowMs);
  for (const std::string& line : app.slowestEvents(12)) std::printf("  %s\n", line.c_str());
  return 0;
}
