#include "engine/reader_pool.h"

#include "engine/catalog.h"

namespace keyscope::engine {

ReaderPool::~ReaderPool() {
  for (PooledReader& reader : m_idle) {
    reader.pages.reset();  // closes its BLOB handle before the connection
    sqlite3_close(reader.db);
  }
}

Result<PooledReader> ReaderPool::acquireReader() {
  const auto now = std::chrono::steady_clock::now();
  {
    std::lock_guard lock(m_mutex);
    if (!m_idle.empty()) {
      PooledReader reader = std::move(m_idle.back());
      m_idle.pop_back();
      if (now - reader.since > kWarmSnapshot) {
        reader.pages->release();
        reader.since = now;
      }
      return reader;
    }
  }
  Result<sqlite3*> db = m_catalog->openReader();
  if (!db) return db.status();
  PooledReader reader;
  reader.db = *db;
  reader.pages = std::make_unique<SqlitePageSource>(reader.db);
  reader.since = now;
  return reader;
}

void ReaderPool::releaseReader(PooledReader reader) {
  std::lock_guard lock(m_mutex);
  m_idle.push_back(std::move(reader));
}

Result<sqlite3*> ReaderPool::acquire() {
  Result<PooledReader> reader = acquireReader();
  if (!reader) return reader.status();
  PooledReader taken = std::move(reader).value();
  taken.pages.reset();  // no snapshot: the caller's queries begin their own
  return taken.db;
}

void ReaderPool::release(sqlite3* db) {
  PooledReader reader;
  reader.db = db;
  reader.pages = std::make_unique<SqlitePageSource>(db);
  reader.since = std::chrono::steady_clock::now();
  releaseReader(std::move(reader));
}

void ReaderPool::dropIdleSnapshots() {
  {
    const auto now = std::chrono::steady_clock::now();
    std::lock_guard lock(m_leasesMutex);
    for (LeasedPageSource* lease : m_leases) lease->releaseIfUnusedFor(kIdleLease, now);
  }
  std::lock_guard lock(m_mutex);
  for (PooledReader& reader : m_idle) reader.pages->release();
}

void ReaderPool::trackLease(LeasedPageSource* lease) {
  std::lock_guard lock(m_leasesMutex);
  m_leases.push_back(lease);
}

void ReaderPool::untrackLease(LeasedPageSource* lease) {
  std::lock_guard lock(m_leasesMutex);
  std::erase(m_leases, lease);
}

LeasedPageSource::LeasedPageSource(ReaderPool* pool, Span span) : m_pool(pool), m_span(span), m_readahead(this) {
  if (m_span == Span::kAcrossCalls) m_pool->trackLease(this);
}

LeasedPageSource::~LeasedPageSource() {
  if (m_span == Span::kAcrossCalls) m_pool->untrackLease(this);  // before the pool can no longer reach it
  release();
}

void LeasedPageSource::releaseIfUnusedFor(std::chrono::steady_clock::duration unused,
                                          std::chrono::steady_clock::time_point now) {
  std::unique_lock lock(m_mutex, std::try_to_lock);
  if (!lock.owns_lock() || m_reader.db == nullptr || now - m_lastRead <= unused) return;
  releaseLocked();
}

Status LeasedPageSource::readRange(int64_t fileId, uint32_t pageNo, uint32_t offset, uint32_t length,
                                   std::string* out) {
  std::lock_guard lock(m_mutex);
  return readLocked(fileId, pageNo, offset, length, out);
}

Status LeasedPageSource::ReadaheadView::readRange(int64_t fileId, uint32_t pageNo, uint32_t offset,
                                                  uint32_t length, std::string* out) {
  std::lock_guard lock(m_owner->m_mutex);
  const bool ownerHeld = m_owner->m_reader.db != nullptr;
  Status s = m_owner->readLocked(fileId, pageNo, offset, length, out);
  if (!ownerHeld) m_owner->releaseLocked();
  return s;
}

Status LeasedPageSource::readLocked(int64_t fileId, uint32_t pageNo, uint32_t offset, uint32_t length,
                                    std::string* out) {
  const auto now = std::chrono::steady_clock::now();
  if (heldLongerThan(kMaxLeaseHold, now)) releaseLocked();
  if (m_reader.db == nullptr) {
    Result<PooledReader> reader = m_pool->acquireReader();
    if (!reader) return reader.status();
    m_reader = std::move(reader).value();
    m_acquiredTicks.store(now.time_since_epoch().count(), std::memory_order_relaxed);
  }
  m_lastRead = now;
  return m_reader.pages->readRange(fileId, pageNo, offset, length, out);
}

void LeasedPageSource::release() {
  std::lock_guard lock(m_mutex);
  releaseLocked();
}

void LeasedPageSource::releaseLocked() {
  if (m_reader.db == nullptr) return;
  m_pool->releaseReader(std::move(m_reader));
  m_reader = PooledReader{};
  m_acquiredTicks.store(kNotHeld, std::memory_order_relaxed);
}

}  // namespace keyscope::engine
