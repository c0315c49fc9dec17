// SQLite access to a closed workspace, for tests that damage one on purpose:
// statements, blobs and whole files, with every failure a test failure.
#pragma once

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>

namespace keyscope::test {

class RawDb {
 public:
  explicit RawDb(const std::string& path, int flags = SQLITE_OPEN_READWRITE) {
    if (sqlite3_open_v2(path.c_str(), &m_db, flags, nullptr) != SQLITE_OK)
      ADD_FAILURE() << "sqlite3_open_v2(" << path << "): " << sqlite3_errmsg(m_db);
  }
  ~RawDb() { sqlite3_close(m_db); }
  RawDb(const RawDb&) = delete;
  RawDb& operator=(const RawDb&) = delete;

  void exec(const std::string& sql) {
    char* error = nullptr;
    if (sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK)
      ADD_FAILURE() << sql << ": " << (error != nullptr ? error : "?");
    sqlite3_free(error);
  }

  // The first column of the first row, as bytes (empty when there is none).
  std::string blob(const std::string& sql, int64_t arg) {
    sqlite3_stmt* st = prepare(sql);
    std::string out;
    sqlite3_bind_int64(st, 1, arg);
    if (sqlite3_step(st) == SQLITE_ROW) {
      const auto* p = static_cast<const char*>(sqlite3_column_blob(st, 0));
      out.assign(p == nullptr ? "" : p, static_cast<size_t>(sqlite3_column_bytes(st, 0)));
    } else {
      ADD_FAILURE() << sql << " (" << arg << "): no row";
    }
    sqlite3_finalize(st);
    return out;
  }

  void setBlob(const std::string& sql, const std::string& data, int64_t arg) {
    sqlite3_stmt* st = prepare(sql);
    sqlite3_bind_blob64(st, 1, data.data(), data.size(), SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, arg);
    if (sqlite3_step(st) != SQLITE_DONE) ADD_FAILURE() << sql << ": " << sqlite3_errmsg(m_db);
    if (sqlite3_changes(m_db) != 1) ADD_FAILURE() << sql << " (" << arg << "): changed " << sqlite3_changes(m_db) << " rows";
    sqlite3_finalize(st);
  }

  int64_t integer(const std::string& sql) {
    sqlite3_stmt* st = prepare(sql);
    int64_t v = -1;
    if (sqlite3_step(st) == SQLITE_ROW) v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
  }

  sqlite3* db() const { return m_db; }

 private:
  sqlite3_stmt* prepare(const std::string& sql) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(m_db, sql.c_str(), -1, &st, nullptr) != SQLITE_OK)
      ADD_FAILURE() << sql << ": " << sqlite3_errmsg(m_db);
    return st;
  }
  sqlite3* m_db = nullptr;
};

inline std::string readFile(const std::string& path) {
  std::string bytes;
  if (FILE* f = std::fopen(path.c_str(), "rb")) {
    char buf[8192];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) bytes.append(buf, n);
    std::fclose(f);
  }
  return bytes;
}

inline void writeFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace keyscope::test
