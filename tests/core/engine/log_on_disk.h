// The write-ahead log as a closed workspace stores it (log_slots.h), read and
// edited by hand: tests look at what is on disk, parsing the slots' frames
// here rather than through the engine, and damage or downgrade it as a
// crash, a bad disk or an older build would have left it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/big_endian.h"
#include "engine/log_slots.h"
#include "raw_db.h"

namespace keyscope::test {

struct StoredLogRecord {
  int64_t seq = 0;
  std::string data;
  int64_t slot = 0;    // 0: a row of the wal table (formats up to 7)
  uint32_t frame = 0;  // the frame's offset in its slot
};

// Every log record at or below it is in store files (0 when none was saved).
inline int64_t logTruncatedThrough(RawDb& db) {
  return db.integer("SELECT coalesce((SELECT CAST(value AS INTEGER) FROM settings"
                    " WHERE key = 'log_truncated_through'), 0)");
}

// The records a reopen would replay (seq above the truncation point), in seq
// order, from the wal table and the slots.
inline std::vector<StoredLogRecord> storedLogRecords(RawDb& db) {
  std::vector<StoredLogRecord> records;
  const int64_t truncated = logTruncatedThrough(db);
  const int64_t last = db.integer("SELECT coalesce(max(seq), 0) FROM wal");
  for (int64_t seq = db.integer("SELECT coalesce(min(seq), 1) FROM wal"); seq <= last; ++seq) {
    std::string data = db.blob("SELECT data FROM wal WHERE seq = ?", seq);
    if (!data.empty()) records.push_back({seq, std::move(data), 0, 0});
  }
  const int64_t slots = db.integer("SELECT coalesce(max(slot), 0) FROM wal_slots");
  for (int64_t slot = 1; slot <= slots; ++slot) {
    const std::string area = db.blob("SELECT data FROM wal_slots WHERE slot = ?", slot);
    for (size_t at = 0; at + engine::LogSlots::kFrameHeaderBytes <= area.size();) {
      const uint32_t length = engine::loadBigEndian32(area.data() + at);
      const auto seq = static_cast<int64_t>(engine::loadBigEndian64(area.data() + at + 4));
      if (length == 0 && seq == 0) break;  // the end frame
      if (seq > truncated)
        records.push_back({seq, area.substr(at + engine::LogSlots::kFrameHeaderBytes, length), slot,
                           static_cast<uint32_t>(at)});
      at += engine::LogSlots::kFrameHeaderBytes + length;
    }
  }
  std::sort(records.begin(), records.end(), [](const auto& a, const auto& b) { return a.seq < b.seq; });
  return records;
}

// Writes `record` (a record from a slot) back as `seq` with `data` of the
// same length, its frame's header checksum made to match: what is damaged
// is the record, not its frame.
inline void rewriteSlotRecord(RawDb& db, const StoredLogRecord& record, int64_t seq, const std::string& data) {
  if (record.slot == 0 || data.size() != record.data.size()) std::abort();  // a test's mistake
  std::string area = db.blob("SELECT data FROM wal_slots WHERE slot = ?", record.slot);
  char* header = area.data() + record.frame;
  engine::storeBigEndian64(header + 4, static_cast<uint64_t>(seq));
  engine::storeBigEndian32(header + 12, engine::logFrameChecksum(record.slot, record.frame,
                                                                 static_cast<uint32_t>(data.size()), seq));
  area.replace(record.frame + engine::LogSlots::kFrameHeaderBytes, data.size(), data);
  db.setBlob("UPDATE wal_slots SET data = ? WHERE slot = ?", area, record.slot);
}

// Flips a bit of the header of `record`'s frame (a record from a slot) and
// leaves its checksum as it was.
inline void damageLogFrame(RawDb& db, const StoredLogRecord& record, size_t headerByte) {
  if (record.slot == 0 || headerByte >= engine::LogSlots::kFrameHeaderBytes) std::abort();  // a test's mistake
  std::string area = db.blob("SELECT data FROM wal_slots WHERE slot = ?", record.slot);
  area[record.frame + headerByte] ^= 0x01;
  db.setBlob("UPDATE wal_slots SET data = ? WHERE slot = ?", area, record.slot);
}

// The log as formats up to 7 kept it: each record a row of the wal table,
// no slots table, no truncation point.
inline void moveLogToRowTable(RawDb& db) {
  for (const StoredLogRecord& record : storedLogRecords(db)) {
    if (record.slot == 0) continue;
    db.setBlob("INSERT INTO wal(data, seq) VALUES(?, ?)", record.data, record.seq);
  }
  db.exec("DROP TABLE wal_slots; DELETE FROM settings WHERE key = 'log_truncated_through'");
}

}  // namespace keyscope::test
