#include "engine/reader_pool.h"

#include "engine/catalog.h"

namespace keyscope::engine {

ReaderPool::~ReaderPool() {
  for (sqlite3* db : m_idle) sqlite3_close(db);
}

Result<sqlite3*> ReaderPool::acquire() {
  {
    std::lock_guard lock(m_mutex);
    if (!m_idle.empty()) {
      sqlite3* db = m_idle.back();
      m_idle.pop_back();
      return db;
    }
  }
  return m_catalog->openReader();
}

void ReaderPool::release(sqlite3* db) {
  std::lock_guard lock(m_mutex);
  m_idle.push_back(db);
}

Status LeasedPageSource::readRange(int64_t fileId, uint32_t pageNo, uint32_t offset, uint32_t length,
                                   std::string* out) {
  if (m_db == nullptr) {
    Result<sqlite3*> db = m_pool->acquire();
    if (!db) return db.status();
    m_db = *db;
    m_source = std::make_unique<SqlitePageSource>(m_db);
    m_acquired = std::chrono::steady_clock::now();
  }
  return m_source->readRange(fileId, pageNo, offset, length, out);
}

void LeasedPageSource::release() {
  if (m_db == nullptr) return;
  m_source.reset();
  m_pool->release(m_db);
  m_db = nullptr;
}

}  // namespace keyscope::engine
