// The read report: what a get or a scan did, so the GUI can explain a query.
// Filled on every read; the counters are plain integers bumped on paths that
// already do far more work, so it is always on.
#pragma once

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

}  // namespace keyscope
