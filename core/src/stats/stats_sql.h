// SqlStatement: a prepared SQLite statement for the statistics tables, with
// the REAL columns the key samples need (the engine's Statement has none).
// Errors come out as the engine's sqliteError makes them.
//
// Threads: not thread-safe; belongs to its connection's thread.
#pragma once

#include <cstdint>
#include <string_view>

#include <sqlite3.h>

#include "keyscope/bytes.h"
#include "keyscope/status.h"

namespace keyscope::stats {

class SqlStatement {
 public:
  SqlStatement() = default;
  ~SqlStatement() { sqlite3_finalize(m_stmt); }
  SqlStatement(const SqlStatement&) = delete;
  SqlStatement& operator=(const SqlStatement&) = delete;

  // Prepares `sql` the first time; later calls keep the statement.
  Status prepareOnce(sqlite3* db, const char* sql);

  void bindInt(int index, int64_t value) { sqlite3_bind_int64(m_stmt, index, value); }
  void bindDouble(int index, double value) { sqlite3_bind_double(m_stmt, index, value); }
  void bindNull(int index) { sqlite3_bind_null(m_stmt, index); }
  void bindBlob(int index, BytesView value) {
    // A null pointer would bind SQL NULL; an empty row key is an empty blob.
    sqlite3_bind_blob64(m_stmt, index, value.data() != nullptr ? value.data() : "", value.size(), SQLITE_TRANSIENT);
  }

  // Steps a statement without rows, then resets it.
  Status run(std::string_view what);
  // Steps a query to its end, calling f() on each row, then resets it.
  template <typename F>
  Status eachRow(std::string_view what, F&& f) {
    for (;;) {
      const int rc = sqlite3_step(m_stmt);
      if (rc == SQLITE_DONE) break;
      if (rc != SQLITE_ROW) return failed(rc, what);
      f();
    }
    sqlite3_reset(m_stmt);
    return Status::ok();
  }

  int64_t columnInt(int index) const { return sqlite3_column_int64(m_stmt, index); }
  double columnDouble(int index) const { return sqlite3_column_double(m_stmt, index); }
  bool columnIsNull(int index) const { return sqlite3_column_type(m_stmt, index) == SQLITE_NULL; }
  // Valid until the next step or reset.
  BytesView columnBlob(int index) const;

 private:
  Status failed(int rc, std::string_view what);

  sqlite3* m_db = nullptr;
  sqlite3_stmt* m_stmt = nullptr;
};

}  // namespace keyscope::stats
