#include "engine/wal_coalescing_vfs.h"

#include <algorithm>
#include <new>
#include <vector>

namespace keyscope::engine {

namespace {

// SQLite's file format, "WAL File Format": each frame is a 24-byte header
// (be32 page number, be32 database size in pages after a commit or 0, salts,
// checksums) followed by the page.
constexpr int kFrameHeaderSize = 24;

bool marksCommit(const void* header) {
  const auto* b = static_cast<const unsigned char*>(header);
  return (b[4] | b[5] | b[6] | b[7]) != 0;
}

// The default (unix) VFS writes at most 128 KiB - 1 bytes in one call (it
// masks the count with 0x1ffff: SQLite itself never writes more than a
// page), so a flush hands it pieces of this size.
constexpr size_t kMaxWrite = 120 * 1024;
// A transaction larger than this (a store file's page transaction holds
// about 448 KiB; a batch's log record about 60 KiB) reaches the file in
// several flushes. The buffer keeps its capacity for the next commit; the
// bound keeps it small beside a workspace's other memory.
constexpr size_t kMaxBuffered = 2 * kMaxWrite;

}  // namespace

// The wrapper, followed in memory by the default VFS's file (szOsFile).
struct WalCoalescingVfs::File {
  sqlite3_file base;
  WalCoalescingVfs* vfs = nullptr;
  bool wal = false;
  File* log = nullptr;       // a main database file: its open -wal handle
  File* database = nullptr;  // a -wal file: its database's handle

  std::vector<char> buffer;  // bytes [bufferAt, bufferAt + size) of the file
  sqlite3_int64 bufferAt = 0;
  sqlite3_int64 lastWriteEnd = -1;  // where this handle's previous write ended; -1: none
  bool endsInHeader = false;        // the buffer's last bytes are a frame header
  bool headerMarksCommit = false;   // ... and it marks a commit

  sqlite3_file* real() { return reinterpret_cast<sqlite3_file*>(this + 1); }
  const sqlite3_io_methods* methods() { return real()->pMethods; }

  int flush() {
    endsInHeader = false;
    if (buffer.empty()) return SQLITE_OK;
    int rc = SQLITE_OK;
    for (size_t done = 0; done < buffer.size() && rc == SQLITE_OK;) {
      const size_t n = std::min(kMaxWrite, buffer.size() - done);
      rc = methods()->xWrite(real(), buffer.data() + done, static_cast<int>(n),
                             bufferAt + static_cast<sqlite3_int64>(done));
      done += n;
    }
    vfs->m_flushes.fetch_add(1, std::memory_order_relaxed);
    // A failed flush fails the call that asked for it; SQLite then rolls the
    // transaction back, so the bytes are not wanted again.
    buffer.clear();
    return rc;
  }

  // Whether a write of n bytes at `at` is one this file keeps for later.
  bool buffers(int n, sqlite3_int64 at) const {
    if (endsInHeader) return at == lastWriteEnd;         // the page after its header
    return n == kFrameHeaderSize && at == lastWriteEnd;  // the next frame's header
  }

  int write(const void* data, int n, sqlite3_int64 at) {
    if (!wal || !buffers(n, at)) {
      if (int rc = flush(); rc != SQLITE_OK) return rc;
      lastWriteEnd = at + n;
      return methods()->xWrite(real(), data, n, at);
    }
    if (buffer.size() + static_cast<size_t>(n) > kMaxBuffered) {
      // Full: write what is held, even a header whose page is this write
      // (the file gets the same bytes either way), and go on with the frame.
      const bool keepHeaderState = endsInHeader;
      const bool keepCommit = headerMarksCommit;
      if (int rc = flush(); rc != SQLITE_OK) return rc;
      endsInHeader = keepHeaderState;
      headerMarksCommit = keepCommit;
    }
    if (buffer.empty()) bufferAt = at;
    const auto* bytes = static_cast<const char*>(data);
    buffer.insert(buffer.end(), bytes, bytes + n);
    vfs->m_bufferedWrites.fetch_add(1, std::memory_order_relaxed);
    lastWriteEnd = at + n;
    if (!endsInHeader) {
      endsInHeader = true;
      headerMarksCommit = marksCommit(data);
      return SQLITE_OK;
    }
    endsInHeader = false;
    // The page of a commit frame: the transaction's frames are all here.
    return headerMarksCommit ? flush() : SQLITE_OK;
  }

  // Backstop before SQLite touches the wal-index (see the header).
  int flushLog() {
    if (log == nullptr || log->buffer.empty()) return SQLITE_OK;
    vfs->m_lateFlushes.fetch_add(1, std::memory_order_relaxed);
    return log->flush();
  }
};

namespace {

using File = WalCoalescingVfs::File;

File* of(sqlite3_file* f) {
  return reinterpret_cast<File*>(f);
}

int xClose(sqlite3_file* f) {
  File* file = of(f);
  const int flushed = file->flush();
  if (file->database != nullptr && file->database->log == file) file->database->log = nullptr;
  if (file->log != nullptr) file->log->database = nullptr;
  const int closed = file->methods()->xClose(file->real());
  file->~File();
  return flushed != SQLITE_OK ? flushed : closed;
}

int xRead(sqlite3_file* f, void* p, int n, sqlite3_int64 at) {
  File* file = of(f);
  if (int rc = file->flush(); rc != SQLITE_OK) return rc;
  return file->methods()->xRead(file->real(), p, n, at);
}

int xWrite(sqlite3_file* f, const void* p, int n, sqlite3_int64 at) {
  return of(f)->write(p, n, at);
}

int xTruncate(sqlite3_file* f, sqlite3_int64 size) {
  File* file = of(f);
  if (int rc = file->flush(); rc != SQLITE_OK) return rc;
  file->lastWriteEnd = -1;
  return file->methods()->xTruncate(file->real(), size);
}

int xSync(sqlite3_file* f, int flags) {
  File* file = of(f);
  if (int rc = file->flush(); rc != SQLITE_OK) return rc;
  return file->methods()->xSync(file->real(), flags);
}

int xFileSize(sqlite3_file* f, sqlite3_int64* size) {
  File* file = of(f);
  if (int rc = file->flush(); rc != SQLITE_OK) return rc;
  return file->methods()->xFileSize(file->real(), size);
}

int xLock(sqlite3_file* f, int level) {
  return of(f)->methods()->xLock(of(f)->real(), level);
}
int xUnlock(sqlite3_file* f, int level) {
  return of(f)->methods()->xUnlock(of(f)->real(), level);
}
int xCheckReservedLock(sqlite3_file* f, int* out) {
  return of(f)->methods()->xCheckReservedLock(of(f)->real(), out);
}

int xFileControl(sqlite3_file* f, int op, void* arg) {
  File* file = of(f);
  if (int rc = file->flush(); rc != SQLITE_OK) return rc;
  return file->methods()->xFileControl(file->real(), op, arg);
}

int xSectorSize(sqlite3_file* f) {
  return of(f)->methods()->xSectorSize(of(f)->real());
}
int xDeviceCharacteristics(sqlite3_file* f) {
  return of(f)->methods()->xDeviceCharacteristics(of(f)->real());
}

int xShmMap(sqlite3_file* f, int region, int size, int extend, void volatile** out) {
  File* file = of(f);
  if (int rc = file->flushLog(); rc != SQLITE_OK) return rc;
  return file->methods()->xShmMap(file->real(), region, size, extend, out);
}

int xShmLock(sqlite3_file* f, int offset, int n, int flags) {
  File* file = of(f);
  if (int rc = file->flushLog(); rc != SQLITE_OK) return rc;
  return file->methods()->xShmLock(file->real(), offset, n, flags);
}

void xShmBarrier(sqlite3_file* f) {
  File* file = of(f);
  (void)file->flushLog();  // cannot report; counted in lateFlushes()
  file->methods()->xShmBarrier(file->real());
}

int xShmUnmap(sqlite3_file* f, int deleteFlag) {
  File* file = of(f);
  (void)file->flushLog();
  return file->methods()->xShmUnmap(file->real(), deleteFlag);
}

int xFetch(sqlite3_file* f, sqlite3_int64 at, int n, void** out) {
  return of(f)->methods()->xFetch(of(f)->real(), at, n, out);
}
int xUnfetch(sqlite3_file* f, sqlite3_int64 at, void* p) {
  return of(f)->methods()->xUnfetch(of(f)->real(), at, p);
}

// Version 3, as the default (unix) VFS's files (open() refuses older ones).
constexpr sqlite3_io_methods kMethods = {3,
                                         &xClose,
                                         &xRead,
                                         &xWrite,
                                         &xTruncate,
                                         &xSync,
                                         &xFileSize,
                                         &xLock,
                                         &xUnlock,
                                         &xCheckReservedLock,
                                         &xFileControl,
                                         &xSectorSize,
                                         &xDeviceCharacteristics,
                                         &xShmMap,
                                         &xShmLock,
                                         &xShmBarrier,
                                         &xShmUnmap,
                                         &xFetch,
                                         &xUnfetch};

}  // namespace

WalCoalescingVfs& WalCoalescingVfs::instance() {
  // Never destroyed: connections may close during static destruction.
  static WalCoalescingVfs* const vfs =
      new WalCoalescingVfs("keyscope-wal-coalescing", sqlite3_vfs_find(nullptr));
  return *vfs;
}

WalCoalescingVfs::WalCoalescingVfs(const char* name, sqlite3_vfs* base) : m_base(base) {
  if (base == nullptr) return;
  m_vfs = *base;
  m_vfs.zName = name;
  m_vfs.szOsFile = static_cast<int>(sizeof(File)) + base->szOsFile;
  m_vfs.pAppData = this;
  m_vfs.xOpen = &WalCoalescingVfs::open;
  m_vfs.pNext = nullptr;
  m_registered = sqlite3_vfs_register(&m_vfs, /*makeDflt=*/0) == SQLITE_OK;
}

WalCoalescingVfs::~WalCoalescingVfs() {
  if (m_registered) sqlite3_vfs_unregister(&m_vfs);
}

const char* WalCoalescingVfs::name() const {
  return m_registered ? m_vfs.zName : nullptr;
}

int WalCoalescingVfs::open(sqlite3_vfs* vfs, const char* name, sqlite3_file* f, int flags,
                           int* outFlags) {
  auto* self = static_cast<WalCoalescingVfs*>(vfs->pAppData);
  File* file = new (f) File();
  file->vfs = self;
  const int rc = self->m_base->xOpen(self->m_base, name, file->real(), flags, outFlags);
  const sqlite3_io_methods* realMethods = file->real()->pMethods;
  if (realMethods == nullptr) {
    file->~File();
    f->pMethods = nullptr;
    return rc;
  }
  if (realMethods->iVersion < 3) {
    // The wrapper forwards the shared-memory methods of version 3; the
    // default (unix) VFS's files have them.
    realMethods->xClose(file->real());
    file->~File();
    f->pMethods = nullptr;
    return SQLITE_CANTOPEN;
  }
  file->base.pMethods = &kMethods;
  if ((flags & SQLITE_OPEN_WAL) != 0 && name != nullptr) {
    file->wal = true;
    // The database's handle, so that its shared-memory calls can flush
    // this one (the backstop). Our own File: the pager opened it through
    // this VFS.
    if (sqlite3_file* db = sqlite3_database_file_object(name);
        db != nullptr && db->pMethods == &kMethods) {
      file->database = of(db);
      file->database->log = file;
    }
  }
  return rc;
}

}  // namespace keyscope::engine
