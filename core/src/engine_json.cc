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
          {"max_filesize", table.maxFileSize},
          {"split_policy", splitPolicyName(table.splitPolicy)},
          {"key_schema", table.keySchema},
          {"description", table.description},
          {"examples", table.exampleCommands}};
}

json readReportToJson(const ReadReport& r) {
  json out = json::object();
  for (const ReadReportField& field : readReportFields(r)) out[field.name] = field.value;
  return out;
}

json regionToJson(const RegionInfo& region, const LoadCounters& load, ByteFormat rows) {
  return {{"id", region.id},
          {"start_row", formatBytes(region.startRow, rows)},
          {"end_row", formatBytes(region.endRow, rows)},
          {"server", region.server},
          {"created", region.createdMillis},
          {"memstore_bytes", region.memstoreBytes},
          {"store_files", region.storeFiles},
          {"stored_bytes", region.storedBytes},
          {"raw_bytes", region.rawBytes},
          {"cells", region.cells},
          {"reads", load.reads},
          {"writes", load.writes}};
}

json regionHistoryToJson(const RegionHistoryEntry& entry, ByteFormat rows) {
  const bool split = entry.origin == RegionOrigin::kSizeSplit || entry.origin == RegionOrigin::kManualSplit;
  return {{"id", entry.regionId},
          {"start_row", formatBytes(entry.startRow, rows)},
          {"end_row", formatBytes(entry.endRow, rows)},
          {"created", entry.createdMillis},
          {"retired", entry.retiredMillis ? json(*entry.retiredMillis) : json(nullptr)},
          {"parents", entry.parents},
          {"origin", regionOriginName(entry.origin)},
          {"split_row", split ? json(formatBytes(entry.splitRow, rows)) : json(nullptr)}};
}

json serverLoadToJson(const ServerLoad& server) {
  return {{"server", server.server},
          {"regions", server.regions},
          {"reads", server.window.reads},
          {"writes", server.window.writes}};
}

}  // namespace keyscope
