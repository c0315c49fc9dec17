// Catalog: live regions, their history (split lineage), workspace settings,
// and the upgrade of format-2 workspaces to region history (catalog.h).
#include <algorithm>
#include <charconv>

#include "engine/catalog.h"

namespace keyscope::engine {

namespace {

std::string joinIds(const std::vector<int64_t>& ids) {
  std::string out;
  for (int64_t id : ids) {
    if (!out.empty()) out += ',';
    out += std::to_string(id);
  }
  return out;
}

Result<std::vector<int64_t>> splitIds(std::string_view text, int64_t regionId) {
  std::vector<int64_t> ids;
  while (!text.empty()) {
    const size_t comma = text.find(',');
    const std::string_view part = text.substr(0, comma);
    int64_t id = 0;
    const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), id);
    if (ec != std::errc() || end != part.data() + part.size())
      return Status::corruption("region history of region " + std::to_string(regionId) + ": bad parent list");
    ids.push_back(id);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
  }
  return ids;
}

Result<int64_t> queryInt(sqlite3* db, const char* sql, const char* what) {
  Statement st;
  if (Status s = st.prepare(db, sql); !s) return s;
  const int rc = st.step();
  if (rc != SQLITE_ROW) return st.error(rc, what);
  return st.columnInt(0);
}

}  // namespace

Status Catalog::upgradeToRegionHistory() {
  // Format 2 had no server column and no history: every live region becomes
  // a history entry made at its creation (seconds then), pre-split when its
  // table had several regions.
  bool hasServer = false;
  {
    Statement st;
    if (Status s = st.prepare(m_db, "SELECT 1 FROM pragma_table_info('regions') WHERE name = 'server'"); !s) return s;
    hasServer = st.step() == SQLITE_ROW;
  }
  std::string sql = "BEGIN;";
  if (!hasServer) sql += "ALTER TABLE regions ADD COLUMN server INTEGER NOT NULL DEFAULT 0;";
  sql +=
      "INSERT OR IGNORE INTO region_history(region_id, table_id, start_row, end_row, created, retired, parents, origin,"
      " split_row) SELECT r.region_id, r.table_id, r.start_row, r.end_row, r.created * 1000, NULL, '',"
      " CASE WHEN (SELECT count(*) FROM regions o WHERE o.table_id = r.table_id) > 1 THEN 1 ELSE 0 END, x''"
      " FROM regions r;"
      "COMMIT;";
  return execSql(m_db, sql.c_str(), "upgrading the workspace to region history");
}

Status Catalog::loadIdCounters() {
  Result<int64_t> region = queryInt(m_db,
      "SELECT max(coalesce((SELECT max(region_id) FROM regions), 0),"
      "           coalesce((SELECT max(region_id) FROM region_history), 0),"
      "           coalesce((SELECT CAST(value AS INTEGER) FROM settings WHERE key = 'max_region_id'), 0))",
      "reading the region id counter");
  if (!region) return region.status();
  Result<int64_t> table = queryInt(m_db,
      "SELECT max(coalesce((SELECT max(table_id) FROM tables), 0),"
      "           coalesce((SELECT CAST(value AS INTEGER) FROM settings WHERE key = 'max_table_id'), 0))",
      "reading the table id counter");
  if (!table) return table.status();
  m_maxRegionId = *region;
  m_maxTableId = *table;
  return Status::ok();
}

Result<int64_t> Catalog::insertRegion(const RegionRecord& record, const RegionHistoryRecord& history) {
  const int64_t id = record.id > 0 ? record.id : m_maxRegionId + 1;
  // Both rows start with (region_id, table_id, start_row, end_row).
  const auto insert = [&](const char* sql, const char* what, const auto& bindRest) -> Status {
    Statement st;
    if (Status s = st.prepare(m_db, sql); !s) return s;
    st.bindInt(1, id);
    st.bindInt(2, record.tableId);
    st.bindBlob(3, record.startRow);
    st.bindBlob(4, record.endRow);
    bindRest(st);
    return st.run(what);
  };
  if (Status s = insert(
          "INSERT INTO regions(region_id, table_id, start_row, end_row, flushed_seq, server, created)"
          " VALUES(?,?,?,?,?,?,strftime('%s','now'))",
          "creating a region",
          [&](Statement& st) {
            st.bindInt(5, record.flushedSeq);
            st.bindInt(6, record.server);
          });
      !s)
    return s;
  if (Status s = insert(
          "INSERT INTO region_history(region_id, table_id, start_row, end_row, created, parents, origin, split_row,"
          " retired) VALUES(?,?,?,?,?,?,?,?,NULL)",
          "recording a region's history",
          [&](Statement& st) {
            st.bindInt(5, history.createdMillis);
            st.bindText(6, joinIds(history.parents));
            st.bindInt(7, static_cast<int64_t>(history.origin));
            st.bindBlob(8, history.splitRow);
          });
      !s)
    return s;
  m_maxRegionId = std::max(m_maxRegionId, id);
  if (Status s = putSetting("max_region_id", std::to_string(m_maxRegionId)); !s) return s;
  return id;
}

Status Catalog::setRegionServer(int64_t regionId, int32_t server) {
  Statement st;
  if (Status s = st.prepare(m_db, "UPDATE regions SET server = ? WHERE region_id = ?"); !s) return s;
  st.bindInt(1, server);
  st.bindInt(2, regionId);
  return st.run("assigning a region to a server");
}

Status Catalog::retireRegionHistory(int64_t regionId, int64_t atMillis) {
  Statement st;
  if (Status s = st.prepare(m_db, "UPDATE region_history SET retired = ? WHERE region_id = ?"); !s) return s;
  st.bindInt(1, atMillis);
  st.bindInt(2, regionId);
  return st.run("retiring a region");
}

Status Catalog::deleteTableHistory(int64_t tableId) {
  Statement st;
  if (Status s = st.prepare(m_db, "DELETE FROM region_history WHERE table_id = ?"); !s) return s;
  st.bindInt(1, tableId);
  return st.run("forgetting a table's region history");
}

Result<std::vector<RegionHistoryRecord>> Catalog::loadRegionHistory() {
  Statement st;
  if (Status s = st.prepare(m_db,
          "SELECT region_id, table_id, start_row, end_row, created, retired, parents, origin, split_row"
          " FROM region_history ORDER BY table_id, start_row, created");
      !s)
    return s;
  std::vector<RegionHistoryRecord> out;
  int rc;
  while ((rc = st.step()) == SQLITE_ROW) {
    RegionHistoryRecord r;
    r.regionId = st.columnInt(0);
    r.tableId = st.columnInt(1);
    r.startRow = Bytes(st.columnBlob(2));
    r.endRow = Bytes(st.columnBlob(3));
    r.createdMillis = st.columnInt(4);
    if (st.columnType(5) != SQLITE_NULL) r.retiredMillis = st.columnInt(5);
    Result<std::vector<int64_t>> parents = splitIds(st.columnBlob(6), r.regionId);
    if (!parents) return parents.status();
    r.parents = std::move(parents).value();
    const int64_t origin = st.columnInt(7);
    if (origin < 0 || origin > static_cast<int64_t>(RegionOrigin::kMerge))
      return Status::corruption("region history of region " + std::to_string(r.regionId) + ": unknown origin " +
                                std::to_string(origin));
    r.origin = static_cast<RegionOrigin>(origin);
    r.splitRow = Bytes(st.columnBlob(8));
    out.push_back(std::move(r));
  }
  if (rc != SQLITE_DONE) return st.error(rc, "reading region history");
  return out;
}

Status Catalog::moveStoreFile(int64_t fileId, int64_t regionId) {
  Statement st;
  if (Status s = st.prepare(m_db, "UPDATE store_files SET region_id = ? WHERE file_id = ?"); !s) return s;
  st.bindInt(1, regionId);
  st.bindInt(2, fileId);
  return st.run("moving store file " + std::to_string(fileId));
}

Result<std::optional<std::string>> Catalog::setting(std::string_view key) {
  Statement st;
  if (Status s = st.prepare(m_db, "SELECT value FROM settings WHERE key = ?"); !s) return s;
  st.bindText(1, key);
  const int rc = st.step();
  if (rc == SQLITE_DONE) return std::optional<std::string>();
  if (rc != SQLITE_ROW) return st.error(rc, "reading setting " + std::string(key));
  return std::optional<std::string>(st.columnText(0));
}

Status Catalog::putSetting(std::string_view key, std::string_view value) {
  Statement st;
  if (Status s = st.prepare(m_db, "INSERT OR REPLACE INTO settings(key, value) VALUES(?, ?)"); !s) return s;
  st.bindText(1, key);
  st.bindText(2, value);
  return st.run("saving setting " + std::string(key));
}

}  // namespace keyscope::engine
