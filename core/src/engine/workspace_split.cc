// WorkspaceImpl: splitting and merging regions.
//
// A split runs under m_maintenance, so no flush task or compaction of any
// region changes store files meanwhile, in three steps:
//   1. flush the parent: its data up to log position S is in store files;
//   2. rewrite the files holding rows on both sides of the split row into two
//      daughters' files (no lock held: writes keep going into the parent's
//      memstore, and the split does every region's flushes as they fall
//      due, the parent's each memstore as two files cut at the split row),
//      then switch
//      the parent's memstore and write what it holds into the daughters'
//      files as well, up to log position S2;
//   3. under m_write, in one catalog transaction: the daughters (flushed_seq
//      S2, the parent's server), their files, the parent's retirement and the
//      lineage; then the parent's memstore (writes after S2) is copied into
//      the daughters and the new region list is published.
// A file whose rows all lie on one side of the split row moves to that
// daughter in step 3 as it is, like a merge's files (the cut files of step 2
// among them): a key-ordered load
// flushes such files one after another, and only the one holding the split
// row has rows on both sides. HBase defers even that rewrite with reference
// files; a rewritten file keeps every store file self-contained.
// A crash before 3 commits leaves the parent and garbage pages (deleted at
// the next open); after, the daughters, and replay routes log records that
// name the parent to the daughter holding each row.
//
// A merge flushes both regions at one log position, then moves their store
// files (no rewrite: each lies inside the merged range) to the new region.
#include <algorithm>
#include <array>
#include <functional>
#include <future>
#include <limits>
#include <optional>
#include <thread>

#include "engine/compactor.h"
#include "engine/internal_key.h"
#include "engine/merging_iterator.h"
#include "engine/range_iterator.h"
#include "engine/store_file_format.h"
#include "engine/sync_point.h"
#include "engine/thread_priority.h"
#include "engine/workspace_impl.h"

namespace keyscope::engine {

namespace {

// How often a split's rewrite looks whether the parent needs a flush, and
// a split waiting for the maintenance lock tries it.
constexpr int kSplitPollMillis = 5;
// How long a split tries the maintenance lock before it waits in line.
constexpr int kSplitTriesLockSeconds = 10;

// Below this many blocks the block index is too coarse for a mid key; the
// store's rows are read instead (a few hundred KiB at most).
constexpr size_t kMinBlocksForIndexMidKey = 8;

std::string regionName(const Region& region) {
  return "region " + std::to_string(region.id) + " of table '" + region.tableName + "'";
}

BytesView rowOf(BytesView key) { return key.substr(0, escapedRowLength(key)); }

// Which daughter holds all of a file's rows: 0 the low one, 1 the high one,
// nullopt when it has rows on both sides of `splitKey` (a row's first internal
// key) or its key range is unknown.
std::optional<int> sideOfSplit(const StoreFileMeta& meta, BytesView splitKey) {
  if (meta.firstKey.empty() || meta.lastKey.empty()) return std::nullopt;
  if (BytesView(meta.lastKey) < splitKey) return 0;
  if (BytesView(meta.firstKey) >= splitKey) return 1;
  return std::nullopt;
}

// Newest first, the order of every store version's files.
void sortNewestFirst(std::vector<std::shared_ptr<LiveStoreFile>>* files) {
  std::sort(files->begin(), files->end(), [](const auto& x, const auto& y) {
    return x->maxSeq != y->maxSeq ? x->maxSeq > y->maxSeq : x->reader->id() > y->reader->id();
  });
}

}  // namespace

std::shared_ptr<LiveStoreFile> WorkspaceImpl::relabelled(const std::shared_ptr<LiveStoreFile>& file,
                                                         const Region& region, const std::string& family) const {
  auto reader = std::make_unique<StoreFileReader>(*file->reader, StoreFileLabel{region.tableName, region.id, family});
  auto wrapper = std::make_shared<LiveStoreFile>(std::move(reader), file->maxSeq, m_obsolete);
  wrapper->previous = file;
  return wrapper;
}

Result<std::optional<Bytes>> WorkspaceImpl::midRowLocked(const Region& region, std::string* whyNot) {
  // HBase: the split point of the largest store is the row of its largest
  // file's mid key (the middle block of the block index); a row equal to the
  // file's first row cannot split.
  const StoreVersion* largest = nullptr;
  std::shared_ptr<const StoreVersion> keep;
  uint64_t largestBytes = 0;
  std::vector<std::shared_ptr<const StoreVersion>> versions;
  for (const auto& [family, store] : region.stores) {
    versions.push_back(store->current());
    const uint64_t bytes = versions.back()->storedBytes();
    if (largest == nullptr || bytes > largestBytes) {
      largest = versions.back().get();
      largestBytes = bytes;
    }
  }
  if (largest == nullptr || largest->files.empty()) {
    *whyNot = "it holds no data";
    return std::optional<Bytes>();
  }
  const LiveStoreFile* file = largest->files.front().get();
  for (const auto& f : largest->files) {
    if (f->reader->meta().storedBytes > file->reader->meta().storedBytes) file = f.get();
  }
  const StoreFileMeta& meta = file->reader->meta();
  const Bytes firstRow = unescaped(rowOf(meta.firstKey));
  if (meta.blocks.size() >= kMinBlocksForIndexMidKey) {
    const Bytes mid = unescaped(rowOf(meta.blocks.lastKey(meta.blocks.size() / 2)));
    if (mid != firstRow) return std::optional<Bytes>(mid);
  }
  // A small store: the middle of its distinct rows, across every file of
  // every family.
  std::vector<Bytes> rows;
  LeasedPageSource pages(m_readers.get());
  const ReadContext context{&pages, nullptr, /*fillCache=*/false};
  for (const auto& version : versions) {
    for (const auto& f : version->files) {
      auto it = f->reader->newIterator(context);
      for (it->seekToFirst(); it->valid();) {
        const std::string row(rowOf(it->key()));
        rows.push_back(unescaped(row));
        it->seek(rowEndKey(rows.back()));
      }
      if (Status s = it->status(); !s) return s;
    }
  }
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  if (rows.size() < 2) {
    *whyNot = rows.empty() ? "it holds no data" : "it holds a single row";
    return std::optional<Bytes>();
  }
  return std::optional<Bytes>(rows[rows.size() / 2]);
}

std::shared_ptr<Region> WorkspaceImpl::regionDueAFlush(const std::shared_ptr<Region>& only) const {
  std::vector<std::shared_ptr<Region>> regions;
  if (only != nullptr) {
    regions.push_back(only);
  } else {
    std::lock_guard lock(m_tablesMutex);
    regions.reserve(m_regions.size());
    for (const auto& [id, region] : m_regions) regions.push_back(region);
  }
  const uint64_t limit = m_options.memstoreLimitBytes;
  const uint64_t active = m_memstoreBudget->active.load(std::memory_order_relaxed);
  std::shared_ptr<Region> due;
  uint64_t dueBytes = 0;
  for (const auto& region : regions) {
    const uint64_t bytes = region->memstoreBytes();
    if (bytes == 0 || bytes <= dueBytes) continue;
    const auto table = findTable(region->tableName);
    const bool pastFlushSize = table != nullptr && bytes >= table->options.memstoreFlushSize;
    const bool underPressure = limit > 0 && active >= limit / 2 && 2 * bytes >= active;
    if (pastFlushSize || underPressure) {
      due = region;
      dueBytes = bytes;
    }
  }
  return due;
}

std::unique_lock<FairSharedMutex> WorkspaceImpl::lockForSplit(const std::shared_ptr<Region>& region) {
  // A compaction the engine started on the region stops rather than keep
  // this waiting for the rest of its merge. Meanwhile the lock is only tried:
  // waiting in it would keep every flush out (FairSharedMutex lets no shared
  // locker pass a waiting exclusive one), and a compaction at background
  // priority may take a while to notice on a busy machine, or be one that
  // was asked for and runs to its end. Past a while the split waits its
  // turn, so a stream of flushes cannot keep it out for good.
  if (region != nullptr) region->splitWaiting.store(true);
  syncPoint("split:waiting");
  std::unique_lock maintenance(m_maintenance, std::defer_lock);
  const auto politeUntil = std::chrono::steady_clock::now() + std::chrono::seconds(kSplitTriesLockSeconds);
  // A small flush holds the lock for milliseconds, a memstore's worth or a
  // compaction for up to seconds: the tries start close together and space
  // out.
  auto pause = std::chrono::microseconds(100);
  while (!maintenance.try_lock()) {
    if (std::chrono::steady_clock::now() >= politeUntil) {
      maintenance.lock();
      break;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min<std::chrono::microseconds>(2 * pause, std::chrono::milliseconds(kSplitPollMillis));
  }
  if (region != nullptr) region->splitWaiting.store(false);
  return maintenance;
}

Result<std::vector<int64_t>> WorkspaceImpl::split(std::string_view tableName, const std::optional<Bytes>& splitRow) {
  Result<std::shared_ptr<const Table>> table = requireTable(tableName);
  if (!table) return table.status();
  if (splitRow) {
    if (splitRow->empty()) return Status::invalidArgument("a split row cannot be empty");
    // The region is looked up again under the maintenance lock: a split by
    // size may replace it meanwhile.
    std::unique_lock maintenance = lockForSplit((*table)->regionFor(*splitRow));
    table = requireTable(tableName);
    if (!table) return table.status();
    const auto region = (*table)->regionFor(*splitRow);
    return splitLocked(region, splitRow, RegionOrigin::kManualSplit, false);
  }
  std::vector<int64_t> daughters;
  for (const auto& region : (*table)->regions) {
    Result<std::vector<int64_t>> made = splitRegionAs(region->id, std::nullopt, RegionOrigin::kManualSplit, true);
    if (!made && made.status().code() == Status::Code::kNotFound) continue;  // split or merged meanwhile
    if (!made) return made.status();
    daughters.insert(daughters.end(), made->begin(), made->end());
  }
  if (daughters.empty())
    return Status::invalidArgument("no region of table '" + std::string(tableName) +
                                   "' can split: each is empty or holds a single row");
  return daughters;
}

Result<std::vector<int64_t>> WorkspaceImpl::splitRegion(int64_t regionId, const std::optional<Bytes>& splitRow) {
  return splitRegionAs(regionId, splitRow, RegionOrigin::kManualSplit, false);
}

Result<std::vector<int64_t>> WorkspaceImpl::splitRegionAs(int64_t regionId, const std::optional<Bytes>& requested,
                                                           RegionOrigin origin, bool quietWhenUnsplittable) {
  std::unique_lock maintenance = lockForSplit(regionById(regionId));
  {
    std::lock_guard lock(m_queueMutex);
    m_splitQueued.erase(regionId);
  }
  std::shared_ptr<Region> region = regionById(regionId);
  if (region == nullptr) return Status::notFound("region " + std::to_string(regionId) + " does not exist");
  return splitLocked(region, requested, origin, quietWhenUnsplittable);
}

Result<std::vector<int64_t>> WorkspaceImpl::splitLocked(const std::shared_ptr<Region>& region,
                                                         const std::optional<Bytes>& requested, RegionOrigin origin,
                                                         bool quietWhenUnsplittable) {
  if (region == nullptr) return Status::notFound("no region holds the split row");
  std::shared_ptr<const Table> table = findTable(region->tableName);
  if (table == nullptr) return Status::notFound("region " + std::to_string(region->id) + " does not exist");

  Bytes splitRow;
  if (requested) {
    if (requested->empty() || BytesView(*requested) == BytesView(region->startRow))
      return Status::invalidArgument("cannot split " + regionName(*region) + " at '" + toStringBinary(*requested) +
                                     "': it is the region's start, so a daughter would be empty");
    if (BytesView(*requested) < BytesView(region->startRow))
      return Status::invalidArgument("cannot split " + regionName(*region) + " at '" + toStringBinary(*requested) +
                                     "': the row is not inside the region");
    if (!region->endRow.empty() && BytesView(*requested) >= BytesView(region->endRow))
      return Status::invalidArgument("cannot split " + regionName(*region) + " at '" + toStringBinary(*requested) +
                                     "': the row is not inside the region");
    splitRow = *requested;
  }

  // 1. Everything up to the log position S in store files.
  if (Status s = flushRegionLocked(region); !s) return s;
  if (!requested) {
    std::string whyNot;
    Result<std::optional<Bytes>> mid = midRowLocked(*region, &whyNot);
    if (!mid) return mid.status();
    if (!mid->has_value()) {
      if (quietWhenUnsplittable) return std::vector<int64_t>();
      return Status::invalidArgument(regionName(*region) + " cannot split: " + whyNot);
    }
    splitRow = std::move(**mid);
  }

  // 2. The daughters' files, written while writes go on.
  const int64_t lowId = m_catalog->reserveRegionId();
  const int64_t highId = m_catalog->reserveRegionId();
  const std::string splitKey = rowStartKey(splitRow);
  const std::string lowStart = region->startRow.empty() ? std::string() : rowStartKey(region->startRow);
  struct Written {
    std::string family;
    std::shared_ptr<LiveStoreFile> low, high;
  };
  struct Moved {
    std::string family;
    std::shared_ptr<LiveStoreFile> file;  // the parent's wrapper
    int half;
  };
  std::vector<Written> written;
  std::vector<Moved> moved;
  std::vector<std::shared_ptr<LiveStoreFile>> parentFiles;  // rewritten, so retired
  // Step 2b writes its two halves at once, the high one on a thread of its
  // own: the split holds every flush of the workspace back while it runs,
  // and a background worker is a core.
  using WrittenFile = Result<std::shared_ptr<LiveStoreFile>>;
  const auto writeHalves = [](const std::function<WrittenFile(int)>& writeHalf) {
    std::future<WrittenFile> high = std::async(std::launch::async, writeHalf, 1);
    WrittenFile low = writeHalf(0);
    return std::array<WrittenFile, 2>{std::move(low), high.get()};
  };
  // The rewrite of step 2 is most of a split's time. Writes go on meanwhile,
  // and no flush task can run (this holds m_maintenance), so writers would
  // soon wait on memstore pressure for as long as the split lasts (seconds,
  // in a random-order load). So the halves are written on threads of their
  // own, and this thread does the flushes that fall due meanwhile, of any
  // region: the parent's each memstore as two files cut at the split key,
  // which step 3 hands to the daughters as they are. A failed flush of the
  // parent ends the split (its memstores stay for its next flush to retry);
  // after a failed flush of another region, that region's flush task
  // retries once the split is done. With nobody waiting on them, the halves
  // run at background priority (thread_priority.h).
  Status flushedMeanwhile;
  bool flushOthers = true;
  const auto writeHalvesFlushing = [&](const std::function<WrittenFile(int)>& writeHalf) {
    const auto background = [&](int half) {
      lowerThisThreadsPriority();
      return writeHalf(half);
    };
    std::array<std::future<WrittenFile>, 2> halves{std::async(std::launch::async, background, 0),
                                                   std::async(std::launch::async, background, 1)};
    const auto done = [&] {
      return std::all_of(halves.begin(), halves.end(), [](const std::future<WrittenFile>& f) {
        return f.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
      });
    };
    while (!done()) {
      const std::shared_ptr<Region> due = !flushedMeanwhile ? nullptr : regionDueAFlush(flushOthers ? nullptr : region);
      if (due == region) {
        flushedMeanwhile = flushRegionLocked(region, &splitKey);
        continue;
      }
      if (due != nullptr) {
        flushOthers = flushRegionLocked(due).isOk();
        continue;
      }
      // No signal reaches this thread when a write passes the flush size;
      // a few milliseconds of polling is cheap next to the rewrite.
      for (auto& half : halves) {
        if (half.wait_for(std::chrono::milliseconds(kSplitPollMillis)) != std::future_status::ready) break;
      }
    }
    return std::array<WrittenFile, 2>{halves[0].get(), halves[1].get()};
  };
  auto abandon = [&](Status s) -> Status {
    for (const Written& w : written) {
      if (w.low) w.low->obsolete.store(true);
      if (w.high) w.high->obsolete.store(true);
    }
    return s;
  };
  for (const auto& [family, store] : region->stores) {
    Written out{family, nullptr, nullptr};
    // Rewritten: the files with rows on both sides, and every file between
    // them in age. The rewrite stands in their place in the newest-first
    // order (at the newest one's maxSeq), so a moved file it passed over would
    // lose to older versions of the same cell.
    std::vector<std::shared_ptr<LiveStoreFile>> rewritten;  // newest first, as the version's
    int64_t oldestSeq = std::numeric_limits<int64_t>::max(), newestSeq = std::numeric_limits<int64_t>::min();
    FamilyOptions options;
    {
      // Not held past here: the version holds the memstores of this moment,
      // which the flushes below write out and must then let go of.
      const auto version = store->current();
      options = version->options;
      for (const auto& f : version->files) {
        if (sideOfSplit(f->reader->meta(), splitKey)) continue;
        oldestSeq = std::min(oldestSeq, f->maxSeq);
        newestSeq = std::max(newestSeq, f->maxSeq);
      }
      for (const auto& f : version->files) {
        const std::optional<int> half = sideOfSplit(f->reader->meta(), splitKey);
        if (!half || (f->maxSeq >= oldestSeq && f->maxSeq <= newestSeq)) rewritten.push_back(f);
      }
    }
    if (!rewritten.empty()) {
      // Halves of files read for long (a major compaction's, framed) are
      // written as such: a split right after a major compaction would
      // otherwise leave the region's data in files made for rewriting.
      uint64_t framedBytes = 0;
      uint64_t allBytes = 0;
      for (const auto& f : rewritten) {
        const StoreFileMeta& meta = f->reader->meta();
        allBytes += meta.storedBytes;
        if (meta.format >= format::kMetaFormatFramedBlocks) framedBytes += meta.storedBytes;
      }
      const bool lasting = framedBytes * 2 > allBytes;
      auto files = writeHalvesFlushing([&](int half) -> WrittenFile {
        syncPoint("split:rewrite");
        LeasedPageSource pages(m_readers.get());
        const ReadContext context{&pages, nullptr, /*fillCache=*/false};
        std::vector<std::unique_ptr<InternalIterator>> children;
        for (const auto& f : rewritten) children.push_back(f->reader->newIterator(context));
        RangeIterator source(newMergingIterator(std::move(children)), half == 0 ? lowStart : splitKey,
                             half == 0 ? splitKey : std::string());
        // (out.family, not the binding: clang before 16 cannot capture structured bindings.)
        const StoreFileLabel label{region->tableName, half == 0 ? lowId : highId, out.family};
        return writeFile(label, source, options, MatchMode::kMinorCompaction, lasting, newestSeq, &pages);
      });
      if (files[0]) out.low = *files[0];
      if (files[1]) out.high = *files[1];
      if (!files[0] || !files[1] || !flushedMeanwhile) {
        written.push_back(std::move(out));  // so abandon() retires the half that was written
        return abandon(!files[0] ? files[0].status() : !files[1] ? files[1].status() : flushedMeanwhile);
      }
      parentFiles.insert(parentFiles.end(), rewritten.begin(), rewritten.end());
    }
    written.push_back(std::move(out));
  }
  // Every other file moves as it is: those with rows on one side only, from
  // before the split and flushed meanwhile (newer than any rewritten one).
  for (const auto& [family, store] : region->stores) {
    for (const auto& f : store->current()->files) {
      if (std::find(parentFiles.begin(), parentFiles.end(), f) != parentFiles.end()) continue;
      const std::optional<int> half = sideOfSplit(f->reader->meta(), splitKey);
      if (!half)  // cannot happen: only this thread flushes the region, cutting at the split key
        return abandon(Status::corruption("splitting " + regionName(*region) + ": store file " +
                                          std::to_string(f->reader->id()) + " has rows on both sides of the split row"));
      moved.push_back({family, f, *half});
    }
  }

  // 2b. What was written meanwhile, flushed straight into the daughters too,
  // so step 3 copies only the writes of the last moment. (Copying all of it
  // held the parent's memstore and its copy at once: twice a full memstore
  // when a key-ordered load splits the region every write goes to.)
  {
    std::lock_guard write(m_write);
    switchMemstoresLocked(*region);
  }
  const int64_t daughtersFlushedSeq = region->pendingFlushSeq;
  const size_t firstFlushedMeanwhile = written.size();
  for (const auto& [family, store] : region->stores) {
    const auto version = store->current();
    if (version->flushing == nullptr) continue;
    Written out{family, nullptr, nullptr};
    auto files = writeHalves([&](int half) -> WrittenFile {
      RangeIterator source(version->flushing->newIterator(std::numeric_limits<uint64_t>::max()),
                           half == 0 ? lowStart : splitKey, half == 0 ? splitKey : std::string());
      const StoreFileLabel label{region->tableName, half == 0 ? lowId : highId, out.family};
      return writeFile(label, source, version->options, MatchMode::kMinorCompaction, /*lasting=*/false,
                       daughtersFlushedSeq);
    });
    if (files[0]) out.low = *files[0];
    if (files[1]) out.high = *files[1];
    written.push_back(std::move(out));
    // On failure the parent's next flush retries the switched memstores.
    if (!files[0] || !files[1]) return abandon(!files[0] ? files[0].status() : files[1].status());
  }

  syncPoint("split:before-swap");

  // 3. Swap the parent for its daughters.
  std::unique_lock write(m_write);
  const int64_t at = now();
  const int32_t server = region->server.load();
  RegionRecord lowRecord{lowId, region->tableId, region->startRow, splitRow, daughtersFlushedSeq, server};
  RegionRecord highRecord{highId, region->tableId, splitRow, region->endRow, daughtersFlushedSeq, server};
  {
    std::lock_guard db(m_db);
    Status status = m_catalog->begin();
    for (const RegionRecord* record : {&lowRecord, &highRecord}) {
      RegionHistoryRecord history;
      history.createdMillis = at;
      history.parents = {region->id};
      history.origin = origin;
      history.splitRow = splitRow;
      if (status) status = m_catalog->insertRegion(*record, history).status();
    }
    for (const Written& w : written) {
      for (const auto& [file, id] : {std::pair{w.low, lowId}, std::pair{w.high, highId}}) {
        if (!status || file == nullptr) continue;
        status = m_catalog->insertStoreFile({file->reader->id(), id, w.family, file->maxSeq, file->reader->meta().encode()});
        if (status) status = m_catalog->removePendingFile(file->reader->id());
      }
    }
    for (const Moved& m : moved) {
      if (status) status = m_catalog->moveStoreFile(m.file->reader->id(), m.half == 0 ? lowId : highId);
    }
    for (const auto& file : parentFiles) {
      if (status) status = m_catalog->deleteStoreFileRow(file->reader->id());
      if (status) status = m_catalog->addPendingFile(file->reader->id());
    }
    if (status) status = m_catalog->deleteRegion(region->id);
    if (status) status = m_catalog->retireRegionHistory(region->id, at);
    if (status) status = m_catalog->commit();
    if (!status) {
      m_catalog->rollback();
      return abandon(status);
    }
  }
  std::shared_ptr<Region> daughters[2];
  for (int half = 0; half < 2; ++half) {
    Result<std::shared_ptr<Region>> built = buildRegion(half == 0 ? lowRecord : highRecord, table->options, {});
    if (!built) return built.status();  // cannot happen: no files to decode
    daughters[half] = *built;
    daughters[half]->createdMillis = at;
  }
  for (int half = 0; half < 2; ++half) {
    for (const auto& [family, store] : daughters[half]->stores) {
      auto version = std::make_shared<StoreVersion>(*store->current());
      for (const Written& w : written) {
        const auto& file = half == 0 ? w.low : w.high;
        if (w.family == family && file != nullptr) version->files.push_back(file);
      }
      for (const Moved& m : moved) {
        if (m.family == family && m.half == half) version->files.push_back(relabelled(m.file, *daughters[half], family));
      }
      sortNewestFirst(&version->files);
      store->install(std::move(version));
    }
  }
  // Writes since step 2b's switch are in the parent's memstore (and in the
  // log, naming the parent, which replay routes by row): they move to the
  // daughters.
  for (const auto& [family, store] : region->stores) {
    std::shared_ptr<Memstore> active = store->current()->active;
    // Readers that found the parent before the swap go on reading it: from
    // here through step 2b's files (the daughters', which hold exactly what
    // its flushing memstore held) instead of that memstore, which can then go
    // before the copy below. Holding both was the whole budget and half of it
    // again: a key-ordered load filled the new memstore while 2b wrote.
    if (auto version = store->current(); version->flushing != nullptr) {
      version->flushing->markFlushed();
      auto next = std::make_shared<StoreVersion>(*version);
      next->flushing = nullptr;
      for (size_t i = firstFlushedMeanwhile; i < written.size(); ++i) {
        const Written& w = written[i];
        if (w.family != family) continue;
        for (const auto& file : {w.low, w.high}) {
          if (file != nullptr) next->files.push_back(file);
        }
      }
      sortNewestFirst(&next->files);
      store->install(std::move(next));
    }
    auto it = active->newIterator(std::numeric_limits<uint64_t>::max());
    for (it->seekToFirst(); it->valid(); it->next()) {
      Region& target = *daughters[it->key() < BytesView(splitKey) ? 0 : 1];
      target.stores.at(family)->current()->active->add(it->key(), it->value(), m_nextMvcc++);
    }
  }
  m_readPoint.store(m_nextMvcc - 1, std::memory_order_release);
  auto next = std::make_shared<Table>(*table);
  next->regions.clear();
  for (const auto& r : table->regions) {
    if (r->id != region->id) {
      next->regions.push_back(r);
      continue;
    }
    next->regions.push_back(daughters[0]);
    next->regions.push_back(daughters[1]);
  }
  region->retired.store(true);
  {
    std::lock_guard lock(m_tablesMutex);
    m_regions.erase(region->id);
  }
  publishTable(std::move(next));
  // Step 2b's files hold the parent's writes up to the daughters' flushed
  // position, but only a flush truncates the log, and the parent's (step 1)
  // could truncate it only up to its own position. Without this, a load that
  // ended while a region split left everything written meanwhile in the log
  // for good (the daughters had nothing more to flush): replayed at every
  // open and kept in the file. A failure leaves the records to a later flush.
  {
    std::lock_guard db(m_db);
    (void)m_catalog->truncateWalThrough(logTruncationPointLocked(nullptr));
  }
  write.unlock();
  retireFiles(parentFiles);
  m_flushed.notify_all();
  maybeBalanceLocked();
  // A daughter may still be past the split size (its parent grew faster
  // than it could split): it splits again without waiting for a flush.
  for (const auto& d : daughters) {
    maybeScheduleFlush(*d);
    maybeScheduleSplit(*d);
    // The files flushed during the split, as a flush would have asked.
    const bool manyFiles = std::any_of(d->stores.begin(), d->stores.end(), [](const auto& store) {
      return store.second->current()->files.size() >= kCompactionMinFiles;
    });
    if (manyFiles && m_options.backgroundCompaction) enqueue(TaskKind::kMinorCompaction, d->id, false);
  }
  return std::vector<int64_t>{lowId, highId};
}

// --- Merge --------------------------------------------------------------------

Result<int64_t> WorkspaceImpl::mergeRegions(int64_t firstId, int64_t secondId) {
  std::lock_guard maintenance(m_maintenance);
  if (firstId == secondId) return Status::invalidArgument("cannot merge region " + std::to_string(firstId) + " with itself");
  std::shared_ptr<Region> a = regionById(firstId);
  std::shared_ptr<Region> b = regionById(secondId);
  if (a == nullptr) return Status::notFound("region " + std::to_string(firstId) + " does not exist");
  if (b == nullptr) return Status::notFound("region " + std::to_string(secondId) + " does not exist");
  if (a->tableId != b->tableId)
    return Status::invalidArgument("regions " + std::to_string(firstId) + " and " + std::to_string(secondId) +
                                   " belong to different tables");
  if (b->endRow == a->startRow && !a->startRow.empty()) std::swap(a, b);
  if (a->endRow.empty() || a->endRow != b->startRow)
    return Status::invalidArgument("regions " + std::to_string(firstId) + " and " + std::to_string(secondId) +
                                   " are not adjacent");
  std::shared_ptr<const Table> table = findTable(a->tableName);
  if (table == nullptr) return Status::notFound("region " + std::to_string(firstId) + " does not exist");

  // Both flushed at one log position S, so the merged region's flushed_seq
  // is exact for both halves: first each on its own (finishing a flush that
  // failed earlier at an older position), then both switched together,
  // which flushes only what arrived meanwhile.
  if (Status s = flushRegionLocked(a); !s) return s;
  if (Status s = flushRegionLocked(b); !s) return s;
  {
    std::lock_guard write(m_write);
    switchMemstoresLocked(*a);
    switchMemstoresLocked(*b);
  }
  if (Status s = flushRegionLocked(a); !s) return s;
  if (Status s = flushRegionLocked(b); !s) return s;
  // A region with nothing to flush keeps an older flushed_seq, but then no
  // log record of it lies between that and S.
  const int64_t mergeSeq = std::max(a->flushedSeq.load(), b->flushedSeq.load());

  std::unique_lock write(m_write);
  const int64_t at = now();
  RegionRecord record{0, a->tableId, a->startRow, b->endRow, mergeSeq, a->server.load()};
  {
    std::lock_guard db(m_db);
    Status status = m_catalog->begin();
    RegionHistoryRecord history;
    history.createdMillis = at;
    history.parents = {a->id, b->id};
    history.origin = RegionOrigin::kMerge;
    if (status) {
      Result<int64_t> id = m_catalog->insertRegion(record, history);
      if (id) record.id = *id; else status = id.status();
    }
    for (Region* r : {a.get(), b.get()}) {
      for (const auto& [family, store] : r->stores) {
        for (const auto& file : store->current()->files) {
          if (status) status = m_catalog->moveStoreFile(file->reader->id(), record.id);
        }
      }
      if (status) status = m_catalog->deleteRegion(r->id);
      if (status) status = m_catalog->retireRegionHistory(r->id, at);
    }
    if (status) status = m_catalog->commit();
    if (!status) {
      m_catalog->rollback();
      return status;
    }
  }
  Result<std::shared_ptr<Region>> built = buildRegion(record, table->options, {});
  if (!built) return built.status();
  std::shared_ptr<Region> merged = *built;
  merged->createdMillis = at;
  for (const auto& [family, store] : merged->stores) {
    auto version = std::make_shared<StoreVersion>(*store->current());
    for (Region* r : {a.get(), b.get()}) {
      const auto parent = r->stores.at(family)->current();
      // The parents' wrappers stay valid for readers of the old regions.
      for (const auto& file : parent->files) version->files.push_back(relabelled(file, *merged, family));
      auto it = parent->active->newIterator(std::numeric_limits<uint64_t>::max());
      for (it->seekToFirst(); it->valid(); it->next()) version->active->add(it->key(), it->value(), m_nextMvcc++);
    }
    sortNewestFirst(&version->files);
    store->install(std::move(version));
  }
  m_readPoint.store(m_nextMvcc - 1, std::memory_order_release);
  auto next = std::make_shared<Table>(*table);
  next->regions.clear();
  for (const auto& r : table->regions) {
    if (r->id == b->id) continue;
    next->regions.push_back(r->id == a->id ? merged : r);
  }
  a->retired.store(true);
  b->retired.store(true);
  {
    std::lock_guard lock(m_tablesMutex);
    m_regions.erase(a->id);
    m_regions.erase(b->id);
  }
  publishTable(std::move(next));
  write.unlock();
  m_flushed.notify_all();
  maybeScheduleFlush(*merged);
  maybeBalanceLocked();
  return record.id;
}

}  // namespace keyscope::engine
