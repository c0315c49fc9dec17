// The in-memory shape of tables: Table -> Region -> Store (one per family).
//
// A Store's state is an immutable StoreVersion (options, memstores, store
// files) swapped as a whole by flushes, compactions and alters; readers take a
// shared_ptr to the current version and read it without further locking,
// while the writer keeps adding to its active memstore (which is safe:
// a Memstore is concurrent skip lists and frozen segments with mvcc read
// points). A version keeps its memstores' memory alive too, flushed or not:
// long work that a flush may run beside (a compaction's merge) copies out
// what it needs of a version and lets the version go, or a memstore flushed
// meanwhile stays mapped though the memstore limit no longer counts it. (A
// split holds one only where it does not flush the region itself.)
//
// A store file that a compaction or drop made obsolete stays readable until
// the last version holding it is released; then its pages are queued for
// deletion (ObsoleteFiles), so readers never see pages vanish under them.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "engine/memstore.h"
#include "engine/store_file.h"
#include "keyscope/options.h"

namespace keyscope::engine {

// Store files whose pages wait to be deleted. Shared by the workspace and
// every LiveStoreFile; thread-safe.
class ObsoleteFiles {
 public:
  void add(int64_t fileId) {
    std::lock_guard lock(m_mutex);
    m_ids.push_back(fileId);
  }
  std::vector<int64_t> take() {
    std::lock_guard lock(m_mutex);
    return std::exchange(m_ids, {});
  }

 private:
  std::mutex m_mutex;
  std::vector<int64_t> m_ids;
};

// A store file as the live workspace holds it.
struct LiveStoreFile {
  LiveStoreFile(std::unique_ptr<StoreFileReader> r, int64_t seq, std::shared_ptr<ObsoleteFiles> q)
      : reader(std::move(r)), maxSeq(seq), obsoleteQueue(std::move(q)) {}
  ~LiveStoreFile() {
    if (!obsolete.load()) return;
    // A wrapper of a file another region's wrapper still holds (a merge
    // re-labels its parents' files): the pages go when the last one does.
    if (previous != nullptr) previous->obsolete.store(true);
    else obsoleteQueue->add(reader->id());
  }
  LiveStoreFile(const LiveStoreFile&) = delete;
  LiveStoreFile& operator=(const LiveStoreFile&) = delete;

  std::unique_ptr<StoreFileReader> reader;
  int64_t maxSeq;                      // newest log record it holds: orders files
  std::atomic<bool> obsolete{false};   // set once its catalog row is gone
  std::shared_ptr<ObsoleteFiles> obsoleteQueue;
  // The wrapper of the same file this one replaced (merges), kept alive and
  // made obsolete in turn, so readers holding either never lose its pages.
  std::shared_ptr<LiveStoreFile> previous;
};

// A store file the catalog lists but whose metadata does not verify: no
// reader can be opened on it, and what it holds is unknown.
struct DamagedStoreFile {
  int64_t id = 0;
  int64_t maxSeq = 0;
  Status problem;  // a Corruption naming the table, region, family and file
};

struct StoreVersion {
  FamilyOptions options;
  std::shared_ptr<Memstore> active;
  std::shared_ptr<Memstore> flushing;                 // being written out; may be null
  std::vector<std::shared_ptr<LiveStoreFile>> files;  // newest (highest maxSeq) first
  // Any read of the store is the first one's Corruption (a read without it
  // would be missing its cells); flushes and compactions of the region
  // refuse, so a damaged file is never folded into a new one or dropped
  // unnoticed. keyscope-cli check --repair drops them.
  std::vector<DamagedStoreFile> damaged;

  // OK, or the Corruption of the first damaged file.
  Status damage() const { return damaged.empty() ? Status::ok() : damaged.front().problem; }

  uint64_t storedBytes() const {  // the store's size, as split policies see it
    uint64_t total = 0;
    for (const auto& file : files) total += file->reader->meta().storedBytes;
    return total;
  }
};

class Store {
 public:
  explicit Store(std::shared_ptr<const StoreVersion> version) : m_version(std::move(version)) {}

  std::shared_ptr<const StoreVersion> current() const {
    std::lock_guard lock(m_mutex);
    return m_version;
  }
  void install(std::shared_ptr<const StoreVersion> version) {
    std::lock_guard lock(m_mutex);
    m_version = std::move(version);
  }

 private:
  mutable std::mutex m_mutex;
  std::shared_ptr<const StoreVersion> m_version;
};

struct Region {
  int64_t id = 0;
  int64_t tableId = 0;
  std::string tableName;
  Bytes startRow;  // inclusive; empty: unbounded
  Bytes endRow;    // exclusive; empty: unbounded
  int64_t createdMillis = 0;  // workspace clock
  std::atomic<int32_t> server{0};  // the simulated server it is assigned to
  // Set when a split or merge replaced it (before the new table is
  // published): writes resolved against it start over.
  std::atomic<bool> retired{false};
  std::atomic<int64_t> flushedSeq{0};
  // Set while a split of it waits for m_maintenance: a compaction the engine
  // started on it gives up (compactStore).
  std::atomic<bool> splitWaiting{false};
  // The log position of a flush whose memstores are switched out but not yet
  // recorded (-1: none); a retry after a failure reuses it. Under
  // `flushing`, or m_maintenance held exclusively.
  int64_t pendingFlushSeq = -1;
  // Held by a flush, and by a compaction, of this region, each under a shared
  // m_maintenance (workspace_impl.h): one flush and one compaction at a time,
  // which may run together.
  std::mutex flushing;
  std::mutex compacting;
  std::map<std::string, std::shared_ptr<Store>, std::less<>> stores;  // by family name

  bool containsRow(BytesView row) const {
    return BytesView(startRow) <= row && (endRow.empty() || row < BytesView(endRow));
  }
  // The active memstores' bytes: what a flush is triggered by.
  uint64_t memstoreBytes() const {
    uint64_t total = 0;
    for (const auto& [name, store] : stores) {
      auto v = store->current();
      if (!v->active->empty()) total += v->active->approximateBytes();
    }
    return total;
  }
  // The active and the flushing memstores' bytes: what the region holds in memory.
  uint64_t heldMemstoreBytes() const {
    uint64_t total = 0;
    for (const auto& [name, store] : stores) {
      auto v = store->current();
      total += v->active->approximateBytes();
      if (v->flushing != nullptr) total += v->flushing->approximateBytes();
    }
    return total;
  }
};

// A table's definition and regions. Replaced as a whole by DDL; readers hold
// the shared_ptr they started with.
struct Table {
  int64_t id = 0;
  TableOptions options;
  std::vector<std::shared_ptr<Region>> regions;  // by start row

  // Binary search: a table may have thousands of regions (pre-split, or split
  // by a workload), and every write and get asks.
  std::shared_ptr<Region> regionFor(BytesView row) const {
    auto after = std::upper_bound(regions.begin(), regions.end(), row,
                                  [](BytesView r, const auto& region) { return r < BytesView(region->startRow); });
    if (after == regions.begin()) return nullptr;
    const auto& region = *std::prev(after);
    return region->containsRow(row) ? region : nullptr;
  }
};

}  // namespace keyscope::engine
