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

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace keyscope::test {

class SyncWatchVfs {
 public:
  static constexpr const char* kName = "sync-watch";

  struct Sync {
    std::thread::id thread;
    bool underWriteLock = false;
    int64_t unsyncedFromBeforeLock = 0;  // with underWriteLock
  };

  // Registers the VFS as kName (not as the default).
  SyncWatchVfs() {
    sqlite3_vfs* base = sqlite3_vfs_find(nullptr);
    m_vfs = *base;
    m_vfs.zName = kName;
    m_vfs.szOsFile = static_cast<int>(sizeof(File)) + base->szOsFile;
    m_vfs.pAppData = this;
    m_vfs.xOpen = &SyncWatchVfs::open;
    m_vfs.pNext = nullptr;
    m_base = base;
    if (sqlite3_vfs_register(&m_vfs, 0) != SQLITE_OK) ADD_FAILURE() << "sqlite3_vfs_register";
  }
  // REQUIRES: no connection uses it any more.
  ~SyncWatchVfs() { sqlite3_vfs_unregister(&m_vfs); }
  SyncWatchVfs(const SyncWatchVfs&) = delete;
  SyncWatchVfs& operator=(const SyncWatchVfs&) = delete;

  std::vector<Sync> databaseSyncs() const {
    std::lock_guard lock(m_mutex);
    return m_syncs;
  }

 private:
  static constexpr int kWalWriteLock = 0;  // SQLite's wal.c: WAL_WRITE_LOCK

  // The wrapper, followed in memory by the default VFS's file.
  struct File {
    sqlite3_file base;
    SyncWatchVfs* vfs;
    bool mainDb;
    bool writeLock;
    int64_t unsyncedAtLock;
    sqlite3_file* real() { return reinterpret_cast<sqlite3_file*>(this + 1); }
  };

  static File* of(sqlite3_file* f) { return reinterpret_cast<File*>(f); }
  static const sqlite3_io_methods* realMethods(sqlite3_file* f) { return of(f)->real()->pMethods; }

  static int open(sqlite3_vfs* vfs, const char* name, sqlite3_file* f, int flags, int* outFlags) {
    auto* self = static_cast<SyncWatchVfs*>(vfs->pAppData);
    File* file = of(f);
    file->vfs = self;
    file->mainDb = (flags & SQLITE_OPEN_MAIN_DB) != 0;
    file->writeLock = false;
    file->unsyncedAtLock = 0;
    const int rc = self->m_base->xOpen(self->m_base, name, file->real(), flags, outFlags);
    file->base.pMethods = file->real()->pMethods != nullptr ? &kMethods : nullptr;
    return rc;
  }

  static int close(sqlite3_file* f) { return realMethods(f)->xClose(of(f)->real()); }
  static int read(sqlite3_file* f, void* p, int n, sqlite3_int64 at) {
    return realMethods(f)->xRead(of(f)->real(), p, n, at);
  }
  static int write(sqlite3_file* f, const void* p, int n, sqlite3_int64 at) {
    File* file = of(f);
    const int rc = realMethods(f)->xWrite(file->real(), p, n, at);
    if (file->mainDb && rc == SQLITE_OK) {
      std::lock_guard lock(file->vfs->m_mutex);
      file->vfs->m_unsynced += n;
    }
    return rc;
  }
  static int truncate(sqlite3_file* f, sqlite3_int64 size) { return realMethods(f)->xTruncate(of(f)->real(), size); }
  static int sync(sqlite3_file* f, int flags) {
    File* file = of(f);
    const int rc = realMethods(f)->xSync(file->real(), flags);
    if (file->mainDb && rc == SQLITE_OK) {
      std::lock_guard lock(file->vfs->m_mutex);
      file->vfs->m_syncs.push_back(
          Sync{std::this_thread::get_id(), file->writeLock, file->writeLock ? file->unsyncedAtLock : 0});
      file->vfs->m_unsynced = 0;
      file->unsyncedAtLock = 0;
    }
    return rc;
  }
  static int fileSize(sqlite3_file* f, sqlite3_int64* size) { return realMethods(f)->xFileSize(of(f)->real(), size); }
  static int lock(sqlite3_file* f, int level) { return realMethods(f)->xLock(of(f)->real(), level); }
  static int unlock(sqlite3_file* f, int level) { return realMethods(f)->xUnlock(of(f)->real(), level); }
  static int checkReservedLock(sqlite3_file* f, int* out) {
    return realMethods(f)->xCheckReservedLock(of(f)->real(), out);
  }
  static int fileControl(sqlite3_file* f, int op, void* arg) {
    return realMethods(f)->xFileControl(of(f)->real(), op, arg);
  }
  static int sectorSize(sqlite3_file* f) { return realMethods(f)->xSectorSize(of(f)->real()); }
  static int deviceCharacteristics(sqlite3_file* f) {
    return realMethods(f)->xDeviceCharacteristics(of(f)->real());
  }
  static int shmMap(sqlite3_file* f, int region, int size, int extend, void volatile** out) {
    return realMethods(f)->xShmMap(of(f)->real(), region, size, extend, out);
  }
  static int shmLock(sqlite3_file* f, int offset, int n, int flags) {
    File* file = of(f);
    const int rc = realMethods(f)->xShmLock(file->real(), offset, n, flags);
    if (offset == kWalWriteLock && (flags & SQLITE_SHM_EXCLUSIVE) != 0 && rc == SQLITE_OK) {
      std::lock_guard lock(file->vfs->m_mutex);
      file->writeLock = (flags & SQLITE_SHM_LOCK) != 0;
      file->unsyncedAtLock = file->writeLock ? file->vfs->m_unsynced : 0;
    }
    return rc;
  }
  static void shmBarrier(sqlite3_file* f) { realMethods(f)->xShmBarrier(of(f)->real()); }
  static int shmUnmap(sqlite3_file* f, int deleteFlag) { return realMethods(f)->xShmUnmap(of(f)->real(), deleteFlag); }
  static int fetch(sqlite3_file* f, sqlite3_int64 at, int n, void** out) {
    return realMethods(f)->xFetch(of(f)->real(), at, n, out);
  }
  static int unfetch(sqlite3_file* f, sqlite3_int64 at, void* p) {
    return realMethods(f)->xUnfetch(of(f)->real(), at, p);
  }

  // Version 3, as the default (unix) VFS's files.
  static constexpr sqlite3_io_methods kMethods = {
      3,        &close,     &read,     &write,     &truncate,   &sync,  &fileSize, &lock,   &unlock,
      &checkReservedLock,   &fileControl,          &sectorSize, &deviceCharacteristics,  &shmMap, &shmLock,
      &shmBarrier,          &shmUnmap,             &fetch,      &unfetch};

  sqlite3_vfs m_vfs{};
  sqlite3_vfs* m_base = nullptr;
  mutable std::mutex m_mutex;
  int64_t m_unsynced = 0;  // bytes written to database files since the last sync
  std::vector<Sync> m_syncs;
};

}  // namespace keyscope::test
