// Workspaces as older builds wrote them, made from current ones, for tests
// of the upgrade on open and of rows that only older builds could write.
#pragma once

#include <xxhash.h>

#include <cstdint>
#include <string>

#include "raw_db.h"

namespace keyscope::test {

// The workspace at `path` (closed) as format 3 had it: no checksum columns,
// no record of where its tables live, log records whose checksum ignores
// their sequence number. Its rows may then be edited as an older build
// could have written them; the next open upgrades it.
inline void downgradeToFormat3(const std::string& path) {
  RawDb db(path);
  for (const char* table : {"tables", "regions", "region_history", "settings", "store_files", "dropped_families"})
    db.exec(std::string("ALTER TABLE ") + table + " DROP COLUMN checksum");
  db.exec("DELETE FROM settings WHERE key = 'schema'");
  const int64_t first = db.integer("SELECT coalesce(min(seq), 1) FROM wal");
  const int64_t last = db.integer("SELECT coalesce(max(seq), 0) FROM wal");
  for (int64_t seq = first; seq <= last; ++seq) {
    std::string record = db.blob("SELECT data FROM wal WHERE seq = ?", seq);
    record.resize(record.size() - 8);
    record[0] = 1;
    const uint64_t sum = XXH3_64bits(record.data(), record.size());
    for (int shift = 56; shift >= 0; shift -= 8) record.push_back(static_cast<char>((sum >> shift) & 0xff));
    db.setBlob("UPDATE wal SET data = ? WHERE seq = ?", record, seq);
  }
  db.exec("PRAGMA user_version = 3");
}

}  // namespace keyscope::test
