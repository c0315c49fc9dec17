// The Keyscope peer: the engine through its public Workspace API, as a client
// would use it. One table `tsdb`, family `d` with COMPRESSION ZSTD,
// BLOOMFILTER ROW and VERSIONS 3 (every version written stays readable), a
// memstore flush size equal to RocksDB's write buffer, a 64 MiB page cache,
// and Durability::kSyncWal (acknowledged once the log record commits, no
// fsync: what RocksDB's sync=false with WAL and SQLite's synchronous=NORMAL give).
#include <keyscope/workspace.h>

#include "peer.h"

namespace keyscope_bench {
namespace {

constexpr const char* kTable = "tsdb";
constexpr const char* kFamily = "d";

void check(const keyscope::Status& s, const char* what) {
  if (!s.isOk()) die(std::string("keyscope: ") + what + ": " + s.toString());
}

class KeyscopePeer final : public Peer {
 public:
  explicit KeyscopePeer(const PeerSettings& settings) : m_settings(settings) {
    m_writeOptions.durability = keyscope::Durability::kSyncWal;
  }

  void open(const std::string& dir, bool fresh) override {
    keyscope::OpenOptions options;
    options.createIfMissing = fresh;
    options.pageCacheBytes = m_settings.cacheBytes;
    // Two memstores' worth in all, as RocksDB's two write buffers (its
    // max_write_buffer_number): the table splits into regions as it grows,
    // and each region has memstores of its own.
    options.memstoreLimitBytes = 2 * m_settings.memstoreBytes;
    options.backgroundCompaction = true;
    auto ws = keyscope::Workspace::open(dir + "/workspace.keyscope", options);
    check(ws.status(), "open");
    m_ws = std::move(ws).value();
    if (fresh) {
      keyscope::FamilyOptions family;
      family.name = kFamily;
      family.maxVersions = 3;
      family.compression = keyscope::Compression::kZstd;
      family.bloomFilter = keyscope::BloomType::kRow;
      if (m_settings.keyscopeBlockSize != 0) family.blockSize = m_settings.keyscopeBlockSize;
      keyscope::TableOptions table;
      table.name = kTable;
      table.families = {family};
      table.memstoreFlushSize = m_settings.memstoreBytes;
      check(m_ws->createTable(table), "create table");
    }
  }

  void close() override { m_ws.reset(); }

  // The whole batch is one mutate() call (one log transaction), its cells in
  // a PutBatch: one buffer, kept for the next batch, as RocksDB's peer
  // builds a WriteBatch (Keyscope's Puts, one per row, cost an allocation
  // for each value past a short string).
  void write(std::span<const CellData> batch) override {
    m_batch.clear();
    for (const CellData& cell : batch)
      m_batch.add(cell.rowView(), kFamily, cell.qualifierView(), cell.timestamp, cell.valueView());
    check(m_ws->mutate(kTable, m_batch, m_writeOptions), "mutate");
  }

  void flushAndCompact() override {
    check(m_ws->flush(kTable), "flush");
    check(m_ws->compact(kTable, /*major=*/true), "major compact");
    check(m_ws->waitForBackgroundWork(), "wait for background work");
  }

  bool getLatest(std::string_view row, std::string_view qualifier, std::string* value) override {
    keyscope::GetOptions get;
    get.row.assign(row);
    get.columns.push_back({kFamily, keyscope::Bytes(qualifier)});
    get.maxVersions = 1;
    auto result = m_ws->get(kTable, get);
    check(result.status(), "get");
    if (result->cells.empty()) return false;
    *value = std::move(result.value().cells.front().value);
    return true;
  }

  ScanTally scan(std::string_view prefix) override {
    keyscope::ScanOptions options;
    if (!prefix.empty()) options.setRowPrefix(prefix);
    options.maxVersions = 3;
    auto scanner = m_ws->scan(kTable, options);
    check(scanner.status(), "scan");
    ScanTally tally;
    keyscope::RowResult row;
    while (scanner.value()->next(&row)) {
      tally.cells += row.cells.size();
      for (const keyscope::Cell& cell : row.cells) tally.valueBytes += cell.value.size();
    }
    check(scanner.value()->status(), "scan");
    return tally;
  }

 private:
  PeerSettings m_settings;
  keyscope::WriteOptions m_writeOptions;
  std::unique_ptr<keyscope::Workspace> m_ws;
  keyscope::PutBatch m_batch;  // reused between batches
};

}  // namespace

std::unique_ptr<Peer> makeKeyscopePeer(const PeerSettings& settings) {
  return std::make_unique<KeyscopePeer>(settings);
}

std::string keyscopeDescription() {
  return "Keyscope's engine (this build, Release)";
}

}  // namespace keyscope_bench
