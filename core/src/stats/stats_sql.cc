// SqlStatement (stats_sql.h).
#include "stats/stats_sql.h"

#include "engine/sqlite_util.h"

namespace keyscope::stats {

Status SqlStatement::prepareOnce(sqlite3* db, const char* sql) {
  if (m_stmt != nullptr) return Status::ok();
  m_db = db;
  const int rc = sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &m_stmt, nullptr);
  if (rc != SQLITE_OK) return engine::sqliteError(db, rc, "preparing a statistics statement");
  return Status::ok();
}

Status SqlStatement::run(std::string_view what) {
  const int rc = sqlite3_step(m_stmt);
  if (rc != SQLITE_DONE && rc != SQLITE_ROW) return failed(rc, what);
  sqlite3_reset(m_stmt);
  sqlite3_clear_bindings(m_stmt);
  return Status::ok();
}

Status SqlStatement::failed(int rc, std::string_view what) {
  Status s = engine::sqliteError(m_db, rc, what);
  sqlite3_reset(m_stmt);
  sqlite3_clear_bindings(m_stmt);
  return s;
}

BytesView SqlStatement::columnBlob(int index) const {
  const void* data = sqlite3_column_blob(m_stmt, index);
  const int size = sqlite3_column_bytes(m_stmt, index);
  return data == nullptr ? BytesView() : BytesView(static_cast<const char*>(data), static_cast<size_t>(size));
}

}  // namespace keyscope::stats
