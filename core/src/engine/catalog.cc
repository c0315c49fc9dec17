#include "engine/catalog.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>

#include "engine/catalog_checksum.h"
#include "engine/lock_holder.h"
#include "engine/sqlite_pages.h"
#include "engine/wal_coalescing_vfs.h"
#include "stats/stats_schema.h"

namespace keyscope::engine {

namespace {

using nlohmann::json;

// The settings key of the log's truncation point (catalog.h).
constexpr const char* kLogTruncatedThrough = "log_truncated_through";

// The checksum columns of format 4 (catalog_checksum.h) are here for new
// workspaces; upgradeToChecksums adds them to older ones.
constexpr const char* kSchemaSql = R"sql(
CREATE TABLE IF NOT EXISTS tables(
  table_id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, options TEXT NOT NULL,
  checksum INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS regions(
  region_id INTEGER PRIMARY KEY, table_id INTEGER NOT NULL, start_row BLOB NOT NULL,
  end_row BLOB NOT NULL, flushed_seq INTEGER NOT NULL, created INTEGER NOT NULL,
  server INTEGER NOT NULL DEFAULT 0, checksum INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS region_history(
  region_id INTEGER PRIMARY KEY, table_id INTEGER NOT NULL, start_row BLOB NOT NULL,
  end_row BLOB NOT NULL, created INTEGER NOT NULL, retired INTEGER, parents TEXT NOT NULL,
  origin INTEGER NOT NULL, split_row BLOB NOT NULL, checksum INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS settings(key TEXT PRIMARY KEY, value TEXT NOT NULL,
  checksum INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS store_files(
  file_id INTEGER PRIMARY KEY, region_id INTEGER NOT NULL, family TEXT NOT NULL,
  max_seq INTEGER NOT NULL, meta BLOB NOT NULL, created INTEGER NOT NULL,
  checksum INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS pending_files(file_id INTEGER PRIMARY KEY);
CREATE TABLE IF NOT EXISTS wal(seq INTEGER PRIMARY KEY, data BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS wal_slots(slot INTEGER PRIMARY KEY, data BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS dropped_families(
  table_id INTEGER NOT NULL, family TEXT NOT NULL, seq INTEGER NOT NULL,
  checksum INTEGER NOT NULL DEFAULT 0, PRIMARY KEY(table_id, family)) WITHOUT ROWID;
)sql";

const char* keepDeletedName(KeepDeletedCells k) {
  switch (k) {
    case KeepDeletedCells::kTrue: return "TRUE";
    case KeepDeletedCells::kTtl: return "TTL";
    case KeepDeletedCells::kFalse: break;
  }
  return "FALSE";
}
const char* bloomName(BloomType b) {
  switch (b) {
    case BloomType::kNone: return "NONE";
    case BloomType::kRowCol: return "ROWCOL";
    case BloomType::kRow: break;
  }
  return "ROW";
}

bool isSqliteFile(const std::string& path, bool* empty) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  char header[16] = {};
  const size_t n = std::fread(header, 1, sizeof header, f);
  std::fclose(f);
  *empty = n == 0;
  return n == sizeof header && std::memcmp(header, "SQLite format 3\0", 16) == 0;
}

}  // namespace

std::string tableOptionsToJson(const TableOptions& options) {
  json families = json::array();
  for (const FamilyOptions& f : options.families) {
    families.push_back({{"name", f.name},
                        {"versions", f.maxVersions},
                        {"min_versions", f.minVersions},
                        {"ttl", f.ttlSeconds},
                        {"keep_deleted_cells", keepDeletedName(f.keepDeletedCells)},
                        {"compression", f.compression == Compression::kZstd ? "ZSTD" : "NONE"},
                        {"bloomfilter", bloomName(f.bloomFilter)},
                        {"blocksize", f.blockSize}});
  }
  json j = {{"name", options.name},
            {"families", families},
            {"memstore_flushsize", options.memstoreFlushSize},
            {"max_filesize", options.maxFileSize},
            {"split_policy", splitPolicyName(options.splitPolicy)},
            {"key_schema", options.keySchema},
            {"description", options.description},
            {"examples", options.exampleCommands}};
  return j.dump();
}

Result<TableOptions> tableOptionsFromJson(std::string_view text) {
  const json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return Status::corruption("table options are not valid JSON");
  TableOptions options;
  try {
    options.name = j.at("name").get<std::string>();
    options.memstoreFlushSize = j.value("memstore_flushsize", options.memstoreFlushSize);
    options.maxFileSize = j.value("max_filesize", options.maxFileSize);
    if (j.contains("split_policy")) {
      const auto policy = parseSplitPolicy(j.at("split_policy").get<std::string>());
      if (!policy) return Status::corruption("unknown split policy '" + j.at("split_policy").get<std::string>() + "'");
      options.splitPolicy = *policy;
    }
    options.keySchema = j.value("key_schema", std::string());
    options.description = j.value("description", std::string());
    // Absent in workspaces written before tables had examples.
    if (j.contains("examples")) options.exampleCommands = j.at("examples").get<std::vector<std::string>>();
    for (const json& jf : j.at("families")) {
      FamilyOptions f;
      f.name = jf.at("name").get<std::string>();
      f.maxVersions = jf.value("versions", f.maxVersions);
      f.minVersions = jf.value("min_versions", f.minVersions);
      f.ttlSeconds = jf.value("ttl", f.ttlSeconds);
      const std::string kdc = jf.value("keep_deleted_cells", "FALSE");
      f.keepDeletedCells = kdc == "TRUE" ? KeepDeletedCells::kTrue
                           : kdc == "TTL" ? KeepDeletedCells::kTtl
                                          : KeepDeletedCells::kFalse;
      f.compression = jf.value("compression", "NONE") == "ZSTD" ? Compression::kZstd : Compression::kNone;
      const std::string bloom = jf.value("bloomfilter", "ROW");
      f.bloomFilter = bloom == "NONE" ? BloomType::kNone : bloom == "ROWCOL" ? BloomType::kRowCol : BloomType::kRow;
      f.blockSize = jf.value("blocksize", f.blockSize);
      options.families.push_back(std::move(f));
    }
  } catch (const json::exception& e) {
    return Status::corruption(std::string("table options: ") + e.what());
  }
  return options;
}

Result<std::unique_ptr<Catalog>> Catalog::open(const std::string& path, bool createIfMissing) {
  return openIn(path, createIfMissing, Mode::kOpen);
}

Result<std::unique_ptr<Catalog>> Catalog::openForCheck(const std::string& path) {
  return openIn(path, /*createIfMissing=*/false, Mode::kCheck);
}

Result<std::unique_ptr<Catalog>> Catalog::openIn(const std::string& path, bool createIfMissing, Mode mode) {
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  bool empty = !exists;
  if (exists && !S_ISREG(st.st_mode)) return Status::invalidArgument(path + " is not a regular file");
  if (exists && !isSqliteFile(path, &empty) && !empty)
    return Status::invalidArgument(path + " is not a Keyscope workspace (not an SQLite database)");
  if (!exists && !createIfMissing) return Status::notFound("no workspace at " + path);
  if (mode == Mode::kCheck && empty) return Status::invalidArgument(path + " is empty, not a Keyscope workspace");

  sqlite3* db = nullptr;
  const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
  int rc = sqlite3_open_v2(path.c_str(), &db, flags, WalCoalescingVfs::instance().name());
  if (rc != SQLITE_OK) {
    Status s = sqliteError(db, rc, "opening " + path);
    sqlite3_close(db);
    return s;
  }
  std::unique_ptr<Catalog> catalog(new Catalog(path, db));
  if (Status s = catalog->lockExclusively(); !s) return s;
  // SQLite's own refusals ("database disk image is malformed" for a truncated
  // file, "file is not a database") do not say which file: name it.
  if (Status s = catalog->initialise(empty, mode); !s) {
    if (s.message().find(path) != std::string::npos) return s;
    const std::string message = path + ": " + s.message();
    switch (s.code()) {
      case Status::Code::kCorruption: return Status::corruption(message);
      case Status::Code::kBusy: return Status::busy(message);
      case Status::Code::kInvalidArgument: return Status::invalidArgument(message);
      default: return Status::ioError(message);
    }
  }
  return catalog;
}

Catalog::~Catalog() {
  // Statements first: sqlite3_close refuses while any is unfinalised.
  for (Statement* st : {&m_begin, &m_commit, &m_rollback, &m_truncateWal, &m_insertStoreFile,
                        &m_deleteStoreFile, &m_addPending, &m_removePending})
    st->finalize();
  sqlite3_close(m_db);
  if (m_lockFd >= 0) ::close(m_lockFd);  // after SQLite: see m_lockFd
}

Status Catalog::lockExclusively() {
  m_lockFd = ::open(m_path.c_str(), O_RDONLY | O_CLOEXEC);
  if (m_lockFd < 0) return Status::ioError("opening " + m_path + " to lock it: " + std::strerror(errno));
  if (::flock(m_lockFd, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EWOULDBLOCK) return workspaceInUse(m_path, m_lockFd);
    return Status::ioError("locking " + m_path + ": " + std::strerror(errno));
  }
  return Status::ok();
}

Status Catalog::initialise(bool fresh, Mode mode) {
  sqlite3_busy_timeout(m_db, 60000);
  sqlite3_extended_result_codes(m_db, 1);
  int64_t applicationId = 0, userVersion = 0;
  {
    Statement st;
    if (Status s = st.prepare(m_db, "PRAGMA application_id"); !s) return s;
    if (st.step() == SQLITE_ROW) applicationId = st.columnInt(0);
  }
  {
    Statement st;
    if (Status s = st.prepare(m_db, "PRAGMA user_version"); !s) return s;
    if (st.step() == SQLITE_ROW) userVersion = st.columnInt(0);
  }
  if (!fresh) {
    bool hasTables = false;
    Statement st;
    if (Status s = st.prepare(m_db, "SELECT count(*) FROM sqlite_schema"); !s) return s;
    if (st.step() == SQLITE_ROW) hasTables = st.columnInt(0) > 0;
    fresh = !hasTables && applicationId == 0;
  }
  if (!fresh) {
    if (applicationId != kApplicationId) {
      if (looksLikeWorkspace())
        return Status::corruption(m_path + " holds a Keyscope workspace's tables, but its header is damaged "
                                  "(application id " + std::to_string(applicationId) + ")");
      return Status::invalidArgument(m_path + " is an SQLite database but not a Keyscope workspace");
    }
    if (userVersion > kFormatVersion)
      return Status::invalidArgument(m_path + " was written by a newer Keyscope (workspace format " +
                                     std::to_string(userVersion) + "; this build reads format " +
                                     std::to_string(kFormatVersion) + " and older)");
    if (userVersion < 1) return Status::corruption(m_path + ": workspace format version is missing");
  }
  if (mode == Mode::kCheck) {
    if (userVersion != kFormatVersion)
      return Status::invalidArgument(m_path + " is in workspace format " + std::to_string(userVersion) +
                                     ", older than this build's " + std::to_string(kFormatVersion) +
                                     ": open it once (keyscope, or any keyscope-cli command), which upgrades it, "
                                     "then check it");
    return prepareStatements();  // a check allocates no ids: no counters
  }
  if (fresh) {
    // 8 KiB SQLite pages: store file blocks are a few KiB compressed, so one
    // block read touches one or two database pages.
    if (Status s = execSql(m_db, "PRAGMA page_size = 8192", "setting the page size"); !s) return s;
    // Compactions free whole store files; incremental vacuum gives their
    // pages back to the file system (releaseFreePages) instead of leaving
    // the file at its largest size.
    if (Status s = execSql(m_db, "PRAGMA auto_vacuum = INCREMENTAL", "enabling incremental vacuum"); !s) return s;
  }
  if (Status s = execSql(m_db, "PRAGMA journal_mode = WAL", "switching to WAL journal mode"); !s) return s;
  if (Status s = execSql(m_db, "PRAGMA synchronous = NORMAL", "setting synchronous mode"); !s) return s;
  // SQLite's log is reused from its start once checkpointed (checkpointer.h);
  // one that grew past this while a reader held it back is cut back to it.
  if (Status s = execSql(m_db, "PRAGMA journal_size_limit = 16777216", "limiting the log file's size"); !s) return s;
  // SQLite's own page cache holds stored (compressed) pages, which the engine's
  // page cache of decompressed blocks already serves reads from: 2 MiB keeps
  // the B-tree's inner pages. 16 MiB cost 30 MiB of peak memory in a load
  // (keyscope-bench) and bought no speed.
  if (Status s = execSql(m_db, "PRAGMA cache_size = -2048", "sizing the cache"); !s) return s;
  if (fresh) {
    std::string sql = std::string("BEGIN;") + kSchemaSql + kPagesTableDdl + ";" + stats::statsSchemaSql() +
                      "PRAGMA application_id = " + std::to_string(kApplicationId) + ";" +
                      "PRAGMA user_version = " + std::to_string(kFormatVersion) + ";COMMIT;";
    if (Status s = execSql(m_db, sql.c_str(), "creating the workspace schema"); !s) return s;
    // Records where SQLite keeps the catalog tables (verifyStructure).
    if (Status s = recordSchemaLocations(); !s) return s;
  } else {
    // Tables added within format 1 (dropped_families) appear in older files
    // too: every statement of the schema is CREATE ... IF NOT EXISTS.
    if (Status s = execSql(m_db, kSchemaSql, "completing the workspace schema"); !s) return s;
    if (userVersion < 3) {
      if (Status s = upgradeToRegionHistory(); !s) return s;
    }
    if (userVersion < 4) {
      if (Status s = upgradeToChecksums(); !s) return s;
    }
    // Store files written from now on are in the newest format: an older
    // build must refuse the workspace rather than meet them.
    if (userVersion < kFormatVersion) {
      const std::string sql = "PRAGMA user_version = " + std::to_string(kFormatVersion);
      if (Status s = execSql(m_db, sql.c_str(), "upgrading the workspace format"); !s) return s;
    }
  }
  if (!fresh) {
    if (Status s = execSql(m_db, stats::statsSchemaSql(), "completing the statistics tables"); !s) return s;
    if (Status s = verifyStructure(); !s) return s;
  }
  if (Status s = prepareStatements(); !s) return s;
  if (Status s = loadIdCounters(); !s) return s;
  {
    Statement st;
    if (Status s = st.prepare(m_db,
            "SELECT max(coalesce((SELECT max(file_id) FROM store_files), 0),"
            "           coalesce((SELECT max(file_id) FROM pending_files), 0)),"
            "       max(coalesce((SELECT max(seq) FROM wal), 0),"
            "           coalesce((SELECT max(flushed_seq) FROM regions), 0))");
        !s)
      return s;
    const int rc = st.step();
    if (rc != SQLITE_ROW) return st.error(rc, "reading the workspace counters");
    m_maxFileId = st.columnInt(0);
    m_maxWalSeq = st.columnInt(1);
  }
  if (Status s = loadLog(); !s) return s;
  if (!m_log.damage().empty())
    return Status::corruption(m_log.damage().front().message +
                              " (keyscope-cli check --repair ends the slot there, losing the writes logged after "
                              "that point in it)");
  return Status::ok();
}

Status Catalog::prepareStatements() {
  struct { Statement* st; const char* sql; } all[] = {
      {&m_begin, "BEGIN IMMEDIATE"},
      {&m_commit, "COMMIT"},
      {&m_rollback, "ROLLBACK"},
      {&m_truncateWal, "DELETE FROM wal WHERE seq <= ?"},
      {&m_insertStoreFile,
       "INSERT INTO store_files(file_id, region_id, family, max_seq, meta, created, checksum)"
       " VALUES(?,?,?,?,?,strftime('%s','now'),?)"},
      {&m_deleteStoreFile, "DELETE FROM store_files WHERE file_id = ?"},
      {&m_addPending, "INSERT OR IGNORE INTO pending_files(file_id) VALUES(?)"},
      {&m_removePending, "DELETE FROM pending_files WHERE file_id = ?"},
  };
  for (auto& [st, sql] : all) {
    if (Status s = st->prepare(m_db, sql); !s) return s;
  }
  return Status::ok();
}

Result<sqlite3*> Catalog::openConnection(int flags, const char* role) const {
  sqlite3* db = nullptr;
  const int rc = sqlite3_open_v2(m_path.c_str(), &db, flags | SQLITE_OPEN_NOMUTEX,
                                 WalCoalescingVfs::instance().name());
  if (rc != SQLITE_OK) {
    Status s = sqliteError(db, rc, std::string("opening a ") + role + " connection to " + m_path);
    sqlite3_close(db);
    return s;
  }
  sqlite3_extended_result_codes(db, 1);
  return db;
}

Result<sqlite3*> Catalog::openReader() const {
  Result<sqlite3*> db = openConnection(SQLITE_OPEN_READONLY, "reader");
  if (!db) return db;
  sqlite3_busy_timeout(*db, 60000);
  (void)execSql(*db, "PRAGMA cache_size = -2048", "sizing the reader cache");  // as the writer's, above
  return db;
}

Result<sqlite3*> Catalog::openCheckpointer() const {
  // No busy timeout: the Checkpointer sets a busy handler of its own.
  Result<sqlite3*> db = openConnection(SQLITE_OPEN_READWRITE, "checkpoint");
  if (!db) return db;
  // A checkpoint syncs the log before copying it and the database after, as
  // at the writer's synchronous = NORMAL (a connection's own default, FULL,
  // syncs the same for checkpoints).
  if (Status s = execSql(*db, "PRAGMA synchronous = NORMAL", "setting the checkpoint connection's synchronous mode");
      !s) {
    sqlite3_close(*db);
    return s;
  }
  return db;
}

void Catalog::onLogCommit(std::function<void(int logPages)> committed) {
  m_logCommitted = std::move(committed);
  if (!m_logCommitted) {
    sqlite3_wal_autocheckpoint(m_db, 1000);  // SQLite's default
    return;
  }
  // Replaces the automatic checkpoint, itself a WAL hook.
  sqlite3_wal_hook(
      m_db,
      [](void* self, sqlite3*, const char*, int pages) {
        static_cast<Catalog*>(self)->m_logCommitted(pages);
        return SQLITE_OK;
      },
      this);
}

Status Catalog::begin() { return m_begin.run("beginning a transaction"); }

Status Catalog::commit() {
  Status status = m_commit.run("committing");
  if (status) m_log.committed();  // else the caller rolls back
  return status;
}

void Catalog::rollback() {
  (void)m_rollback.run("rolling back");
  m_log.rolledBack();
}

Status Catalog::setSynchronousFull(bool full) {
  return execSql(m_db, full ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL", "setting synchronous mode");
}

Result<std::vector<TableRecord>> Catalog::loadTables() {
  Statement st;
  if (Status s = st.prepare(m_db, "SELECT table_id, name, options, checksum FROM tables ORDER BY name"); !s) return s;
  std::vector<TableRecord> tables;
  int rc;
  while ((rc = st.step()) == SQLITE_ROW) {
    const int64_t id = st.columnInt(0);
    const std::string name = st.columnText(1);
    const auto damaged = [&](const std::string& what) {
      return Status::corruption(m_path + ": the catalog's record of table " + std::to_string(id) + " ('" + name +
                                "') " + what);
    };
    if (tableRowChecksum(id, name, st.columnBlob(2)) != st.columnInt(3)) return damaged("fails its checksum");
    Result<TableOptions> options = tableOptionsFromJson(st.columnBlob(2));
    if (!options) return damaged("holds options that do not parse: " + options.status().message());
    if (options->name != name) return damaged("names another table in its options");
    tables.push_back({id, std::move(options).value()});
  }
  if (rc != SQLITE_DONE) return st.error(rc, "reading tables");
  return tables;
}

Result<std::vector<RegionRecord>> Catalog::loadRegions() {
  Statement st;
  if (Status s = st.prepare(m_db,
          "SELECT region_id, table_id, start_row, end_row, flushed_seq, server, checksum FROM regions"
          " ORDER BY table_id, start_row");
      !s)
    return s;
  std::vector<RegionRecord> regions;
  int rc;
  while ((rc = st.step()) == SQLITE_ROW) {
    RegionRecord r{st.columnInt(0), st.columnInt(1), Bytes(st.columnBlob(2)), Bytes(st.columnBlob(3)), st.columnInt(4),
                   static_cast<int32_t>(st.columnInt(5))};
    if (regionRowChecksum(r) != st.columnInt(6) || r.server != st.columnInt(5))
      return Status::corruption(m_path + ": the catalog's record of region " + std::to_string(r.id) +
                                " fails its checksum");
    regions.push_back(std::move(r));
  }
  if (rc != SQLITE_DONE) return st.error(rc, "reading regions");
  return regions;
}

Result<std::vector<StoreFileRecord>> Catalog::loadStoreFiles() {
  Statement st;
  if (Status s = st.prepare(m_db,
          "SELECT file_id, region_id, family, max_seq, meta, checksum FROM store_files ORDER BY file_id");
      !s)
    return s;
  std::vector<StoreFileRecord> files;
  int rc;
  while ((rc = st.step()) == SQLITE_ROW) {
    StoreFileRecord f{st.columnInt(0), st.columnInt(1), st.columnText(2), st.columnInt(3), std::string(st.columnBlob(4))};
    if (storeFileRowChecksum(f.id, f.regionId, f.family, f.maxSeq) != st.columnInt(5))
      f.damage = "its catalog record (region, family, sequence) fails its checksum";
    files.push_back(std::move(f));
  }
  if (rc != SQLITE_DONE) return st.error(rc, "reading store files");
  return files;
}

Result<std::map<std::pair<int64_t, std::string>, int64_t>> Catalog::loadDroppedFamilies() {
  Statement st;
  if (Status s = st.prepare(m_db, "SELECT table_id, family, seq, checksum FROM dropped_families"); !s) return s;
  std::map<std::pair<int64_t, std::string>, int64_t> dropped;
  int rc;
  while ((rc = st.step()) == SQLITE_ROW) {
    const int64_t tableId = st.columnInt(0);
    const std::string family = st.columnText(1);
    if (droppedFamilyRowChecksum(tableId, family, st.columnInt(2)) != st.columnInt(3))
      return Status::corruption(m_path + ": the catalog's record of a dropped family of table " +
                                std::to_string(tableId) + " fails its checksum");
    dropped[{tableId, family}] = st.columnInt(2);
  }
  if (rc != SQLITE_DONE) return st.error(rc, "reading dropped families");
  return dropped;
}

Status Catalog::recordDroppedFamily(int64_t tableId, std::string_view family, int64_t seq) {
  Statement st;
  if (Status s = st.prepare(m_db,
          "INSERT OR REPLACE INTO dropped_families(table_id, family, seq, checksum) VALUES(?,?,?,?)");
      !s)
    return s;
  st.bindInt(1, tableId);
  st.bindText(2, family);
  st.bindInt(3, seq);
  st.bindInt(4, droppedFamilyRowChecksum(tableId, family, seq));
  return st.run("recording a dropped family");
}

Result<std::vector<int64_t>> Catalog::loadPendingFiles() {
  Statement st;
  if (Status s = st.prepare(m_db, "SELECT file_id FROM pending_files"); !s) return s;
  std::vector<int64_t> ids;
  int rc;
  while ((rc = st.step()) == SQLITE_ROW) ids.push_back(st.columnInt(0));
  if (rc != SQLITE_DONE) return st.error(rc, "reading pending files");
  return ids;
}

Result<int64_t> Catalog::insertTable(const TableOptions& options) {
  // Ids are never reused: statistics and history rows name a table by id.
  const int64_t id = m_maxTableId + 1;
  Statement st;
  if (Status s = st.prepare(m_db, "INSERT INTO tables(table_id, name, options, checksum) VALUES(?, ?, ?, ?)"); !s)
    return s;
  const std::string json = tableOptionsToJson(options);
  st.bindInt(1, id);
  st.bindText(2, options.name);
  st.bindText(3, json);
  st.bindInt(4, tableRowChecksum(id, options.name, json));
  if (Status s = st.run("creating table " + options.name); !s) return s;
  if (Status s = putSetting("max_table_id", std::to_string(id)); !s) return s;
  m_maxTableId = id;
  return id;
}

Status Catalog::updateTable(int64_t tableId, const TableOptions& options) {
  // The name never changes (it is the table's identity); checking it keeps
  // the checksum from vouching for a damaged one.
  Statement st;
  if (Status s = st.prepare(m_db, "UPDATE tables SET options = ?, checksum = ? WHERE table_id = ? AND name = ?"); !s)
    return s;
  const std::string json = tableOptionsToJson(options);
  st.bindText(1, json);
  st.bindInt(2, tableRowChecksum(tableId, options.name, json));
  st.bindInt(3, tableId);
  st.bindText(4, options.name);
  if (Status s = st.run("altering table " + options.name); !s) return s;
  if (sqlite3_changes(m_db) != 1)
    return Status::corruption(m_path + ": the catalog's record of table " + std::to_string(tableId) + " ('" +
                              options.name + "') is missing or names another table");
  return Status::ok();
}

Status Catalog::deleteTableRow(int64_t tableId) {
  Statement st;
  if (Status s = st.prepare(m_db, "DELETE FROM tables WHERE table_id = ?"); !s) return s;
  st.bindInt(1, tableId);
  return st.run("dropping a table");
}

Status Catalog::deleteRegion(int64_t regionId) {
  Statement st;
  if (Status s = st.prepare(m_db, "DELETE FROM regions WHERE region_id = ?"); !s) return s;
  st.bindInt(1, regionId);
  return st.run("deleting a region");
}



Status Catalog::insertStoreFile(const StoreFileRecord& r) {
  m_insertStoreFile.bindInt(1, r.id);
  m_insertStoreFile.bindInt(2, r.regionId);
  m_insertStoreFile.bindText(3, r.family);
  m_insertStoreFile.bindInt(4, r.maxSeq);
  m_insertStoreFile.bindBlob(5, r.meta);
  m_insertStoreFile.bindInt(6, storeFileRowChecksum(r.id, r.regionId, r.family, r.maxSeq));
  return m_insertStoreFile.run("recording store file " + std::to_string(r.id));
}

Status Catalog::deleteStoreFileRow(int64_t fileId) {
  m_deleteStoreFile.bindInt(1, fileId);
  return m_deleteStoreFile.run("removing store file " + std::to_string(fileId));
}

Status Catalog::addPendingFile(int64_t fileId) {
  m_addPending.bindInt(1, fileId);
  return m_addPending.run("recording a pending store file");
}

Status Catalog::removePendingFile(int64_t fileId) {
  m_removePending.bindInt(1, fileId);
  return m_removePending.run("clearing a pending store file");
}

Result<bool> Catalog::releaseFreePages(int pages) {
  const std::string sql = "PRAGMA incremental_vacuum(" + std::to_string(pages) + ")";
  if (Status s = execSql(m_db, sql.c_str(), "returning free pages to the file system"); !s) return s;
  Statement st;
  if (Status s = st.prepare(m_db, "PRAGMA freelist_count"); !s) return s;
  const int rc = st.step();
  if (rc != SQLITE_ROW) return st.error(rc, "counting free pages");
  return st.columnInt(0) > 0;
}

Status Catalog::releaseAllFreePages() {
  constexpr int kPagesPerStep = 1024;  // 8 MiB of 8 KiB pages
  for (bool more = true; more;) {
    Result<bool> remaining = releaseFreePages(kPagesPerStep);
    if (!remaining) return remaining.status();
    more = *remaining;
  }
  return Status::ok();
}

Status Catalog::loadLog() {
  if (m_log.loaded()) return Status::ok();
  Result<int64_t> truncatedThrough = countSetting(kLogTruncatedThrough, "a log position");
  if (!truncatedThrough) return truncatedThrough.status();
  if (Status s = m_log.load(*truncatedThrough); !s) return s;
  m_maxWalSeq = std::max({m_maxWalSeq, m_log.maxSeq(), *truncatedThrough});
  return Status::ok();
}

Status Catalog::appendWal(int64_t seq, BytesView record) {
  if (Status s = loadLog(); !s) return s;
  if (Status s = m_log.append(seq, record); !s) return s;
  if (seq > m_maxWalSeq) m_maxWalSeq = seq;
  return Status::ok();
}

Status Catalog::readWal(const std::function<Status(int64_t, BytesView)>& visit) {
  if (Status s = loadLog(); !s) return s;
  // Records of format 7 and older (a workspace upgraded with records in its
  // log) come first where their seqs do: they are older than any in slots.
  Statement st;
  if (Status s = st.prepare(m_db, "SELECT seq, data FROM wal ORDER BY seq"); !s) return s;
  int rc;
  while ((rc = st.step()) == SQLITE_ROW) {
    if (Status s = visit(st.columnInt(0), st.columnBlob(1)); !s) return s;
  }
  if (rc != SQLITE_DONE) return st.error(rc, "reading the log");
  return m_log.forEachLive(visit);
}

Status Catalog::truncateWalThrough(int64_t seq) {
  if (sqlite3_get_autocommit(m_db) != 0) {
    if (Status s = begin(); !s) return s;
    Status status = truncateWalThrough(seq);
    if (status) status = commit();
    if (!status) rollback();
    return status;
  }
  if (Status s = loadLog(); !s) return s;
  m_truncateWal.bindInt(1, seq);
  if (Status s = m_truncateWal.run("truncating the log"); !s) return s;
  if (seq <= m_log.truncatedThrough()) return Status::ok();
  if (Status s = putSetting(kLogTruncatedThrough, std::to_string(seq)); !s) return s;
  return m_log.truncateThrough(seq);
}

Status Catalog::deleteWalRecord(int64_t seq) {
  if (Status s = loadLog(); !s) return s;
  Statement st;
  if (Status s = st.prepare(m_db, "DELETE FROM wal WHERE seq = ?"); !s) return s;
  st.bindInt(1, seq);
  if (Status s = st.run("deleting log record " + std::to_string(seq)); !s) return s;
  return m_log.drop(seq);
}

Result<std::vector<LogSlots::Damage>> Catalog::logDamage() {
  if (Status s = loadLog(); !s) return s;
  return m_log.damage();
}

Status Catalog::cutLogSlot(int64_t slot, uint32_t offset) {
  if (Status s = loadLog(); !s) return s;
  return m_log.cut(slot, offset);
}

}  // namespace keyscope::engine
