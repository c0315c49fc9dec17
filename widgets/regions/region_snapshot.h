// RegionSnapshot: everything the Regions tab shows of a table, read in one
// job off the GUI thread and handed over whole: its live regions with their
// load over the chosen window, its region history (for the lineage), its
// key schema, and the workspace's server settings.
//
// Threads: computeRegionSnapshot runs on a worker thread and only reads the
// workspace (which is thread-safe); the snapshot is a plain value.
#pragma once

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

#include "keyscope/key_schema.h"
#include "keyscope/statistics.h"
#include "keyscope/workspace.h"

namespace keyscope {

// The window the load colours and rates are taken over.
struct RegionWindowChoice {
  enum class Kind : uint8_t { kLastSeconds, kEverything } kind = Kind::kEverything;
  int64_t seconds = 60;  // kLastSeconds: this many seconds back from the workspace clock
};

struct RegionSnapshot {
  QString table;
  std::vector<RegionLoad> regions;           // in key order
  std::vector<RegionHistoryEntry> history;
  std::optional<KeySchema> schema;
  TimeWindow window;                         // the window used
  int64_t nowMillis = 0;                     // the workspace clock when read
  int32_t servers = 0;
  bool balancerEnabled = true;
  QString error;                             // why there are no regions; empty when there are
};

RegionSnapshot computeRegionSnapshot(const Workspace& ws, const QString& table, RegionWindowChoice choice);

// The region table's numbers as CSV: id, start and end (escaped), server,
// sizes, cells, store files, reads and writes in the window and per second.
std::string regionLoadCsv(const std::vector<RegionLoad>& regions);

}  // namespace keyscope
