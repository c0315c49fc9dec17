// The workload lab's work off the GUI thread: a run (paced to a chosen
// playback speed, pausable and stoppable) and the live snapshot the lab
// draws while it goes (per-server load, the hotspot heatmap, the regions).
//
// A run and the lab share a RunControl (held by shared_ptr on both sides):
// the lab pauses, resumes and stops through it, and reads the run's
// progress from its atomics on the live timer. Nothing else is shared; the
// run's summary comes back as the job's value.
//
// Threads: runPacedWorkload and computeWorkloadSnapshot run on worker
// threads (the JobRunner's); the workspace is used as any client uses it
// (thread-safe). RunControl's members may be used from any thread.
#pragma once

#include <QString>

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "hotspots/hotspot_snapshot.h"
#include "keyscope/cancel_token.h"
#include "keyscope/key_schema.h"
#include "keyscope/pause_token.h"
#include "keyscope/statistics.h"
#include "keyscope/workload.h"
#include "keyscope/workspace.h"

namespace keyscope {

// What the lab and a running run share.
struct RunControl {
  CancelToken stop;  // Stop (and closing the workspace): the run ends after its current write
  PauseToken pause;
  // Simulated seconds per wall-clock second; 0: as fast as the engine goes.
  double speed = 0;  // set before the run starts; read-only after
  // Progress, written by the run.
  std::atomic<int64_t> startMillis{0};  // simulated time of the first operation; 0 until known
  std::atomic<int64_t> simulatedMillis{0};
  std::atomic<uint64_t> operations{0};
  std::atomic<uint64_t> plannedOperations{0};
  std::atomic<uint32_t> regions{0};
  std::atomic<uint32_t> splits{0};
  std::atomic<bool> started{false};
};

struct WorkloadRunOutcome {
  Status status;
  WorkloadSummary summary;
  QString table;  // the table written
};

// Runs `options` into `ws` (see runWorkload), pacing it to control->speed
// and reporting progress into `control`. A Stop ends it with
// status Cancelled and the summary as far as it got.
WorkloadRunOutcome runPacedWorkload(Workspace& ws, WorkloadOptions options,
                                    const std::shared_ptr<RunControl>& control);

// The lab's view of a run at one moment.
struct WorkloadSnapshot {
  QString table;
  int64_t runStartMillis = 0;
  // Per server, one column per statistics second since the run started.
  LoadSeries servers;
  std::shared_ptr<const HotspotSnapshot> heat;  // by equal key counts
  std::vector<RegionLoad> regions;              // live regions, load over the run so far
  std::optional<KeySchema> schema;
  uint32_t splits = 0;                          // splits of the table since the run started
  QString error;                                // why the figures are missing
};

// Key buckets of the lab's heatmaps: enough to show a diagonal, few enough
// to read.
constexpr uint32_t kLabKeyBuckets = 64;

// The run's seconds from `runStartMillis` to `runNowMillis` (its simulated
// clock: after a run the workspace's clock is the wall clock again, years
// later); `runStartMillis` 0: the table's active time.
WorkloadSnapshot computeWorkloadSnapshot(const Workspace& ws, const QString& table, int64_t runStartMillis,
                                         int64_t runNowMillis, const CancelToken* cancel);

// The server series as CSV: second (since the run started), then one column
// of operations (reads + writes) per server.
std::string serverSeriesCsv(const LoadSeries& series, int64_t runStartMillis);
// The regions as CSV: id, start and end row (escaped), server, sizes, load.
std::string workloadRegionsCsv(const std::vector<RegionLoad>& regions);

}  // namespace keyscope
