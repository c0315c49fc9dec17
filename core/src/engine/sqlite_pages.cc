#include "engine/sqlite_pages.h"

#include <sqlite3.h>

#include <cstring>

#include "engine/sqlite_util.h"

namespace keyscope::engine {

namespace {

std::string pageName(int64_t fileId, uint32_t pageNo) {
  return "page " + std::to_string(pageNo) + " of store file " + std::to_string(fileId);
}

Status checkIds(int64_t fileId, uint32_t pageNo) {
  if (fileId < 0 || fileId > kMaxStoreFileId) {
    return Status::invalidArgument("store file id " + std::to_string(fileId) + " is outside [0, 2^43)");
  }
  if (pageNo >= kMaxPagesPerFile) {
    return Status::invalidArgument("store file " + std::to_string(fileId) + " would pass " +
                                   std::to_string(kMaxPagesPerFile) + " pages (page " +
                                   std::to_string(pageNo) + ")");
  }
  return Status::ok();
}

// sqlite3_blob_open/reopen report an absent row as SQLITE_ERROR with this
// message; any other failure is a real I/O or locking problem.
bool isMissingRow(sqlite3* db, int rc) {
  return rc == SQLITE_ERROR && std::strncmp(sqlite3_errmsg(db), "no such rowid", 13) == 0;
}

}  // namespace

// --- SqlitePageSink ---

SqlitePageSink::SqlitePageSink(sqlite3* db) : m_db(db) {}

SqlitePageSink::~SqlitePageSink() { sqlite3_finalize(m_insert); }

Status SqlitePageSink::writePage(int64_t fileId, uint32_t pageNo, BytesView data) {
  if (Status s = checkIds(fileId, pageNo); !s) return s;
  if (m_insert == nullptr) {
    const int rc = sqlite3_prepare_v3(m_db, "INSERT INTO pages(page_id, data) VALUES(?1, ?2)", -1,
                                      SQLITE_PREPARE_PERSISTENT, &m_insert, nullptr);
    if (rc != SQLITE_OK) return sqliteError(m_db, rc, "preparing the page insert");
  }
  sqlite3_bind_int64(m_insert, 1, pageRowId(fileId, pageNo));
  // SQLITE_STATIC: the bytes outlive the step below.
  sqlite3_bind_blob64(m_insert, 2, data.data(), data.size(), SQLITE_STATIC);
  const int rc = sqlite3_step(m_insert);
  sqlite3_reset(m_insert);
  sqlite3_clear_bindings(m_insert);
  if (rc != SQLITE_DONE) return sqliteError(m_db, rc, "writing " + pageName(fileId, pageNo));
  return Status::ok();
}

// --- SqlitePageSource ---

SqlitePageSource::SqlitePageSource(sqlite3* db) : m_db(db) {}

SqlitePageSource::~SqlitePageSource() { release(); }

void SqlitePageSource::release() {
  if (m_blob != nullptr) sqlite3_blob_close(m_blob);
  m_blob = nullptr;
  m_rowId = -1;
}

Status SqlitePageSource::open(int64_t rowId, int64_t fileId, uint32_t pageNo) {
  if (m_blob != nullptr) {
    const int rc = sqlite3_blob_reopen(m_blob, rowId);
    if (rc == SQLITE_OK) {
      m_rowId = rowId;
      return Status::ok();
    }
    // A failed reopen aborts the handle. The row may be missing only from the
    // snapshot the handle held, or the handle may have expired (its row was
    // changed through this connection): either way start over below.
    release();
  }
  const int rc = sqlite3_blob_open(m_db, "main", "pages", "data", rowId, 0, &m_blob);
  if (rc == SQLITE_OK) {
    m_rowId = rowId;
    return Status::ok();
  }
  sqlite3_blob_close(m_blob);  // NULL after a failed open: a no-op, kept for older SQLite
  m_blob = nullptr;
  if (!isMissingRow(m_db, rc)) return sqliteError(m_db, rc, "opening " + pageName(fileId, pageNo));
  return Status::corruption(pageName(fileId, pageNo) + " is missing");
}

Status SqlitePageSource::readRange(int64_t fileId, uint32_t pageNo, uint32_t offset, uint32_t length,
                                   std::string* out) {
  if (Status s = checkIds(fileId, pageNo); !s) return s;
  const int64_t rowId = pageRowId(fileId, pageNo);
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (m_blob == nullptr || m_rowId != rowId) {
      if (Status s = open(rowId, fileId, pageNo); !s) return s;
    }
    const auto size = static_cast<uint64_t>(sqlite3_blob_bytes(m_blob));
    if (uint64_t{offset} + length > size) {
      return Status::corruption(pageName(fileId, pageNo) + " holds " + std::to_string(size) +
                                " bytes, not the " + std::to_string(uint64_t{offset} + length) +
                                " its index needs");
    }
    out->resize(length);
    const int rc = sqlite3_blob_read(m_blob, out->data(), static_cast<int>(length), static_cast<int>(offset));
    if (rc == SQLITE_OK) return Status::ok();
    release();
    // SQLITE_ABORT: the handle expired (its row was changed through this
    // connection) since it was opened; one fresh open settles it.
    if (rc != SQLITE_ABORT || attempt == 1) {
      return sqliteError(m_db, rc, "reading " + pageName(fileId, pageNo));
    }
  }
  return Status::ioError("reading " + pageName(fileId, pageNo));  // not reached
}

// --- deleting ---

Status deleteStoreFilePages(sqlite3* db, int64_t fileId) {
  if (Status s = checkIds(fileId, 0); !s) return s;
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v2(db, "DELETE FROM pages WHERE page_id >= ?1 AND page_id < ?2", -1, &stmt,
                              nullptr);
  if (rc != SQLITE_OK) return sqliteError(db, rc, "preparing the page delete");
  sqlite3_bind_int64(stmt, 1, pageRowId(fileId, 0));
  sqlite3_bind_int64(stmt, 2, pageRowId(fileId, 0) + int64_t{kMaxPagesPerFile});
  rc = sqlite3_step(stmt);
  sqlite3_finalize(stmt);
  if (rc != SQLITE_DONE) {
    return sqliteError(db, rc, "deleting the pages of store file " + std::to_string(fileId));
  }
  return Status::ok();
}

}  // namespace keyscope::engine
