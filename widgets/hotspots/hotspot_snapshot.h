// HotspotSnapshot: everything the hotspot heatmap draws, computed in one job
// off the GUI thread and handed over whole (a value; nothing shared): the
// heat grid over the table's active time, the region boundaries over that
// window, the table's key schema and the diagnostics.
//
// The window fits the table's activity: coarse probes of the table's whole
// life (by region, at most kProbeColumns columns each, narrowing) find the
// first and last second with load, and the grid is computed over those, with no more time
// columns than seconds (statistics are kept per second). A live refresh
// computes a new snapshot the same way, so the window grows as a workload runs.
//
// Threads: computeHotspotSnapshot runs on a worker thread and only reads
// the workspace (which is thread-safe); the snapshot is a plain value.
#pragma once

#include <QString>

#include <optional>
#include <string>
#include <vector>

#include "hotspots/hotspot_diagnostics.h"
#include "hotspots/region_boundaries.h"
#include "keyscope/cancel_token.h"
#include "keyscope/key_schema.h"
#include "keyscope/statistics.h"
#include "keyscope/workspace.h"

namespace keyscope {

struct HotspotSnapshot {
  QString table;
  HeatGridRequest request;            // its window: the one computed
  HeatGrid grid;
  std::vector<BoundarySegment> boundaries;
  std::optional<KeySchema> schema;    // nullopt: none, or it does not parse
  std::vector<HotspotDiagnostic> diagnostics;
  bool noLoad = false;                // the table has no load recorded yet
  QString error;                      // why there is no grid; empty when there is
};

// Columns of the probe that finds the active time: fine enough to place the
// window within half a percent of the table's life.
constexpr uint32_t kProbeColumns = 2000;

// `request`'s window is ignored (fitted to the activity); its other fields
// are used as they are. Errors (no such table, a component the schema lacks)
// come back in `error`. `cancel` may be null.
HotspotSnapshot computeHotspotSnapshot(const Workspace& ws, const QString& table, HeatGridRequest request,
                                       const CancelToken* cancel);

}  // namespace keyscope
