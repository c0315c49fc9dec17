// WorkspaceImpl: background work - flushes, compactions, the async log, and
// deleting the pages of obsolete store files.
#include <algorithm>
#include <limits>
#include <set>
#include <shared_mutex>

#include "engine/compactor.h"
#include "engine/merging_iterator.h"
#include "engine/range_iterator.h"
#include "engine/sqlite_pages.h"
#include "engine/sync_point.h"
#include "engine/thread_priority.h"
#include "engine/workspace_impl.h"

namespace keyscope::engine {

namespace {

// Pages are written in transactions of about this many bytes, so a long
// flush or compaction never holds the database lock for long: writers' log
// commits interleave with it. (Sixteen pages of a format-4 file at the
// default BLOCKSIZE; counted in bytes since format 5's pages are leaf-sized.)
constexpr size_t kBytesPerTransaction = 448 << 10;

// Buffers a store file's pages and writes them in short transactions. The
// first one also lists the file in pending_files, so a crash before the file
// is registered leaves garbage that the next open deletes.
//
// `reading`, when given, is where the file's source reads pages (a
// compaction's or a split's): it gives its connection back to the pool
// before each transaction, so a checkpoint that holds the database mutex
// while it waits for readers (checkpointer.h) waits for an idle snapshot,
// which it ends, not for a reader that waits for the mutex.
class ChunkedPageSink final : public PageSink {
 public:
  ChunkedPageSink(Catalog* catalog, FairMutex* db, LeasedPageSource* reading)
      : m_catalog(catalog), m_db(db), m_reading(reading) {}
  // The insert statement belongs to the catalog's connection, which the
  // writer's commits use meanwhile, and the connection has no lock of its
  // own (SQLITE_OPEN_NOMUTEX): finalizing it beside a commit raced on the
  // connection's statement list and lookaside memory.
  ~ChunkedPageSink() override {
    if (m_sink == nullptr) return;
    std::lock_guard lock(*m_db);
    m_sink.reset();
  }
  ChunkedPageSink(const ChunkedPageSink&) = delete;
  ChunkedPageSink& operator=(const ChunkedPageSink&) = delete;

  Status writePage(int64_t fileId, uint32_t pageNo, BytesView data) override {
    m_fileId = fileId;
    m_buffer.push_back({pageNo, std::string(data)});
    m_bufferedBytes += data.size();
    if (m_bufferedBytes >= kBytesPerTransaction) return writeBuffered();
    return Status::ok();
  }

  Status finish() { return m_buffer.empty() ? Status::ok() : writeBuffered(); }
  bool wroteAny() const { return m_started; }

 private:
  Status writeBuffered() {
    if (m_reading != nullptr) m_reading->release();
    std::lock_guard lock(*m_db);
    if (m_sink == nullptr) m_sink = std::make_unique<SqlitePageSink>(m_catalog->db());
    Status status = m_catalog->begin();
    if (status && !m_started) status = m_catalog->addPendingFile(m_fileId);
    for (const auto& [pageNo, data] : m_buffer) {
      if (status) status = m_sink->writePage(m_fileId, pageNo, data);
    }
    if (status) status = m_catalog->commit();
    if (!status) {
      m_catalog->rollback();
      return status;
    }
    m_started = true;
    m_buffer.clear();
    m_bufferedBytes = 0;
    return Status::ok();
  }

  Catalog* m_catalog;
  FairMutex* m_db;
  LeasedPageSource* m_reading;
  std::unique_ptr<SqlitePageSink> m_sink;
  int64_t m_fileId = 0;
  bool m_started = false;
  std::vector<std::pair<uint32_t, std::string>> m_buffer;
  size_t m_bufferedBytes = 0;
};

std::shared_ptr<StoreVersion> copyOf(const StoreVersion& version) { return std::make_shared<StoreVersion>(version); }

void insertByAge(std::vector<std::shared_ptr<LiveStoreFile>>* files, std::shared_ptr<LiveStoreFile> file) {
  auto at = std::find_if(files->begin(), files->end(), [&](const auto& f) { return f->maxSeq < file->maxSeq; });
  files->insert(at, std::move(file));
}

}  // namespace

std::future<Status> WorkspaceImpl::enqueue(TaskKind kind, int64_t regionId, bool wantResult) {
  Task task{kind, regionId, nullptr};
  std::future<Status> future;
  if (wantResult) {
    task.done = std::make_shared<std::promise<Status>>();
    future = task.done->get_future();
  }
  {
    std::lock_guard lock(m_queueMutex);
    const auto sameRegion = [&](const Task& t) { return t.regionId == regionId; };
    const auto isCompaction = [](const Task& t) {
      return t.kind == TaskKind::kMinorCompaction || t.kind == TaskKind::kMajorCompaction;
    };
    // A compaction the engine asks for while one of the region waits to start
    // is that one: it chooses its files when it runs. A major compaction
    // takes the place of the engine's minor ones still waiting: it rewrites
    // every file they would merge, and they would only delay it.
    if (kind == TaskKind::kMinorCompaction && !wantResult &&
        std::any_of(m_queue.begin(), m_queue.end(), [&](const Task& t) { return sameRegion(t) && isCompaction(t); })) {
      return future;
    }
    if (kind == TaskKind::kMajorCompaction) {
      std::erase_if(m_queue, [&](const Task& t) {
        return sameRegion(t) && t.kind == TaskKind::kMinorCompaction && t.done == nullptr;
      });
    }
    m_queue.push_back(std::move(task));
  }
  m_queueCv.notify_one();
  return future;
}

WorkspaceImpl::Task WorkspaceImpl::takeNextTaskLocked() {
  auto next = std::find_if(m_queue.begin(), m_queue.end(), [](const Task& t) { return t.kind == TaskKind::kFlush; });
  if (next == m_queue.end()) next = m_queue.begin();
  Task task = std::move(*next);
  m_queue.erase(next);
  return task;
}

void WorkspaceImpl::workerLoop(size_t index) {
  while (true) {
    Task task;
    {
      std::unique_lock lock(m_queueMutex);
      m_queueCv.wait_for(lock, std::chrono::milliseconds(500), [this] { return m_stopping || !m_queue.empty(); });
      if (m_queue.empty()) {
        if (m_stopping) return;
        if (index != 0) continue;
        lock.unlock();
        // Asynchronously logged batches whose commit failed (a full disk)
        // wait in memory; they are retried here until they are in the log.
        const Task retryLog{TaskKind::kSyncLog, 0, nullptr};
        recordOutcome(retryLog, runTask(retryLog));
        deleteObsoleteFiles();
        (void)persistStatistics();  // statistics only: a failure retries next time
        m_readers->dropIdleSnapshots();  // so checkpoints can pass them (reader_pool.h)
        m_memstoreBudget->trimPool(ArenaBlockPool::Clock::now());
        continue;
      }
      task = takeNextTaskLocked();
      // No longer waiting: a write that passes the flush size from here on
      // queues the next flush (erasing only after this one ran lost that
      // request, and a writer held back by memstore pressure waited out its
      // one-second timeout).
      if (task.kind == TaskKind::kFlush) m_flushQueued.erase(task.regionId);
      if (m_stopping && task.done == nullptr && task.kind != TaskKind::kSyncLog) continue;  // the log holds it all
      ++m_running;
    }
    Status status = runTask(task);
    if (task.kind == TaskKind::kFlush) {
      std::lock_guard lock(m_queueMutex);
      if (m_memoryFlushRegion == task.regionId) m_memoryFlushRegion = -1;  // the next may be chosen
    }
    deleteObsoleteFiles();
    (void)persistStatistics();
    m_readers->dropIdleSnapshots();
    m_memstoreBudget->trimPool(ArenaBlockPool::Clock::now());
    recordOutcome(task, status);
    {
      std::lock_guard lock(m_queueMutex);
      --m_running;
    }
    if (task.done != nullptr) task.done->set_value(status);
    m_idleCv.notify_all();
  }
}

Status WorkspaceImpl::runTask(const Task& task) {
  // Failures say which work on which table failed: a background one reaches
  // the user with nothing else around it.
  const auto inContext = [](const Status& s, const std::string& what) { return s.withMessage(what + ": " + s.message()); };
  static constexpr std::string_view kPoints[] = {"task:flush", "task:minor-compaction", "task:major-compaction",
                                                 "task:sync-log", "task:split"};  // in TaskKind's order
  syncPoint(kPoints[static_cast<size_t>(task.kind)]);
  if (task.kind == TaskKind::kSyncLog) return inContext(syncAsyncLog(), "logging asynchronously written batches");
  std::shared_ptr<Region> region = regionById(task.regionId);
  if (region == nullptr) return Status::ok();  // dropped meanwhile
  const std::string where = "table '" + region->tableName + "' (region " + std::to_string(region->id) + ")";
  if (task.kind == TaskKind::kFlush) return inContext(flushRegion(region), "flushing " + where);
  if (task.kind == TaskKind::kSplit) {
    Result<std::vector<int64_t>> daughters = splitRegionAs(region->id, std::nullopt, RegionOrigin::kSizeSplit, true);
    // Split meanwhile, by the split that queued this one again as it flushed:
    // the other worker ran that one while this task waited for it.
    if (!daughters && daughters.status().code() == Status::Code::kNotFound) return Status::ok();
    return inContext(daughters.status(), "splitting " + where);
  }
  const bool major = task.kind == TaskKind::kMajorCompaction;
  for (const auto& [family, store] : region->stores) {
    if (Status s = compactStore(region, family, major, task.done != nullptr); !s)
      return inContext(s, (major ? "major compaction of " : "compaction of ") + where);
  }
  return Status::ok();
}

void WorkspaceImpl::recordOutcome(const Task& task, const Status& status) {
  bool report = false;
  {
    std::lock_guard lock(m_queueMutex);
    if (task.kind == TaskKind::kFlush) {
      FlushOutcome& outcome = m_flushOutcomes[task.regionId];
      ++outcome.attempts;
      outcome.last = status;
    }
    const auto work = std::make_pair(task.regionId, task.kind);
    if (status) {
      m_failingWork.erase(work);
    } else if (task.done == nullptr) {  // unattended: nobody else hears of it
      if (m_backgroundError.isOk()) m_backgroundError = status;
      report = m_failingWork.insert(work).second;
    }
  }
  if (task.kind == TaskKind::kFlush) m_flushed.notify_all();  // writers wait for a flush's outcome
  if (report && m_options.onBackgroundError) m_options.onBackgroundError(status);
}

uint64_t WorkspaceImpl::flushAttemptsLocked(int64_t regionId) const {
  const auto it = m_flushOutcomes.find(regionId);
  return it == m_flushOutcomes.end() ? 0 : it->second.attempts;
}

Status WorkspaceImpl::flushFailureSinceLocked(int64_t regionId, uint64_t attempts) const {
  const auto it = m_flushOutcomes.find(regionId);
  if (it == m_flushOutcomes.end() || it->second.attempts <= attempts) return Status::ok();
  return it->second.last;
}

Status WorkspaceImpl::syncAsyncLog() {
  std::lock_guard write(m_write);
  if (m_asyncLog.empty()) return Status::ok();
  return commitLogLocked(std::nullopt, false);
}

void WorkspaceImpl::deleteObsoleteFiles() {
  bool deletedAny = false;
  for (int64_t id : m_obsolete->take()) {
    m_cache->eraseFile(id);
    std::lock_guard db(m_db);
    Status status = m_catalog->begin();
    if (status) status = deleteStoreFilePages(m_catalog->db(), id);
    if (status) status = m_catalog->removePendingFile(id);
    if (status) status = m_catalog->commit();
    // On failure the file stays in pending_files and the next open deletes it.
    if (!status) m_catalog->rollback();
    deletedAny = deletedAny || status.isOk();
  }
  // Shrink the file in short steps, so writers' log commits interleave.
  constexpr int kPagesPerVacuumStep = 1024;  // 8 MiB of 8 KiB pages
  for (bool more = deletedAny; more;) {
    std::lock_guard db(m_db);
    Result<bool> remaining = m_catalog->releaseFreePages(kPagesPerVacuumStep);
    more = remaining.isOk() && *remaining;
  }
}

Result<std::shared_ptr<LiveStoreFile>> WorkspaceImpl::writeFile(const StoreFileLabel& label, InternalIterator& source,
                                                                const FamilyOptions& options, MatchMode mode,
                                                                bool lasting, int64_t maxSeq, LeasedPageSource* reading,
                                                                const std::atomic<bool>* giveUp) {
  int64_t fileId;
  {
    std::lock_guard db(m_db);
    fileId = m_catalog->allocateFileId();
  }
  ChunkedPageSink sink(m_catalog.get(), &m_db, reading);
  CompactionInput input{&source, &options, mode, lasting, now(), giveUp};
  Result<std::optional<StoreFileMeta>> meta = writeStoreFile(input, fileId, &sink);
  Status status = meta.status();
  if (status) status = sink.finish();
  if (!status) {
    if (sink.wroteAny()) m_obsolete->add(fileId);  // its pages are garbage
    return status;
  }
  if (!meta->has_value()) return std::shared_ptr<LiveStoreFile>();
  // Moved, not copied: in the benchmark's loads a written file's block index
  // alone is about 0.7 MB, and its bloom filter comes with it.
  auto reader = std::make_unique<StoreFileReader>(fileId, std::move(**meta), label, m_cache.get());
  return std::make_shared<LiveStoreFile>(std::move(reader), maxSeq, m_obsolete);
}

void WorkspaceImpl::switchMemstoresLocked(Region& region) {
  region.pendingFlushSeq = m_lastSeq;  // cleared once the flush is recorded
  for (const auto& [family, store] : region.stores) {
    const auto version = store->current();
    if (version->active->empty()) continue;
    auto next = copyOf(*version);
    next->flushing = version->active;
    next->flushing->markFlushing();
    next->active = std::make_shared<Memstore>(m_memstoreBudget);
    store->install(std::move(next));
  }
}

int64_t WorkspaceImpl::logTruncationPointLocked(const Region* installing) const {
  int64_t point = std::numeric_limits<int64_t>::max();
  std::lock_guard lock(m_tablesMutex);
  for (const auto& [id, r] : m_regions) {
    bool unflushed = false;
    for (const auto& [family, store] : r->stores) {
      if (!store->current()->active->empty()) unflushed = true;
      if (r.get() != installing && store->current()->flushing != nullptr) unflushed = true;
    }
    if (unflushed) point = std::min(point, r->flushedSeq.load());
  }
  return std::min(point, m_lastSeq);
}

Status WorkspaceImpl::flushRegion(const std::shared_ptr<Region>& staleRegion) {
  std::shared_lock maintenance(m_maintenance);
  std::shared_ptr<Region> region = regionById(staleRegion->id);
  if (region == nullptr) return Status::ok();
  std::lock_guard flushing(region->flushing);
  // A retry of a flush that failed (a full disk, say) writes the memstores
  // switched out then; what was written since follows, as a flush takes all.
  const bool retry = region->pendingFlushSeq >= 0;
  Status status = flushRegionLocked(region);
  if (status && retry) status = flushRegionLocked(region);
  return status;
}

Status WorkspaceImpl::flushRegionLocked(const std::shared_ptr<Region>& region, const std::string* splitKey) {
  // A region with a damaged store file is left as it is (writes stay in the
  // memstore and the log) until keyscope-cli check --repair drops the file.
  for (const auto& [family, store] : region->stores) {
    if (Status s = store->current()->damage(); !s) return s;
  }
  // 1. Switch memstores: new writes go to fresh ones from here on. A flush
  // that failed earlier is retried as it was: the same memstores, and the
  // log position of its switch, not today's (later records are not in them).
  if (region->pendingFlushSeq < 0) {
    std::lock_guard write(m_write);
    switchMemstoresLocked(*region);
  }
  const int64_t flushSeq = region->pendingFlushSeq;

  // 2. Write each flushing memstore as a store file (no lock held); during a
  // split, as two, one on each side of the split key.
  std::map<std::string, std::vector<std::shared_ptr<LiveStoreFile>>> written;
  const auto abandon = [&](const Status& status) {
    for (const auto& [family, files] : written) {
      for (const auto& file : files) file->obsolete.store(true);
    }
    return status;
  };
  bool anyFlushing = false;
  for (const auto& [family, store] : region->stores) {
    const auto version = store->current();
    if (version->flushing == nullptr) continue;
    anyFlushing = true;
    const StoreFileLabel label{region->tableName, region->id, family};
    // (label.family, not the binding: clang before 16 cannot capture structured bindings.)
    const auto write = [&](InternalIterator& source) -> Status {
      Result<std::shared_ptr<LiveStoreFile>> file =
          writeFile(label, source, version->options, MatchMode::kMinorCompaction, /*lasting=*/false, flushSeq);
      if (!file) return file.status();
      if (*file != nullptr) written[label.family].push_back(*file);
      return Status::ok();
    };
    const auto memstore = [&] { return version->flushing->newIterator(std::numeric_limits<uint64_t>::max()); };
    if (splitKey == nullptr) {
      if (Status s = write(*memstore()); !s) return abandon(s);
      continue;
    }
    RangeIterator low(memstore(), std::string(), *splitKey);
    RangeIterator high(memstore(), *splitKey, std::string());
    if (Status s = write(low); !s) return abandon(s);
    if (Status s = write(high); !s) return abandon(s);
  }
  if (!anyFlushing) {
    region->pendingFlushSeq = -1;  // nothing was in memory
    return Status::ok();
  }

  // 3. Register the files, record the flush and truncate the log in one
  // transaction; then let readers switch from the memstores to the files.
  std::lock_guard write(m_write);
  {
    std::lock_guard db(m_db);
    Status status = m_catalog->begin();
    for (const auto& [family, files] : written) {
      for (const auto& file : files) {
        if (!status) break;
        status = m_catalog->insertStoreFile(
            {file->reader->id(), region->id, family, file->maxSeq, file->reader->meta().encode()});
        if (status) status = m_catalog->removePendingFile(file->reader->id());
      }
    }
    if (status) status = m_catalog->setRegionFlushedSeq(region->id, flushSeq);
    if (status) {
      // The truncation point as it will be once this flush is installed.
      const int64_t previous = region->flushedSeq.exchange(flushSeq);
      status = m_catalog->truncateWalThrough(logTruncationPointLocked(region.get()));
      if (!status) region->flushedSeq.store(previous);
    }
    if (status) status = m_catalog->commit();
    if (!status) {
      m_catalog->rollback();
      return abandon(status);
    }
  }
  bool wantCompaction = false;
  for (const auto& [family, store] : region->stores) {
    const auto version = store->current();
    if (version->flushing == nullptr) continue;
    version->flushing->markFlushed();
    auto next = copyOf(*version);
    next->flushing = nullptr;
    if (const auto files = written.find(family); files != written.end()) {
      for (const auto& file : files->second) insertByAge(&next->files, file);
    }
    wantCompaction = wantCompaction || next->files.size() >= kCompactionMinFiles;
    store->install(std::move(next));
  }
  region->pendingFlushSeq = -1;
  m_flushed.notify_all();
  if (splitKey != nullptr) return Status::ok();  // the split asks its daughters' compactions
  if (wantCompaction && m_options.backgroundCompaction) enqueue(TaskKind::kMinorCompaction, region->id, false);
  maybeScheduleSplit(*region);
  return Status::ok();
}

Status WorkspaceImpl::compactStore(const std::shared_ptr<Region>& staleRegion, const std::string& family, bool major,
                                   bool requested) {
  std::shared_lock maintenance(m_maintenance);
  std::shared_ptr<Region> region = regionById(staleRegion->id);
  if (region == nullptr) return Status::ok();
  std::lock_guard compacting(region->compacting);
  const auto storeIt = region->stores.find(family);
  if (storeIt == region->stores.end()) return Status::ok();
  const std::shared_ptr<Store> store = storeIt->second;
  std::vector<std::shared_ptr<LiveStoreFile>> selected;
  FamilyOptions options;
  {
    // The version is let go of before the merge: it holds the memstores too,
    // and one flushed meanwhile would stay mapped until the merge ends, no
    // longer counted against the workspace's memstore limit (a compaction
    // beside a load's flushes held up to a whole memstore's worth more).
    const auto version = store->current();
    if (Status s = version->damage(); !s) return s;  // never folded into a new file
    if (version->files.empty() || (!major && version->files.size() < kCompactionMinFiles)) return Status::ok();
    options = version->options;
    if (major) {
      selected = version->files;
    } else {
      std::vector<CompactionCandidate> oldestFirst;
      for (size_t i = version->files.size(); i-- > 0;) {
        const StoreFileMeta& meta = version->files[i]->reader->meta();
        oldestFirst.push_back({i, meta.storedBytes, meta.firstKey, meta.lastKey});
      }
      // Asked for (compact 't'): every qualifying run is merged.
      std::vector<size_t> picked = selectMinorCompaction(oldestFirst, /*leaveDisjointRuns=*/!requested);
      std::sort(picked.begin(), picked.end());  // newest first, as in the version
      for (size_t i : picked) selected.push_back(version->files[i]);
    }
  }
  if (selected.empty() || (!major && selected.size() < 2)) return Status::ok();
  syncPoint("compaction:merge");

  int64_t maxSeq = 0;
  for (const auto& file : selected) maxSeq = std::max(maxSeq, file->maxSeq);
  // The merge waits for nobody, so it runs below the writer's and the
  // flushes' priority (thread_priority.h). One the engine started gives way
  // to a split of the region (HBase's compactions likewise stop when their
  // region closes to split): the split rewrites these files anyway, and
  // would wait for the merge to end (lockForSplit).
  Result<std::shared_ptr<LiveStoreFile>> output = runAtBackgroundPriority([&] {
    LeasedPageSource pages(m_readers.get());
    const ReadContext context{&pages, nullptr, /*fillCache=*/false};
    std::vector<std::unique_ptr<InternalIterator>> children;
    for (const auto& file : selected) children.push_back(file->reader->newIterator(context));
    auto source = newMergingIterator(std::move(children));
    return writeFile(StoreFileLabel{region->tableName, region->id, family}, *source, options,
                     major ? MatchMode::kMajorCompaction : MatchMode::kMinorCompaction, /*lasting=*/major, maxSeq, &pages,
                     requested ? nullptr : &region->splitWaiting);
  });
  if (!output && output.status().code() == Status::Code::kCancelled) {
    syncPoint("compaction:given-up");
    return Status::ok();
  }
  if (!output) return output.status();

  std::lock_guard write(m_write);
  {
    std::lock_guard db(m_db);
    Status status = m_catalog->begin();
    if (status && *output != nullptr) {
      status = m_catalog->insertStoreFile({(*output)->reader->id(), region->id, family, maxSeq,
                                           (*output)->reader->meta().encode()});
      if (status) status = m_catalog->removePendingFile((*output)->reader->id());
    }
    for (const auto& file : selected) {
      if (status) status = m_catalog->deleteStoreFileRow(file->reader->id());
      if (status) status = m_catalog->addPendingFile(file->reader->id());
    }
    if (status) status = m_catalog->commit();
    if (!status) {
      m_catalog->rollback();
      if (*output != nullptr) (*output)->obsolete.store(true);
      return status;
    }
  }
  auto next = copyOf(*store->current());
  std::erase_if(next->files, [&](const auto& f) { return std::find(selected.begin(), selected.end(), f) != selected.end(); });
  if (*output != nullptr) insertByAge(&next->files, *output);
  store->install(std::move(next));
  retireFiles(selected);
  maybeScheduleSplit(*region);
  return Status::ok();
}

Status WorkspaceImpl::runOnEveryRegion(std::string_view tableName, TaskKind kind) {
  // A region split after its task was queued is gone when the task runs, and
  // the task does nothing; its daughters hold what it held (the writes of the
  // split's last moment in their memstores, its files rewritten by a minor
  // compaction's rules). So the table is looked at again until every region
  // it has was done.
  std::set<int64_t> done;
  Status result;
  while (true) {
    Result<std::shared_ptr<const Table>> table = requireTable(tableName);
    if (!table) return done.empty() ? table.status() : result;  // dropped meanwhile
    std::vector<std::future<Status>> pending;
    for (const auto& region : (*table)->regions) {
      if (done.insert(region->id).second) pending.push_back(enqueue(kind, region->id, true));
    }
    if (pending.empty()) return result;
    for (auto& f : pending) {
      Status s = f.get();
      if (result && !s) result = s;
    }
  }
}

Status WorkspaceImpl::flush(std::string_view table) { return runOnEveryRegion(table, TaskKind::kFlush); }

Status WorkspaceImpl::compact(std::string_view table, bool major) {
  return runOnEveryRegion(table, major ? TaskKind::kMajorCompaction : TaskKind::kMinorCompaction);
}

Status WorkspaceImpl::waitForBackgroundWork() {
  std::unique_lock lock(m_queueMutex);
  m_idleCv.wait(lock, [this] { return m_queue.empty() && m_running == 0; });
  return std::exchange(m_backgroundError, Status::ok());
}

}  // namespace keyscope::engine
