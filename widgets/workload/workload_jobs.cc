// The workload lab's jobs (see workload_jobs.h). Worker threads.
#include "workload/workload_jobs.h"

#include <algorithm>
#include <chrono>
#include <sstream>
#include <thread>

#include "keyscope/bytes.h"
#include "keyscope/csv.h"

namespace keyscope {

namespace {

using Clock = std::chrono::steady_clock;

// Sleeps up to `duration`, waking early when the run is stopped.
void sleepUnlessStopped(std::chrono::milliseconds duration, const CancelToken& stop) {
  constexpr std::chrono::milliseconds kSlice{40};
  const Clock::time_point until = Clock::now() + duration;
  while (!stop.cancelled()) {
    const Clock::time_point now = Clock::now();
    if (now >= until) return;
    std::this_thread::sleep_for(std::min<Clock::duration>(kSlice, until - now));
  }
}

int64_t floorToSecond(int64_t millis) { return millis / kStatsBucketMillis * kStatsBucketMillis; }

}  // namespace

WorkloadRunOutcome runPacedWorkload(Workspace& ws, WorkloadOptions options,
                                    const std::shared_ptr<RunControl>& control) {
  WorkloadRunOutcome out;
  out.table = QString::fromStdString(options.table);
  options.cancel = &control->stop;
  options.pause = &control->pause;
  // Small steps, so that pacing is smooth and the live view sees the
  // regions and splits move: 200 progress reports over the run.
  const uint64_t planned = options.operations.value_or(kDefaultOperations);
  options.progressEvery = std::max<uint64_t>(50, planned / 200);
  int64_t lastSimulated = 0;
  Clock::time_point lastWall = Clock::now();
  RunControl* shared = control.get();
  options.progress = [shared, &lastSimulated, &lastWall](const WorkloadProgress& p) {
    shared->startMillis.store(p.nowMillis - p.simulatedMillis);
    shared->simulatedMillis.store(p.simulatedMillis);
    shared->operations.store(p.operations);
    shared->plannedOperations.store(p.plannedOperations);
    shared->regions.store(p.regions);
    shared->splits.store(p.splits);
    shared->started.store(true);
    if (shared->speed <= 0) return;
    // Pace by steps: this step's simulated time at the chosen speed, less
    // the wall time it took. After a pause the step took long: no sleep.
    const auto wanted = std::chrono::milliseconds(
        static_cast<int64_t>(static_cast<double>(p.simulatedMillis - lastSimulated) / shared->speed));
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - lastWall);
    if (wanted > took) sleepUnlessStopped(wanted - took, shared->stop);
    lastSimulated = p.simulatedMillis;
    lastWall = Clock::now();
  };
  out.status = runWorkload(ws, options, &out.summary);
  if (out.summary.startMillis != 0) {
    control->startMillis.store(out.summary.startMillis);
    control->simulatedMillis.store(out.summary.endMillis - out.summary.startMillis);
  }
  control->operations.store(out.summary.operations);
  control->regions.store(out.summary.regionsAfter);
  control->splits.store(out.summary.splits);
  return out;
}

WorkloadSnapshot computeWorkloadSnapshot(const Workspace& ws, const QString& table,
                                         int64_t runStartMillis, int64_t runNowMillis, const CancelToken* cancel) {
  WorkloadSnapshot out;
  out.table = table;
  out.runStartMillis = runStartMillis;
  const std::string name = table.toStdString();
  Result<TableOptions> options = ws.describeTable(name);
  if (!options) {
    out.error = QString::fromStdString(options.status().message());
    return out;
  }
  out.schema = KeySchema::parseStored(options.value().keySchema);

  HeatGridRequest request;
  request.axis = KeyAxis::kEqualKeyCounts;
  request.keyBuckets = kLabKeyBuckets;
  request.metric = LoadMetric::kOperations;
  request.timeColumns = 600;
  auto heat = std::make_shared<HotspotSnapshot>(computeHotspotSnapshot(ws, table, request, cancel));
  if (cancel != nullptr && cancel->cancelled()) return out;
  if (!heat->error.isEmpty()) out.error = heat->error;

  // The run's seconds so far: from its start to the clock's second (the run
  // drives the clock), at least one.
  TimeWindow window;
  window.fromMillis = floorToSecond(runStartMillis != 0 ? runStartMillis : heat->grid.window.fromMillis);
  window.toMillis =
      std::max(floorToSecond(runStartMillis != 0 ? runNowMillis : heat->grid.window.toMillis - 1) + kStatsBucketMillis,
               window.fromMillis + kStatsBucketMillis);
  out.runStartMillis = window.fromMillis;
  const auto seconds = static_cast<uint32_t>(
      std::clamp<int64_t>((window.toMillis - window.fromMillis) / kStatsBucketMillis, 1, 2000));
  Result<LoadSeries> servers = ws.serverLoadSeries(window, seconds);
  if (servers) {
    out.servers = std::move(servers).value();
  } else if (out.error.isEmpty()) {
    out.error = QString::fromStdString(servers.status().message());
  }
  Result<std::vector<RegionLoad>> regions = ws.regionLoad(name, window);
  if (regions) out.regions = std::move(regions).value();
  Result<std::vector<RegionHistoryEntry>> history = ws.regionHistory(name);
  if (history) {
    uint32_t daughters = 0;
    for (const RegionHistoryEntry& entry : history.value())
      if ((entry.origin == RegionOrigin::kSizeSplit || entry.origin == RegionOrigin::kManualSplit) &&
          entry.createdMillis >= window.fromMillis)
        ++daughters;
    out.splits = daughters / 2;
  }
  out.heat = std::move(heat);
  return out;
}

std::string serverSeriesCsv(const LoadSeries& series, int64_t runStartMillis) {
  std::ostringstream text;
  CsvWriter csv(text, CsvDialect{});
  std::vector<std::string> header{"second"};
  for (int32_t server : series.series) header.push_back("server " + std::to_string(server) + " ops/s");
  (void)csv.writeRecord(header);
  const double columnSeconds = static_cast<double>(series.columnMillis) / 1000.0;
  for (uint32_t column = 0; column < series.columns; ++column) {
    std::vector<std::string> record;
    const int64_t at = series.window.fromMillis + static_cast<int64_t>(column) * series.columnMillis;
    record.push_back(std::to_string((at - runStartMillis) / 1000));
    for (size_t s = 0; s < series.series.size(); ++s) {
      const LoadCounters& c = series.at(s, column);
      std::ostringstream value;
      value << static_cast<double>(c.reads + c.writes) / (columnSeconds > 0 ? columnSeconds : 1);
      record.push_back(value.str());
    }
    (void)csv.writeRecord(record);
  }
  return text.str();
}

std::string workloadRegionsCsv(const std::vector<RegionLoad>& regions) {
  std::ostringstream text;
  CsvWriter csv(text, CsvDialect{});
  (void)csv.writeRecord({"region", "start_row", "end_row", "server", "raw_bytes", "stored_bytes", "cells",
                         "writes", "reads", "writes_per_second", "reads_per_second"});
  for (const RegionLoad& r : regions) {
    (void)csv.writeRecord({std::to_string(r.regionId), toStringBinary(r.startRow), toStringBinary(r.endRow),
                           std::to_string(r.server), std::to_string(r.rawBytes), std::to_string(r.storedBytes),
                           std::to_string(r.cells), std::to_string(r.window.writes), std::to_string(r.window.reads),
                           std::to_string(r.writesPerSecond), std::to_string(r.readsPerSecond)});
  }
  return text.str();
}

}  // namespace keyscope
