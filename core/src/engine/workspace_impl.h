// WorkspaceImpl: the engine behind keyscope::Workspace.
//
// Locks, always taken in this order, each held briefly:
//   m_maintenance  exclusive: DDL, splits, merges, region moves; shared:
//                  flushes and compactions, which then take their region's
//                  flushing or compacting mutex (Region), in that order
//   m_write        the single writer: log append + memstore apply + read point
//   m_db           the catalog's SQLite connection
//   m_tablesMutex  the name -> Table map (readers copy a shared_ptr out)
// Reads take none of the first three: they copy the Table and store versions
// they need and read memstores below the published read point.
//
// Background work (flushes, compactions, splits, the async log, deleting
// obsolete pages) runs on kBackgroundWorkers threads fed by one queue, as
// HBase's region servers flush and compact on threads of their own: two
// regions compact at once, and a region flushes while it compacts. Both
// workers take a queued flush before anything else, so writers held back by
// memstore pressure wait behind at most the tasks already running, not the
// whole queue (no blocking-store-files guard yet: with compactions behind,
// a store's file count can grow). SQLite's checkpoints run on another
// thread (m_checkpointer).
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "engine/block_decode_pool.h"
#include "engine/catalog.h"
#include "engine/checkpointer.h"
#include "engine/fair_mutex.h"
#include "engine/page_cache.h"
#include "engine/query_matcher.h"
#include "engine/reader_pool.h"
#include "engine/region.h"
#include "engine/wal_record.h"
#include "stats/stats_queries.h"
#include "stats/stats_recorder.h"
#include "keyscope/workspace.h"

namespace keyscope::engine {

class WorkspaceImpl final : public Workspace {
 public:
  WorkspaceImpl(std::unique_ptr<Catalog> catalog, const OpenOptions& options);
  ~WorkspaceImpl() override;
  Status load();  // tables, regions, store files; garbage; log replay

  const std::string& path() const override { return m_catalog->path(); }

  Status createTable(const TableOptions& table, const std::vector<Bytes>& splits) override;
  Result<TableOptions> describeTable(std::string_view table) const override;
  std::vector<std::string> listTables() const override;
  bool tableExists(std::string_view table) const override;
  Status alterTable(const TableOptions& table) override;
  Status truncateTable(std::string_view table) override;
  Status dropTable(std::string_view table) override;

  Status mutate(std::string_view table, std::span<const Mutation> mutations, const WriteOptions& options) override;
  Status mutate(std::string_view table, const PutBatch& batch, const WriteOptions& options) override;
  Result<std::vector<Cell>> increment(std::string_view table, const Increment& increment,
                                      const WriteOptions& options) override;
  Result<bool> checkAndMutate(std::string_view table, const CheckAndMutate& check,
                              const WriteOptions& options) override;

  Result<GetResult> get(std::string_view table, const GetOptions& options) const override;
  Result<std::unique_ptr<Scanner>> scan(std::string_view table, const ScanOptions& options) const override;
  Result<uint64_t> count(std::string_view table, const ScanOptions& options) const override;

  Status flush(std::string_view table) override;
  Status compact(std::string_view table, bool major) override;
  Result<std::vector<RegionInfo>> regions(std::string_view table) const override;
  Result<std::vector<StoreFileInfo>> storeFiles(std::string_view table) const override;

  Result<std::vector<int64_t>> split(std::string_view table, const std::optional<Bytes>& splitRow) override;
  Result<std::vector<int64_t>> splitRegion(int64_t regionId, const std::optional<Bytes>& splitRow) override;
  Result<int64_t> mergeRegions(int64_t first, int64_t second) override;
  Result<std::vector<RegionHistoryEntry>> regionHistory(std::string_view table) const override;

  int32_t serverCount() const override;
  Status setServerCount(int32_t servers) override;
  Result<uint32_t> balance() override;
  bool balancerEnabled() const override;
  Status setBalancerEnabled(bool enabled) override;

  Result<std::vector<RegionLoad>> regionLoad(std::string_view table, const TimeWindow& window) const override;
  Result<std::vector<ServerLoad>> serverLoad(const TimeWindow& window) const override;
  Result<LoadSeries> serverLoadSeries(const TimeWindow& window, uint32_t columns) const override;
  Result<HeatGrid> heatGrid(std::string_view table, const HeatGridRequest& request) const override;
  Result<KeyHistogram> keyHistogram(std::string_view table, const KeyHistogramRequest& request) const override;
  // storage_report_read.cc
  Result<StorageReport> storageReport(std::string_view table, const StorageReportOptions& options) const override;

  int64_t now() const override;
  void setClock(std::optional<int64_t> nowMillis) override;
  Status waitForBackgroundWork() override;

  // The memstores' memory accounting, for tests to watch (read-only).
  const MemstoreBudget& memstoreBudget() const { return *m_memstoreBudget; }

 private:
  // A cell ready for the log and the memstore.
  // A mutation's cells ready to log and apply. They point into what they
  // were resolved from: the caller's mutations (family names and values),
  // the table (its regions and, for row deletes, its families' names), and
  // the batch's own key buffer; all of it outlives the write call.
  struct ResolvedCell {
    Region* region = nullptr;
    BytesView row;           // for statistics: one write per row and region
    std::string_view family;
    uint32_t keyOffset = 0;  // into ResolvedBatch::keys
    uint32_t keyLength = 0;
    BytesView value;
  };
  struct ResolvedBatch {
    std::vector<ResolvedCell> cells;
    std::string keys;  // every cell's internal key, back to back

    void add(Region* region, std::string_view family, BytesView row, BytesView qualifier, int64_t ts,
             CellType type, BytesView value);
    BytesView key(const ResolvedCell& cell) const { return BytesView(keys).substr(cell.keyOffset, cell.keyLength); }
    // Empties it for the next batch, keeping the room of an ordinary one.
    void clear();
  };
  enum class TaskKind { kFlush, kMinorCompaction, kMajorCompaction, kSyncLog, kSplit };
  struct Task {
    TaskKind kind;
    int64_t regionId = 0;
    std::shared_ptr<std::promise<Status>> done;  // may be null
  };

  std::shared_ptr<const Table> findTable(std::string_view name) const;
  Result<std::shared_ptr<const Table>> requireTable(std::string_view name) const;
  void publishTable(std::shared_ptr<const Table> table);
  void unpublishTable(const std::string& name);
  Result<std::shared_ptr<Region>> buildRegion(const RegionRecord& record, const TableOptions& options,
                                              const std::vector<StoreFileRecord>& files);
  // Corruption when a catalog row names a table, region or family that does
  // not exist, or a store file's row fails its checksum (workspace_open.cc).
  Status checkCatalogReferences(const std::vector<TableRecord>& tables, const std::vector<RegionRecord>& regions,
                                const std::vector<StoreFileRecord>& files) const;
  std::shared_ptr<Store> newStore(const FamilyOptions& family) const;
  // Inside a catalog transaction (m_db held): drop the catalog rows of a
  // store's files / of a table's regions and files.
  Status unlistFilesLocked(const StoreVersion& version, std::vector<std::shared_ptr<LiveStoreFile>>* retired);
  Status removeRegionsLocked(const Table& table, std::vector<std::shared_ptr<LiveStoreFile>>* retired);

  // Writes (workspace_write.cc). A mutate() of the cells `resolve` puts
  // into the batch (given the table and the time it writes at).
  Status writeResolved(std::string_view tableName, const WriteOptions& options,
                       const std::function<Status(const Table&, int64_t now, ResolvedBatch*)>& resolve);
  // REQUIRES: m_write held.
  Status resolveMutation(const Table& table, const Mutation& mutation, int64_t now, ResolvedBatch* out);
  Status resolvePutBatch(const Table& table, const PutBatch& batch, int64_t now, ResolvedBatch* out);
  // One cell of a put, its row checked and its region found by the caller.
  static Status resolvePutCell(const Table& table, Region* region, BytesView row, std::string_view family,
                               BytesView qualifier, int64_t timestamp, BytesView value, int64_t now,
                               ResolvedBatch* out);
  Status resolveDelete(const Table& table, const Delete& del, int64_t now, ResolvedBatch* out);
  // Waits while a region of the batch is far past its flush size. *waited:
  // the write lock was released meanwhile, so the table, its regions and
  // anything read under the lock may have changed: resolve again.
  Status makeRoomLocked(const ResolvedBatch& batch, std::unique_lock<std::mutex>& writeLock, bool* waited);
  Status makeRoomForRowLocked(std::string_view table, BytesView row, std::unique_lock<std::mutex>& writeLock);
  // Logs and applies the batch. REQUIRES: m_write held, and held since the
  // batch was resolved (its regions are live).
  Status applyLocked(const ResolvedBatch& batch, Durability durability);
  static std::vector<Region*> regionsOf(const std::vector<ResolvedCell>& cells);
  Status commitLogLocked(std::optional<std::pair<int64_t, std::string>> record, bool fsync);
  void maybeScheduleFlush(const Region& region);  // when its active memstores reach the flush size
  void scheduleFlush(const Region& region);       // once: not again while one is queued
  // When the workspace's active memstores pass half its memstore limit (or
  // `force`), flushes the region holding the most, unless such a flush is
  // still to run. Returns the region flushed for memory, or -1.
  int64_t maybeFlushForMemory(bool force);
  // Waits while the workspace's memstores hold more than its limit (see makeRoomLocked).
  Status makeRoomInWorkspaceLocked(std::unique_lock<std::mutex>& writeLock, bool* waited);
  // Waits (up to a second) for a flush to make room, counted in the budget.
  void waitForRoomLocked(std::unique_lock<std::mutex>& writeLock);

  // Reads (workspace_read.cc).
  // *visited (when given): the region read, if any.
  Result<GetResult> getFromTable(const Table& table, const GetOptions& options,
                                 const Region** visited = nullptr) const;
  // scan() with these limits on a row returned whole (none: unlimited).
  Result<std::unique_ptr<Scanner>> scanTable(std::string_view table, const ScanOptions& options,
                                             std::optional<RowResultLimits> rowLimits) const;

  // Background work (workspace_maintenance.cc).
  // index 0 also does the idle housekeeping (the async log's retries, ...).
  void workerLoop(size_t index);
  // The next task to run: the oldest flush, else the oldest task.
  // REQUIRES: m_queueMutex, a non-empty queue.
  Task takeNextTaskLocked();
  std::future<Status> enqueue(TaskKind kind, int64_t regionId, bool wantResult);
  Status runTask(const Task& task);
  // After a task ran: the flush attempts writers wait on, the first failure
  // waitForBackgroundWork() returns, and OpenOptions::onBackgroundError.
  void recordOutcome(const Task& task, const Status& status);
  // The failure of a flush of the region that finished after `attempts`
  // had (OK when none failed). REQUIRES: m_queueMutex.
  uint64_t flushAttemptsLocked(int64_t regionId) const;
  Status flushFailureSinceLocked(int64_t regionId, uint64_t attempts) const;
  Status flushRegion(const std::shared_ptr<Region>& region);
  // splitKey: a split of the region is under way (splitLocked), and each
  // memstore is written as two files, one on each side of the key, so the
  // split can hand them to its daughters as they are.
  // REQUIRES: m_maintenance held exclusively, or shared with the region's
  // flushing mutex.
  Status flushRegionLocked(const std::shared_ptr<Region>& region, const std::string* splitKey = nullptr);
  // The log position through which every record is in store files: the
  // oldest flushed position of a region still holding writes in memory, or
  // the last record when none does. `installing`: a region whose flushing
  // memstores are being installed as files now, counted as flushed.
  // REQUIRES: m_write held.
  int64_t logTruncationPointLocked(const Region* installing) const;
  // Moves the region's non-empty memstores to `flushing` at the current log
  // position. REQUIRES: m_write held, no flush pending for the region.
  void switchMemstoresLocked(Region& region);
  // requested: asked for by compact() rather than started by the engine.
  Status compactStore(const std::shared_ptr<Region>& region, const std::string& family, bool major, bool requested);
  Status syncAsyncLog();
  void deleteObsoleteFiles();
  // reading: where `source` reads store-file pages, if it does (it gives
  // its connection back before each page-write transaction). lasting and
  // giveUp: as CompactionInput's.
  Result<std::shared_ptr<LiveStoreFile>> writeFile(const StoreFileLabel& label, InternalIterator& source,
                                                   const FamilyOptions& options, MatchMode mode, bool lasting,
                                                   int64_t maxSeq,
                                                   LeasedPageSource* reading = nullptr,
                                                   const std::atomic<bool>* giveUp = nullptr);
  std::shared_ptr<Region> regionById(int64_t id) const;
  // Queues the task for every region of the table and waits for all of them.
  Status runOnEveryRegion(std::string_view table, TaskKind kind);
  void retireFiles(const std::vector<std::shared_ptr<LiveStoreFile>>& files);
  // The same store file, labelled with another region (a split or merge
  // moved it there without rewriting): the new wrapper holds the old one and
  // passes its retirement on (LiveStoreFile::previous).
  std::shared_ptr<LiveStoreFile> relabelled(const std::shared_ptr<LiveStoreFile>& file, const Region& region,
                                            const std::string& family) const;

  // Regions and servers (workspace_regions.cc).
  Status loadServerSettings();
  static Status checkRegionsPartition(const Table& table);
  std::vector<uint32_t> regionsPerServer() const;  // every table's live regions
  static int32_t takeLeastLoadedServer(std::vector<uint32_t>* load);
  Result<uint32_t> balanceLocked(bool force);  // REQUIRES: m_maintenance
  // After a split or merge: balances when the switch is on and a balancer
  // period has passed on the workspace clock. REQUIRES: m_maintenance
  void maybeBalanceLocked();
  uint64_t splitSizeFor(const Table& table, const Region& region) const;
  void maybeScheduleSplit(const Region& region);
  // quietWhenUnsplittable: a region that cannot split yields no daughters
  // instead of an error.
  Result<std::vector<int64_t>> splitRegionAs(int64_t regionId, const std::optional<Bytes>& splitRow,
                                             RegionOrigin origin, bool quietWhenUnsplittable);
  Result<std::vector<int64_t>> splitLocked(const std::shared_ptr<Region>& region, const std::optional<Bytes>& splitRow,
                                           RegionOrigin origin, bool quietWhenUnsplittable);  // REQUIRES: m_maintenance
  // The row to split at, or nullopt with *whyNot. REQUIRES: m_maintenance, region flushed.
  Result<std::optional<Bytes>> midRowLocked(const Region& region, std::string* whyNot);
  // The region holding the most in its memstores of those a write would
  // have a flush queued for by now (past its table's flush size, or the
  // workspace's memstores past half their limit with it holding at least
  // half of them); null when none. `only`: that region or none. A split
  // asks while it rewrites, to do those flushes itself.
  std::shared_ptr<Region> regionDueAFlush(const std::shared_ptr<Region>& only = nullptr) const;
  // m_maintenance, exclusively, for a split of `region` (null: not known).
  std::unique_lock<FairSharedMutex> lockForSplit(const std::shared_ptr<Region>& region);

  // Statistics (workspace_stats.cc).
  stats::ChargeTarget chargeTarget(const Region& region) const {
    return {region.tableId, region.id, region.server.load(std::memory_order_relaxed)};
  }
  void recordWrites(const ResolvedBatch& batch);
  Status persistStatistics() const;
  Status forgetTableStatisticsLocked(int64_t tableId);  // REQUIRES: m_db, in a transaction
  // withKeys: also the key sample (store-file block index and memstore rows).
  Result<stats::TableContext> tableContext(std::string_view table, bool withKeys) const;
  // Every row of a store file with its cells and bytes, for the key sample.
  Status appendExactRows(const LiveStoreFile& file, std::vector<stats::KeySample>* out) const;

  OpenOptions m_options;
  std::unique_ptr<Catalog> m_catalog;
  std::unique_ptr<ReaderPool> m_readers;
  std::unique_ptr<PageCache> m_cache;
  // Decompresses the blocks scans read ahead (threads start with the first).
  std::unique_ptr<BlockDecodePool> m_readahead;
  std::shared_ptr<ObsoleteFiles> m_obsolete = std::make_shared<ObsoleteFiles>();

  mutable FairSharedMutex m_maintenance;
  mutable std::mutex m_write;
  mutable FairMutex m_db;  // fair: see fair_mutex.h
  mutable std::mutex m_tablesMutex;
  // Checkpoints SQLite's log off the committing threads; holds m_db for the
  // last frames of a round. Stopped before the catalog closes.
  std::unique_ptr<Checkpointer> m_checkpointer;
  std::map<std::string, std::shared_ptr<const Table>, std::less<>> m_tables;
  std::map<int64_t, std::shared_ptr<Region>> m_regions;  // under m_tablesMutex

  // Under m_write.
  uint64_t m_nextMvcc = 1;
  int64_t m_lastSeq = 0;
  // A cell of the batch applyLocked() puts into the memstores, with what
  // orders it there.
  struct ApplyEntry {
    uint32_t familyRank = 0;  // its family's place among the batch's, by name
    uint64_t keyPrefix = 0;   // orderPrefix() of its key (key_compare.h)
    const ResolvedCell* cell = nullptr;  // the batch's cells lie in batch order
  };
  std::vector<ApplyEntry> m_applyOrder;           // applyLocked's, kept for its capacity
  std::vector<std::string_view> m_applyFamilies;  // applyLocked's: the batch's families, sorted
  ResolvedBatch m_mutateBatch;                     // mutate()'s, kept for its capacity
  std::vector<std::pair<int64_t, std::string>> m_asyncLog;
  std::condition_variable m_flushed;  // memstore pressure relieved (with m_write)
  // Every memstore's bytes, against OpenOptions::memstoreLimitBytes. Its pool
  // keeps up to half the limit (64 MiB when there is none), and only what
  // the limit leaves room for beside the memstores' blocks. In the
  // benchmark half the limit is one flushed memstore's blocks: its
  // key-ordered load mapped 63 new huge pages for its memstores with a pool
  // of half the limit or all of it, 157 with a quarter, about 180-210
  // before the pool was kept for waiting writers (docs/PERFORMANCE-HISTORY.md).
  std::shared_ptr<MemstoreBudget> m_memstoreBudget = std::make_shared<MemstoreBudget>(
      m_options.memstoreLimitBytes != 0 ? m_options.memstoreLimitBytes / 2 : size_t{64} << 20,
      m_options.memstoreLimitBytes);
  std::atomic<uint64_t> m_readPoint{0};

  std::atomic<bool> m_clockFixed{false};
  std::atomic<int64_t> m_fixedNow{0};

  static constexpr size_t kBackgroundWorkers = 2;
  std::vector<std::thread> m_workers;
  std::mutex m_queueMutex;
  std::condition_variable m_queueCv;
  std::condition_variable m_idleCv;
  std::deque<Task> m_queue;
  std::set<int64_t> m_flushQueued;  // regions with a flush waiting (under m_queueMutex)
  // The region flushed to bring the workspace's memstores under their limit,
  // until that flush has run (-1: none); one at a time. Under m_queueMutex.
  int64_t m_memoryFlushRegion = -1;
  std::set<int64_t> m_splitQueued;  // regions with a split waiting (under m_queueMutex)
  std::atomic<int32_t> m_servers{4};
  std::atomic<bool> m_balancerOn{true};
  std::optional<int64_t> m_lastBalanceMillis;  // under m_maintenance
  std::unique_ptr<stats::StatsRecorder> m_stats;
  size_t m_running = 0;  // tasks the workers are running (under m_queueMutex)
  bool m_stopping = false;
  Status m_backgroundError;  // first failure of unattended work (under m_queueMutex)
  // Per region: flushes finished and the last one's outcome (under m_queueMutex).
  struct FlushOutcome {
    uint64_t attempts = 0;
    Status last;
  };
  std::map<int64_t, FlushOutcome> m_flushOutcomes;
  // Unattended work failing now, by region and kind: reported once until it
  // succeeds again (under m_queueMutex).
  std::set<std::pair<int64_t, TaskKind>> m_failingWork;
};

}  // namespace keyscope::engine
