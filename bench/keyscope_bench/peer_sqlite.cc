// The plain SQLite peer: what someone would write instead of using Keyscope.
// One row per cell in a WITHOUT ROWID table keyed by the flat key
// (row|qualifier|~timestamp, so versions sort newest first), WAL journal mode
// with synchronous=NORMAL (the log is written per commit, not fsynced), one
// transaction per batch, and a page cache of the same size as the others'.
#include <sqlite3.h>

#include "peer.h"

namespace keyscope_bench {
namespace {

class SqlitePeer final : public Peer {
 public:
  explicit SqlitePeer(const PeerSettings& settings) : m_settings(settings) {}
  ~SqlitePeer() override { close(); }

  void open(const std::string& dir, bool fresh) override {
    const std::string path = dir + "/cells.sqlite";
    if (sqlite3_open_v2(path.c_str(), &m_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
        SQLITE_OK) {
      die("sqlite: open " + path + ": " + sqlite3_errmsg(m_db));
    }
    exec("PRAGMA journal_mode=WAL");
    exec("PRAGMA synchronous=NORMAL");
    // A negative cache_size is in KiB.
    exec("PRAGMA cache_size=-" + std::to_string(m_settings.cacheBytes / 1024));
    if (fresh) exec("CREATE TABLE cells (k BLOB PRIMARY KEY, v BLOB NOT NULL) WITHOUT ROWID");
    m_insert = prepare("INSERT OR REPLACE INTO cells (k, v) VALUES (?1, ?2)");
    m_get = prepare("SELECT v FROM cells WHERE k >= ?1 AND k <= ?2 ORDER BY k LIMIT 1");
    m_range = prepare("SELECT k, v FROM cells WHERE k >= ?1 AND k < ?2 ORDER BY k");
    m_all = prepare("SELECT k, v FROM cells ORDER BY k");
  }

  void close() override {
    for (sqlite3_stmt** stmt : {&m_insert, &m_get, &m_range, &m_all}) {
      sqlite3_finalize(*stmt);
      *stmt = nullptr;
    }
    if (m_db != nullptr) {
      if (sqlite3_close(m_db) != SQLITE_OK)
        die("sqlite: close: " + std::string(sqlite3_errmsg(m_db)));
      m_db = nullptr;
    }
  }

  void write(std::span<const CellData> batch) override {
    exec("BEGIN");
    char key[kFlatKeySize];
    for (const CellData& cell : batch) {
      flatKey(cell, key);
      sqlite3_bind_blob(m_insert, 1, key, static_cast<int>(kFlatKeySize), SQLITE_STATIC);
      sqlite3_bind_blob(m_insert, 2, cell.value, cell.valueSize, SQLITE_STATIC);
      step(m_insert, SQLITE_DONE, "insert");
      sqlite3_reset(m_insert);
    }
    exec("COMMIT");
  }

  // A B-tree needs no compaction; folding the WAL back into the database is
  // SQLite's equivalent of "everything written is in its final place".
  void flushAndCompact() override { exec("PRAGMA wal_checkpoint(TRUNCATE)"); }

  bool getLatest(std::string_view row, std::string_view qualifier, std::string* value) override {
    char low[kFlatKeySize];
    char high[kFlatKeySize];
    flatKeyBounds(row, qualifier, low, high);
    sqlite3_bind_blob(m_get, 1, low, static_cast<int>(kFlatKeySize), SQLITE_STATIC);
    sqlite3_bind_blob(m_get, 2, high, static_cast<int>(kFlatKeySize), SQLITE_STATIC);
    const int rc = sqlite3_step(m_get);
    bool found = false;
    if (rc == SQLITE_ROW) {
      value->assign(static_cast<const char*>(sqlite3_column_blob(m_get, 0)),
                    static_cast<size_t>(sqlite3_column_bytes(m_get, 0)));
      found = true;
    } else if (rc != SQLITE_DONE) {
      die("sqlite: get: " + std::string(sqlite3_errmsg(m_db)));
    }
    sqlite3_reset(m_get);
    return found;
  }

  ScanTally scan(std::string_view prefix) override {
    const std::string stop = prefixSuccessor(prefix);
    // Only the whole table has no successor (an empty prefix binds as NULL).
    sqlite3_stmt* stmt = stop.empty() ? m_all : m_range;
    if (!stop.empty()) {
      sqlite3_bind_blob(stmt, 1, prefix.data(), static_cast<int>(prefix.size()), SQLITE_STATIC);
      sqlite3_bind_blob(stmt, 2, stop.data(), static_cast<int>(stop.size()), SQLITE_STATIC);
    }
    ScanTally tally;
    int rc = 0;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
      // Touch the key as the other peers do.
      if (sqlite3_column_blob(stmt, 0) == nullptr) die("sqlite: scan: a cell without a key");
      ++tally.cells;
      tally.valueBytes += static_cast<uint64_t>(sqlite3_column_bytes(stmt, 1));
    }
    if (rc != SQLITE_DONE) die("sqlite: scan: " + std::string(sqlite3_errmsg(m_db)));
    sqlite3_reset(stmt);
    return tally;
  }

 private:
  void exec(const std::string& sql) {
    char* error = nullptr;
    if (sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
      const std::string message = error != nullptr ? error : "unknown error";
      sqlite3_free(error);
      die("sqlite: " + sql + ": " + message);
    }
  }

  sqlite3_stmt* prepare(const char* sql) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(m_db, sql, -1, &stmt, nullptr) != SQLITE_OK) {
      die(std::string("sqlite: prepare ") + sql + ": " + sqlite3_errmsg(m_db));
    }
    return stmt;
  }

  void step(sqlite3_stmt* stmt, int expected, const char* what) {
    if (sqlite3_step(stmt) != expected) {
      die(std::string("sqlite: ") + what + ": " + sqlite3_errmsg(m_db));
    }
  }

  PeerSettings m_settings;
  sqlite3* m_db = nullptr;
  sqlite3_stmt* m_insert = nullptr;
  sqlite3_stmt* m_get = nullptr;
  sqlite3_stmt* m_range = nullptr;
  sqlite3_stmt* m_all = nullptr;
};

}  // namespace

std::unique_ptr<Peer> makeSqlitePeer(const PeerSettings& settings) {
  return std::make_unique<SqlitePeer>(settings);
}

std::string sqliteDescription() {
  return std::string("SQLite ") + sqlite3_libversion() + ", Debian's libsqlite3";
}

}  // namespace keyscope_bench
