// Catalog: live regions, their history (split lineage), workspace settings,
// and the upgrade of format-2 workspaces to region history (catalog.h).
#include <algorithm>
#include <charconv>

#include "engine/catalog.h"
#include "engine/catalog_checksum.h"

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

Status Catalog::fillRegionHistoryChecksums() {
  Statement read;
  if (Status s = read.prepare(m_db,
          "SELECT region_id, table_id, start_row, end_row, created, retired, parents, origin, split_row"
          " FROM region_history WHERE checksum = 0");
      !s)
    return s;
  std::vector<std::pair<int64_t, int64_t>> sums;  // region id, checksum
  if (Status s = read.eachRow("adding checksums to the region history", [&] {
        RegionHistoryRecord r;
        r.regionId = read.columnInt(0);
        r.tableId = read.columnInt(1);
        r.startRow = Bytes(read.columnBlob(2));
        r.endRow = Bytes(read.columnBlob(3));
        r.createdMillis = read.columnInt(4);
        if (!read.columnIsNull(5)) r.retiredMillis = read.columnInt(5);
        Result<std::vector<int64_t>> parents = splitIds(read.columnBlob(6), r.regionId);
        if (!parents) return;  // stays without a checksum: reading it reports the damage
        r.parents = std::move(parents).value();
        r.origin = static_cast<RegionOrigin>(read.columnInt(7));
        r.splitRow = Bytes(read.columnBlob(8));
        sums.emplace_back(r.regionId, regionHistoryRowChecksum(r));
      });
      !s)
    return s;
  Statement write;
  if (Status s = write.prepare(m_db, "UPDATE region_history SET checksum = ? WHERE region_id = ?"); !s) return s;
  for (const auto& [regionId, checksum] : sums) {
    write.bindInt(1, checksum);
    write.bindInt(2, regionId);
    if (Status s = write.run("adding checksums to the region history"); !s) return s;
  }
  return Status::ok();
}

Result<int64_t> Catalog::countSetting(std::string_view key, std::string_view what) {
  Result<std::optional<std::string>> value = setting(key);
  if (!value) return value.status();
  int64_t n = 0;
  if (!value->has_value()) return n;
  const std::string& text = **value;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || n < 0)
    return Status::corruption(m_path + ": setting '" + std::string(key) + "' is '" + text + "', not " +
                              std::string(what));
  return n;
}

Status Catalog::loadIdCounters() {
  // The settings are read verified: a damaged counter could hand out an id
  // that log records or history still use.
  Result<int64_t> regionSetting = countSetting("max_region_id", "an id");
  if (!regionSetting) return regionSetting.status();
  Result<int64_t> tableSetting = countSetting("max_table_id", "an id");
  if (!tableSetting) return tableSetting.status();
  Result<int64_t> region = queryInt(m_db,
      "SELECT max(coalesce((SELECT max(region_id) FROM regions), 0),"
      "           coalesce((SELECT max(region_id) FROM region_history), 0))",
      "reading the region id counter");
  if (!region) return region.status();
  Result<int64_t> table = queryInt(m_db, "SELECT coalesce((SELECT max(table_id) FROM tables), 0)",
                                   "reading the table id counter");
  if (!table) return table.status();
  m_maxRegionId = std::max(*region, *regionSetting);
  m_maxTableId = std::max(*table, *tableSetting);
  return Status::ok();
}

Result<int64_t> Catalog::insertRegion(const RegionRecord& requested, const RegionHistoryRecord& requestedHistory) {
  const int64_t id = requested.id > 0 ? requested.id : m_maxRegionId + 1;
  RegionRecord record = requested;
  record.id = id;
  RegionHistoryRecord history = requestedHistory;
  history.regionId = id;
  history.tableId = record.tableId;
  history.startRow = record.startRow;
  history.endRow = record.endRow;
  history.retiredMillis.reset();
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
          "INSERT INTO regions(region_id, table_id, start_row, end_row, flushed_seq, server, checksum, created)"
          " VALUES(?,?,?,?,?,?,?,strftime('%s','now'))",
          "creating a region",
          [&](Statement& st) {
            st.bindInt(5, record.flushedSeq);
            st.bindInt(6, record.server);
            st.bindInt(7, regionRowChecksum(record));
          });
      !s)
    return s;
  if (Status s = insert(
          "INSERT INTO region_history(region_id, table_id, start_row, end_row, created, parents, origin, split_row,"
          " checksum, retired) VALUES(?,?,?,?,?,?,?,?,?,NULL)",
          "recording a region's history",
          [&](Statement& st) {
            st.bindInt(5, history.createdMillis);
            st.bindText(6, joinIds(history.parents));
            st.bindInt(7, static_cast<int64_t>(history.origin));
            st.bindBlob(8, history.splitRow);
            st.bindInt(9, regionHistoryRowChecksum(history));
          });
      !s)
    return s;
  m_maxRegionId = std::max(m_maxRegionId, id);
  if (Status s = putSetting("max_region_id", std::to_string(m_maxRegionId)); !s) return s;
  return id;
}

// Reads region regionId, verified, changes it with `change` and writes it
// back with its new checksum.
Status Catalog::updateRegion(int64_t regionId, const std::function<void(RegionRecord&)>& change, const char* what) {
  Statement read;
  if (Status s = read.prepare(m_db,
          "SELECT table_id, start_row, end_row, flushed_seq, server, checksum FROM regions WHERE region_id = ?");
      !s)
    return s;
  read.bindInt(1, regionId);
  const int rc = read.step();
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) return read.error(rc, what);
  const std::string name = m_path + ": the catalog's record of region " + std::to_string(regionId);
  if (rc == SQLITE_DONE) return Status::corruption(name + " is missing");
  RegionRecord r{regionId, read.columnInt(0), Bytes(read.columnBlob(1)), Bytes(read.columnBlob(2)), read.columnInt(3),
                 static_cast<int32_t>(read.columnInt(4))};
  if (regionRowChecksum(r) != read.columnInt(5)) return Status::corruption(name + " fails its checksum");
  change(r);
  Statement write;
  if (Status s = write.prepare(m_db, "UPDATE regions SET flushed_seq = ?, server = ?, checksum = ? WHERE region_id = ?");
      !s)
    return s;
  write.bindInt(1, r.flushedSeq);
  write.bindInt(2, r.server);
  write.bindInt(3, regionRowChecksum(r));
  write.bindInt(4, regionId);
  return write.run(what);
}

Status Catalog::setRegionFlushedSeq(int64_t regionId, int64_t seq) {
  return updateRegion(regionId, [seq](RegionRecord& r) { r.flushedSeq = seq; }, "recording a flush");
}

Status Catalog::setRegionServer(int64_t regionId, int32_t server) {
  return updateRegion(regionId, [server](RegionRecord& r) { r.server = server; }, "assigning a region to a server");
}

Status Catalog::retireRegionHistory(int64_t regionId, int64_t atMillis) {
  Result<std::vector<RegionHistoryRecord>> rows = loadRegionHistory(regionId);
  if (!rows) return rows.status();
  if (rows->empty())
    return Status::corruption(m_path + ": the catalog's history of region " + std::to_string(regionId) + " is missing");
  RegionHistoryRecord history = std::move(rows->front());
  history.retiredMillis = atMillis;
  Statement st;
  if (Status s = st.prepare(m_db, "UPDATE region_history SET retired = ?, checksum = ? WHERE region_id = ?"); !s)
    return s;
  st.bindInt(1, atMillis);
  st.bindInt(2, regionHistoryRowChecksum(history));
  st.bindInt(3, regionId);
  return st.run("retiring a region");
}

Status Catalog::deleteTableHistory(int64_t tableId) {
  Statement st;
  if (Status s = st.prepare(m_db, "DELETE FROM region_history WHERE table_id = ?"); !s) return s;
  st.bindInt(1, tableId);
  return st.run("forgetting a table's region history");
}

Result<std::vector<RegionHistoryRecord>> Catalog::loadRegionHistory(std::optional<int64_t> onlyRegion) {
  Statement st;
  if (Status s = st.prepare(m_db,
          onlyRegion ? "SELECT region_id, table_id, start_row, end_row, created, retired, parents, origin, split_row,"
                       " checksum FROM region_history WHERE region_id = ?"
                     : "SELECT region_id, table_id, start_row, end_row, created, retired, parents, origin, split_row,"
                       " checksum FROM region_history ORDER BY table_id, start_row, created");
      !s)
    return s;
  if (onlyRegion) st.bindInt(1, *onlyRegion);
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
    if (regionHistoryRowChecksum(r) != st.columnInt(9))
      return Status::corruption(m_path + ": the catalog's history of region " + std::to_string(r.regionId) +
                                " fails its checksum");
    out.push_back(std::move(r));
  }
  if (rc != SQLITE_DONE) return st.error(rc, "reading region history");
  return out;
}

Status Catalog::moveStoreFile(int64_t fileId, int64_t regionId) {
  Statement read;
  if (Status s = read.prepare(m_db, "SELECT region_id, family, max_seq, checksum FROM store_files WHERE file_id = ?"); !s)
    return s;
  read.bindInt(1, fileId);
  const std::string what = "moving store file " + std::to_string(fileId);
  const int rc = read.step();
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) return read.error(rc, what);
  const std::string name = m_path + ": the catalog's record of store file " + std::to_string(fileId);
  if (rc == SQLITE_DONE) return Status::corruption(name + " is missing");
  const std::string family = read.columnText(1);
  const int64_t maxSeq = read.columnInt(2);
  if (storeFileRowChecksum(fileId, read.columnInt(0), family, maxSeq) != read.columnInt(3))
    return Status::corruption(name + " fails its checksum");
  Statement st;
  if (Status s = st.prepare(m_db, "UPDATE store_files SET region_id = ?, checksum = ? WHERE file_id = ?"); !s) return s;
  st.bindInt(1, regionId);
  st.bindInt(2, storeFileRowChecksum(fileId, regionId, family, maxSeq));
  st.bindInt(3, fileId);
  return st.run(what);
}

Result<std::optional<std::string>> Catalog::setting(std::string_view key) {
  Statement st;
  if (Status s = st.prepare(m_db, "SELECT value, checksum FROM settings WHERE key = ?"); !s) return s;
  st.bindText(1, key);
  const int rc = st.step();
  if (rc == SQLITE_DONE) return std::optional<std::string>();
  if (rc != SQLITE_ROW) return st.error(rc, "reading setting " + std::string(key));
  std::string value = st.columnText(0);
  if (settingRowChecksum(key, value) != st.columnInt(1))
    return Status::corruption(m_path + ": the catalog's setting '" + std::string(key) + "' fails its checksum");
  return std::optional<std::string>(std::move(value));
}

Status Catalog::putSetting(std::string_view key, std::string_view value) {
  Statement st;
  if (Status s = st.prepare(m_db, "INSERT OR REPLACE INTO settings(key, value, checksum) VALUES(?, ?, ?)"); !s) return s;
  st.bindText(1, key);
  st.bindText(2, value);
  st.bindInt(3, settingRowChecksum(key, value));
  return st.run("saving setting " + std::string(key));
}

}  // namespace keyscope::engine
