// A SQLite VFS that passes everything to the default one and watches the
// syncs of main database files, for tests of when a checkpoint's syncs
// happen: for each it records the thread, whether the syncing connection
// held the log's write lock (FULL, RESTART and TRUNCATE checkpoints take it,
// PASSIVE ones never do), and how many bytes written to database files
// before that lock was taken were still unsynced.
//
// One database at a time: the unsynced count is the VFS's, not a file's
// (an fsync through any handle writes back every handle's writes).
//
// Threads: any; the record is guarded by a mutex.
#pragma once

#include <cstdint>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

#include "pass_through_vfs.h"

namespace keyscope::test {

class SyncWatchVfs final : public PassThroughVfs {
 public:
  static constexpr const char* kName = "sync-watch";

  struct Sync {
    std::thread::id thread;
    bool underWriteLock = false;
    int64_t unsyncedFromBeforeLock = 0;  // with underWriteLock
  };

  SyncWatchVfs() : PassThroughVfs(kName) {}

  std::vector<Sync> databaseSyncs() const {
    std::lock_guard lock(m_mutex);
    return m_syncs;
  }

 private:
  static constexpr int kWalWriteLock = 0;  // SQLite's wal.c: WAL_WRITE_LOCK

  // A connection's hold on the log's write lock, by its database file.
  struct WriteLock {
    bool held = false;
    int64_t unsyncedAtLock = 0;
  };

  void onOpened(File& file) override {
    std::lock_guard lock(m_mutex);
    m_writeLocks[&file] = WriteLock{};
  }
  int onWrite(File& file, const void* p, int n, sqlite3_int64 at) override {
    const int rc = PassThroughVfs::onWrite(file, p, n, at);
    if (file.isMainDb() && rc == SQLITE_OK) {
      std::lock_guard lock(m_mutex);
      m_unsynced += n;
    }
    return rc;
  }
  int onSync(File& file, int flags) override {
    const int rc = PassThroughVfs::onSync(file, flags);
    if (file.isMainDb() && rc == SQLITE_OK) {
      std::lock_guard lock(m_mutex);
      WriteLock& writeLock = m_writeLocks[&file];
      m_syncs.push_back(Sync{std::this_thread::get_id(), writeLock.held,
                             writeLock.held ? writeLock.unsyncedAtLock : 0});
      m_unsynced = 0;
      writeLock.unsyncedAtLock = 0;
    }
    return rc;
  }
  int onShmLock(File& file, int offset, int n, int flags) override {
    const int rc = PassThroughVfs::onShmLock(file, offset, n, flags);
    if (offset == kWalWriteLock && (flags & SQLITE_SHM_EXCLUSIVE) != 0 && rc == SQLITE_OK) {
      std::lock_guard lock(m_mutex);
      WriteLock& writeLock = m_writeLocks[&file];
      writeLock.held = (flags & SQLITE_SHM_LOCK) != 0;
      writeLock.unsyncedAtLock = writeLock.held ? m_unsynced : 0;
    }
    return rc;
  }

  mutable std::mutex m_mutex;
  int64_t m_unsynced = 0;  // bytes written to database files since the last sync
  std::unordered_map<const File*, WriteLock> m_writeLocks;
  std::vector<Sync> m_syncs;
};

}  // namespace keyscope::test
