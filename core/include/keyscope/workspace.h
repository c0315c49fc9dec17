// Workspace: Keyscope's versioned-cell engine over one SQLite file.
//
// A workspace holds tables; a table holds column families and is split into
// regions; each region keeps, per family, an in-memory memstore and a list of
// store files (zstd-compressed, checksummed pages in SQLite). Every write is
// logged in the same file before it is acknowledged; reopening replays the log.
// Reads follow HBase 2.x's semantics (shared/HBASE-SEMANTICS.md).
//
// Threads: one Workspace is shared by any number of threads. Writes are
// serialised internally (one writer at a time); gets and scans run
// concurrently with writes, flushes and compactions and never wait for them.
// Each get, and each row a scanner returns, is a consistent snapshot.
// Background flushes and compactions run on the workspace's own thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "keyscope/bytes.h"
#include "keyscope/cell.h"
#include "keyscope/compare_op.h"
#include "keyscope/options.h"
#include "keyscope/read_report.h"
#include "keyscope/status.h"

namespace keyscope {

// --- Mutations (HBase's Put, Delete, Increment, CheckAndMutate) -------------

struct PutCell {
  std::string family;
  Bytes qualifier;
  int64_t timestamp = kLatestTimestamp;  // kLatestTimestamp: the server assigns now
  Bytes value;
};

struct Put {
  Bytes row;
  std::vector<PutCell> cells;
};

enum class DeleteScope : uint8_t {
  kColumnVersion,  // Delete.addColumn: one version (the newest when no timestamp)
  kColumnAll,      // Delete.addColumns: every version at or below the timestamp
  kFamily,         // Delete.addFamily: every column at or below the timestamp
  kFamilyVersion,  // Delete.addFamilyVersion: every column at exactly the timestamp
};

struct DeleteSpec {
  DeleteScope scope = DeleteScope::kColumnAll;
  std::string family;
  Bytes qualifier;                        // unused for family scopes
  int64_t timestamp = kLatestTimestamp;   // kLatestTimestamp: the Delete's own timestamp
};

struct Delete {
  Bytes row;
  int64_t timestamp = kLatestTimestamp;   // default for specs; kLatestTimestamp: now
  std::vector<DeleteSpec> specs;          // empty: the whole row (one DeleteFamily per family)
};

using Mutation = std::variant<Put, Delete>;

struct IncrementColumn {
  std::string family;
  Bytes qualifier;
  int64_t delta = 1;
};

struct Increment {
  Bytes row;
  std::vector<IncrementColumn> columns;  // a column named twice is applied once (the last)
};

struct CheckAndMutate {
  Bytes row;
  std::string family;
  Bytes qualifier;
  CompareOp op = CompareOp::kEqual;
  // nullopt or empty: ifNotExists - passes when the cell is missing or its
  // value is empty (HBase treats an empty compare value as null); NOT_EQUAL inverts.
  std::optional<Bytes> value;
  TimeRange timeRange;                    // the check reads only this range
  std::vector<Mutation> mutations;        // every one on `row`
};

// --- Results ------------------------------------------------------------------

struct RowResult {
  Bytes row;
  std::vector<Cell> cells;                // family asc, qualifier asc, timestamp desc
  bool mayHaveMoreCellsInRow = false;     // a scan batch cut the row here
};

struct GetResult {
  std::vector<Cell> cells;                // empty: no such row (or nothing visible)
  ReadReport report;
};

// Pulls a scan's rows (or row fragments, with ScanOptions::batch) in order.
// Not thread-safe: one scanner per thread. Holds no lock between calls, but
// may keep the SQLite read snapshot it is reading through from one call to
// the next (it renews it every few milliseconds of reading and drops it at
// the end), which holds back checkpoints of the workspace's journal: destroy
// a scanner you stop pulling from.
class Scanner {
 public:
  virtual ~Scanner() = default;
  // The next result, or false at the end or on error (then check status()).
  // *out is overwritten either way; passing the same RowResult on every call
  // lets the scanner reuse its cells' buffers (no allocation per cell).
  virtual bool next(RowResult* out) = 0;
  virtual Status status() const = 0;
  virtual const ReadReport& report() const = 0;
};

struct RegionInfo {
  int64_t id = 0;
  Bytes startRow;                 // inclusive; empty: the beginning of the table
  Bytes endRow;                   // exclusive; empty: the end of the table
  uint64_t memstoreBytes = 0;
  uint32_t storeFiles = 0;
  uint64_t storedBytes = 0;       // pages as stored (compressed)
  uint64_t rawBytes = 0;          // pages before compression
  uint64_t cells = 0;             // cells in store files
};

struct StoreFileInfo {
  int64_t id = 0;
  int64_t regionId = 0;
  std::string family;
  uint64_t cells = 0;
  uint64_t rawBytes = 0;
  uint64_t storedBytes = 0;
  uint32_t pages = 0;
  int64_t minTimestamp = 0;
  int64_t maxTimestamp = 0;
  Bytes firstRow;
  Bytes lastRow;
};

// --- The workspace ----------------------------------------------------------

struct OpenOptions {
  bool createIfMissing = true;
  uint64_t pageCacheBytes = 64ull << 20;   // decompressed page blocks kept for reads
  bool backgroundCompaction = true;        // compact when a store has kCompactionTrigger files
  // The clock server-assigned timestamps and TTLs use; default: system time in ms.
  std::function<int64_t()> clock;
};

class Workspace {
 public:
  // Creates (createIfMissing) or opens the workspace file at `path`. A file of a
  // newer format version, or one that is not a Keyscope workspace, is refused.
  static Result<std::unique_ptr<Workspace>> open(const std::string& path, const OpenOptions& options = {});
  virtual ~Workspace() = default;  // flushes nothing: the log already holds every write

  virtual const std::string& path() const = 0;

  // Tables.
  virtual Status createTable(const TableOptions& table, const std::vector<Bytes>& splits = {}) = 0;
  virtual Result<TableOptions> describeTable(std::string_view table) const = 0;
  virtual std::vector<std::string> listTables() const = 0;
  virtual bool tableExists(std::string_view table) const = 0;
  // Replaces the table's options: families may be added, changed or removed
  // (a removed family's data is dropped).
  virtual Status alterTable(const TableOptions& table) = 0;
  virtual Status truncateTable(std::string_view table) = 0;
  virtual Status dropTable(std::string_view table) = 0;

  // Writes. A mutate() call is atomic: all of it or none of it is applied and
  // logged, in one transaction.
  virtual Status mutate(std::string_view table, std::span<const Mutation> mutations,
                        const WriteOptions& options = {}) = 0;
  Status put(std::string_view table, Put put, const WriteOptions& options = {});
  Status remove(std::string_view table, Delete del, const WriteOptions& options = {});
  // The new values, one cell per distinct column.
  virtual Result<std::vector<Cell>> increment(std::string_view table, const Increment& increment,
                                              const WriteOptions& options = {}) = 0;
  // True when the check passed and the mutations were applied.
  virtual Result<bool> checkAndMutate(std::string_view table, const CheckAndMutate& check,
                                      const WriteOptions& options = {}) = 0;

  // Reads.
  virtual Result<GetResult> get(std::string_view table, const GetOptions& options) const = 0;
  virtual Result<std::unique_ptr<Scanner>> scan(std::string_view table, const ScanOptions& options) const = 0;
  // Rows the scan would return (HBase's count uses a FirstKeyOnlyFilter scan).
  virtual Result<uint64_t> count(std::string_view table, const ScanOptions& options) const = 0;

  // Maintenance. flush writes every memstore of the table to store files;
  // compact merges store files (major: applying deletes, TTL and versions).
  virtual Status flush(std::string_view table) = 0;
  virtual Status compact(std::string_view table, bool major) = 0;

  virtual Result<std::vector<RegionInfo>> regions(std::string_view table) const = 0;
  virtual Result<std::vector<StoreFileInfo>> storeFiles(std::string_view table) const = 0;

  // The clock. setClock fixes it at `nowMillis` until the next setClock;
  // nullopt returns to the clock given at open.
  virtual int64_t now() const = 0;
  virtual void setClock(std::optional<int64_t> nowMillis) = 0;

  // Waits until background flushes and compactions queued so far are done.
  virtual Status waitForBackgroundWork() = 0;
};

}  // namespace keyscope
