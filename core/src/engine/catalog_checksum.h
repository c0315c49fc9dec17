// Checksums of the catalog's rows (catalog.h).
//
// SQLite keeps no checksum of the data it stores: a byte flipped on disk in
// a row's payload reads back as a different value, silently. Every catalog
// row the engine trusts (a table's options, a region's bounds and flushed
// sequence, a store file's region, family and sequence, ...) therefore has a
// `checksum` column: XXH3-64 over the row's table name and its fields, in a
// canonical encoding. A row read back whose fields do not give its checksum
// is damaged, and the engine says so instead of acting on it.
//
// Encoding (stored: DO NOT CHANGE; a change is a new workspace format):
//   varint length + bytes   the SQLite table's name
//   per field, in the order the row's function below lists them:
//     'i' + be64            an integer (two's complement)
//     'b' + varint length + bytes   a blob or text
//     'n'                   NULL
// The checksum column holds the 64-bit hash as a signed integer.
//
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/catalog.h"

namespace keyscope::engine {

class RowChecksum {
 public:
  explicit RowChecksum(std::string_view table);
  RowChecksum& add(int64_t value);
  RowChecksum& add(std::string_view bytes);
  RowChecksum& addNull();
  int64_t value() const;

 private:
  std::string m_encoded;
};

int64_t tableRowChecksum(int64_t tableId, std::string_view name, std::string_view optionsJson);
// Over region_id, table_id, start_row, end_row, flushed_seq, server.
int64_t regionRowChecksum(const RegionRecord& region);
// Over every column but the checksum.
int64_t regionHistoryRowChecksum(const RegionHistoryRecord& history);
// Over file_id, region_id, family, max_seq. The metadata blob carries its
// own checksum (store_file_format.h), so damage there is told apart from
// damage to the row that says where the file belongs.
int64_t storeFileRowChecksum(int64_t fileId, int64_t regionId, std::string_view family, int64_t maxSeq);
int64_t droppedFamilyRowChecksum(int64_t tableId, std::string_view family, int64_t seq);
int64_t settingRowChecksum(std::string_view key, std::string_view value);

}  // namespace keyscope::engine
