// The read report: what a get or a scan did, so the GUI can explain a query.
// Filled on every read; the counters are plain integers bumped on paths that
// already do far more work, so it is always on.
#pragma once

#include <array>
#include <cstdint>

namespace keyscope {

struct ReadReport {
  uint32_t regionsVisited = 0;
  uint32_t storeFilesConsidered = 0;     // store files of the families read
  uint32_t storeFilesSkippedByKeyRange = 0;
  uint32_t storeFilesSkippedByTimeRange = 0;
  uint32_t storeFilesSkippedByBloom = 0;
  uint32_t memstoresRead = 0;
  uint64_t pagesRead = 0;                // page blocks needed (cache hits included)
  uint64_t pageCacheHits = 0;
  uint64_t bytesReadFromStorage = 0;     // compressed bytes fetched from SQLite
  uint64_t bytesDecompressed = 0;        // raw bytes produced by decompression
  uint64_t cellsExamined = 0;            // cells the merge produced, markers included
  uint64_t cellsReturned = 0;
  uint64_t rowsReturned = 0;
  int64_t elapsedMicros = 0;

  void add(const ReadReport& other);
};

// The report's fields by the names every output uses (docs/BATCH-API.md),
// in that order: one list for the JSON and text renderings alike.
struct ReadReportField {
  const char* name;
  int64_t value;
};
inline std::array<ReadReportField, 14> readReportFields(const ReadReport& r) {
  const auto v = [](uint64_t x) { return static_cast<int64_t>(x); };
  return {{{"regions_visited", r.regionsVisited},
           {"store_files_considered", r.storeFilesConsidered},
           {"store_files_skipped_by_key_range", r.storeFilesSkippedByKeyRange},
           {"store_files_skipped_by_time_range", r.storeFilesSkippedByTimeRange},
           {"store_files_skipped_by_bloom", r.storeFilesSkippedByBloom},
           {"memstores_read", r.memstoresRead},
           {"pages_read", v(r.pagesRead)},
           {"page_cache_hits", v(r.pageCacheHits)},
           {"bytes_read_from_storage", v(r.bytesReadFromStorage)},
           {"bytes_decompressed", v(r.bytesDecompressed)},
           {"cells_examined", v(r.cellsExamined)},
           {"cells_returned", v(r.cellsReturned)},
           {"rows_returned", v(r.rowsReturned)},
           {"elapsed_micros", r.elapsedMicros}}};
}

}  // namespace keyscope
