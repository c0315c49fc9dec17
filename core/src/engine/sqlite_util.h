// Small RAII helpers over the SQLite C API, for the engine's and the
// statistics' statements.
// Not thread-safe: a Statement belongs to its connection's thread.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "keyscope/bytes.h"
#include "keyscope/status.h"

namespace keyscope::engine {

// An IOError (Corruption for SQLITE_CORRUPT/SQLITE_NOTADB, Busy for
// SQLITE_BUSY/SQLITE_LOCKED) saying what was being done and what SQLite said.
// A write that ran out of room says so first, naming the file: "disk full",
// "file size limit reached (ulimit -f: N bytes)" or "disk quota exceeded",
// then " while writing PATH". A Corruption names the file after what was
// being done: "reading tables in PATH: database disk image is malformed".
Status sqliteError(sqlite3* db, int rc, std::string_view what);

// Runs one or more statements without results.
Status execSql(sqlite3* db, const char* sql, std::string_view what);

class Statement {
 public:
  Statement() = default;
  ~Statement() { sqlite3_finalize(m_stmt); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  Statement(Statement&& other) noexcept : m_db(other.m_db), m_stmt(other.m_stmt) { other.m_stmt = nullptr; }

  Status prepare(sqlite3* db, const char* sql);
  // Prepares `sql` the first time; later calls keep the statement.
  Status prepareOnce(sqlite3* db, const char* sql) { return prepared() ? Status::ok() : prepare(db, sql); }
  void finalize() {
    sqlite3_finalize(m_stmt);
    m_stmt = nullptr;
  }
  bool prepared() const { return m_stmt != nullptr; }

  void bindInt(int index, int64_t value) { sqlite3_bind_int64(m_stmt, index, value); }
  void bindDouble(int index, double value) { sqlite3_bind_double(m_stmt, index, value); }
  void bindNull(int index) { sqlite3_bind_null(m_stmt, index); }
  void bindBlob(int index, BytesView value) {
    // A null pointer would bind SQL NULL; an empty row key is an empty blob.
    sqlite3_bind_blob64(m_stmt, index, value.data() != nullptr ? value.data() : "", value.size(), SQLITE_TRANSIENT);
  }
  // Binds without copying: `value` must stay alive and unchanged until the
  // statement is reset (run() and eachRow() reset it, which drops the binding).
  // For large blobs (a batch's log record), which SQLite would copy first.
  void bindBlobNoCopy(int index, BytesView value) {
    sqlite3_bind_blob64(m_stmt, index, value.data() != nullptr ? value.data() : "", value.size(), SQLITE_STATIC);
  }
  void bindText(int index, std::string_view value) {
    sqlite3_bind_text64(m_stmt, index, value.data(), value.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  }

  // SQLITE_ROW, SQLITE_DONE or an error code (then use error()).
  int step() { return sqlite3_step(m_stmt); }
  // Steps a statement that returns no rows, then resets it.
  Status run(std::string_view what);
  // Steps a query to its end, calling f() on each row, then resets it.
  template <typename F>
  Status eachRow(std::string_view what, F&& f) {
    for (;;) {
      const int rc = step();
      if (rc == SQLITE_DONE) break;
      if (rc != SQLITE_ROW) {
        Status s = error(rc, what);
        reset();
        return s;
      }
      f();
    }
    reset();
    return Status::ok();
  }
  void reset() {
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
  }
  Status error(int rc, std::string_view what) const { return sqliteError(m_db, rc, what); }

  int64_t columnInt(int index) const { return sqlite3_column_int64(m_stmt, index); }
  int columnType(int index) const { return sqlite3_column_type(m_stmt, index); }
  bool columnIsNull(int index) const { return columnType(index) == SQLITE_NULL; }
  double columnDouble(int index) const { return sqlite3_column_double(m_stmt, index); }
  BytesView columnBlob(int index) const {
    const void* data = sqlite3_column_blob(m_stmt, index);
    const int size = sqlite3_column_bytes(m_stmt, index);
    return data == nullptr ? BytesView() : BytesView(static_cast<const char*>(data), static_cast<size_t>(size));
  }
  std::string columnText(int index) const { return std::string(columnBlob(index)); }

 private:
  sqlite3* m_db = nullptr;
  sqlite3_stmt* m_stmt = nullptr;
};

}  // namespace keyscope::engine
