#include "keyscope/engine_json.h"

namespace keyscope {

using json = nlohmann::ordered_json;  // fields stay in the documented order

json tableOptionsToJson(const TableOptions& table) {
  json families = json::array();
  for (const FamilyOptions& f : table.families) {
    families.push_back({{"name", f.name},
                        {"versions", f.maxVersions},
                        {"min_versions", f.minVersions},
                        {"ttl", f.ttlSeconds},
                        {"keep_deleted_cells", f.keepDeletedCells == KeepDeletedCells::kTrue ? "TRUE"
                                               : f.keepDeletedCells == KeepDeletedCells::kTtl ? "TTL"
                                                                                              : "FALSE"},
                        {"compression", f.compression == Compression::kZstd ? "ZSTD" : "NONE"},
                        {"bloomfilter", f.bloomFilter == BloomType::kNone    ? "NONE"
                                        : f.bloomFilter == BloomType::kRowCol ? "ROWCOL"
                                                                              : "ROW"},
                        {"blocksize", f.blockSize}});
  }
  return {{"table", table.name},
          {"families", families},
          {"memstore_flushsize", table.memstoreFlushSize},
          {"key_schema", table.keySchema},
          {"description", table.description},
          {"examples", table.exampleCommands}};
}

json readReportToJson(const ReadReport& r) {
  return {{"regions_visited", r.regionsVisited},
          {"store_files_considered", r.storeFilesConsidered},
          {"store_files_skipped_by_key_range", r.storeFilesSkippedByKeyRange},
          {"store_files_skipped_by_time_range", r.storeFilesSkippedByTimeRange},
          {"store_files_skipped_by_bloom", r.storeFilesSkippedByBloom},
          {"memstores_read", r.memstoresRead},
          {"pages_read", r.pagesRead},
          {"page_cache_hits", r.pageCacheHits},
          {"bytes_read_from_storage", r.bytesReadFromStorage},
          {"bytes_decompressed", r.bytesDecompressed},
          {"cells_examined", r.cellsExamined},
          {"cells_returned", r.cellsReturned},
          {"rows_returned", r.rowsReturned},
          {"elapsed_micros", r.elapsedMicros}};
}

}  // namespace keyscope
