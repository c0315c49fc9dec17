// The RocksDB peer: one key per cell, row|qualifier|~timestamp (flatKey), so
// versions sort newest first exactly as in Keyscope. zstd on every level, a
// 10-bit bloom filter on the row (a 10-byte prefix extractor, the analogue of
// Keyscope's BLOOMFILTER ROW), a 64 MiB LRU block cache, write_buffer_size =
// Keyscope's memstore flush size, WAL on without sync. Everything else is
// RocksDB's default (level compaction, 2 background jobs, 4 KiB blocks).
#include <rocksdb/cache.h>
#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/slice_transform.h>
#include <rocksdb/table.h>
#include <rocksdb/version.h>
#include <rocksdb/write_batch.h>

#include <chrono>
#include <thread>

#include "peer.h"

namespace keyscope_bench {
namespace {

void check(const rocksdb::Status& s, const char* what) {
  if (!s.ok()) die(std::string("rocksdb: ") + what + ": " + s.ToString());
}

class RocksDbPeer final : public Peer {
 public:
  explicit RocksDbPeer(const PeerSettings& settings) {
    m_options.create_if_missing = true;
    m_options.compression = rocksdb::kZSTD;
    m_options.write_buffer_size = settings.memstoreBytes;
    // Debian's build defaults this to DEBUG_LEVEL (NDEBUG unset); pin it so
    // both builds log alike.
    m_options.info_log_level = rocksdb::InfoLogLevel::INFO_LEVEL;
    m_options.prefix_extractor.reset(rocksdb::NewFixedPrefixTransform(CellData::kRowSize));
    rocksdb::BlockBasedTableOptions table;
    table.block_cache = rocksdb::NewLRUCache(settings.cacheBytes);
    table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
    table.whole_key_filtering = false;  // the row (prefix) is what the filter holds
    m_options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
    m_writeOptions.sync = false;
    m_writeOptions.disableWAL = false;
  }

  ~RocksDbPeer() override { close(); }

  void open(const std::string& dir, bool /*fresh*/) override {
    rocksdb::DB* db = nullptr;
    check(rocksdb::DB::Open(m_options, dir, &db), "open");
    m_db.reset(db);
  }

  void close() override {
    if (m_db) {
      check(m_db->Close(), "close");
      m_db.reset();
    }
  }

  void write(std::span<const CellData> batch) override {
    rocksdb::WriteBatch wb;
    char key[kFlatKeySize];
    for (const CellData& cell : batch) {
      flatKey(cell, key);
      check(wb.Put(rocksdb::Slice(key, kFlatKeySize), rocksdb::Slice(cell.value, cell.valueSize)),
            "batch put");
    }
    check(m_db->Write(m_writeOptions, &wb), "write");
  }

  void flushAndCompact() override {
    rocksdb::FlushOptions flush;
    flush.wait = true;
    check(m_db->Flush(flush), "flush");
    check(m_db->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr), "compact");
    // CompactRange waits for its own work; also wait for any automatic
    // compaction it queued (RocksDB 7.8 has no WaitForCompact).
    for (;;) {
      uint64_t pending = 0;
      uint64_t running = 0;
      m_db->GetIntProperty("rocksdb.compaction-pending", &pending);
      m_db->GetIntProperty("rocksdb.num-running-compactions", &running);
      if (pending == 0 && running == 0) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }

  bool getLatest(std::string_view row, std::string_view qualifier, std::string* value) override {
    char low[kFlatKeySize];
    char high[kFlatKeySize];
    flatKeyBounds(row, qualifier, low, high);
    // A versioned get is a seek: the newest version is the first key at or
    // after row|qualifier. prefix_same_as_start lets the row bloom filter
    // skip files that cannot hold the row.
    rocksdb::ReadOptions ro;
    ro.prefix_same_as_start = true;
    std::unique_ptr<rocksdb::Iterator> it(m_db->NewIterator(ro));
    it->Seek(rocksdb::Slice(low, kFlatKeySize));
    if (it->Valid() && it->key().size() == kFlatKeySize &&
        it->key().compare(rocksdb::Slice(high, kFlatKeySize)) <= 0) {
      value->assign(it->value().data(), it->value().size());
      return true;
    }
    check(it->status(), "get");
    return false;
  }

  ScanTally scan(std::string_view prefix) override {
    rocksdb::ReadOptions ro;
    ro.total_order_seek = true;  // the prefix may be shorter than the extractor's
    const std::string stop = prefixSuccessor(prefix);
    rocksdb::Slice upper(stop);
    if (!stop.empty()) ro.iterate_upper_bound = &upper;
    std::unique_ptr<rocksdb::Iterator> it(m_db->NewIterator(ro));
    ScanTally tally;
    for (prefix.empty() ? it->SeekToFirst()
                        : it->Seek(rocksdb::Slice(prefix.data(), prefix.size()));
         it->Valid(); it->Next()) {
      ++tally.cells;
      tally.valueBytes += it->value().size();
    }
    check(it->status(), "scan");
    return tally;
  }

 private:
  rocksdb::Options m_options;
  rocksdb::WriteOptions m_writeOptions;
  std::unique_ptr<rocksdb::DB> m_db;
};

}  // namespace

std::unique_ptr<Peer> makeRocksDbPeer(const PeerSettings& settings) {
  return std::make_unique<RocksDbPeer>(settings);
}

bool rocksDbHasAssertions() {
#ifdef KEYSCOPE_ROCKSDB_NDEBUG
  return false;
#else
  return true;
#endif
}

std::string rocksDbDescription() {
  const std::string version = std::to_string(ROCKSDB_MAJOR) + "." + std::to_string(ROCKSDB_MINOR) +
                              "." + std::to_string(ROCKSDB_PATCH);
  return rocksDbHasAssertions()
             ? "RocksDB " + version + ", Debian's librocksdb-dev (assertions on)"
             : "RocksDB " + version + ", Debian's source package built with -DNDEBUG";
}

}  // namespace keyscope_bench
