// Catalog: the workspace's SQLite file and everything stored in it besides
// pages - tables, regions, store file records, and the write-ahead log.
//
// Schema (format version kFormatVersion, in PRAGMA user_version; the file is
// marked with PRAGMA application_id = kApplicationId):
//   tables(table_id PK, name UNIQUE, options TEXT)    options as JSON
//       (tableOptionsToJson); a key it lacks reads as its default, so
//       fields added later ("examples") need no new column
//   regions(region_id PK, table_id, start_row, end_row, flushed_seq, created, server)
//       the live regions. flushed_seq: every log record <= it is in this
//       region's store files; server: the simulated server it is assigned to
//   region_history(region_id PK, table_id, start_row, end_row, created,
//       retired, parents, origin, split_row)   every region of a live table
//       that ever existed (split lineage): created/retired in ms of the
//       workspace clock, retired NULL while live; parents: ids, comma-separated;
//       origin: RegionOrigin; split_row: the row a split daughter's parent split at
//   settings(key PK, value)   workspace settings: "servers", "balancer", and
//       the id counters "max_region_id" and "max_table_id" (ids are never
//       reused: log records name regions by id, and history outlives them)
//   statistics tables (stats/stats_schema.h)
//   store_files(file_id PK, region_id, family, max_seq, meta BLOB, created)
//       meta: StoreFileMeta::encode(); max_seq: newest log record it holds
//   pending_files(file_id PK)   pages being written or waiting to be deleted;
//       whatever is listed here at open is garbage from an interrupted flush
//       or compaction, or an obsolete file, and its pages are deleted
//   wal(seq PK, data BLOB)      one record per acknowledged batch (wal_record.h)
//   dropped_families(table_id, family, seq)  log entries of a family at or
//       below seq belong to a dropped incarnation of it: replay skips them
//   pages(page_id PK, data)     store file pages (sqlite_pages.h)
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
constexpr int kFormatVersion = 3;
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
};

std::string tableOptionsToJson(const TableOptions& options);
Result<TableOptions> tableOptionsFromJson(std::string_view json);

class Catalog {
 public:
  static Result<std::unique_ptr<Catalog>> open(const std::string& path, bool createIfMissing);
  ~Catalog();

  sqlite3* db() const { return m_db; }
  const std::string& path() const { return m_path; }
  // A new read-only connection to the same file; the caller closes it.
  Result<sqlite3*> openReader() const;

  Status begin();
  Status commit();
  void rollback();
  // FULL makes the next commits fsync; NORMAL (the default) survives a
  // process crash but not a power cut.
  Status setSynchronousFull(bool full);

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
  Status setRegionFlushedSeq(int64_t regionId, int64_t seq);
  Status setRegionServer(int64_t regionId, int32_t server);
  Status retireRegionHistory(int64_t regionId, int64_t atMillis);
  Status deleteTableHistory(int64_t tableId);
  Result<std::vector<RegionHistoryRecord>> loadRegionHistory();
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

  Status appendWal(int64_t seq, BytesView record);
  // Calls visit for each record in seq order; stops at the first error.
  Status readWal(const std::function<Status(int64_t seq, BytesView record)>& visit);
  Status truncateWalThrough(int64_t seq);

 private:
  Catalog(std::string path, sqlite3* db) : m_path(std::move(path)), m_db(db) {}
  Status lockExclusively();
  Status initialise(bool fresh);
  Status upgradeToRegionHistory();  // format 2 -> 3 (catalog_regions.cc)
  Status loadIdCounters();
  Status prepareStatements();

  std::string m_path;
  sqlite3* m_db;
  // An flock on the workspace file: one process writes a workspace at a time
  // (each keeps memstores and counters of its own). Held open until the
  // connections are closed, because closing any descriptor of a file drops
  // the process's POSIX locks on it, SQLite's included.
  int m_lockFd = -1;
  int64_t m_maxFileId = 0;
  int64_t m_maxRegionId = 0;
  int64_t m_maxTableId = 0;
  int64_t m_maxWalSeq = 0;
  Statement m_begin, m_commit, m_rollback, m_appendWal, m_truncateWal;
  Statement m_insertStoreFile, m_deleteStoreFile, m_addPending, m_removePending, m_setFlushedSeq;
};

}  // namespace keyscope::engine
