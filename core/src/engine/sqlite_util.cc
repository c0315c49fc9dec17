#include "engine/sqlite_util.h"

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include <cerrno>

namespace keyscope::engine {

namespace {

// A write that ran out of room shows as SQLITE_FULL (a short write, or
// ENOSPC) or as SQLITE_IOERR_WRITE and its kin. The errno SQLite keeps
// (sqlite3_system_errno) is only a hint: it is read after the failure, when
// later calls may have changed it; and a short write at the file size limit
// (ulimit -f) has none at all. So the files are looked at too: one at the
// process's size limit, or a file system without room, tells what ran out.
constexpr off_t kSlack = 64 << 10;  // a failing write stops within a page or two of the end

bool fileReachesLimit(const char* path, rlim_t limit) {
  struct stat st {};
  return path != nullptr && *path != '\0' && ::stat(path, &st) == 0 &&
         static_cast<rlim_t>(st.st_size) + kSlack >= limit;
}

bool fileSystemFull(const char* path) {
  struct statvfs fs {};
  return ::statvfs(path, &fs) == 0 && static_cast<uint64_t>(fs.f_bavail) * fs.f_frsize < kSlack;
}

bool isWriteError(int rc) {
  return rc == SQLITE_IOERR || rc == SQLITE_IOERR_WRITE || rc == SQLITE_IOERR_TRUNCATE ||
         rc == SQLITE_IOERR_FSYNC || rc == SQLITE_IOERR_SHMSIZE;
}

// What ran out, in the words a user acts on ("disk full while writing
// PATH"), or empty when the failure is not about room.
std::string spaceProblem(sqlite3* db, int rc) {
  const bool full = (rc & 0xff) == SQLITE_FULL;
  if (!full && !isWriteError(rc)) return {};
  const char* file = db != nullptr ? sqlite3_db_filename(db, "main") : nullptr;
  if (file == nullptr || *file == '\0') return full ? "disk full" : "";
  const int error = sqlite3_system_errno(db);
  rlimit limit{};
  const bool limited = ::getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY;
  std::string problem;
  if (error == EFBIG ||
      (limited && (fileReachesLimit(file, limit.rlim_cur) ||
                   fileReachesLimit(sqlite3_filename_wal(file), limit.rlim_cur)))) {
    problem = "file size limit reached";
    if (limited) problem += " (ulimit -f: " + std::to_string(limit.rlim_cur) + " bytes)";
  } else if (full || error == ENOSPC || fileSystemFull(file)) {
    problem = "disk full";
  } else if (error == EDQUOT) {
    problem = "disk quota exceeded";
  } else {
    return {};
  }
  return problem + " while writing " + file;
}

Status statusFor(int rc, std::string message) {
  const int primary = rc & 0xff;
  if (primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB)
    return Status::corruption(std::move(message));
  if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED) return Status::busy(std::move(message));
  return Status::ioError(std::move(message));
}

// "what: SQLite's words", "what: disk full while writing PATH (SQLite's
// words)", or for a file SQLite finds damaged "what in PATH: SQLite's words".
std::string describe(sqlite3* db, int rc, std::string_view what, std::string_view sqliteSays) {
  std::string message(what);
  const int primary = rc & 0xff;
  if (primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB) {
    const char* file = db != nullptr ? sqlite3_db_filename(db, "main") : nullptr;
    if (file != nullptr && *file != '\0') message += std::string(" in ") + file;
  }
  message += ": ";
  if (const std::string problem = spaceProblem(db, rc); !problem.empty()) {
    message += problem + " (" + std::string(sqliteSays) + ")";
  } else {
    message += sqliteSays;
  }
  return message;
}

}  // namespace

Status sqliteError(sqlite3* db, int rc, std::string_view what) {
  return statusFor(rc,
                   describe(db, rc, what, db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc)));
}

Status execSql(sqlite3* db, const char* sql, std::string_view what) {
  char* error = nullptr;
  const int rc = sqlite3_exec(db, sql, nullptr, nullptr, &error);
  if (rc == SQLITE_OK) return Status::ok();
  std::string message = describe(db, rc, what, error != nullptr ? error : sqlite3_errstr(rc));
  sqlite3_free(error);
  return statusFor(rc, std::move(message));
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
