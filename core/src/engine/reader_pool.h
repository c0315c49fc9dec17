// ReaderPool: read-only SQLite connections for gets and scans, so reads never
// queue behind the writer's connection. LeasedPageSource borrows one lazily
// (on the first page that misses the page cache) and gives it back at
// release(), ending its read snapshot so checkpoints can proceed.
// Threads: the pool is thread-safe; a LeasedPageSource belongs to one read.
#pragma once

#include <sqlite3.h>

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/sqlite_pages.h"
#include "engine/store_file.h"

namespace keyscope::engine {

class Catalog;

class ReaderPool {
 public:
  explicit ReaderPool(const Catalog* catalog) : m_catalog(catalog) {}
  ~ReaderPool();
  ReaderPool(const ReaderPool&) = delete;
  ReaderPool& operator=(const ReaderPool&) = delete;

  Result<sqlite3*> acquire();
  void release(sqlite3* db);

 private:
  const Catalog* m_catalog;
  std::mutex m_mutex;
  std::vector<sqlite3*> m_idle;
};

class LeasedPageSource final : public PageSource {
 public:
  explicit LeasedPageSource(ReaderPool* pool) : m_pool(pool) {}
  ~LeasedPageSource() override { release(); }
  LeasedPageSource(const LeasedPageSource&) = delete;
  LeasedPageSource& operator=(const LeasedPageSource&) = delete;

  Status readRange(int64_t fileId, uint32_t pageNo, uint32_t offset, uint32_t length, std::string* out) override;
  // Returns the connection to the pool; the next read borrows one again.
  void release();
  // Whether a connection has been borrowed for longer than `limit`.
  bool heldLongerThan(std::chrono::steady_clock::duration limit) const {
    return m_db != nullptr && std::chrono::steady_clock::now() - m_acquired > limit;
  }

 private:
  ReaderPool* m_pool;
  sqlite3* m_db = nullptr;
  std::unique_ptr<SqlitePageSource> m_source;
  std::chrono::steady_clock::time_point m_acquired;
};

}  // namespace keyscope::engine
