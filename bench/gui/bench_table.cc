#include "bench_table.h"

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "keyscope/key_codec.h"
#include "keyscope/key_schema.h"
#include "keyscope/workspace.h"

namespace keyscope::bench {
namespace {

// 1,000 hosts × 1,000 timestamps a minute apart.
constexpr uint64_t kHosts = 1000;
constexpr int64_t kFirstTs = 1'700'000'000'000;
constexpr int64_t kStepMs = 60'000;
constexpr uint64_t kRowsPerBatch = 2000;

const KeySchema& schema() {
  static const KeySchema parsed = KeySchema::parse(kBenchSchema).value();
  return parsed;
}

Status build(Workspace& ws) {
  TableOptions table;
  table.name = kBenchTable;
  FamilyOptions family;
  family.name = "m";
  family.compression = Compression::kZstd;
  table.families.push_back(family);
  table.keySchema = kBenchSchema;
  if (Status s = ws.createTable(table); !s.isOk()) return s;

  WriteOptions fast;
  fast.durability = Durability::kSkipWal;  // flushed below; a crash just rebuilds
  std::vector<Mutation> batch;
  for (uint64_t row = 0; row < kBenchRows; ++row) {
    Put put;
    put.row = benchRowKey(row);
    for (uint32_t c = 0; c < kBenchColumns; ++c) {
      const std::string value = std::to_string((row * 7919 + c * 104729) % 100000) + ".25";
      put.cells.push_back({"m", "c" + std::to_string(c), kFirstTs, value});
    }
    batch.emplace_back(std::move(put));
    if (batch.size() == kRowsPerBatch || row + 1 == kBenchRows) {
      if (Status s = ws.mutate(kBenchTable, batch, fast); !s.isOk()) return s;
      batch.clear();
      if ((row + 1) % 100'000 == 0) std::fprintf(stderr, "  %llu rows\n", static_cast<unsigned long long>(row + 1));
    }
  }
  if (Status s = ws.flush(kBenchTable); !s.isOk()) return s;
  return ws.compact(kBenchTable, /*major=*/true);
}

}  // namespace

Bytes benchRowKey(uint64_t i) {
  char host[32];
  std::snprintf(host, sizeof host, "host-%04llu", static_cast<unsigned long long>(i / (kBenchRows / kHosts)));
  const int64_t ts = kFirstTs + static_cast<int64_t>(i % (kBenchRows / kHosts)) * kStepMs;
  return encodeKey(schema(), {ComponentValue{std::string(host)}, ComponentValue{ts}}).value();
}

Status ensureBenchTable(const std::string& path) {
  {
    OpenOptions options;
    options.createIfMissing = true;
    Result<std::unique_ptr<Workspace>> ws = Workspace::open(path, options);
    if (!ws.isOk()) return ws.status();
    if (ws.value()->tableExists(kBenchTable)) {
      Result<std::vector<RegionInfo>> regions = ws.value()->regions(kBenchTable);
      uint64_t cells = 0;
      if (regions.isOk())
        for (const RegionInfo& r : *regions) cells += r.cells;
      if (cells == kBenchRows * kBenchColumns) return {};
      std::fprintf(stderr, "%s holds %llu cells, not %llu: rebuilding\n", path.c_str(),
                   static_cast<unsigned long long>(cells),
                   static_cast<unsigned long long>(kBenchRows * kBenchColumns));
    }
  }
  std::filesystem::remove(path);
  std::filesystem::remove(path + "-wal");
  std::filesystem::remove(path + "-shm");
  OpenOptions options;
  options.createIfMissing = true;
  Result<std::unique_ptr<Workspace>> ws = Workspace::open(path, options);
  if (!ws.isOk()) return ws.status();
  std::fprintf(stderr, "building %s (10 million cells; once)\n", path.c_str());
  return build(*ws.value());
}

}  // namespace keyscope::bench
