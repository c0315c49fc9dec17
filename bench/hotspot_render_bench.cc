// keyscope-hotspot-bench: how long the hotspot heatmap takes to draw a
// 1,000 x 500 grid (1,000 key buckets, 500 time columns: the largest grid
// the Hotspots view asks for by default) on Qt's offscreen platform:
//   first render   a chart shows its first grid (fill the colour map, the
//                  key axis labels, 200 boundary lines) and replots;
//   live refresh   the chart, already showing a grid, takes the next one
//                  (other values) and replots, as a live view does every tick.
// Each is run several times; the median and the range are printed.
//
//   QT_QPA_PLATFORM=offscreen keyscope-hotspot-bench [RUNS]
//
// GUI thread only (it is the GUI thread's cost that is measured).
#include <QApplication>
#include <QElapsedTimer>
#include <qcustomplot.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "hotspots/heatmap_chart.h"

using namespace keyscope;

namespace {

constexpr size_t kBuckets = 1000;
constexpr uint32_t kColumns = 500;
constexpr int64_t kStart = 1704067200000;

// A monotonic-looking grid: a hot diagonal over faint noise, shifted by `seed`.
std::shared_ptr<const HotspotSnapshot> makeSnapshot(uint32_t seed) {
  auto s = std::make_shared<HotspotSnapshot>();
  s->table = QStringLiteral("bench");
  HeatGrid& g = s->grid;
  g.window = {kStart, kStart + kColumns * 1000};
  g.columnMillis = 1000;
  g.columns = kColumns;
  g.metric = LoadMetric::kWrites;
  for (size_t b = 0; b < kBuckets; ++b) {
    HeatGridBucket bucket;
    char row[16];
    std::snprintf(row, sizeof row, "k%06zu", b);
    bucket.startRow = b == 0 ? Bytes() : Bytes(row);
    bucket.label = "ts=2024-01-01 00:" + std::to_string(b / 60 % 60) + ":" + std::to_string(b % 60) +
                   " \u203a event=" + std::to_string(b);
    g.buckets.push_back(std::move(bucket));
  }
  for (size_t b = 0; b + 1 < kBuckets; ++b) g.buckets[b].endRow = g.buckets[b + 1].startRow;
  g.values.resize(kBuckets * kColumns);
  uint32_t x = seed * 2654435761u + 1;
  for (size_t b = 0; b < kBuckets; ++b)
    for (size_t c = 0; c < kColumns; ++c) {
      x = x * 1664525u + 1013904223u;
      const bool hot = b == (c * 2 + seed) % kBuckets;
      g.values[b * kColumns + c] = hot ? 1000.0 : static_cast<double>(x >> 28);
      g.maxValue = std::max(g.maxValue, g.values[b * kColumns + c]);
    }
  for (int i = 0; i < 200; ++i)
    s->boundaries.push_back({g.buckets[static_cast<size_t>(i) * 5 + 1].startRow, kStart + i * 2500, g.window.toMillis, true});
  s->request.axis = KeyAxis::kEqualKeyCounts;
  return s;
}

struct Stats {
  double median, low, high;
};

Stats summarize(std::vector<double> ms) {
  std::sort(ms.begin(), ms.end());
  return {ms[ms.size() / 2], ms.front(), ms.back()};
}

}  // namespace

int main(int argc, char* argv[]) {
  QApplication app(argc, argv);
  const int runs = argc > 1 ? std::max(3, std::atoi(argv[1])) : 15;
  std::vector<std::shared_ptr<const HotspotSnapshot>> snapshots;
  for (int i = 0; i < runs + 1; ++i) snapshots.push_back(makeSnapshot(static_cast<uint32_t>(i) * 37));

  std::vector<double> first, refresh;
  for (int i = 0; i < runs; ++i) {
    HeatmapChart chart;
    chart.resize(1400, 800);
    chart.show();
    QApplication::processEvents();
    QElapsedTimer clock;
    clock.start();
    chart.setSnapshot(snapshots[static_cast<size_t>(i)]);
    chart.plot()->replot(QCustomPlot::rpImmediateRefresh);
    first.push_back(static_cast<double>(clock.nsecsElapsed()) / 1e6);

    clock.restart();
    chart.setSnapshot(snapshots[static_cast<size_t>(i) + 1]);
    chart.plot()->replot(QCustomPlot::rpImmediateRefresh);
    refresh.push_back(static_cast<double>(clock.nsecsElapsed()) / 1e6);
  }
  const Stats a = summarize(first);
  const Stats b = summarize(refresh);
  std::printf("hotspot heatmap, %zu key buckets x %u time columns, 1400x800 px, %d runs (%s platform)\n", kBuckets,
              kColumns, runs, qPrintable(QGuiApplication::platformName()));
  std::printf("  first render  median %7.1f ms  (min %.1f, max %.1f)\n", a.median, a.low, a.high);
  std::printf("  live refresh  median %7.1f ms  (min %.1f, max %.1f)\n", b.median, b.low, b.high);
  return 0;
}
