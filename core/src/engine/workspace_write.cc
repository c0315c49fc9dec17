// WorkspaceImpl: the write path - validation, timestamps, the log, the
// memstores - and the read-modify-write operations built on it.
#include <algorithm>
#include <map>

#include "engine/big_endian.h"
#include "engine/internal_key.h"
#include "engine/key_compare.h"
#include "engine/workspace_impl.h"

namespace keyscope::engine {

namespace {

// Writers wait when a region's memstores, the active one and the one being
// flushed together, pass this multiple of its flush size: at most two
// memstores' worth in memory, as RocksDB's max_write_buffer_number = 2.
constexpr uint64_t kMemstoreBlockingMultiplier = 2;

Status checkRow(BytesView row) {
  if (row.empty()) return Status::invalidArgument("a row key cannot be empty");
  if (row.size() > kMaxRowKeySize)
    return Status::invalidArgument("row key of " + std::to_string(row.size()) + " bytes is longer than the limit of " +
                                   std::to_string(kMaxRowKeySize));
  return Status::ok();
}

Status checkQualifier(BytesView qualifier) {
  if (qualifier.size() > kMaxQualifierSize)
    return Status::invalidArgument("qualifier of " + std::to_string(qualifier.size()) +
                                   " bytes is longer than the limit of " + std::to_string(kMaxQualifierSize));
  return Status::ok();
}

Status checkValue(BytesView value) {
  if (value.size() > kMaxValueSize)
    return Status::invalidArgument("value of " + std::to_string(value.size()) + " bytes is larger than the limit of " +
                                   std::to_string(kMaxValueSize));
  return Status::ok();
}

// The size limits of a mutation's cells, checked before anything is read.
Status checkSizes(const Mutation& mutation) {
  if (const Delete* del = std::get_if<Delete>(&mutation)) {
    for (const DeleteSpec& spec : del->specs) {
      if (Status s = checkQualifier(spec.qualifier); !s) return s;
    }
    return Status::ok();
  }
  for (const PutCell& cell : std::get<Put>(mutation).cells) {
    if (Status s = checkQualifier(cell.qualifier); !s) return s;
    if (Status s = checkValue(cell.value); !s) return s;
  }
  return Status::ok();
}

Status checkTimestamp(int64_t ts, std::string_view what) {
  if (ts < 0) return Status::invalidArgument(std::string(what) + " timestamp " + std::to_string(ts) + " is negative");
  return Status::ok();
}

const FamilyOptions* requireFamily(const Table& table, std::string_view family, Status* status) {
  const FamilyOptions* options = table.options.family(family);
  if (options == nullptr)
    *status = Status::invalidArgument("table '" + table.options.name + "' has no column family '" +
                                      std::string(family) + "'");
  return options;
}

Bytes bigEndian64(int64_t value) {
  Bytes out(8, '\0');
  storeBigEndian64(out.data(), static_cast<uint64_t>(value));
  return out;
}

}  // namespace

std::vector<Region*> WorkspaceImpl::regionsOf(const std::vector<ResolvedCell>& cells) {
  std::vector<Region*> regions;
  for (const auto& cell : cells) {
    if (std::find(regions.begin(), regions.end(), cell.region) == regions.end()) regions.push_back(cell.region);
  }
  return regions;
}

void WorkspaceImpl::ResolvedBatch::add(Region* region, std::string_view family, BytesView row, BytesView qualifier,
                                       int64_t ts, CellType type, BytesView value) {
  const size_t offset = keys.size();
  appendInternalKey(&keys, row, qualifier, ts, type);
  cells.push_back(
      {region, row, family, static_cast<uint32_t>(offset), static_cast<uint32_t>(keys.size() - offset), value});
}

void WorkspaceImpl::ResolvedBatch::clear() {
  // A batch of tens of thousands of cells does not keep its megabytes
  // for the batches of a thousand that follow.
  constexpr size_t kKeptKeyBytes = 1 << 20;
  if (keys.capacity() > kKeptKeyBytes) {
    std::string().swap(keys);
    std::vector<ResolvedCell>().swap(cells);
  }
  keys.clear();
  cells.clear();
}

Status WorkspaceImpl::resolveMutation(const Table& table, const Mutation& mutation, int64_t now, ResolvedBatch* out) {
  if (const Delete* del = std::get_if<Delete>(&mutation)) return resolveDelete(table, *del, now, out);
  const Put& put = std::get<Put>(mutation);
  if (Status s = checkRow(put.row); !s) return s;
  if (put.cells.empty()) return Status::invalidArgument("a put needs at least one cell");
  Region* region = table.regionFor(put.row).get();
  for (const PutCell& cell : put.cells) {
    if (Status s = resolvePutCell(table, region, put.row, cell.family, cell.qualifier, cell.timestamp, cell.value,
                                  now, out);
        !s)
      return s;
  }
  return Status::ok();
}

Status WorkspaceImpl::resolvePutCell(const Table& table, Region* region, BytesView row, std::string_view family,
                                     BytesView qualifier, int64_t timestamp, BytesView value, int64_t now,
                                     ResolvedBatch* out) {
  Status status;
  if (requireFamily(table, family, &status) == nullptr) return status;
  if (Status s = checkQualifier(qualifier); !s) return s;
  if (Status s = checkValue(value); !s) return s;
  if (Status s = checkTimestamp(timestamp, "put"); !s) return s;
  const int64_t ts = timestamp == kLatestTimestamp ? now : timestamp;
  out->add(region, family, row, qualifier, ts, CellType::kPut, value);
  return Status::ok();
}

Status WorkspaceImpl::resolvePutBatch(const Table& table, const PutBatch& batch, int64_t now, ResolvedBatch* out) {
  Region* region = nullptr;
  BytesView regionRow;  // the row `region` was found for: a run of cells with one row looks once
  for (size_t i = 0; i < batch.size(); ++i) {
    const PutBatch::Cell cell = batch[i];
    Status status;
    if (region == nullptr || cell.row != regionRow) {
      status = checkRow(cell.row);
      if (status) {
        region = table.regionFor(cell.row).get();
        regionRow = cell.row;
      }
    }
    if (status)
      status = resolvePutCell(table, region, cell.row, cell.family, cell.qualifier, cell.timestamp, cell.value, now, out);
    if (!status) {
      if (batch.size() == 1 || status.code() != Status::Code::kInvalidArgument) return status;
      return Status::invalidArgument("cell " + std::to_string(i + 1) + ": " + status.message());
    }
  }
  return Status::ok();
}

Status WorkspaceImpl::resolveDelete(const Table& table, const Delete& del, int64_t now, ResolvedBatch* out) {
  if (Status s = checkRow(del.row); !s) return s;
  if (Status s = checkTimestamp(del.timestamp, "delete"); !s) return s;
  Region* region = table.regionFor(del.row).get();
  const int64_t rowTs = del.timestamp == kLatestTimestamp ? now : del.timestamp;
  if (del.specs.empty()) {
    // A row delete is one DeleteFamily per family.
    for (const FamilyOptions& family : table.options.families)
      out->add(region, family.name, del.row, {}, rowTs, CellType::kDeleteFamily, {});
    return Status::ok();
  }
  // The N-th Delete.addColumn of a column without a timestamp marks its N-th
  // newest version (HRegion.prepareDeleteTimestamps).
  std::map<std::pair<std::string, Bytes>, int32_t> latestVersionCount;
  for (const DeleteSpec& spec : del.specs) {
    Status status;
    if (requireFamily(table, spec.family, &status) == nullptr) return status;
    if (Status s = checkTimestamp(spec.timestamp, "delete"); !s) return s;
    if (Status s = checkQualifier(spec.qualifier); !s) return s;
    const bool explicitTs = spec.timestamp != kLatestTimestamp;
    const int64_t ts = explicitTs ? spec.timestamp : rowTs;
    switch (spec.scope) {
      case DeleteScope::kFamily:
        out->add(region, spec.family, del.row, {}, ts, CellType::kDeleteFamily, {});
        break;
      case DeleteScope::kFamilyVersion:
        out->add(region, spec.family, del.row, {}, ts, CellType::kDeleteFamilyVersion, {});
        break;
      case DeleteScope::kColumnAll:
        out->add(region, spec.family, del.row, spec.qualifier, ts, CellType::kDeleteColumn, {});
        break;
      case DeleteScope::kColumnVersion: {
        int64_t markerTs = ts;
        if (!explicitTs && del.timestamp == kLatestTimestamp) {
          const int32_t n = ++latestVersionCount[{spec.family, spec.qualifier}];
          GetOptions get;
          get.row = del.row;
          get.columns = {ColumnSelector{spec.family, spec.qualifier}};
          get.maxVersions = n;
          Result<GetResult> current = getFromTable(table, get);
          if (!current) return current.status();
          markerTs = static_cast<int32_t>(current->cells.size()) >= n ? current->cells[static_cast<size_t>(n - 1)].timestamp
                                                                     : now;
        }
        out->add(region, spec.family, del.row, spec.qualifier, markerTs, CellType::kDelete, {});
        break;
      }
    }
  }
  return Status::ok();
}

Status WorkspaceImpl::commitLogLocked(std::optional<std::pair<int64_t, std::string>> record, bool fsync) {
  std::lock_guard db(m_db);
  if (fsync) {
    if (Status s = m_catalog->setSynchronousFull(true); !s) return s;
  }
  Status status = m_catalog->begin();
  // Async records acknowledged earlier go first, keeping the log in order.
  for (const auto& [seq, data] : m_asyncLog) {
    if (status) status = m_catalog->appendWal(seq, data);
  }
  if (status && record) status = m_catalog->appendWal(record->first, record->second);
  if (status) status = m_catalog->commit();
  if (!status) m_catalog->rollback();
  if (fsync) (void)m_catalog->setSynchronousFull(false);
  if (status) m_asyncLog.clear();
  return status;
}

Status WorkspaceImpl::makeRoomLocked(const ResolvedBatch& batch, std::unique_lock<std::mutex>& writeLock,
                                     bool* waited) {
  // Backpressure: wait while a region holds more than two memstores' worth
  // and its flush has not finished (memory would grow without bound).
  // When a flush of the region ends in failure meanwhile (a full disk, say),
  // the write fails saying so; it goes through once a later flush succeeds.
  *waited = false;
  if (Status s = makeRoomInWorkspaceLocked(writeLock, waited); !s || *waited) return s;
  for (Region* region : regionsOf(batch.cells)) {
    auto table = findTable(region->tableName);
    const uint64_t limit = kMemstoreBlockingMultiplier * (table != nullptr ? table->options.memstoreFlushSize : 0);
    if (table == nullptr || region->heldMemstoreBytes() <= limit) continue;
    uint64_t attempts = 0;
    {
      std::lock_guard queue(m_queueMutex);
      attempts = flushAttemptsLocked(region->id);
    }
    scheduleFlush(*region);  // even below the flush size: a failed flush's memstores wait for a retry
    *waited = true;
    waitForRoomLocked(writeLock);
    const uint64_t held = region->heldMemstoreBytes();
    if (held <= limit) return Status::ok();  // a failed flush switched memstores too: room for now
    Status failed;
    {
      std::lock_guard queue(m_queueMutex);
      failed = flushFailureSinceLocked(region->id, attempts);
    }
    if (!failed)
      return failed.withMessage("table '" + region->tableName +
                                "' takes no more writes until its memstore can be flushed (region " +
                                std::to_string(region->id) + " holds " + std::to_string(held) +
                                " bytes in memory, more than twice its flush size); nothing of this write was applied: " +
                                failed.message());
    return Status::ok();
  }
  return Status::ok();
}

void WorkspaceImpl::waitForRoomLocked(std::unique_lock<std::mutex>& writeLock) {
  // Counted, so the memstores' block pool is kept for the writes that resume
  // (MemstoreBudget::writesUnderWay).
  m_memstoreBudget->waitingWriters.fetch_add(1, std::memory_order_relaxed);
  m_flushed.wait_for(writeLock, std::chrono::seconds(1));
  m_memstoreBudget->waitingWriters.fetch_sub(1, std::memory_order_relaxed);
}

Status WorkspaceImpl::makeRoomInWorkspaceLocked(std::unique_lock<std::mutex>& writeLock, bool* waited) {
  // HBase's global memstore limit: past it, writes wait for flushes of the
  // regions holding the most (with many regions, each below its own flush
  // size, the memstores together would otherwise grow without bound).
  const uint64_t limit = m_options.memstoreLimitBytes;
  if (limit == 0 || m_memstoreBudget->held() <= limit) return Status::ok();
  const int64_t target = maybeFlushForMemory(true);
  uint64_t attempts = 0;
  {
    std::lock_guard queue(m_queueMutex);
    attempts = flushAttemptsLocked(target);
  }
  *waited = true;
  waitForRoomLocked(writeLock);
  const uint64_t held = m_memstoreBudget->held();
  if (held <= limit || target < 0) return Status::ok();
  Status failed;
  {
    std::lock_guard queue(m_queueMutex);
    failed = flushFailureSinceLocked(target, attempts);
  }
  if (!failed)
    return failed.withMessage("the workspace takes no more writes until its memstores can be flushed (they hold " +
                              std::to_string(held) + " bytes, more than the limit of " + std::to_string(limit) +
                              "); nothing of this write was applied: " + failed.message());
  return Status::ok();
}

Status WorkspaceImpl::makeRoomForRowLocked(std::string_view tableName, BytesView row,
                                           std::unique_lock<std::mutex>& writeLock) {
  while (true) {
    Result<std::shared_ptr<const Table>> table = requireTable(tableName);
    if (!table) return table.status();
    const auto region = (*table)->regionFor(row);
    if (region == nullptr) return Status::ok();
    ResolvedBatch probe;
    probe.cells.push_back({region.get(), row, {}, 0, 0, {}});
    bool waited = false;
    if (Status s = makeRoomLocked(probe, writeLock, &waited); !s) return s;
    if (!waited) return Status::ok();
  }
}

Status WorkspaceImpl::applyLocked(const ResolvedBatch& batch, Durability durability) {
  const std::vector<ResolvedCell>& cells = batch.cells;
  const std::vector<Region*> regions = regionsOf(cells);
  // The cells in key order per family (so per region as well), the order
  // they go into the memstores and into the log record: each memstore add
  // then searches on from where the one before it went (Memstore::add),
  // which for a batch of random rows costs a fraction of a search from the
  // top, and each key of the record is coded against the one before it
  // (wal_record.h). Equal keys keep their order, so the later write gets the
  // higher mvcc and wins, as in batch order (and replay sorts a record's
  // entries stably). Memstores change only under m_write (held here), so
  // one lookup serves a run of cells of one region and family.
  const auto keyOrder = [&batch](const ResolvedCell& a, const ResolvedCell& b) {
    if (a.family != b.family) return a.family < b.family;
    return compareKeys(batch.key(a), batch.key(b)) < 0;
  };
  m_applyOrder.clear();
  if (std::is_sorted(cells.begin(), cells.end(), keyOrder)) {
    for (const ResolvedCell& cell : cells) m_applyOrder.push_back({0, 0, &cell});
  } else {
    // The sort compares integers where it can: each family's rank by name,
    // found once per cell, and each key's first eight bytes, which decide
    // nearly every comparison of random rows.
    m_applyFamilies.clear();
    for (const ResolvedCell& cell : cells) {
      if (std::find(m_applyFamilies.begin(), m_applyFamilies.end(), cell.family) == m_applyFamilies.end())
        m_applyFamilies.push_back(cell.family);
    }
    std::sort(m_applyFamilies.begin(), m_applyFamilies.end());
    for (const ResolvedCell& cell : cells) {
      const auto rank = std::lower_bound(m_applyFamilies.begin(), m_applyFamilies.end(), cell.family) -
                        m_applyFamilies.begin();
      m_applyOrder.push_back({static_cast<uint32_t>(rank), orderPrefix(batch.key(cell)), &cell});
    }
    std::sort(m_applyOrder.begin(), m_applyOrder.end(), [&batch](const ApplyEntry& a, const ApplyEntry& b) {
      if (a.familyRank != b.familyRank) return a.familyRank < b.familyRank;
      if (a.keyPrefix != b.keyPrefix) return a.keyPrefix < b.keyPrefix;
      if (const int c = compareKeys(batch.key(*a.cell), batch.key(*b.cell)); c != 0) return c < 0;
      return a.cell < b.cell;  // equal keys keep batch order
    });
  }
  if (durability != Durability::kSkipWal) {
    size_t recordBytes = batch.keys.size();
    for (const ResolvedCell& cell : cells)
      recordBytes += cell.family.size() + cell.value.size() + LogRecordBuilder::kEntryOverhead;
    LogRecordBuilder builder(cells.size(), recordBytes);
    for (const ApplyEntry& entry : m_applyOrder)
      builder.add(entry.cell->region->id, entry.cell->family, batch.key(*entry.cell), entry.cell->value);
    const int64_t seq = m_lastSeq + 1;
    std::string record = std::move(builder).finish(seq);
    if (durability == Durability::kAsyncWal) {
      m_asyncLog.emplace_back(seq, std::move(record));
      if (m_asyncLog.size() == 1) enqueue(TaskKind::kSyncLog, 0, false);
    } else if (Status s = commitLogLocked(std::make_pair(seq, std::move(record)), durability == Durability::kFsyncWal);
               !s) {
      // Nothing applied: the batch is all or nothing.
      return s.withMessage("logging the write: " + s.message() + "; nothing of this write was applied");
    }
    m_lastSeq = seq;
  }
  const Region* lastRegion = nullptr;
  std::string_view lastFamily;
  std::shared_ptr<const StoreVersion> version;
  for (const ApplyEntry& entry : m_applyOrder) {
    const ResolvedCell* cell = entry.cell;
    if (cell->region != lastRegion || cell->family != lastFamily) {
      version = cell->region->stores.find(cell->family)->second->current();
      lastRegion = cell->region;
      lastFamily = cell->family;
    }
    version->active->add(batch.key(*cell), cell->value, m_nextMvcc++);
  }
  m_readPoint.store(m_nextMvcc - 1, std::memory_order_release);
  recordWrites(batch);
  for (Region* region : regions) maybeScheduleFlush(*region);
  maybeFlushForMemory(false);
  return Status::ok();
}

void WorkspaceImpl::maybeScheduleFlush(const Region& region) {
  auto table = findTable(region.tableName);
  if (table == nullptr || region.memstoreBytes() < table->options.memstoreFlushSize) return;
  scheduleFlush(region);
}

int64_t WorkspaceImpl::maybeFlushForMemory(bool force) {
  const uint64_t limit = m_options.memstoreLimitBytes;
  if (limit == 0) return -1;
  if (!force && m_memstoreBudget->active.load(std::memory_order_relaxed) < limit / 2) return -1;
  {
    std::lock_guard queue(m_queueMutex);
    if (m_memoryFlushRegion >= 0) return m_memoryFlushRegion;
  }
  std::vector<std::shared_ptr<Region>> regions;
  {
    std::lock_guard lock(m_tablesMutex);
    regions.reserve(m_regions.size());
    for (const auto& [id, region] : m_regions) regions.push_back(region);
  }
  const auto holdingMost = [&](uint64_t (Region::*bytesOf)() const) {
    const Region* largest = nullptr;
    uint64_t largestBytes = 0;
    for (const auto& region : regions) {
      const uint64_t bytes = ((*region).*bytesOf)();
      if (bytes > largestBytes) {
        largest = region.get();
        largestBytes = bytes;
      }
    }
    return largest;
  };
  const Region* largest = holdingMost(&Region::memstoreBytes);
  // All of it switched out already: a flush that failed (a full disk) keeps
  // its memstores until a retry, which is asked for here.
  if (largest == nullptr && force) largest = holdingMost(&Region::heldMemstoreBytes);
  if (largest == nullptr) return -1;
  {
    std::lock_guard queue(m_queueMutex);
    m_memoryFlushRegion = largest->id;
  }
  scheduleFlush(*largest);
  return largest->id;
}

void WorkspaceImpl::scheduleFlush(const Region& region) {
  {
    std::lock_guard lock(m_queueMutex);
    if (!m_flushQueued.insert(region.id).second) return;
  }
  enqueue(TaskKind::kFlush, region.id, false);
}

Status WorkspaceImpl::mutate(std::string_view tableName, std::span<const Mutation> mutations,
                             const WriteOptions& options) {
  if (mutations.empty()) return Status::ok();
  return writeResolved(tableName, options, [&](const Table& table, int64_t now, ResolvedBatch* cells) {
    for (size_t i = 0; i < mutations.size(); ++i) {
      if (Status s = resolveMutation(table, mutations[i], now, cells); !s) {
        if (mutations.size() == 1 || s.code() != Status::Code::kInvalidArgument) return s;
        return Status::invalidArgument("mutation " + std::to_string(i + 1) + ": " + s.message());
      }
    }
    return Status::ok();
  });
}

Status WorkspaceImpl::mutate(std::string_view tableName, const PutBatch& batch, const WriteOptions& options) {
  if (batch.empty()) return Status::ok();
  return writeResolved(tableName, options, [&](const Table& table, int64_t now, ResolvedBatch* cells) {
    return resolvePutBatch(table, batch, now, cells);
  });
}

Status WorkspaceImpl::writeResolved(std::string_view tableName, const WriteOptions& options,
                                    const std::function<Status(const Table&, int64_t now, ResolvedBatch*)>& resolve) {
  std::unique_lock write(m_write);
  while (true) {
    Result<std::shared_ptr<const Table>> table = requireTable(tableName);
    if (!table) return table.status();
    ResolvedBatch& cells = m_mutateBatch;  // reused: m_write is held
    cells.clear();
    if (Status s = resolve(**table, this->now(), &cells); !s) return s;
    bool waited = false;
    if (Status s = makeRoomLocked(cells, write, &waited); !s) return s;
    if (!waited) return applyLocked(cells, options.durability);
  }
}

Result<std::vector<Cell>> WorkspaceImpl::increment(std::string_view tableName, const Increment& increment,
                                                   const WriteOptions& options) {
  if (Status s = checkRow(increment.row); !s) return s;
  if (increment.columns.empty()) return Status::invalidArgument("an increment needs at least one column");
  std::unique_lock write(m_write);
  // Room first: waiting releases the lock, which must not happen between the
  // read of the current values and the write of the new ones.
  if (Status s = makeRoomForRowLocked(tableName, increment.row, write); !s) return s;
  Result<std::shared_ptr<const Table>> tableResult = requireTable(tableName);
  if (!tableResult) return tableResult.status();
  const Table& table = **tableResult;
  // A column named twice is applied once: the last delta wins, as HBase's
  // server reads every column's current value once before applying.
  std::map<std::pair<std::string, Bytes>, int64_t> deltas;
  std::vector<std::pair<std::string, Bytes>> order;
  for (const IncrementColumn& column : increment.columns) {
    Status status;
    if (requireFamily(table, column.family, &status) == nullptr) return status;
    const auto key = std::make_pair(column.family, column.qualifier);
    if (deltas.find(key) == deltas.end()) order.push_back(key);
    deltas[key] = column.delta;
  }
  std::sort(order.begin(), order.end());
  GetOptions get;
  get.row = increment.row;
  for (const auto& [family, qualifier] : order) get.columns.push_back({family, qualifier});
  Result<GetResult> current = getFromTable(table, get);
  if (!current) return current.status();

  const int64_t now = this->now();
  Put put;
  put.row = increment.row;
  std::vector<Cell> results;
  for (const auto& column : order) {
    int64_t value = 0;
    int64_t ts = now;
    for (const Cell& cell : current->cells) {
      if (cell.family != column.first || cell.qualifier != column.second) continue;
      if (cell.value.size() != 8)
        return Status::invalidArgument("Field is not a long, it's " + std::to_string(cell.value.size()) +
                                       " bytes wide (" + column.first + ":" + toStringBinary(column.second) + ")");
      value = static_cast<int64_t>(loadBigEndian64(cell.value.data()));  // 8 bytes: checked above
      ts = std::max(now, cell.timestamp + 1);  // HRegion.reckonDelta: never behind the old cell
    }
    // Two's complement wrap-around, as Java's long addition.
    value = static_cast<int64_t>(static_cast<uint64_t>(value) + static_cast<uint64_t>(deltas[column]));
    put.cells.push_back({column.first, column.second, ts, bigEndian64(value)});
    results.push_back({increment.row, column.first, column.second, ts, CellType::kPut, bigEndian64(value)});
  }
  ResolvedBatch cells;
  const Mutation mutation(std::move(put));  // the resolved cells point into it
  if (Status s = resolveMutation(table, mutation, now, &cells); !s) return s;
  if (Status s = applyLocked(cells, options.durability); !s) return s;
  return results;
}

Result<bool> WorkspaceImpl::checkAndMutate(std::string_view tableName, const CheckAndMutate& check,
                                           const WriteOptions& options) {
  if (Status s = checkRow(check.row); !s) return s;
  if (Status s = checkQualifier(check.qualifier); !s) return s;
  if (Status s = validateTimeRange(check.timeRange); !s) return s;
  if (check.op == CompareOp::kNoOp) return Status::invalidArgument("checkAndMutate needs a compare operator other than NO_OP");
  for (const Mutation& mutation : check.mutations) {
    const Bytes& row = std::holds_alternative<Put>(mutation) ? std::get<Put>(mutation).row : std::get<Delete>(mutation).row;
    if (row != check.row)
      return Status::invalidArgument("checkAndMutate: mutation row '" + toStringBinary(row) +
                                     "' differs from the checked row '" + toStringBinary(check.row) + "'");
    // Refused whether or not the check passes, as HBase's client refuses them.
    if (Status s = checkSizes(mutation); !s) return s;
  }
  std::unique_lock write(m_write);
  if (Status s = makeRoomForRowLocked(tableName, check.row, write); !s) return s;
  Result<std::shared_ptr<const Table>> tableResult = requireTable(tableName);
  if (!tableResult) return tableResult.status();
  const Table& table = **tableResult;
  Status status;
  if (requireFamily(table, check.family, &status) == nullptr) return status;
  GetOptions get;
  get.row = check.row;
  get.columns = {ColumnSelector{check.family, check.qualifier}};
  get.timeRange = check.timeRange;
  Result<GetResult> current = getFromTable(table, get);
  if (!current) return current.status();
  const Cell* cell = current->cells.empty() ? nullptr : &current->cells.front();

  bool matches = false;
  if (!check.value || check.value->empty()) {
    // HRegion.checkAndMutateInternal: a null or empty value (ifNotExists)
    // matches a missing cell or an empty one; NOT_EQUAL inverts that.
    const bool absentOrEmpty = cell == nullptr || cell->value.empty();
    matches = absentOrEmpty == (check.op != CompareOp::kNotEqual);
  } else if (cell != nullptr) {
    // The supplied value is the left operand: value <op> cell value.
    const int c = BytesView(*check.value).compare(cell->value);
    matches = compareResultMatches(check.op, c < 0 ? -1 : (c > 0 ? 1 : 0));
  }
  if (!matches || check.mutations.empty()) return matches;
  const int64_t now = this->now();
  ResolvedBatch cells;
  for (const Mutation& mutation : check.mutations) {
    if (Status s = resolveMutation(table, mutation, now, &cells); !s) return s;
  }
  if (Status s = applyLocked(cells, options.durability); !s) return s;
  return true;
}

}  // namespace keyscope::engine
