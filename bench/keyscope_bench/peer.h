// Peer: the one small interface every store under test implements (Keyscope's
// engine, RocksDB, LevelDB, a plain SQLite table), so the phases run the same
// code against each.
//
// A peer lives in a child process of its own and is driven from one thread.
// Errors are not recoverable in a benchmark: a peer that fails calls die(),
// which ends the child with a message; the runner reports the failed round.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "workload.h"

namespace keyscope_bench {

// What every peer is given, so that memory and durability are comparable.
struct PeerSettings {
  uint64_t cacheBytes = 64ull << 20;     // block / page cache
  uint64_t memstoreBytes = 64ull << 20;  // memstore flush size = write buffer size
  // Keyscope's family BLOCKSIZE, 0 for the default; keyscope-read-probe
  // varies it (blocks are min(4 KiB, BLOCKSIZE)), keyscope-bench does not.
  uint32_t keyscopeBlockSize = 0;
};

struct ScanTally {
  uint64_t cells = 0;
  uint64_t valueBytes = 0;
};

class Peer {
 public:
  virtual ~Peer() = default;

  // Opens (fresh: creates; the directory is empty) the store kept in `dir`.
  virtual void open(const std::string& dir, bool fresh) = 0;
  // Closes it cleanly; open() may follow.
  virtual void close() = 0;

  // Writes the batch atomically, WAL on and no fsync (Keyscope kSyncWal,
  // RocksDB/LevelDB sync=false, SQLite WAL with synchronous=NORMAL).
  virtual void write(std::span<const CellData> batch) = 0;
  // Flushes everything buffered to the store's files and compacts fully;
  // returns when nothing is left to do.
  virtual void flushAndCompact() = 0;

  // The newest value of (row, family d, qualifier) into *value; false when
  // there is none.
  virtual bool getLatest(std::string_view row, std::string_view qualifier, std::string* value) = 0;
  // Reads every version of every cell whose row starts with `prefix` (empty:
  // the whole table) in key order.
  virtual ScanTally scan(std::string_view prefix) = 0;
};

struct PeerInfo {
  std::string name;         // command-line name: keyscope, rocksdb, sqlite, leveldb
  std::string label;        // table heading: Keyscope, RocksDB, ...
  std::string description;  // version and how it was built
  std::unique_ptr<Peer> (*make)(const PeerSettings&);
};

// The peers compiled into this binary, Keyscope first when present.
const std::vector<PeerInfo>& availablePeers();
const PeerInfo* findPeer(std::string_view name);

// True when RocksDB is Debian's library (assertions on) rather than an NDEBUG build.
bool rocksDbHasAssertions();

// Ends the process with "keyscope-bench: <what>" on stderr (and, in a child
// after reportErrorsOnStdout(), "error <what>" on stdout for the runner).
[[noreturn]] void die(const std::string& what);
void reportErrorsOnStdout();

// The smallest key greater than every key starting with prefix ("" when none:
// prefix is empty or all 0xFF).
std::string prefixSuccessor(std::string_view prefix);

// The peer factories (each in its own file).
std::unique_ptr<Peer> makeRocksDbPeer(const PeerSettings& settings);
std::unique_ptr<Peer> makeSqlitePeer(const PeerSettings& settings);
std::unique_ptr<Peer> makeLevelDbPeer(const PeerSettings& settings);
std::unique_ptr<Peer> makeKeyscopePeer(const PeerSettings& settings);
std::string rocksDbDescription();
std::string sqliteDescription();
std::string levelDbDescription();
std::string keyscopeDescription();

}  // namespace keyscope_bench
