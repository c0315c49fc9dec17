// WorkspaceImpl: statistics - charging writes to regions and servers,
// persisting what the recorder holds, and the queries (stats/stats_queries.h)
// over the engine's regions and the workspace's statistics tables.
#include <algorithm>

#include "engine/internal_key.h"
#include "engine/workspace_impl.h"
#include "stats/stats_queries.h"
#include "stats/stats_schema.h"

namespace keyscope::engine {

namespace {

// A reader connection for the length of one query.
class LeasedConnection {
 public:
  explicit LeasedConnection(ReaderPool* pool) : m_pool(pool) {
    Result<sqlite3*> db = pool->acquire();
    if (db) m_db = *db; else m_status = db.status();
  }
  ~LeasedConnection() {
    if (m_db != nullptr) m_pool->release(m_db);
  }
  LeasedConnection(const LeasedConnection&) = delete;
  LeasedConnection& operator=(const LeasedConnection&) = delete;
  sqlite3* db() const { return m_db; }
  const Status& status() const { return m_status; }

 private:
  ReaderPool* m_pool;
  sqlite3* m_db = nullptr;
  Status m_status;
};

// A file of up to this many blocks (256 KiB raw) is read row by row for the
// key sample; a larger one is sampled by its block index, one key per block.
constexpr size_t kExactKeySampleBlocks = 64;

}  // namespace

Status WorkspaceImpl::appendExactRows(const LiveStoreFile& file, std::vector<stats::KeySample>* out) const {
  LeasedPageSource pages(m_readers.get());
  const ReadContext context{&pages, nullptr, /*fillCache=*/false};
  auto it = file.reader->newIterator(context);
  std::string row;
  bool first = true;
  for (it->seekToFirst(); it->valid(); it->next()) {
    const BytesView key = it->key();
    const BytesView keyRow = key.substr(0, escapedRowLength(key));
    if (first || keyRow != BytesView(row)) {
      row.assign(keyRow);
      out->push_back({unescaped(keyRow), 0, 0});
      first = false;
    }
    ++out->back().cells;
    out->back().bytes += key.size() + it->value().size();
  }
  return it->status();
}

void WorkspaceImpl::recordWrites(const ResolvedBatch& batch) {
  // One write per run of cells of the same row and region (a mutation).
  const int64_t at = now();
  const ResolvedCell* first = nullptr;
  uint64_t cells = 0, bytes = 0;
  auto charge = [&] {
    if (first != nullptr) m_stats->recordWrite(chargeTarget(*first->region), first->row, cells, bytes, at);
  };
  for (const ResolvedCell& cell : batch.cells) {
    if (first == nullptr || cell.region != first->region || cell.row != first->row) {
      charge();
      first = &cell;
      cells = 0;
      bytes = 0;
    }
    ++cells;
    bytes += cell.keyLength + cell.value.size();
  }
  charge();
}

Status WorkspaceImpl::persistStatistics() const {
  if (m_stats->empty()) return Status::ok();
  std::lock_guard db(m_db);
  Status status = m_catalog->begin();
  if (status) status = m_stats->persist(m_catalog->db());
  if (status) status = m_catalog->commit();
  if (!status) m_catalog->rollback();
  return status;
}

Status WorkspaceImpl::forgetTableStatisticsLocked(int64_t tableId) {
  return stats::deleteTableStatistics(m_catalog->db(), tableId);
}

Result<stats::TableContext> WorkspaceImpl::tableContext(std::string_view tableName, bool withKeys) const {
  Result<std::shared_ptr<const Table>> found = requireTable(tableName);
  if (!found) return found.status();
  const Table& table = **found;
  stats::TableContext context;
  context.tableId = table.id;
  context.keySchema = table.options.keySchema;
  context.nowMillis = now();  // a live region's life ends now, for its rates
  Result<std::vector<RegionHistoryRecord>> history = [this] {
    std::lock_guard db(m_db);
    return m_catalog->loadRegionHistory();
  }();
  if (!history) return history.status();
  for (RegionHistoryRecord& h : history.value()) {
    if (h.tableId != table.id) continue;
    stats::RegionSpan span;
    span.regionId = h.regionId;
    span.startRow = std::move(h.startRow);
    span.endRow = std::move(h.endRow);
    span.createdMillis = h.createdMillis;
    span.retiredMillis = h.retiredMillis;
    span.merged = h.origin == RegionOrigin::kMerge;
    span.server = -1;  // a retired region's server is not kept
    for (const auto& live : table.regions) {
      if (live->id == h.regionId) span.server = live->server.load();
    }
    context.history.push_back(std::move(span));
  }
  Result<std::vector<RegionInfo>> live = regions(tableName);
  if (!live) return live.status();
  for (const RegionInfo& r : *live)
    context.live.push_back({r.id, r.rawBytes, r.storedBytes, r.memstoreBytes, r.cells, r.storeFiles});
  if (!withKeys) return context;

  // The key sample: each store-file block's last row standing for the
  // block's bytes and cells, and each memstore row for itself.
  for (const auto& region : table.regions) {
    for (const auto& [family, store] : region->stores) {
      const auto version = store->current();
      for (const auto& file : version->files) {
        const StoreFileMeta& meta = file->reader->meta();
        if (meta.blocks.size() <= kExactKeySampleBlocks) {
          if (Status s = appendExactRows(*file, &context.keys); !s) return s;
          continue;
        }
        const double cellsPerByte =
            meta.rawBytes == 0 ? 0 : static_cast<double>(meta.cellCount) / static_cast<double>(meta.rawBytes);
        for (size_t b = 0; b < meta.blocks.size(); ++b) {
          const BlockHandle& block = meta.blocks[b];
          const BytesView key = meta.blocks.lastKey(b);
          context.keys.push_back({unescaped(key.substr(0, escapedRowLength(key))),
                                  static_cast<uint64_t>(cellsPerByte * block.rawSize + 0.5), block.rawSize});
        }
      }
      for (const auto& memstore : {version->flushing, version->active}) {
        if (memstore == nullptr || memstore->empty()) continue;
        auto it = memstore->newIterator(m_readPoint.load(std::memory_order_acquire));
        std::string row;
        for (it->seekToFirst(); it->valid(); it->next()) {
          const BytesView key = it->key();
          const BytesView keyRow = key.substr(0, escapedRowLength(key));
          if (context.keys.empty() || keyRow != BytesView(row)) {
            row.assign(keyRow);
            context.keys.push_back({unescaped(keyRow), 0, 0});
          }
          ++context.keys.back().cells;
          context.keys.back().bytes += key.size() + it->value().size();
        }
      }
    }
  }
  std::stable_sort(context.keys.begin(), context.keys.end(),
                   [](const stats::KeySample& a, const stats::KeySample& b) { return a.row < b.row; });
  return context;
}

Result<std::vector<RegionLoad>> WorkspaceImpl::regionLoad(std::string_view table, const TimeWindow& window) const {
  Result<stats::TableContext> context = tableContext(table, false);
  if (!context) return context.status();
  if (Status s = persistStatistics(); !s) return s;
  LeasedConnection connection(m_readers.get());
  if (!connection.status()) return connection.status();
  return stats::queryRegionLoad(connection.db(), *context, window);
}

Result<std::vector<ServerLoad>> WorkspaceImpl::serverLoad(const TimeWindow& window) const {
  if (Status s = persistStatistics(); !s) return s;
  LeasedConnection connection(m_readers.get());
  if (!connection.status()) return connection.status();
  return stats::queryServerLoad(connection.db(), regionsPerServer(), window);
}

Result<LoadSeries> WorkspaceImpl::serverLoadSeries(const TimeWindow& window, uint32_t columns) const {
  if (Status s = persistStatistics(); !s) return s;
  LeasedConnection connection(m_readers.get());
  if (!connection.status()) return connection.status();
  return stats::queryServerLoadSeries(connection.db(), m_servers.load(), window, columns);
}

Result<HeatGrid> WorkspaceImpl::heatGrid(std::string_view table, const HeatGridRequest& request) const {
  Result<stats::TableContext> context = tableContext(table, request.axis != KeyAxis::kRegions);
  if (!context) return context.status();
  if (Status s = persistStatistics(); !s) return s;
  LeasedConnection connection(m_readers.get());
  if (!connection.status()) return connection.status();
  return stats::queryHeatGrid(connection.db(), *context, request);
}

Result<KeyHistogram> WorkspaceImpl::keyHistogram(std::string_view table, const KeyHistogramRequest& request) const {
  Result<stats::TableContext> context = tableContext(table, true);
  if (!context) return context.status();
  return stats::computeKeyHistogram(*context, request);
}

}  // namespace keyscope::engine
