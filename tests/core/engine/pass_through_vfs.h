// A SQLite VFS for tests that passes every call to the default VFS, except
// the few a subclass overrides to watch or fail them (onOpened, onWrite,
// onSync, onShmLock). Registered under its name, not as the default, for
// the life of the object.
//
// Threads: the hooks run on whichever thread calls SQLite; a subclass
// guards what they share.
#pragma once

#include <gtest/gtest.h>
#include <sqlite3.h>

namespace keyscope::test {

class PassThroughVfs {
 public:
  explicit PassThroughVfs(const char* name) {
    m_base = sqlite3_vfs_find(nullptr);
    m_vfs = *m_base;
    m_vfs.zName = name;
    m_vfs.szOsFile = static_cast<int>(sizeof(File)) + m_base->szOsFile;
    m_vfs.pAppData = this;
    m_vfs.xOpen = &PassThroughVfs::open;
    m_vfs.pNext = nullptr;
    if (sqlite3_vfs_register(&m_vfs, 0) != SQLITE_OK)
      ADD_FAILURE() << "sqlite3_vfs_register " << name;
  }
  // REQUIRES: no connection uses it any more.
  virtual ~PassThroughVfs() { sqlite3_vfs_unregister(&m_vfs); }
  PassThroughVfs(const PassThroughVfs&) = delete;
  PassThroughVfs& operator=(const PassThroughVfs&) = delete;

  sqlite3_vfs* vfs() { return &m_vfs; }
  const char* name() const { return m_vfs.zName; }

 protected:
  // The wrapper, followed in memory by the default VFS's file.
  struct File {
    sqlite3_file base;
    PassThroughVfs* vfs;
    int openFlags;  // SQLITE_OPEN_MAIN_DB, SQLITE_OPEN_WAL, ...
    bool isMainDb() const { return (openFlags & SQLITE_OPEN_MAIN_DB) != 0; }
    bool isWal() const { return (openFlags & SQLITE_OPEN_WAL) != 0; }
    sqlite3_file* real() { return reinterpret_cast<sqlite3_file*>(this + 1); }
  };

  // The hooks, by default the default VFS's calls. onOpened runs after each
  // open that succeeded (a File's address may be one a closed file had).
  virtual void onOpened(File& /*file*/) {}
  virtual int onWrite(File& file, const void* p, int n, sqlite3_int64 at) {
    return file.real()->pMethods->xWrite(file.real(), p, n, at);
  }
  virtual int onSync(File& file, int flags) {
    return file.real()->pMethods->xSync(file.real(), flags);
  }
  virtual int onShmLock(File& file, int offset, int n, int flags) {
    return file.real()->pMethods->xShmLock(file.real(), offset, n, flags);
  }

 private:
  static File* of(sqlite3_file* f) { return reinterpret_cast<File*>(f); }
  static const sqlite3_io_methods* real(sqlite3_file* f) { return of(f)->real()->pMethods; }

  static int open(sqlite3_vfs* vfs, const char* name, sqlite3_file* f, int flags, int* outFlags) {
    auto* self = static_cast<PassThroughVfs*>(vfs->pAppData);
    File* file = of(f);
    file->vfs = self;
    file->openFlags = flags;
    const int rc = self->m_base->xOpen(self->m_base, name, file->real(), flags, outFlags);
    file->base.pMethods = file->real()->pMethods != nullptr ? &kMethods : nullptr;
    if (file->base.pMethods != nullptr) self->onOpened(*file);
    return rc;
  }

  static int close(sqlite3_file* f) { return real(f)->xClose(of(f)->real()); }
  static int read(sqlite3_file* f, void* p, int n, sqlite3_int64 at) {
    return real(f)->xRead(of(f)->real(), p, n, at);
  }
  static int write(sqlite3_file* f, const void* p, int n, sqlite3_int64 at) {
    return of(f)->vfs->onWrite(*of(f), p, n, at);
  }
  static int truncate(sqlite3_file* f, sqlite3_int64 size) {
    return real(f)->xTruncate(of(f)->real(), size);
  }
  static int sync(sqlite3_file* f, int flags) { return of(f)->vfs->onSync(*of(f), flags); }
  static int fileSize(sqlite3_file* f, sqlite3_int64* size) {
    return real(f)->xFileSize(of(f)->real(), size);
  }
  static int lock(sqlite3_file* f, int level) { return real(f)->xLock(of(f)->real(), level); }
  static int unlock(sqlite3_file* f, int level) { return real(f)->xUnlock(of(f)->real(), level); }
  static int checkReservedLock(sqlite3_file* f, int* out) {
    return real(f)->xCheckReservedLock(of(f)->real(), out);
  }
  static int fileControl(sqlite3_file* f, int op, void* arg) {
    return real(f)->xFileControl(of(f)->real(), op, arg);
  }
  static int sectorSize(sqlite3_file* f) { return real(f)->xSectorSize(of(f)->real()); }
  static int deviceCharacteristics(sqlite3_file* f) {
    return real(f)->xDeviceCharacteristics(of(f)->real());
  }
  static int shmMap(sqlite3_file* f, int region, int size, int extend, void volatile** out) {
    return real(f)->xShmMap(of(f)->real(), region, size, extend, out);
  }
  static int shmLock(sqlite3_file* f, int offset, int n, int flags) {
    return of(f)->vfs->onShmLock(*of(f), offset, n, flags);
  }
  static void shmBarrier(sqlite3_file* f) { real(f)->xShmBarrier(of(f)->real()); }
  static int shmUnmap(sqlite3_file* f, int deleteFlag) {
    return real(f)->xShmUnmap(of(f)->real(), deleteFlag);
  }
  static int fetch(sqlite3_file* f, sqlite3_int64 at, int n, void** out) {
    return real(f)->xFetch(of(f)->real(), at, n, out);
  }
  static int unfetch(sqlite3_file* f, sqlite3_int64 at, void* p) {
    return real(f)->xUnfetch(of(f)->real(), at, p);
  }

  // Version 3, as the default (unix) VFS's files.
  static constexpr sqlite3_io_methods kMethods = {3,
                                                  &close,
                                                  &read,
                                                  &write,
                                                  &truncate,
                                                  &sync,
                                                  &fileSize,
                                                  &lock,
                                                  &unlock,
                                                  &checkReservedLock,
                                                  &fileControl,
                                                  &sectorSize,
                                                  &deviceCharacteristics,
                                                  &shmMap,
                                                  &shmLock,
                                                  &shmBarrier,
                                                  &shmUnmap,
                                                  &fetch,
                                                  &unfetch};

  sqlite3_vfs m_vfs{};
  sqlite3_vfs* m_base = nullptr;
};

}  // namespace keyscope::test
