// Workspaces as older builds wrote them, made from current ones, for tests
// of the upgrade on open and of rows that only older builds could write.
#pragma once

#include <xxhash.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "engine/varint.h"
#include "engine/wal_record.h"
#include "log_on_disk.h"
#include "raw_db.h"

namespace keyscope::test {

// A log record's body (its version first) with the checksum its version
// gives it: from version 2 seeded with `seq`.
inline std::string sealLogRecord(std::string body, int64_t seq) {
  const uint64_t sum = body[0] == 1 ? XXH3_64bits(body.data(), body.size())
                                    : XXH3_64bits_withSeed(body.data(), body.size(), static_cast<uint64_t>(seq));
  for (int shift = 56; shift >= 0; shift -= 8) body.push_back(static_cast<char>((sum >> shift) & 0xff));
  return body;
}

// `entries` as a log record of version 1 or 2 (wal_record.h): each entry's
// region, family and key written whole, the checksum seeded with `seq` from
// version 2.
inline std::string wholeKeysRecord(const std::vector<engine::LogEntry>& entries, uint8_t version, int64_t seq) {
  std::string record(1, static_cast<char>(version));
  engine::putVarint(&record, entries.size());
  for (const engine::LogEntry& entry : entries) {
    engine::putVarint(&record, static_cast<uint64_t>(entry.regionId));
    engine::putLengthPrefixed(&record, entry.family);
    engine::putLengthPrefixed(&record, entry.key);
    engine::putLengthPrefixed(&record, entry.value);
  }
  return sealLogRecord(std::move(record), seq);
}

// Rewrites every log record of a closed workspace as a record of `version`
// (1 or 2) with the same entries.
inline void rewriteLogWithWholeKeys(RawDb& db, uint8_t version) {
  const int64_t first = db.integer("SELECT coalesce(min(seq), 1) FROM wal");
  const int64_t last = db.integer("SELECT coalesce(max(seq), 0) FROM wal");
  for (int64_t seq = first; seq <= last; ++seq) {
    const std::string record = db.blob("SELECT data FROM wal WHERE seq = ?", seq);
    if (record.empty()) continue;  // no such record
    Result<std::vector<engine::LogEntry>> entries = engine::decodeLogRecord(seq, record);
    if (!entries) std::abort();  // the tests downgrade only workspaces this build wrote
    db.setBlob("UPDATE wal SET data = ? WHERE seq = ?", wholeKeysRecord(*entries, version, seq), seq);
  }
}

// The workspace at `path` (closed) as format 7 had it: its log records rows
// of the wal table. The next open upgrades it.
inline void downgradeToFormat7(const std::string& path) {
  RawDb db(path);
  moveLogToRowTable(db);
  db.exec("PRAGMA user_version = 7");
}

// The workspace at `path` (closed) as format 6 had it: log records of
// version 2, their keys written whole, in the wal table. The next open
// upgrades it.
inline void downgradeToFormat6(const std::string& path) {
  RawDb db(path);
  moveLogToRowTable(db);
  rewriteLogWithWholeKeys(db, 2);
  db.exec("PRAGMA user_version = 6");
}

// The workspace at `path` (closed) as format 3 had it: no checksum columns,
// no record of where its tables live, log records whose checksum ignores
// their sequence number. Its rows may then be edited as an older build
// could have written them; the next open upgrades it.
inline void downgradeToFormat3(const std::string& path) {
  RawDb db(path);
  for (const char* table : {"tables", "regions", "region_history", "settings", "store_files", "dropped_families"})
    db.exec(std::string("ALTER TABLE ") + table + " DROP COLUMN checksum");
  db.exec("DELETE FROM settings WHERE key = 'schema'");
  moveLogToRowTable(db);
  rewriteLogWithWholeKeys(db, 1);
  db.exec("PRAGMA user_version = 3");
}

}  // namespace keyscope::test
