// WorkspaceImpl: opening, loading and replay; tables (DDL); descriptions.
#include <algorithm>
#include <chrono>
#include <set>

#include "engine/internal_key.h"
#include "engine/sqlite_pages.h"
#include "engine/workspace_impl.h"

namespace keyscope {

namespace {

// Damage found while opening says where to learn the whole of it.
Status withCheckAdvice(const Status& s, const std::string& path) {
  if (s.code() != Status::Code::kCorruption || s.message().find("keyscope-cli check") != std::string::npos) return s;
  return Status::corruption(s.message() + " (keyscope-cli check " + path + " reports all the damage)");
}

}  // namespace

Result<std::unique_ptr<Workspace>> Workspace::open(const std::string& path, const OpenOptions& options) {
  Result<std::unique_ptr<engine::Catalog>> catalog = engine::Catalog::open(path, options.createIfMissing);
  if (!catalog) return withCheckAdvice(catalog.status(), path);
  auto workspace = std::make_unique<engine::WorkspaceImpl>(std::move(catalog).value(), options);
  if (Status s = workspace->load(); !s) return withCheckAdvice(s, path);
  return std::unique_ptr<Workspace>(std::move(workspace));
}

Status Workspace::put(std::string_view table, Put put, const WriteOptions& options) {
  const Mutation mutation(std::move(put));
  return mutate(table, std::span<const Mutation>(&mutation, 1), options);
}

Status Workspace::remove(std::string_view table, Delete del, const WriteOptions& options) {
  const Mutation mutation(std::move(del));
  return mutate(table, std::span<const Mutation>(&mutation, 1), options);
}

}  // namespace keyscope

namespace keyscope::engine {

namespace {

std::string tableNotFound(std::string_view name) { return "table '" + std::string(name) + "' does not exist"; }

}  // namespace

Status WorkspaceImpl::checkCatalogReferences(const std::vector<TableRecord>& tables,
                                             const std::vector<RegionRecord>& regions,
                                             const std::vector<StoreFileRecord>& files) const {
  // Every row hangs off a live one: a region off a table, a store file off a
  // region and one of its table's families. One that does not is damage (a
  // row lost, or a key changed) that no row's checksum shows.
  std::map<int64_t, const TableOptions*> tableById;
  for (const TableRecord& t : tables) tableById[t.id] = &t.options;
  std::map<int64_t, const TableOptions*> tableOfRegion;
  const std::string where = path() + ": ";
  for (const RegionRecord& r : regions) {
    const auto table = tableById.find(r.tableId);
    if (table == tableById.end())
      return Status::corruption(where + "region " + std::to_string(r.id) + " belongs to table " +
                                std::to_string(r.tableId) + ", which the catalog does not hold");
    tableOfRegion[r.id] = table->second;
  }
  for (const StoreFileRecord& f : files) {
    const std::string name = where + "store file " + std::to_string(f.id);
    if (!f.damage.empty())
      return Status::corruption(name + ": " + f.damage + " (keyscope-cli check --repair drops the file)");
    const auto table = tableOfRegion.find(f.regionId);
    if (table == tableOfRegion.end())
      return Status::corruption(name + " belongs to region " + std::to_string(f.regionId) +
                                ", which the catalog does not hold (keyscope-cli check --repair drops the file)");
    if (table->second->family(f.family) == nullptr)
      return Status::corruption(name + " belongs to family '" + f.family + "', which table '" + table->second->name +
                                "' does not have (keyscope-cli check --repair drops the file)");
  }
  return Status::ok();
}

namespace {

TableOptions normalised(TableOptions options) {
  std::sort(options.families.begin(), options.families.end(),
            [](const FamilyOptions& a, const FamilyOptions& b) { return a.name < b.name; });
  return options;
}

}  // namespace

WorkspaceImpl::WorkspaceImpl(std::unique_ptr<Catalog> catalog, const OpenOptions& options)
    : m_options(options),
      m_catalog(std::move(catalog)),
      m_readers(std::make_unique<ReaderPool>(m_catalog.get())),
      m_cache(std::make_unique<PageCache>(static_cast<size_t>(options.pageCacheBytes))),
      m_readahead(std::make_unique<BlockDecodePool>(BlockDecodePool::defaultThreads())),
      m_stats(std::make_unique<stats::StatsRecorder>()) {}

WorkspaceImpl::~WorkspaceImpl() {
  if (!m_workers.empty()) {
    {
      std::lock_guard lock(m_queueMutex);
      m_stopping = true;
    }
    m_queueCv.notify_all();
    for (std::thread& worker : m_workers) worker.join();
  }
  // Acknowledged async writes reach the log before the file closes.
  (void)syncAsyncLog();
  (void)persistStatistics();
  // Tables go first: their files may queue obsolete pages for deletion.
  {
    std::lock_guard lock(m_tablesMutex);
    m_tables.clear();
    m_regions.clear();
  }
  deleteObsoleteFiles();
  m_catalog->onLogCommit(nullptr);
  m_checkpointer.reset();
}

int64_t WorkspaceImpl::now() const {
  if (m_clockFixed.load()) return m_fixedNow.load();
  if (m_options.clock) return m_options.clock();
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

void WorkspaceImpl::setClock(std::optional<int64_t> nowMillis) {
  if (nowMillis) m_fixedNow.store(*nowMillis);
  m_clockFixed.store(nowMillis.has_value());
}

std::shared_ptr<Store> WorkspaceImpl::newStore(const FamilyOptions& family) const {
  auto version = std::make_shared<StoreVersion>();
  version->options = family;
  version->active = std::make_shared<Memstore>(m_memstoreBudget);
  return std::make_shared<Store>(std::move(version));
}

Result<std::shared_ptr<Region>> WorkspaceImpl::buildRegion(const RegionRecord& record, const TableOptions& options,
                                                           const std::vector<StoreFileRecord>& files) {
  auto region = std::make_shared<Region>();
  region->id = record.id;
  region->tableId = record.tableId;
  region->tableName = options.name;
  region->startRow = record.startRow;
  region->endRow = record.endRow;
  region->flushedSeq = record.flushedSeq;
  region->server = record.server;
  for (const FamilyOptions& family : options.families) {
    auto version = std::make_shared<StoreVersion>();
    version->options = family;
    version->active = std::make_shared<Memstore>(m_memstoreBudget);
    for (const StoreFileRecord& file : files) {
      if (file.regionId != record.id || file.family != family.name) continue;
      Result<StoreFileMeta> meta = StoreFileMeta::decode(file.meta);
      if (!meta) {
        // The rest of the workspace stays readable: only this store is.
        version->damaged.push_back(
            {file.id, file.maxSeq,
             Status::corruption("table '" + options.name + "', region " + std::to_string(record.id) + ", family '" +
                                family.name + "', store file " + std::to_string(file.id) + ": " +
                                meta.status().message() + " (keyscope-cli check --repair drops the file)")});
        continue;
      }
      auto reader = std::make_unique<StoreFileReader>(file.id, std::move(meta).value(),
                                                      StoreFileLabel{options.name, record.id, family.name}, m_cache.get());
      version->files.push_back(std::make_shared<LiveStoreFile>(std::move(reader), file.maxSeq, m_obsolete));
    }
    std::sort(version->files.begin(), version->files.end(), [](const auto& a, const auto& b) {
      return a->maxSeq != b->maxSeq ? a->maxSeq > b->maxSeq : a->reader->id() > b->reader->id();
    });
    region->stores.emplace(family.name, std::make_shared<Store>(std::move(version)));
  }
  return region;
}

Status WorkspaceImpl::load() {
  Result<std::vector<TableRecord>> tables = m_catalog->loadTables();
  if (!tables) return tables.status();
  Result<std::vector<RegionRecord>> regions = m_catalog->loadRegions();
  if (!regions) return regions.status();
  Result<std::vector<StoreFileRecord>> files = m_catalog->loadStoreFiles();
  if (!files) return files.status();
  Result<std::vector<int64_t>> pending = m_catalog->loadPendingFiles();
  if (!pending) return pending.status();
  Result<std::vector<RegionHistoryRecord>> history = m_catalog->loadRegionHistory();
  if (!history) return history.status();
  if (Status s = loadServerSettings(); !s) return s;
  if (Status s = checkCatalogReferences(*tables, *regions, *files); !s) return s;

  // Pages of interrupted flushes and compactions, and of obsolete files. A
  // file still listed as live is never one of them, whatever pending_files
  // says (a damaged row there must not delete a live file's pages).
  std::set<int64_t> liveFiles;
  for (const StoreFileRecord& file : *files) liveFiles.insert(file.id);
  std::erase_if(pending.value(), [&](int64_t id) { return liveFiles.count(id) > 0; });
  if (!pending->empty()) {
    if (Status s = m_catalog->begin(); !s) return s;
    for (int64_t id : *pending) {
      Status s = deleteStoreFilePages(m_catalog->db(), id);
      if (s) s = m_catalog->removePendingFile(id);
      if (!s) {
        m_catalog->rollback();
        return s;
      }
    }
    if (Status s = m_catalog->commit(); !s) return s;
    // Their pages go back to the file system, as a deletion's do when the
    // workspace is open. A failure leaves the file larger, nothing worse.
    (void)m_catalog->releaseAllFreePages();
  }

  // Log records name regions by id; one a split or merge retired routes its
  // cells by row to the region holding it now.
  std::map<int64_t, int64_t> tableOfRegion;
  std::map<int64_t, int64_t> createdOfRegion;
  for (const RegionHistoryRecord& h : *history) {
    tableOfRegion[h.regionId] = h.tableId;
    createdOfRegion[h.regionId] = h.createdMillis;
  }
  std::map<int64_t, std::shared_ptr<const Table>> tableById;
  for (TableRecord& record : tables.value()) {
    auto table = std::make_shared<Table>();
    table->id = record.id;
    table->options = normalised(std::move(record.options));
    for (const RegionRecord& r : *regions) {
      if (r.tableId != record.id) continue;
      Result<std::shared_ptr<Region>> region = buildRegion(r, table->options, *files);
      if (!region) return region.status();
      const auto created = createdOfRegion.find(r.id);
      if (created != createdOfRegion.end()) (*region)->createdMillis = created->second;
      table->regions.push_back(*region);
      m_regions[r.id] = *region;
    }
    std::sort(table->regions.begin(), table->regions.end(),
              [](const auto& a, const auto& b) { return a->startRow < b->startRow; });
    if (Status s = checkRegionsPartition(*table); !s) return s;
    tableById[table->id] = table;
    m_tables[table->options.name] = std::move(table);
  }

  // Replay the log: every record newer than its region's last flush (and
  // than its family's last drop).
  Result<std::map<std::pair<int64_t, std::string>, int64_t>> droppedFamilies = m_catalog->loadDroppedFamilies();
  if (!droppedFamilies) return droppedFamilies.status();
  m_lastSeq = m_catalog->maxWalSeq();
  Status replay = m_catalog->readWal([&](int64_t seq, BytesView data) -> Status {
    Result<std::vector<LogEntry>> entries = decodeLogRecord(seq, data);
    if (!entries)
      return Status::corruption(path() + ": " + entries.status().message() +
                                " (keyscope-cli check --repair drops the record, losing its writes)");
    // In key order per family, as applyLocked adds a batch: each memstore add
    // searches on from the one before. Equal keys keep their log order.
    std::vector<LogEntry> inKeyOrder = std::move(entries).value();
    std::stable_sort(inKeyOrder.begin(), inKeyOrder.end(), [](const LogEntry& a, const LogEntry& b) {
      return a.family != b.family ? a.family < b.family : a.key < b.key;
    });
    for (const LogEntry& entry : inKeyOrder) {
      Region* region = nullptr;
      if (const auto live = m_regions.find(entry.regionId); live != m_regions.end()) {
        region = live->second.get();
      } else if (const auto owner = tableOfRegion.find(entry.regionId); owner != tableOfRegion.end()) {
        const auto table = tableById.find(owner->second);
        if (table == tableById.end()) continue;  // dropped
        region = table->second->regionFor(unescaped(entry.key.substr(0, escapedRowLength(entry.key)))).get();
      }
      // A record at or below the region's flush is in its store files (for a
      // daughter, in the files its parent's data was split into).
      if (region == nullptr || seq <= region->flushedSeq) continue;
      const auto dropped = droppedFamilies->find({region->tableId, entry.family});
      if (dropped != droppedFamilies->end() && seq <= dropped->second) continue;
      const auto store = region->stores.find(entry.family);
      if (store == region->stores.end()) continue;
      store->second->current()->active->add(entry.key, entry.value, m_nextMvcc++);
    }
    return Status::ok();
  });
  if (!replay) return replay;
  m_readPoint.store(m_nextMvcc - 1);

  Result<sqlite3*> checkpoints = m_catalog->openCheckpointer();
  if (!checkpoints) return checkpoints.status();
  m_checkpointer = std::make_unique<Checkpointer>(*checkpoints, &m_db, [readers = m_readers.get()] {
    readers->dropIdleSnapshots();
  });
  m_catalog->onLogCommit([checkpointer = m_checkpointer.get()](int pages) { checkpointer->logCommitted(pages); });

  for (size_t i = 0; i < kBackgroundWorkers; ++i) m_workers.emplace_back([this, i] { workerLoop(i); });
  for (const auto& [id, region] : m_regions) maybeScheduleFlush(*region);
  return Status::ok();
}

std::shared_ptr<const Table> WorkspaceImpl::findTable(std::string_view name) const {
  std::lock_guard lock(m_tablesMutex);
  const auto it = m_tables.find(name);
  return it == m_tables.end() ? nullptr : it->second;
}

Result<std::shared_ptr<const Table>> WorkspaceImpl::requireTable(std::string_view name) const {
  auto table = findTable(name);
  if (table == nullptr) return Status::notFound(tableNotFound(name));
  return table;
}

void WorkspaceImpl::publishTable(std::shared_ptr<const Table> table) {
  std::lock_guard lock(m_tablesMutex);
  for (const auto& region : table->regions) m_regions[region->id] = region;
  m_tables[table->options.name] = std::move(table);
}

void WorkspaceImpl::unpublishTable(const std::string& name) {
  std::lock_guard lock(m_tablesMutex);
  const auto it = m_tables.find(name);
  if (it == m_tables.end()) return;
  for (const auto& region : it->second->regions) m_regions.erase(region->id);
  m_tables.erase(it);
}

std::shared_ptr<Region> WorkspaceImpl::regionById(int64_t id) const {
  std::lock_guard lock(m_tablesMutex);
  const auto it = m_regions.find(id);
  return it == m_regions.end() ? nullptr : it->second;
}

Status WorkspaceImpl::createTable(const TableOptions& requested, const std::vector<Bytes>& splits) {
  if (Status s = validateTableOptions(requested); !s) return s;
  const TableOptions options = normalised(requested);
  std::vector<Bytes> points = splits;
  std::sort(points.begin(), points.end());
  for (size_t i = 0; i < points.size(); ++i) {
    if (points[i].empty()) return Status::invalidArgument("split keys cannot be empty");
    if (points[i].size() > kMaxRowKeySize) return Status::invalidArgument("a split key is longer than the row key limit");
    if (i > 0 && points[i] == points[i - 1])
      return Status::invalidArgument("split key '" + toStringBinary(points[i]) + "' is given twice");
  }
  std::lock_guard maintenance(m_maintenance);
  std::unique_lock write(m_write);
  if (findTable(options.name) != nullptr) return Status::invalidArgument("table '" + options.name + "' already exists");

  std::lock_guard db(m_db);
  if (Status s = m_catalog->begin(); !s) return s;
  auto table = std::make_shared<Table>();
  table->options = options;
  Result<int64_t> tableId = m_catalog->insertTable(options);
  if (!tableId) {
    m_catalog->rollback();
    return tableId.status();
  }
  table->id = *tableId;
  std::vector<uint32_t> load = regionsPerServer();
  const int64_t createdAt = now();
  for (size_t i = 0; i <= points.size(); ++i) {
    RegionRecord record;
    record.tableId = table->id;
    record.startRow = i == 0 ? Bytes() : points[i - 1];
    record.endRow = i == points.size() ? Bytes() : points[i];
    record.flushedSeq = m_lastSeq;
    record.server = takeLeastLoadedServer(&load);
    RegionHistoryRecord history;
    history.createdMillis = createdAt;
    history.origin = points.empty() ? RegionOrigin::kCreate : RegionOrigin::kPreSplit;
    Result<int64_t> id = m_catalog->insertRegion(record, history);
    if (!id) {
      m_catalog->rollback();
      return id.status();
    }
    record.id = *id;
    Result<std::shared_ptr<Region>> region = buildRegion(record, options, {});
    if (!region) {
      m_catalog->rollback();
      return region.status();
    }
    (*region)->createdMillis = createdAt;
    table->regions.push_back(*region);
  }
  if (Status s = m_catalog->commit(); !s) {
    m_catalog->rollback();
    return s;
  }
  publishTable(std::move(table));
  return Status::ok();
}

Result<TableOptions> WorkspaceImpl::describeTable(std::string_view name) const {
  Result<std::shared_ptr<const Table>> table = requireTable(name);
  if (!table) return table.status();
  return (*table)->options;
}

std::vector<std::string> WorkspaceImpl::listTables() const {
  std::lock_guard lock(m_tablesMutex);
  std::vector<std::string> names;
  for (const auto& [name, table] : m_tables) names.push_back(name);
  return names;
}

bool WorkspaceImpl::tableExists(std::string_view name) const { return findTable(name) != nullptr; }

void WorkspaceImpl::retireFiles(const std::vector<std::shared_ptr<LiveStoreFile>>& files) {
  // REQUIRES: the catalog rows are gone (committed). Pages go when the last
  // reader lets go of the file.
  for (const auto& file : files) file->obsolete.store(true);
}

Status WorkspaceImpl::alterTable(const TableOptions& requested) {
  if (Status s = validateTableOptions(requested); !s) return s;
  const TableOptions options = normalised(requested);
  std::lock_guard maintenance(m_maintenance);
  std::unique_lock write(m_write);
  auto old = findTable(options.name);
  if (old == nullptr) return Status::notFound(tableNotFound(options.name));

  auto table = std::make_shared<Table>();
  table->id = old->id;
  table->options = options;
  std::vector<std::shared_ptr<LiveStoreFile>> retired;
  std::lock_guard db(m_db);
  if (Status s = m_catalog->begin(); !s) return s;
  Status status = m_catalog->updateTable(old->id, options);
  for (const FamilyOptions& family : old->options.families) {
    if (status && options.family(family.name) == nullptr)
      status = m_catalog->recordDroppedFamily(old->id, family.name, m_lastSeq);
  }
  for (const auto& oldRegion : old->regions) {
    if (!status) break;
    auto region = std::make_shared<Region>();
    region->id = oldRegion->id;
    region->tableId = oldRegion->tableId;
    region->tableName = oldRegion->tableName;
    region->startRow = oldRegion->startRow;
    region->endRow = oldRegion->endRow;
    region->createdMillis = oldRegion->createdMillis;
    region->server = oldRegion->server.load();
    region->flushedSeq = oldRegion->flushedSeq.load();
    region->pendingFlushSeq = oldRegion->pendingFlushSeq;
    for (const FamilyOptions& family : options.families) {
      const auto existing = oldRegion->stores.find(family.name);
      if (existing == oldRegion->stores.end()) {
        region->stores.emplace(family.name, newStore(family));
        continue;
      }
      auto version = std::make_shared<StoreVersion>(*existing->second->current());
      version->options = family;
      existing->second->install(version);
      region->stores.emplace(family.name, existing->second);
    }
    for (const auto& [name, store] : oldRegion->stores) {
      if (options.family(name) != nullptr) continue;
      if (status) status = unlistFilesLocked(*store->current(), &retired);
    }
    table->regions.push_back(std::move(region));
  }
  if (status) status = m_catalog->commit();
  if (!status) {
    m_catalog->rollback();
    return status;
  }
  retireFiles(retired);
  publishTable(std::move(table));
  return Status::ok();
}

Status WorkspaceImpl::unlistFilesLocked(const StoreVersion& version,
                                        std::vector<std::shared_ptr<LiveStoreFile>>* retired) {
  // The catalog forgets the files and lists them for page deletion, which
  // happens once no reader holds them (retireFiles, after the commit).
  for (const auto& file : version.files) {
    if (Status s = m_catalog->deleteStoreFileRow(file->reader->id()); !s) return s;
    if (Status s = m_catalog->addPendingFile(file->reader->id()); !s) return s;
    retired->push_back(file);
  }
  // Damaged files go with their store when it is dropped on purpose; no
  // reader holds them, so their pages go at the next open.
  for (const DamagedStoreFile& file : version.damaged) {
    if (Status s = m_catalog->deleteStoreFileRow(file.id); !s) return s;
    if (Status s = m_catalog->addPendingFile(file.id); !s) return s;
  }
  return Status::ok();
}

Status WorkspaceImpl::removeRegionsLocked(const Table& table, std::vector<std::shared_ptr<LiveStoreFile>>* retired) {
  for (const auto& region : table.regions) {
    for (const auto& [family, store] : region->stores) {
      if (Status s = unlistFilesLocked(*store->current(), retired); !s) return s;
    }
    if (Status s = m_catalog->deleteRegion(region->id); !s) return s;
  }
  return Status::ok();
}

Status WorkspaceImpl::truncateTable(std::string_view name) {
  std::lock_guard maintenance(m_maintenance);
  std::unique_lock write(m_write);
  auto old = findTable(name);
  if (old == nullptr) return Status::notFound(tableNotFound(name));
  auto table = std::make_shared<Table>();
  table->id = old->id;
  table->options = old->options;
  std::vector<std::shared_ptr<LiveStoreFile>> retired;
  std::lock_guard db(m_db);
  if (Status s = m_catalog->begin(); !s) return s;
  // The old regions' history ends here; their log records are older than
  // the new region's flushed_seq, so replay never routes them into it.
  Status status = removeRegionsLocked(*old, &retired);
  const int64_t at = now();
  for (const auto& region : old->regions) {
    if (status) status = m_catalog->retireRegionHistory(region->id, at);
  }
  RegionRecord record;
  record.tableId = table->id;
  record.flushedSeq = m_lastSeq;
  record.server = old->regions.empty() ? 0 : old->regions.front()->server.load();
  if (status) {
    RegionHistoryRecord history;
    history.createdMillis = at;
    Result<int64_t> id = m_catalog->insertRegion(record, history);
    if (id) record.id = *id; else status = id.status();
  }
  if (status) {
    Result<std::shared_ptr<Region>> region = buildRegion(record, table->options, {});
    if (region) {
      (*region)->createdMillis = at;
      table->regions.push_back(*region);
    } else {
      status = region.status();
    }
  }
  if (status) status = m_catalog->commit();
  if (!status) {
    m_catalog->rollback();
    return status;
  }
  retireFiles(retired);
  unpublishTable(old->options.name);
  publishTable(std::move(table));
  return Status::ok();
}

Status WorkspaceImpl::dropTable(std::string_view name) {
  std::lock_guard maintenance(m_maintenance);
  std::unique_lock write(m_write);
  auto old = findTable(name);
  if (old == nullptr) return Status::notFound(tableNotFound(name));
  std::vector<std::shared_ptr<LiveStoreFile>> retired;
  std::lock_guard db(m_db);
  if (Status s = m_catalog->begin(); !s) return s;
  Status status = removeRegionsLocked(*old, &retired);
  if (status) status = m_catalog->deleteTableHistory(old->id);
  if (status) status = forgetTableStatisticsLocked(old->id);
  if (status) status = m_catalog->deleteTableRow(old->id);
  if (status) status = m_catalog->commit();
  if (!status) {
    m_catalog->rollback();
    return status;
  }
  retireFiles(retired);
  unpublishTable(old->options.name);
  return Status::ok();
}

Result<std::vector<RegionInfo>> WorkspaceImpl::regions(std::string_view name) const {
  Result<std::shared_ptr<const Table>> table = requireTable(name);
  if (!table) return table.status();
  std::vector<RegionInfo> infos;
  for (const auto& region : (*table)->regions) {
    RegionInfo info;
    info.id = region->id;
    info.startRow = region->startRow;
    info.endRow = region->endRow;
    info.server = region->server.load();
    info.createdMillis = region->createdMillis;
    for (const auto& [family, store] : region->stores) {
      const auto version = store->current();
      info.memstoreBytes += version->active->empty() ? 0 : version->active->approximateBytes();
      if (version->flushing) info.memstoreBytes += version->flushing->approximateBytes();
      for (const auto& file : version->files) {
        const StoreFileMeta& meta = file->reader->meta();
        ++info.storeFiles;
        info.storedBytes += meta.storedBytes;
        info.rawBytes += meta.rawBytes;
        info.cells += meta.cellCount;
      }
      info.storeFiles += static_cast<uint32_t>(version->damaged.size());  // of unknown size
      info.damagedStoreFiles += static_cast<uint32_t>(version->damaged.size());
    }
    infos.push_back(std::move(info));
  }
  return infos;
}

Result<std::vector<StoreFileInfo>> WorkspaceImpl::storeFiles(std::string_view name) const {
  Result<std::shared_ptr<const Table>> table = requireTable(name);
  if (!table) return table.status();
  std::vector<StoreFileInfo> infos;
  for (const auto& region : (*table)->regions) {
    for (const auto& [family, store] : region->stores) {
      const auto version = store->current();
      for (const DamagedStoreFile& file : version->damaged) {
        StoreFileInfo info;
        info.id = file.id;
        info.regionId = region->id;
        info.family = family;
        info.damage = file.problem.message();
        infos.push_back(std::move(info));
      }
      for (const auto& file : version->files) {
        const StoreFileMeta& meta = file->reader->meta();
        StoreFileInfo info;
        info.id = file->reader->id();
        info.regionId = region->id;
        info.family = family;
        info.cells = meta.cellCount;
        info.rawBytes = meta.rawBytes;
        info.storedBytes = meta.storedBytes;
        info.pages = meta.pageCount;
        info.minTimestamp = meta.minTimestamp;
        info.maxTimestamp = meta.maxTimestamp;
        info.firstRow = unescaped(meta.firstKey.substr(0, escapedRowLength(meta.firstKey)));
        info.lastRow = unescaped(meta.lastKey.substr(0, escapedRowLength(meta.lastKey)));
        infos.push_back(std::move(info));
      }
    }
  }
  return infos;
}

}  // namespace keyscope::engine
