// keyscope-cli check --repair: dropping what the checks found damaged
// (workspace_check.h). Each store file goes in a transaction of its own,
// catalog row and pages together, so an interrupted repair leaves every file
// either whole or gone; then the freed pages are given back to the file
// system.
#include "engine/sqlite_pages.h"
#include "engine/workspace_check.h"

namespace keyscope::engine {

namespace {

// Runs `change` in a transaction of its own.
template <typename Change>
Status inTransaction(Catalog& catalog, Change change) {
  if (Status s = catalog.begin(); !s) return s;
  Status status = change();
  if (status) status = catalog.commit();
  if (!status) catalog.rollback();
  return status;
}

}  // namespace

Status repairWorkspace(Catalog& catalog, const RepairPlan& plan, CheckReport* report) {
  for (const LostStoreFile& file : plan.files) {
    const Status s = inTransaction(catalog, [&] {
      Status status = catalog.deleteStoreFileRow(file.id);
      if (status) status = deleteStoreFilePages(catalog.db(), file.id);
      if (status) status = catalog.removePendingFile(file.id);
      return status;
    });
    if (!s) return s;
    report->droppedFiles.push_back(file);
  }
  for (const LostLogRecord& record : plan.log) {
    const Status s = inTransaction(catalog, [&] {
      return record.seq != 0 ? catalog.deleteWalRecord(record.seq) : catalog.cutLogSlot(record.slot, record.slotOffset);
    });
    if (!s) return s;
    report->droppedLogRecords.push_back(record);
  }
  for (const int64_t id : plan.orphanPages) {
    if (Status s = inTransaction(catalog, [&] { return deleteStoreFilePages(catalog.db(), id); }); !s) return s;
    report->cleared.push_back("deleted the leftover pages of store file " + std::to_string(id));
  }
  for (const int64_t id : plan.stalePending) {
    if (Status s = inTransaction(catalog, [&] { return catalog.removePendingFile(id); }); !s) return s;
    report->cleared.push_back("store file " + std::to_string(id) + " is no longer listed for deletion");
  }
  // Give the freed pages back to the file system.
  return catalog.releaseAllFreePages();
}

}  // namespace keyscope::engine
