// Log records: one per acknowledged batch, in the wal table.
//
// Layout (stored: DO NOT CHANGE; all varints are LEB128):
//   OFFSET  SIZE  DESCRIPTION
//        0     1  record version (1 or 2)
//        1     *  varint entry count, then per entry:
//                   varint region id
//                   varint family length, family bytes
//                   varint key length, internal key (internal_key.h)
//                   varint value length, value
//      end-8   8  XXH3-64 of every byte before it, big-endian; from
//                 version 2 seeded with the record's sequence number (its
//                 row id in the wal table), so a record whose number was
//                 damaged fails its checksum instead of replaying out of
//                 place (or being skipped as flushed)
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
  // most: the region id and three lengths, as varints.
  static constexpr size_t kEntryOverhead = 10 + 3 * 5;
  void add(int64_t regionId, std::string_view family, BytesView key, BytesView value);
  // The record, checksummed for its place in the log.
  std::string finish(int64_t seq) &&;

 private:
  std::string m_body;
  size_t m_expected;
  size_t m_added = 0;
};

// Corruption naming the record when the checksum or a length does not fit.
Result<std::vector<LogEntry>> decodeLogRecord(int64_t seq, BytesView record);

// A record of version 1 (whose checksum does not cover its number) as a
// record of the current version, for workspace upgrades; Corruption when it
// does not verify.
Result<std::string> upgradeLogRecord(int64_t seq, BytesView record);

}  // namespace keyscope::engine
