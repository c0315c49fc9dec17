// Catalog: the workspace's SQLite file and everything stored in it besides
// pages - tables, regions, store file records, and the write-ahead log.
//
// Schema (format version kFormatVersion, in PRAGMA user_version; the file is
// marked with PRAGMA application_id = kApplicationId):
//   tables(table_id PK, name UNIQUE, options TEXT, checksum)    options as JSON
//       (tableOptionsToJson); a key it lacks reads as its default, so
//       fields added later ("examples") need no new column
//   regions(region_id PK, table_id, start_row, end_row, flushed_seq, created, server,
//       checksum)   the live regions. flushed_seq: every log record <= it is
//       in this region's store files; server: the simulated server it is
//       assigned to
//   region_history(region_id PK, table_id, start_row, end_row, created,
//       retired, parents, origin, split_row, checksum)   every region of a
//       live table that ever existed (split lineage): created/retired in ms
//       of the workspace clock, retired NULL while live; parents: ids,
//       comma-separated; origin: RegionOrigin; split_row: the row a split
//       daughter's parent split at
//   settings(key PK, value, checksum)   workspace settings: "servers",
//       "balancer", the id counters "max_region_id" and "max_table_id" (ids
//       are never reused: log records name regions by id, and history
//       outlives them), "schema": the checksum of where SQLite keeps the
//       catalog's tables (catalog_integrity.cc), and "log_truncated_through":
//       every log record at or below it is in store files
//   statistics tables (stats/stats_schema.h)
//   store_files(file_id PK, region_id, family, max_seq, meta BLOB, created, checksum)
//       meta: StoreFileMeta::encode(); max_seq: newest log record it holds
//   pending_files(file_id PK)   pages being written or waiting to be deleted;
//       whatever is listed here at open is garbage from an interrupted flush
//       or compaction, or an obsolete file, and its pages are deleted
//   wal_slots(slot PK, data BLOB)   the log: acknowledged batches' records
//       (wal_record.h) in areas overwritten in place once flushed
//       (log_slots.h); the "log_truncated_through" setting says which
//   wal(seq PK, data BLOB)      the log of formats up to 7, one record per
//       row: still read (and truncated) after an upgrade, never written
//   dropped_families(table_id, family, seq, checksum)  log entries of a
//       family at or below seq belong to a dropped incarnation of it: replay
//       skips them
//   pages(page_id PK, data)     store file pages (sqlite_pages.h)
// `checksum` columns: catalog_checksum.h. Rows are verified as they are
// read; a row that fails is a Corruption naming it (store files: marked
// damaged, see StoreFileRecord). At open the catalog's own tables also pass
// SQLite's quick_check, which finds the damage to SQLite's structure (a row
// lost from a page, a page shared by two tables) that no row checksum can.
//
// Threads: a Catalog owns the writer connection and is used under the
// workspace's database mutex. openReader() connections belong to one thread
// at a time.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/log_slots.h"
#include "engine/sqlite_util.h"
#include "keyscope/bytes.h"
#include "keyscope/options.h"
#include "keyscope/workspace.h"
#include "keyscope/status.h"

namespace keyscope::engine {

// 2: store files may be in store-file format 2 (blocks with restart arrays,
// store_file_format.h); a format-1 workspace is upgraded on open, as this
// build writes format-2 files into it.
// 3: regions split and merge: log records may name retired regions (replay
// routes them by row), and region_history, settings and the statistics
// tables exist. Older workspaces are upgraded on open.
// 4: catalog rows carry checksums, log records are bound to their sequence
// number (wal_record.h) and store files may be in store-file format 3
// (block checksums bound to the block's place). Format-3 workspaces are
// upgraded on open: their rows get checksums of what they hold then.
// 5: store files may be in store-file format 4 (a zstd dictionary per file).
// Format-4 workspaces are upgraded on open; nothing in them changes.
// 6: store files may be in store-file format 5 (pages cut to one SQLite
// leaf). Format-5 workspaces are upgraded on open; nothing in them changes.
// 7: log records may be in record version 3 (keys coded against the key
// before, wal_record.h). Format-6 workspaces are upgraded on open; nothing
// in them changes, and their version-2 records still replay.
// 8: the log is kept in wal_slots (log_slots.h). Format-7 workspaces are
// upgraded on open: their records stay in the wal table, which is read and
// truncated as before, and new ones go to slots.
constexpr int kFormatVersion = 8;
constexpr int32_t kApplicationId = 0x4b53434f;  // "KSCO"

struct TableRecord {
  int64_t id = 0;
  TableOptions options;
};

struct RegionRecord {
  int64_t id = 0;
  int64_t tableId = 0;
  Bytes startRow;
  Bytes endRow;
  int64_t flushedSeq = 0;
  int32_t server = 0;
};

struct RegionHistoryRecord {
  int64_t regionId = 0;
  int64_t tableId = 0;
  Bytes startRow;
  Bytes endRow;
  int64_t createdMillis = 0;
  std::optional<int64_t> retiredMillis;
  std::vector<int64_t> parents;
  RegionOrigin origin = RegionOrigin::kCreate;
  Bytes splitRow;
};

struct StoreFileRecord {
  int64_t id = 0;
  int64_t regionId = 0;
  std::string family;
  int64_t maxSeq = 0;
  std::string meta;
  // Read back: what is wrong with the row when its region, family or
  // sequence fail their checksum (then none of them can be trusted); empty
  // when it verifies. The metadata blob is checked on its own, when decoded.
  std::string damage{};
};

std::string tableOptionsToJson(const TableOptions& options);
Result<TableOptions> tableOptionsFromJson(std::string_view json);

class Catalog {
 public:
  static Result<std::unique_ptr<Catalog>> open(const std::string& path, bool createIfMissing);
  // For keyscope-cli check: locks the workspace and reads its header, but
  // changes nothing (no schema completion, upgrade or structure check: the
  // checker runs SQLite's integrity_check itself). A workspace of another
  // format than this build's is refused: an older one is upgraded by any
  // ordinary open first.
  static Result<std::unique_ptr<Catalog>> openForCheck(const std::string& path);
  ~Catalog();

  sqlite3* db() const { return m_db; }
  const std::string& path() const { return m_path; }
  // The catalog tables whose structure quick_check verifies at open.
  static const std::vector<std::string>& catalogTables();
  // Corruption when the SQLite schema no longer places the catalog tables
  // where the workspace recorded them, NotFound when there is no record
  // (the next ordinary open makes one) (catalog_integrity.cc).
  Status checkSchemaLocations();
  // Whether the file has no auto-vacuum: rebuilt outside keyscope by a
  // VACUUM after `PRAGMA auto_vacuum = NONE`, which also moves the tables.
  bool autoVacuumOff() const;
  // A new read-only connection to the same file; the caller closes it.
  Result<sqlite3*> openReader() const;
  // A new read-write connection to the same file for checkpoints
  // (checkpointer.h); the caller closes it.
  Result<sqlite3*> openCheckpointer() const;
  // Calls `committed` after each commit on the writer connection with the
  // size of SQLite's log (the -wal file) in pages, in place of SQLite's own
  // automatic checkpoint. Null: SQLite's automatic checkpoint again.
  void onLogCommit(std::function<void(int logPages)> committed);

  Status begin();
  Status commit();
  void rollback();
  // FULL makes the next commits fsync; NORMAL (the default) survives a
  // process crash but not a power cut.
  Status setSynchronousFull(bool full);

  // Each verifies its rows: Corruption at the first that fails, except
  // loadStoreFiles, which marks such a row (StoreFileRecord::damage).
  Result<std::vector<TableRecord>> loadTables();
  Result<std::vector<RegionRecord>> loadRegions();
  Result<std::vector<StoreFileRecord>> loadStoreFiles();
  Result<std::vector<int64_t>> loadPendingFiles();
  int64_t maxWalSeq() const { return m_maxWalSeq; }

  Result<int64_t> insertTable(const TableOptions& options);
  Status updateTable(int64_t tableId, const TableOptions& options);
  Status deleteTableRow(int64_t tableId);
  Result<std::map<std::pair<int64_t, std::string>, int64_t>> loadDroppedFamilies();
  Status recordDroppedFamily(int64_t tableId, std::string_view family, int64_t seq);
  // A fresh region id, for files written before the region is inserted.
  int64_t reserveRegionId() { return ++m_maxRegionId; }
  // Inserts a live region and its history entry under record.id (reserved),
  // or, when it is 0, a new id; returns the id.
  Result<int64_t> insertRegion(const RegionRecord& record, const RegionHistoryRecord& history);
  Status deleteRegion(int64_t regionId);
  // Updates of one field read the row first and refuse (Corruption) when it
  // does not verify: a new checksum must never vouch for damaged fields.
  Status setRegionFlushedSeq(int64_t regionId, int64_t seq);
  Status setRegionServer(int64_t regionId, int32_t server);
  Status retireRegionHistory(int64_t regionId, int64_t atMillis);
  Status deleteTableHistory(int64_t tableId);
  // Every region's history, or one region's (empty when it has none).
  Result<std::vector<RegionHistoryRecord>> loadRegionHistory(std::optional<int64_t> onlyRegion = std::nullopt);
  Status moveStoreFile(int64_t fileId, int64_t regionId);

  Result<std::optional<std::string>> setting(std::string_view key);
  Status putSetting(std::string_view key, std::string_view value);

  int64_t allocateFileId() { return ++m_maxFileId; }
  Status insertStoreFile(const StoreFileRecord& record);
  Status deleteStoreFileRow(int64_t fileId);
  Status addPendingFile(int64_t fileId);
  Status removePendingFile(int64_t fileId);

  // Returns up to `pages` free database pages to the file system (the file
  // shrinks); true while free pages remain.
  Result<bool> releaseFreePages(int pages);
  // All of them, in steps of releaseFreePages(); stops at the first failure.
  Status releaseAllFreePages();

  // REQUIRES: inside a transaction (begin()).
  Status appendWal(int64_t seq, BytesView record);
  // Calls visit for each record in seq order; stops at the first error.
  Status readWal(const std::function<Status(int64_t seq, BytesView record)>& visit);
  // Every record at or below seq is in store files. In the caller's
  // transaction, or in one of its own.
  Status truncateWalThrough(int64_t seq);
  Status deleteWalRecord(int64_t seq);  // keyscope-cli check --repair
  // Where the log's slots cannot be read (LogSlots::damage; a workspace with
  // any does not open), and the repair that ends such a slot there.
  Result<std::vector<LogSlots::Damage>> logDamage();
  Status cutLogSlot(int64_t slot, uint32_t offset);

 private:
  enum class Mode { kOpen, kCheck };
  static Result<std::unique_ptr<Catalog>> openIn(const std::string& path, bool createIfMissing, Mode mode);
  Catalog(std::string path, sqlite3* db) : m_path(std::move(path)), m_db(db), m_log(db, m_path) {}
  Status lockExclusively();
  // A new connection to the same file (flags: read-only or read-write), its
  // failure naming `role`.
  Result<sqlite3*> openConnection(int flags, const char* role) const;
  Status initialise(bool fresh, Mode mode);
  Status upgradeToRegionHistory();  // format 2 -> 3 (catalog_regions.cc)
  Status updateRegion(int64_t regionId, const std::function<void(RegionRecord&)>& change, const char* what);
  // Format 3 -> 4: checksum columns, filled from the rows as they are, and
  // log records bound to their numbers. Idempotent: a row that has a
  // checksum keeps it (catalog_integrity.cc).
  Status upgradeToChecksums();
  // quick_check of the catalog tables and the "schema" setting
  // (catalog_integrity.cc).
  Status verifyStructure();
  // Saves the "schema" setting unless it is there (catalog_integrity.cc).
  Status recordSchemaLocations();
  Result<int64_t> schemaLocations() const;
  Status fillRegionHistoryChecksums();  // rows without one (catalog_regions.cc)
  // Whether an SQLite file that is not marked as a workspace holds the
  // workspace's tables anyway (then its header is damaged).
  bool looksLikeWorkspace();
  // A setting holding a count or id (0 when absent), verified: anything but
  // a non-negative integer is a Corruption saying it is not `what`.
  Result<int64_t> countSetting(std::string_view key, std::string_view what);
  Status loadIdCounters();
  Status prepareStatements();
  // Reads the log's slots, once (LogSlots::load).
  Status loadLog();

  std::string m_path;
  sqlite3* m_db;
  LogSlots m_log;
  std::function<void(int)> m_logCommitted;  // onLogCommit
  // An flock on the workspace file: one process writes a workspace at a time
  // (each keeps memstores and counters of its own). Held open until the
  // connections are closed, because closing any descriptor of a file drops
  // the process's POSIX locks on it, SQLite's included.
  int m_lockFd = -1;
  int64_t m_maxFileId = 0;
  int64_t m_maxRegionId = 0;
  int64_t m_maxTableId = 0;
  int64_t m_maxWalSeq = 0;
  Statement m_begin, m_commit, m_rollback, m_truncateWal;
  Statement m_insertStoreFile, m_deleteStoreFile, m_addPending, m_removePending;
};

}  // namespace keyscope::engine
