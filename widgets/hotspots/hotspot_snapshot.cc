// HotspotSnapshot (see hotspot_snapshot.h). Worker thread; reads only.
#include "hotspots/hotspot_snapshot.h"

#include <algorithm>
#include <limits>

namespace keyscope {

namespace {

// Empty probe columns that still join two active runs: a twentieth of a probe.
constexpr uint32_t kProbeGap = kProbeColumns / 20;

int64_t floorToBucket(int64_t millis) {
  return millis >= 0 ? millis / kStatsBucketMillis * kStatsBucketMillis
                     : -((-millis + kStatsBucketMillis - 1) / kStatsBucketMillis) * kStatsBucketMillis;
}

}  // namespace

HotspotSnapshot computeHotspotSnapshot(const Workspace& ws, const QString& table, HeatGridRequest request,
                                       const CancelToken* cancel) {
  HotspotSnapshot out;
  out.table = table;
  out.request = request;
  const std::string name = table.toStdString();
  auto fail = [&](const Status& status) {
    out.error = QString::fromStdString(status.message());
    return out;
  };

  Result<TableOptions> options = ws.describeTable(name);
  if (!options) return fail(options.status());
  out.schema = KeySchema::parseStored(options.value().keySchema);
  Result<std::vector<RegionHistoryEntry>> history = ws.regionHistory(name);
  if (!history) return fail(history.status());
  if (cancel != nullptr && cancel->cancelled()) return out;

  // The table's life: from its first region to now (or its last event, when
  // the clock stands before it, as after a simulated run).
  int64_t born = std::numeric_limits<int64_t>::max();
  int64_t last = ws.now();
  for (const RegionHistoryEntry& region : history.value()) {
    born = std::min(born, region.createdMillis);
    last = std::max(last, region.retiredMillis.value_or(region.createdMillis));
  }
  if (born == std::numeric_limits<int64_t>::max()) born = last;
  TimeWindow life{floorToBucket(born), floorToBucket(last) + kStatsBucketMillis};

  // Narrow the window to the seconds with load: each probe cuts the window
  // into at most kProbeColumns columns and keeps those from the first to the
  // last with load, until a column is one statistics bucket (a table that
  // lived two years and was written for a minute needs three probes).
  TimeWindow window = life;
  bool active = false;
  for (int probes = 0; probes < 6; ++probes) {
    HeatGridRequest probe;
    probe.window = window;
    probe.axis = KeyAxis::kRegions;
    probe.metric = request.metric;
    probe.timeColumns = static_cast<uint32_t>(
        std::clamp<int64_t>((window.toMillis - window.fromMillis) / kStatsBucketMillis, 1, kProbeColumns));
    Result<HeatGrid> coarse = ws.heatGrid(name, probe);
    if (!coarse) return fail(coarse.status());
    if (cancel != nullptr && cancel->cancelled()) return out;
    const HeatGrid& c = coarse.value();
    // The active columns in runs (gaps of up to kProbeGap columns joined);
    // the run with the most load wins, so a page read in the browser long
    // after a workload does not stretch the window over the months between.
    std::vector<double> load(c.columns, 0.0);
    for (size_t b = 0; b < c.buckets.size(); ++b)
      for (uint32_t col = 0; col < c.columns; ++col) load[col] += c.at(b, col);
    std::optional<uint32_t> firstColumn, lastColumn;
    double bestLoad = 0;
    for (uint32_t col = 0; col < c.columns;) {
      if (load[col] <= 0) {
        ++col;
        continue;
      }
      const uint32_t runFirst = col;
      uint32_t runLast = col;
      double runLoad = 0;
      for (uint32_t gap = 0; col < c.columns && gap <= kProbeGap; ++col) {
        if (load[col] > 0) {
          runLast = col;
          runLoad += load[col];
          gap = 0;
        } else {
          ++gap;
        }
      }
      if (runLoad > bestLoad) {
        bestLoad = runLoad;
        firstColumn = runFirst;
        lastColumn = runLast;
      }
    }
    if (!firstColumn) break;
    active = true;
    TimeWindow narrowed;
    narrowed.fromMillis = floorToBucket(c.window.fromMillis + static_cast<int64_t>(*firstColumn) * c.columnMillis);
    narrowed.toMillis = floorToBucket(c.window.fromMillis + static_cast<int64_t>(*lastColumn + 1) * c.columnMillis +
                                      kStatsBucketMillis - 1);
    narrowed.toMillis = std::max(narrowed.toMillis, narrowed.fromMillis + kStatsBucketMillis);
    const bool done = c.columnMillis <= kStatsBucketMillis ||
                      (narrowed.fromMillis == window.fromMillis && narrowed.toMillis == window.toMillis);
    window = narrowed;
    if (done) break;
  }
  if (!active) {
    // No load in the metric chosen: show the last minute of the table's life, empty.
    out.noLoad = true;
    window = {std::max(life.fromMillis, life.toMillis - 60 * kStatsBucketMillis), life.toMillis};
  }
  request.window = window;
  const int64_t seconds = (window.toMillis - window.fromMillis) / kStatsBucketMillis;
  request.timeColumns = static_cast<uint32_t>(std::clamp<int64_t>(seconds, 1, request.timeColumns));
  Result<HeatGrid> grid = ws.heatGrid(name, request);
  if (!grid) return fail(grid.status());
  out.request = request;
  out.grid = std::move(grid).value();
  out.boundaries = boundarySegments(history.value(), out.grid.window);
  out.diagnostics = diagnoseHotspots(out.grid, out.request, out.schema);
  return out;
}

}  // namespace keyscope
