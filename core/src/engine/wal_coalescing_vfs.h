// WalCoalescingVfs: an SQLite VFS over the default one that hands each
// transaction's log frames to the -wal file in one write instead of two per
// page.
//
// SQLite writes a frame of its write-ahead log as two writes: its 24-byte
// header, then the page. A Keyscope batch of 1,000 cells commits about eight
// pages, so sixteen pwrite calls, each paying the kernel's per-call and
// per-page-cache-folio costs: in a key-ordered load they were about 28% of the
// writing thread's time on a core (perf). Measured on this kind of machine
// (ext4), ten frames written as twenty calls took 32 us, as one call 8 us.
//
// Only the pattern of appended frames is buffered, and only on -wal files:
//   - a 24-byte write that starts where the handle's previous write ended
//     (the next frame's header), and
//   - the write that follows such a buffered header at header + 24 (its
//     page).
// A frame whose header marks a commit (its "database size after commit"
// field, bytes 4-7, is nonzero: SQLite's file format, "WAL File Format") is
// the last of its transaction: the write of its page flushes the buffer and
// returns the flush's result, so a commit that cannot reach the file fails as
// an unbuffered one would, before SQLite publishes the frames in the
// wal-index. Any other write (the log's header, a frame rewritten in place
// after a cache spill, the checksums rewritten after one, a split write
// around a sync point), and every other call on the file (read, sync,
// truncate, size, file control, close), flushes first and then goes to the
// default VFS as it came.
//
// As a backstop the database file's shared-memory barrier and locks (which
// SQLite calls before it publishes frames) flush its log handle too. The
// rules above leave nothing to flush there; lateFlushes() counts the times
// one did find bytes, for tests.
//
// Crash safety is the default VFS's: buffered bytes belong to a transaction
// that has not committed (a commit's own write flushes them; frames a cache
// spill wrote wait at most until the next call on the file), and a
// transaction is acknowledged only after its commit frame's write returned.
//
// Threads: a file handle is used by one thread at a time (SQLite's
// connection rule); the counters are atomic.
#pragma once

#include <sqlite3.h>

#include <atomic>
#include <cstdint>

namespace keyscope::engine {

class WalCoalescingVfs {
 public:
  // The process's instance over the default VFS, registered (not as the
  // default) on first use. Workspace connections open with its name().
  static WalCoalescingVfs& instance();

  // Registers an instance named `name` over `base`, for tests that watch
  // what reaches the base. REQUIRES: name and base outlive it; no connection
  // uses it when it is destroyed.
  WalCoalescingVfs(const char* name, sqlite3_vfs* base);
  ~WalCoalescingVfs();
  WalCoalescingVfs(const WalCoalescingVfs&) = delete;
  WalCoalescingVfs& operator=(const WalCoalescingVfs&) = delete;

  // The name to open connections with; nullptr (the default VFS) if SQLite
  // refused to register it.
  const char* name() const;

  // Writes to -wal files that went into a buffer, and buffers written.
  uint64_t bufferedWrites() const { return m_bufferedWrites.load(std::memory_order_relaxed); }
  uint64_t flushes() const { return m_flushes.load(std::memory_order_relaxed); }
  // Flushes made by the backstop that found bytes (see above): 0 unless
  // SQLite writes its frames in a way this file does not expect.
  uint64_t lateFlushes() const { return m_lateFlushes.load(std::memory_order_relaxed); }

  struct File;  // a file handle (the .cc)

 private:
  static int open(sqlite3_vfs* vfs, const char* name, sqlite3_file* file, int flags, int* outFlags);

  sqlite3_vfs m_vfs{};
  sqlite3_vfs* m_base = nullptr;
  bool m_registered = false;
  std::atomic<uint64_t> m_bufferedWrites{0};
  std::atomic<uint64_t> m_flushes{0};
  std::atomic<uint64_t> m_lateFlushes{0};
};

}  // namespace keyscope::engine
