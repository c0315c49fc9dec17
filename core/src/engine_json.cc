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

}  // namespace keyscope
