// Catalog: what protects the catalog beyond SQLite's own checks - the
// upgrade of format-3 workspaces to checksummed rows, the structure check at
// open, and the record of where SQLite keeps the catalog's tables.
//
// Why the "schema" setting: sqlite_schema names each table's root page. A
// damaged root page number can make a table read as another one that
// happens to be empty (a store_files that lists nothing, a wal that holds
// nothing), which no row checksum notices, since there are no rows. The
// root pages of the catalog's tables never move once created (the engine
// never drops a table or runs VACUUM, and an incremental vacuum moves no
// root page), so their checksum is recorded once and compared at every open.
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "engine/catalog.h"
#include "engine/catalog_checksum.h"
#include "engine/wal_record.h"

namespace keyscope::engine {

namespace {

// The tables whose root pages the "schema" setting records.
const std::vector<std::string>& locatedTables() {
  static const std::vector<std::string> tables = [] {
    std::vector<std::string> all = Catalog::catalogTables();
    all.push_back("pages");
    return all;
  }();
  return tables;
}

std::string quoted(const std::string& name) { return "'" + name + "'"; }

std::string nameList(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "" : ",") + quoted(name);
  return out;
}

bool hasColumn(sqlite3* db, const std::string& table, const char* column) {
  Statement st;
  const std::string sql = "SELECT 1 FROM pragma_table_info(" + quoted(table) + ") WHERE name = '" + column + "'";
  if (!st.prepare(db, sql.c_str())) return false;
  return st.step() == SQLITE_ROW;
}

// A row's key for an update: its rowid, or its WITHOUT ROWID key columns.
struct RowKey {
  int64_t id = 0;
  std::string text;
};

// Gives each row `select` returns its checksum, computed by `sum` from the
// row; `update` sets it (?1) for the row `key` names (bound by bindKey from
// ?2). The rows are read first and updated after: no update runs under an
// open cursor of the same table.
Status fillChecksums(sqlite3* db, const char* select, const char* update, const std::function<int64_t(Statement&)>& sum,
                     const std::function<RowKey(Statement&)>& key,
                     const std::function<void(Statement&, const RowKey&)>& bindKey) {
  Statement read;
  if (Status s = read.prepare(db, select); !s) return s;
  std::vector<std::pair<int64_t, RowKey>> rows;
  if (Status s = read.eachRow("adding checksums to the catalog", [&] { rows.emplace_back(sum(read), key(read)); }); !s)
    return s;
  Statement write;
  if (Status s = write.prepare(db, update); !s) return s;
  for (const auto& [checksum, rowKey] : rows) {
    write.bindInt(1, checksum);
    bindKey(write, rowKey);
    if (Status s = write.run("adding checksums to the catalog"); !s) return s;
  }
  return Status::ok();
}

}  // namespace

const std::vector<std::string>& Catalog::catalogTables() {
  static const std::vector<std::string> tables = {"dropped_families", "pending_files", "region_history", "regions",
                                                  "settings",         "store_files",   "tables",         "wal"};
  return tables;
}

bool Catalog::looksLikeWorkspace() {
  Statement st;
  const std::string sql = "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name IN (" +
                          nameList({"pages", "regions", "store_files", "tables", "wal"}) + ")";
  if (!st.prepare(m_db, sql.c_str())) return false;
  return st.step() == SQLITE_ROW && st.columnInt(0) == 5;
}

Result<int64_t> Catalog::schemaLocations() const {
  Statement st;
  const std::string sql = "SELECT name, rootpage FROM sqlite_schema WHERE type = 'table' AND name IN (" +
                          nameList(locatedTables()) + ") ORDER BY name";
  if (Status s = st.prepare(m_db, sql.c_str()); !s) return s;
  RowChecksum sum("sqlite_schema");
  size_t found = 0;
  if (Status s = st.eachRow("reading the SQLite schema", [&] {
        sum.add(st.columnText(0)).add(st.columnInt(1));
        ++found;
      });
      !s)
    return s;
  if (found != locatedTables().size())
    return Status::corruption(m_path + ": the SQLite schema lists " + std::to_string(found) + " of the " +
                              std::to_string(locatedTables().size()) + " catalog tables");
  return sum.value();
}

Status Catalog::recordSchemaLocations() {
  Result<std::optional<std::string>> recorded = setting("schema");
  if (!recorded) return recorded.status();
  if (recorded->has_value()) return Status::ok();
  Result<int64_t> now = schemaLocations();
  if (!now) return now.status();
  return putSetting("schema", std::to_string(*now));
}

Status Catalog::checkSchemaLocations() {
  Result<std::optional<std::string>> recorded = setting("schema");
  if (!recorded) return recorded.status();
  if (!recorded->has_value())
    return Status::notFound(m_path + ": the catalog holds no record of its tables' places (setting 'schema')");
  Result<int64_t> now = schemaLocations();
  if (!now) return now.status();
  if (std::to_string(*now) == **recorded) return Status::ok();
  if (autoVacuumOff())
    return Status::corruption(m_path +
                              ": the catalog's tables are not where they were created: the file was rebuilt "
                              "without auto-vacuum (a VACUUM after `PRAGMA auto_vacuum = NONE`), which moves them");
  return Status::corruption(m_path +
                            ": the SQLite schema no longer places the catalog's tables where they were created "
                            "(a damaged schema page)");
}

bool Catalog::autoVacuumOff() const {
  // Every workspace is created with incremental auto-vacuum, and only a
  // VACUUM can turn auto-vacuum off again (SQLite's PRAGMA auto_vacuum).
  Statement st;
  if (!st.prepare(m_db, "PRAGMA auto_vacuum")) return false;
  return st.step() == SQLITE_ROW && st.columnInt(0) == 0;
}

Status Catalog::verifyStructure() {
  for (const std::string& table : catalogTables()) {
    Statement st;
    const std::string sql = "PRAGMA quick_check(" + quoted(table) + ")";
    if (Status s = st.prepare(m_db, sql.c_str()); !s) return s;
    const int rc = st.step();
    if (rc != SQLITE_ROW) return st.error(rc, "checking the structure of the catalog table '" + table + "'");
    const std::string verdict = st.columnText(0);
    if (verdict != "ok")
      return Status::corruption(m_path + ": SQLite finds the catalog table '" + table + "' damaged: " + verdict);
  }
  // No record (a workspace copied table by table, with sqlite3's .recover
  // say): the places as they are now become the record.
  const Status located = checkSchemaLocations();
  return located.code() == Status::Code::kNotFound ? recordSchemaLocations() : located;
}

Status Catalog::upgradeToChecksums() {
  if (Status s = execSql(m_db, "BEGIN IMMEDIATE", "upgrading the workspace to checksums"); !s) return s;
  Status status;
  for (const char* table : {"tables", "regions", "region_history", "settings", "store_files", "dropped_families"}) {
    if (!status || hasColumn(m_db, table, "checksum")) continue;
    const std::string sql = std::string("ALTER TABLE ") + table + " ADD COLUMN checksum INTEGER NOT NULL DEFAULT 0";
    status = execSql(m_db, sql.c_str(), "adding checksums to the catalog");
  }
  const auto idKey = [](Statement& r) { return RowKey{r.columnInt(0), {}}; };
  const auto bindId = [](Statement& w, const RowKey& k) { w.bindInt(2, k.id); };
  if (status)
    status = fillChecksums(m_db, "SELECT table_id, name, options FROM tables WHERE checksum = 0",
                           "UPDATE tables SET checksum = ? WHERE table_id = ?",
                           [](Statement& r) { return tableRowChecksum(r.columnInt(0), r.columnText(1), r.columnBlob(2)); },
                           idKey, bindId);
  if (status)
    status = fillChecksums(
        m_db, "SELECT region_id, table_id, start_row, end_row, flushed_seq, server FROM regions WHERE checksum = 0",
        "UPDATE regions SET checksum = ? WHERE region_id = ?",
        [](Statement& r) {
          return regionRowChecksum({r.columnInt(0), r.columnInt(1), Bytes(r.columnBlob(2)), Bytes(r.columnBlob(3)),
                                    r.columnInt(4), static_cast<int32_t>(r.columnInt(5))});
        },
        idKey, bindId);
  if (status) status = fillRegionHistoryChecksums();
  if (status)
    status = fillChecksums(m_db, "SELECT file_id, region_id, family, max_seq FROM store_files WHERE checksum = 0",
                           "UPDATE store_files SET checksum = ? WHERE file_id = ?",
                           [](Statement& r) {
                             return storeFileRowChecksum(r.columnInt(0), r.columnInt(1), r.columnText(2),
                                                         r.columnInt(3));
                           },
                           idKey, bindId);
  if (status)
    status = fillChecksums(
        m_db, "SELECT table_id, family, seq FROM dropped_families WHERE checksum = 0",
        "UPDATE dropped_families SET checksum = ? WHERE table_id = ? AND family = ?",
        [](Statement& r) { return droppedFamilyRowChecksum(r.columnInt(0), r.columnText(1), r.columnInt(2)); },
        [](Statement& r) { return RowKey{r.columnInt(0), r.columnText(1)}; },
        [](Statement& w, const RowKey& k) {
          w.bindInt(2, k.id);
          w.bindText(3, k.text);
        });
  if (status)
    status = fillChecksums(
        m_db, "SELECT key, value FROM settings WHERE checksum = 0", "UPDATE settings SET checksum = ? WHERE key = ?",
        [](Statement& r) { return settingRowChecksum(r.columnText(0), r.columnText(1)); },
        [](Statement& r) { return RowKey{0, r.columnText(0)}; },
        [](Statement& w, const RowKey& k) { w.bindText(2, k.text); });
  // Log records of version 1 become records bound to their sequence number;
  // one that does not verify stays as it is, for replay to report.
  if (status) {
    std::vector<std::pair<int64_t, std::string>> upgraded;
    Statement read;
    status = read.prepare(m_db, "SELECT seq, data FROM wal WHERE substr(data, 1, 1) = x'01'");
    if (status)
      status = read.eachRow("upgrading the log", [&] {
        Result<std::string> record = upgradeLogRecord(read.columnInt(0), read.columnBlob(1));
        if (record) upgraded.emplace_back(read.columnInt(0), std::move(record).value());
      });
    Statement write;
    if (status) status = write.prepare(m_db, "UPDATE wal SET data = ? WHERE seq = ?");
    for (const auto& [seq, record] : upgraded) {
      if (!status) break;
      write.bindBlob(1, record);
      write.bindInt(2, seq);
      status = write.run("upgrading the log");
    }
  }
  if (status) status = recordSchemaLocations();
  if (status) status = execSql(m_db, "COMMIT", "upgrading the workspace to checksums");
  if (!status) (void)execSql(m_db, "ROLLBACK", "rolling back");
  return status;
}

}  // namespace keyscope::engine
