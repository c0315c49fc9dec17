// Log records: one per acknowledged batch, in the wal table.
//
// Layout (stored: DO NOT CHANGE; all varints are LEB128):
//   OFFSET  SIZE  DESCRIPTION
//        0     1  record version (1, 2 or 3)
//        1     *  varint entry count, then per entry:
//                 versions 1 and 2:
//                   varint region id
//                   varint family length, family bytes
//                   varint key length, internal key (internal_key.h)
//                   varint value length, value
//                 version 3 (keys prefix-compressed, as a block's are):
//                   varint shared * 2 + newContext
//                                  shared: bytes the key has in common with
//                                  the entry before's (0 for the first);
//                                  newContext: 1 when the region or family
//                                  differs from the entry before's (always
//                                  for the first), and then:
//                     varint region id
//                     varint family length, family bytes
//                   varint unshared length, the key's bytes after `shared`
//                   varint value length, value
//      end-8   8  XXH3-64 of every byte before it, big-endian; from
//                 version 2 seeded with the record's sequence number (its
//                 row id in the wal table), so a record whose number was
//                 damaged fails its checksum instead of replaying out of
//                 place (or being skipped as flushed)
// A batch's record lists its cells in key order per family (the order they
// go into the memstores), so a key shares its row with the key before it
// wherever the batch writes several cells of a row, and neighbouring rows
// share their first bytes. On the benchmark's cells (keyscope-bench) a
// record is 26% smaller than in version 2 in the key-ordered load (50.4
// bytes a cell against 68.2) and 14% in the random-order one (58.8): bytes
// SQLite writes to its WAL, copies back to the database and frees again
// once the cells are flushed.
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "keyscope/bytes.h"
#include "keyscope/status.h"

namespace keyscope::engine {

struct LogEntry {
  int64_t regionId = 0;
  std::string family;
  std::string key;
  Bytes value;
};

// Builds a record entry by entry, without copying the entries first.
class LogRecordBuilder {
 public:
  // bytesHint: about the record's size (its families, keys and values, plus
  // kEntryOverhead per entry), reserved up front so a batch's record is not
  // copied as it grows.
  explicit LogRecordBuilder(size_t entryCount, size_t bytesHint = 0);
  // What an entry adds to a record besides its family, key and value, at
  // most: the region id and four lengths or counts, as varints.
  static constexpr size_t kEntryOverhead = 10 + 4 * 5;
  void add(int64_t regionId, std::string_view family, BytesView key, BytesView value);
  // The record, checksummed for its place in the log.
  std::string finish(int64_t seq) &&;

 private:
  std::string m_body;
  size_t m_expected;
  size_t m_added = 0;
  // The entry before's context and key, which the next entry's are coded against.
  int64_t m_lastRegion = 0;
  std::string m_lastFamily;
  std::string m_lastKey;
};

// Corruption naming the record when the checksum or a length does not fit.
Result<std::vector<LogEntry>> decodeLogRecord(int64_t seq, BytesView record);

// A record of version 1 (whose checksum does not cover its number) as the
// same entries in a record of version 2, for workspace upgrades; Corruption
// when it does not verify.
Result<std::string> upgradeLogRecord(int64_t seq, BytesView record);

}  // namespace keyscope::engine
