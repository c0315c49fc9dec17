// WorkspaceOutline: what the workspace tree shows, read from the engine in
// one go: every table's options (families, key schema, description, example
// commands) and its live regions (server, row range, sizes). A plain value,
// computed on a job runner's worker and handed whole to the GUI thread.
//
// Threads: loadOutline runs on any thread (the Workspace is thread-safe).
#pragma once

#include <string>
#include <vector>

#include "keyscope/cancel_token.h"
#include "keyscope/options.h"
#include "keyscope/status.h"
#include "keyscope/workspace.h"

namespace keyscope {

struct TableOutline {
  TableOptions options;             // options.name is the table's name
  std::vector<RegionInfo> regions;  // by start row
  std::string error;                // why describe or regions failed; empty: they did not
};

struct WorkspaceOutline {
  std::vector<TableOutline> tables;  // by name
  int32_t servers = 0;
};

// One describe and one regions call per table. A table that fails (dropped
// meanwhile) keeps its name and the error; Cancelled between tables.
Result<WorkspaceOutline> loadOutline(const Workspace& ws, const CancelToken& cancel);

}  // namespace keyscope
