// The optional LevelDB peer (Debian's libleveldb-dev): the flat key of the
// RocksDB peer, snappy compression (LevelDB has no zstd in Debian 12's
// 1.23), a 10-bit bloom filter, a 64 MiB LRU block cache, write_buffer_size =
// Keyscope's memstore flush size, log on without sync. LevelDB's filter holds
// whole keys and is consulted only by Get, so versioned gets (seeks) cannot
// use it: that is LevelDB's limit, not a setting left out.
#include <leveldb/cache.h>
#include <leveldb/db.h>
#include <leveldb/filter_policy.h>
#include <leveldb/write_batch.h>

#include "peer.h"

namespace keyscope_bench {
namespace {

void check(const leveldb::Status& s, const char* what) {
  if (!s.ok()) die(std::string("leveldb: ") + what + ": " + s.ToString());
}

class LevelDbPeer final : public Peer {
 public:
  explicit LevelDbPeer(const PeerSettings& settings)
      : m_cache(leveldb::NewLRUCache(settings.cacheBytes)),
        m_filter(leveldb::NewBloomFilterPolicy(10)) {
    m_options.create_if_missing = true;
    m_options.compression = leveldb::kSnappyCompression;
    m_options.write_buffer_size = settings.memstoreBytes;
    m_options.block_cache = m_cache.get();
    m_options.filter_policy = m_filter.get();
    m_writeOptions.sync = false;
  }

  ~LevelDbPeer() override { close(); }

  void open(const std::string& dir, bool /*fresh*/) override {
    leveldb::DB* db = nullptr;
    check(leveldb::DB::Open(m_options, dir, &db), "open");
    m_db.reset(db);
  }

  void close() override { m_db.reset(); }

  void write(std::span<const CellData> batch) override {
    leveldb::WriteBatch wb;
    char key[kFlatKeySize];
    for (const CellData& cell : batch) {
      flatKey(cell, key);
      wb.Put(leveldb::Slice(key, kFlatKeySize), leveldb::Slice(cell.value, cell.valueSize));
    }
    check(m_db->Write(m_writeOptions, &wb), "write");
  }

  // CompactRange over everything first flushes the memtable, then compacts
  // every level down, waiting for each step.
  void flushAndCompact() override { m_db->CompactRange(nullptr, nullptr); }

  bool getLatest(std::string_view row, std::string_view qualifier, std::string* value) override {
    char low[kFlatKeySize];
    char high[kFlatKeySize];
    flatKeyBounds(row, qualifier, low, high);
    std::unique_ptr<leveldb::Iterator> it(m_db->NewIterator(leveldb::ReadOptions()));
    it->Seek(leveldb::Slice(low, kFlatKeySize));
    if (it->Valid() && it->key().size() == kFlatKeySize &&
        it->key().compare(leveldb::Slice(high, kFlatKeySize)) <= 0) {
      value->assign(it->value().data(), it->value().size());
      return true;
    }
    check(it->status(), "get");
    return false;
  }

  ScanTally scan(std::string_view prefix) override {
    const std::string stop = prefixSuccessor(prefix);
    const leveldb::Slice upper(stop);
    std::unique_ptr<leveldb::Iterator> it(m_db->NewIterator(leveldb::ReadOptions()));
    ScanTally tally;
    for (prefix.empty() ? it->SeekToFirst()
                        : it->Seek(leveldb::Slice(prefix.data(), prefix.size()));
         it->Valid(); it->Next()) {
      if (!stop.empty() && it->key().compare(upper) >= 0) break;
      ++tally.cells;
      tally.valueBytes += it->value().size();
    }
    check(it->status(), "scan");
    return tally;
  }

 private:
  std::unique_ptr<leveldb::Cache> m_cache;
  std::unique_ptr<const leveldb::FilterPolicy> m_filter;
  leveldb::Options m_options;
  leveldb::WriteOptions m_writeOptions;
  std::unique_ptr<leveldb::DB> m_db;  // declared last: closed before the cache goes
};

}  // namespace

std::unique_ptr<Peer> makeLevelDbPeer(const PeerSettings& settings) {
  return std::make_unique<LevelDbPeer>(settings);
}

std::string levelDbDescription() {
  return "LevelDB " + std::to_string(leveldb::kMajorVersion) + "." +
         std::to_string(leveldb::kMinorVersion) + " (snappy), Debian's libleveldb-dev";
}

}  // namespace keyscope_bench
