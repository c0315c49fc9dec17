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
#include "keyscope/put_batch.h"
#include "keyscope/read_report.h"
#include "keyscope/statistics.h"
#include "keyscope/storage_report.h"
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
// a scanner you stop pulling from. A scanner must not outlive its workspace:
// destroy it before the Workspace (it reports its reads to the workspace's
// statistics as it goes and when it is destroyed).
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
  int32_t server = 0;             // the simulated region server it is assigned to, 0-based
  int64_t createdMillis = 0;      // workspace clock
  uint64_t memstoreBytes = 0;
  uint32_t storeFiles = 0;
  uint64_t storedBytes = 0;       // pages as stored (compressed)
  uint64_t rawBytes = 0;          // pages before compression
  uint64_t cells = 0;             // cells in store files
  uint32_t damagedStoreFiles = 0;  // of storeFiles: metadata unreadable, reads fail (keyscope-cli check)
};

// How a region came to be.
enum class RegionOrigin : uint8_t {
  kCreate,       // the table's first region (create, truncate)
  kPreSplit,     // one of the regions made at create by SPLITS / NUMREGIONS
  kSizeSplit,    // a daughter of a split by the table's split policy
  kManualSplit,  // a daughter of a split asked for (shell split, Workspace::split)
  kMerge,        // the merge of two adjacent regions
};
const char* regionOriginName(RegionOrigin origin);  // "create", "pre-split", "size split", ...

// One region in a table's history: every region that ever existed, live or
// retired by a split or merge (split lineage, for display).
struct RegionHistoryEntry {
  int64_t regionId = 0;
  Bytes startRow;
  Bytes endRow;
  int64_t createdMillis = 0;
  std::optional<int64_t> retiredMillis;  // nullopt while the region is live
  std::vector<int64_t> parents;          // one for a split daughter, two for a merge
  RegionOrigin origin = RegionOrigin::kCreate;
  Bytes splitRow;                        // split daughters: the row their parent split at
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
  // Empty for a readable file. Otherwise why its metadata does not verify;
  // the figures above are then unknown (0), and reads of its region and
  // family fail with that Corruption until keyscope-cli check --repair.
  std::string damage;
};

// --- The workspace ----------------------------------------------------------

struct OpenOptions {
  bool createIfMissing = true;
  uint64_t pageCacheBytes = 64ull << 20;   // decompressed page blocks kept for reads
  // Minor compactions on their own, by HBase's ratio rule once a store holds
  // 3 files; a run of files whose key ranges do not overlap is left as it is
  // while the store holds at most 10 (compact() merges them when asked).
  bool backgroundCompaction = true;
  // All memstores of all regions together, as HBase's global memstore limit
  // (hbase.regionserver.global.memstore.size). When the memstores still taking
  // writes pass half of it, the region holding the most is flushed; past all
  // of it, writes wait for flushes. 0: no limit beyond each region's own
  // (twice its table's flush size).
  uint64_t memstoreLimitBytes = 256ull << 20;
  // The clock server-assigned timestamps and TTLs use; default: system time in ms.
  std::function<int64_t()> clock;
  // The largest row a get, or a scan without a batch, returns (options.h).
  RowResultLimits rowResultLimits;
  // Told when unattended work fails: a flush or compaction the engine started
  // itself, or the write of asynchronously logged batches. Called on the
  // workspace's background thread, once per failing region and kind of work
  // until it succeeds again (a failed flush is retried on later writes), so
  // it must be quick and must not call the workspace. Nothing is lost by such
  // a failure: the data stays in memory and in the log; when a flush keeps
  // failing, writes to the region fail once its memstore holds twice its
  // flush size (the Status says why). waitForBackgroundWork() returns the
  // first such failure too.
  std::function<void(const Status&)> onBackgroundError;
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
  // The same for puts held in one buffer (put_batch.h): the cheaper way to
  // write many cells. An error in a batch of several cells names the cell
  // ("cell 3: ..."), as one in several mutations names the mutation.
  virtual Status mutate(std::string_view table, const PutBatch& batch, const WriteOptions& options = {}) = 0;
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

  // Regions (DESIGN.md "Regions"). A split flushes the region, writes its
  // data into two daughters [start, splitRow) and [splitRow, end) and
  // retires it, atomically: readers see the parent or the daughters, and a
  // crash at any moment leaves one or the other. Both return the new
  // regions' ids.
  // With a row: splits the region holding it at that row; InvalidArgument
  // when the row is the region's start (a daughter would be empty). Without:
  // every region of the table at its mid key (the row starting the middle
  // block of its largest store); regions that cannot split (empty, or one
  // row) are left as they are, and InvalidArgument says so when none could.
  virtual Result<std::vector<int64_t>> split(std::string_view table, const std::optional<Bytes>& splitRow = {}) = 0;
  virtual Result<std::vector<int64_t>> splitRegion(int64_t regionId, const std::optional<Bytes>& splitRow = {}) = 0;
  // Merges two adjacent regions of one table (in either order) into one.
  virtual Result<int64_t> mergeRegions(int64_t first, int64_t second) = 0;
  virtual Result<std::vector<RegionHistoryEntry>> regionHistory(std::string_view table) const = 0;

  // Simulated region servers: regions are assigned to servers 0..n-1 (round
  // robin at create, daughters stay on their parent's server) and the
  // balancer evens out region counts as HBase's SimpleLoadBalancer does.
  // Persisted in the workspace; 4 servers and the balancer on by default.
  virtual int32_t serverCount() const = 0;
  virtual Status setServerCount(int32_t servers) = 0;  // 1 ... 1000; rebalances
  // Runs the balancer now; the number of regions it moved.
  virtual Result<uint32_t> balance() = 0;
  // balance_switch: when on, the balancer also runs after a split or merge,
  // at most once per five minutes of the workspace clock (hbase.balancer.period).
  virtual bool balancerEnabled() const = 0;
  virtual Status setBalancerEnabled(bool enabled) = 0;

  // Statistics (statistics.h). Every query sees what was recorded up to the
  // call, persisted or not.
  virtual Result<std::vector<RegionLoad>> regionLoad(std::string_view table, const TimeWindow& window) const = 0;
  virtual Result<std::vector<ServerLoad>> serverLoad(const TimeWindow& window) const = 0;
  // Per server and time column: servers x columns counters.
  virtual Result<LoadSeries> serverLoadSeries(const TimeWindow& window, uint32_t columns) const = 0;
  virtual Result<HeatGrid> heatGrid(std::string_view table, const HeatGridRequest& request) const = 0;
  virtual Result<KeyHistogram> keyHistogram(std::string_view table, const KeyHistogramRequest& request) const = 0;

  // Storage (storage_report.h): where the table's bytes go, per family and
  // region, read from every block of its store files (or a sample of blocks
  // with options.maxCells). Memstore data is not in store files yet: each
  // slice gives its size apart. Cancelled when options.cancel is.
  virtual Result<StorageReport> storageReport(std::string_view table,
                                              const StorageReportOptions& options = {}) const = 0;

  // The clock. setClock fixes it at `nowMillis` until the next setClock;
  // nullopt returns to the clock given at open.
  virtual int64_t now() const = 0;
  virtual void setClock(std::optional<int64_t> nowMillis) = 0;

  // Waits until background flushes and compactions queued so far are done;
  // returns the first failure of unattended work since the last call.
  virtual Status waitForBackgroundWork() = 0;
};

}  // namespace keyscope
