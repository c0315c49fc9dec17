#include "engine/sqlite_util.h"

namespace keyscope::engine {

Status sqliteError(sqlite3* db, int rc, std::string_view what) {
  std::string message(what);
  message += ": ";
  message += db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  const int primary = rc & 0xff;
  if (primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB) return Status::corruption(message);
  if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED) return Status::busy(message);
  return Status::ioError(message);
}

Status execSql(sqlite3* db, const char* sql, std::string_view what) {
  char* error = nullptr;
  const int rc = sqlite3_exec(db, sql, nullptr, nullptr, &error);
  if (rc == SQLITE_OK) return Status::ok();
  std::string message(what);
  message += ": ";
  message += error != nullptr ? error : sqlite3_errstr(rc);
  sqlite3_free(error);
  const int primary = rc & 0xff;
  if (primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB) return Status::corruption(message);
  if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED) return Status::busy(message);
  return Status::ioError(message);
}

Status Statement::prepare(sqlite3* db, const char* sql) {
  m_db = db;
  sqlite3_finalize(m_stmt);
  m_stmt = nullptr;
  const int rc = sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &m_stmt, nullptr);
  if (rc != SQLITE_OK) return sqliteError(db, rc, "preparing a statement");
  return Status::ok();
}

Status Statement::run(std::string_view what) {
  const int rc = step();
  Status status = rc == SQLITE_DONE || rc == SQLITE_ROW ? Status::ok() : error(rc, what);
  reset();
  return status;
}

}  // namespace keyscope::engine
