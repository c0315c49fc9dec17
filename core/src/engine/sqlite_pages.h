// Store-file pages as rows of the workspace's SQLite `pages` table.
//
// Each page is one row: page_id = (fileId << 20) | pageNo, data = the page's
// bytes. The rowid packing makes a page one B-tree lookup and a whole file one
// rowid range, at the price of two limits:
//   - at most 2^20 (1,048,576) pages per store file: 8 GiB stored in the
//     leaf-sized pages of format 5 (store_file_format.h). A writer that would
//     pass it gets InvalidArgument. A region splits once its store passes the
//     table's MAX_FILESIZE (stored bytes, 64 MiB by default), so only a table
//     set above 8 GiB can reach it, and then in a major compaction's output;
//   - file ids in [0, 2^43), so page_id stays a non-negative int64.
//
// Threads: a sink or source wraps one connection and is used by one thread at
// a time, like the connection itself.
//
// Snapshots: an open BLOB handle is an active statement, so it keeps the
// connection's read transaction (its WAL snapshot) open. A source therefore
// holds a snapshot from its first read until release(); call release() when
// a get or scan ends so checkpoints can proceed. A page missing from the held
// snapshot is looked up again in a fresh one before it is reported missing, so
// pages committed by another connection after the snapshot are still found.
#pragma once

#include <cstdint>
#include <string>

#include "engine/store_file.h"
#include "keyscope/status.h"

struct sqlite3;
struct sqlite3_stmt;
struct sqlite3_blob;

namespace keyscope::engine {

constexpr const char* kPagesTableDdl =
    "CREATE TABLE IF NOT EXISTS pages(page_id INTEGER PRIMARY KEY, data BLOB NOT NULL)";

constexpr int kPageNoBits = 20;
constexpr uint32_t kMaxPagesPerFile = uint32_t{1} << kPageNoBits;
constexpr int64_t kMaxStoreFileId = (int64_t{1} << (63 - kPageNoBits)) - 1;

// REQUIRES: 0 <= fileId <= kMaxStoreFileId, pageNo < kMaxPagesPerFile.
constexpr int64_t pageRowId(int64_t fileId, uint32_t pageNo) {
  return (fileId << kPageNoBits) | static_cast<int64_t>(pageNo);
}

// Writes pages with INSERT (a page written twice is a constraint error: store
// files are immutable). The statement is prepared once and reused.
class SqlitePageSink : public PageSink {
 public:
  explicit SqlitePageSink(sqlite3* db);
  ~SqlitePageSink() override;
  SqlitePageSink(const SqlitePageSink&) = delete;
  SqlitePageSink& operator=(const SqlitePageSink&) = delete;

  Status writePage(int64_t fileId, uint32_t pageNo, BytesView data) override;

 private:
  sqlite3* m_db;
  sqlite3_stmt* m_insert = nullptr;
};

// Reads byte ranges of pages through one BLOB handle, moved from row to row
// with sqlite3_blob_reopen (no statement is compiled per read).
class SqlitePageSource : public PageSource {
 public:
  explicit SqlitePageSource(sqlite3* db);
  ~SqlitePageSource() override;
  SqlitePageSource(const SqlitePageSource&) = delete;
  SqlitePageSource& operator=(const SqlitePageSource&) = delete;

  // Corruption "page 7 of store file 12 is missing" for an absent row, and a
  // Corruption when the range passes the end of the page.
  Status readRange(int64_t fileId, uint32_t pageNo, uint32_t offset, uint32_t length,
                   std::string* out) override;

  // Closes the BLOB handle, ending the read transaction it holds (if no other
  // statement of the connection holds one).
  void release();

 private:
  Status open(int64_t rowId, int64_t fileId, uint32_t pageNo);

  sqlite3* m_db;
  sqlite3_blob* m_blob = nullptr;
  int64_t m_rowId = -1;  // the row m_blob is on
};

// Deletes every page of a store file: one rowid range delete.
Status deleteStoreFilePages(sqlite3* db, int64_t fileId);

}  // namespace keyscope::engine
