// The two halves of checkWorkspace (keyscope/check.h): the checks, which
// read a closed workspace through its catalog (never through Workspace,
// whose open replays the log and deletes leftovers), and the repair, which
// drops what the checks found damaged. Not thread-safe: one check at a time
// per catalog.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/catalog.h"
#include "keyscope/check.h"

namespace keyscope::engine {

// What a repair would do, as the checks found it.
struct RepairPlan {
  std::vector<LostStoreFile> files;    // damaged store files to drop
  std::vector<LostLogRecord> log;      // damaged log records to drop
  std::vector<int64_t> orphanPages;    // store file ids whose pages no file owns
  std::vector<int64_t> stalePending;   // live store files also listed for deletion
  // The catalog's tables moved because the file was rebuilt without
  // auto-vacuum (repairRefusal() says how to rebuild it back).
  bool rebuiltWithoutAutoVacuum = false;

  bool empty() const { return files.empty() && log.empty() && orphanPages.empty() && stalePending.empty(); }
};

// Fills *report and *plan. Fails only when cancelled or when the file cannot
// be read at all; damage is a problem in the report.
Status runChecks(Catalog& catalog, const CheckOptions& options, CheckReport* report, RepairPlan* plan);

// Why repair must not run on what the report found, or empty when it may.
std::string repairRefusal(const CheckReport& report, const RepairPlan& plan);

// Carries out the plan, one transaction per file and per record, recording
// in *report what it dropped and cleared. Stops at the first failure.
Status repairWorkspace(Catalog& catalog, const RepairPlan& plan, CheckReport* report);

}  // namespace keyscope::engine
