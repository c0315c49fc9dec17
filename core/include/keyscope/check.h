// Checking a workspace file end to end, and dropping what is damaged beyond
// use (keyscope-cli check; docs/CHECK.md).
//
// checkWorkspace verifies, without replaying or changing anything:
//   - SQLite's own structure (PRAGMA integrity_check over the whole file);
//   - the catalog: every row against its checksum, and where SQLite keeps
//     the catalog's tables against the workspace's record of it;
//   - the regions: each table's regions partition its key space (the first
//     starts at "", the last ends at "", no gaps or overlaps); every store
//     file belongs to a live region, to one of its table's families, and
//     holds only rows inside its region;
//   - every store file: its metadata's checksum and consistency; every block
//     of every page (checksum, decompression, entries), the block index
//     against the blocks (key order across blocks and pages, each block's
//     last key, cell and delete-marker counts, the time range), and that the
//     bloom filter answers "maybe" for every key in the file;
//   - every log record's checksum and structure.
//
// With repair, and only when all the damage found is of a kind it can fix,
// it then drops each damaged store file (in a transaction of its own:
// catalog row and pages) and each damaged log record, says exactly what is
// lost, deletes harmless leftovers (pages no file owns), and checks again.
// Damage to SQLite's structure or to the catalog's records of tables and
// regions is refused with a message saying what to do instead.
//
// The workspace must not be open: the check takes its lock (Busy when
// another process holds it). Synchronous; call from any one thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "keyscope/bytes.h"
#include "keyscope/status.h"

namespace keyscope {

class CancelToken;

enum class CheckArea : uint8_t {
  kSqlite,     // the SQLite file's own structure
  kCatalog,    // the catalog's rows: tables, regions, history, settings, schema
  kRegions,    // region invariants
  kStoreFile,  // one store file: its catalog row, metadata, pages, index, bloom filter
  kLog,        // the write-ahead log
};
const char* checkAreaName(CheckArea area);  // "sqlite", "catalog", "regions", "store file", "log"

// One thing found wrong. Fields that do not apply are empty / 0 / nullopt.
struct CheckProblem {
  CheckArea area = CheckArea::kSqlite;
  std::string table;
  int64_t regionId = 0;
  std::string family;
  int64_t storeFileId = 0;
  std::optional<uint32_t> page;  // the store file's page, when the damage is in one
  int64_t logSeq = 0;            // kLog: the record's sequence number
  std::string message;           // the whole story, naming all of the above
  bool repairable = false;       // repair drops what it names (a store file, a log record)
};

// A store file as repair dropped it: what is lost.
struct LostStoreFile {
  int64_t id = 0;
  std::string table;             // as the catalog records them (unverified when
  int64_t regionId = 0;          // the file's row itself was damaged)
  std::string family;
  bool metadataReadable = false;  // false: the range, times and count are unknown
  Bytes firstRow;
  Bytes lastRow;
  int64_t minTimestamp = 0;
  int64_t maxTimestamp = 0;
  uint64_t cells = 0;
  std::string reason;
};

struct LostLogRecord {
  int64_t seq = 0;
  std::string reason;  // its writes (one batch, atomic) are lost
  // seq 0: not one record but a log slot's records from byte `slotOffset` of
  // slot `slot` on, whose frames cannot be read (how many batches is unknown).
  int64_t slot = 0;
  uint32_t slotOffset = 0;
};

struct CheckCounts {
  uint64_t tables = 0;
  uint64_t regions = 0;
  uint64_t storeFiles = 0;
  uint64_t pages = 0;
  uint64_t blocks = 0;
  uint64_t cells = 0;
  uint64_t bloomFilters = 0;
  uint64_t logRecords = 0;
  uint64_t logEntries = 0;
};

struct CheckReport {
  std::string path;
  int formatVersion = 0;
  std::vector<std::string> sqliteFindings;  // integrity_check's lines when it is not "ok"
  CheckCounts counts;
  std::vector<CheckProblem> problems;
  // Harmless findings: leftovers no reader uses (pages of no store file, a
  // store file also listed for deletion). Repair clears them.
  std::vector<std::string> notes;

  // Repair. repairRefused: why nothing was changed (empty when it ran or was
  // not asked for).
  bool repairAttempted = false;
  std::string repairRefused;
  std::vector<LostStoreFile> droppedFiles;
  std::vector<LostLogRecord> droppedLogRecords;
  std::vector<std::string> cleared;  // notes repair acted on
  // The check that ran after the repair.
  std::shared_ptr<const CheckReport> afterRepair;

  bool clean() const { return problems.empty(); }
};

struct CheckOptions {
  bool repair = false;
  const CancelToken* cancel = nullptr;  // Cancelled between store files; a repair under way finishes its file
  std::function<void(uint64_t done, uint64_t total)> progress;  // store files checked
};

// The report, whatever the damage; an error only when the file cannot be
// checked at all: missing (NotFound), not a workspace or of another format
// (InvalidArgument), held by another process (Busy), cancelled, or SQLite
// cannot read it as a database (Corruption, naming the file).
Result<CheckReport> checkWorkspace(const std::string& path, const CheckOptions& options = {});

}  // namespace keyscope
