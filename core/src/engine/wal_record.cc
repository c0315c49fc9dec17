#include "engine/wal_record.h"

#include <xxhash.h>

#include <cstdlib>

#include "engine/varint.h"

namespace keyscope::engine {

namespace {
constexpr uint8_t kRecordVersion = 1;

void appendChecksum(std::string* out) {
  const uint64_t sum = XXH3_64bits(out->data(), out->size());
  for (int shift = 56; shift >= 0; shift -= 8) out->push_back(static_cast<char>((sum >> shift) & 0xff));
}
}  // namespace

LogRecordBuilder::LogRecordBuilder(size_t entryCount) : m_expected(entryCount) {
  m_body.push_back(static_cast<char>(kRecordVersion));
  putVarint(&m_body, entryCount);
}

void LogRecordBuilder::add(int64_t regionId, std::string_view family, BytesView key, BytesView value) {
  putVarint(&m_body, static_cast<uint64_t>(regionId));
  putLengthPrefixed(&m_body, family);
  putLengthPrefixed(&m_body, key);
  putLengthPrefixed(&m_body, value);
  ++m_added;
}

std::string LogRecordBuilder::finish() && {
  // REQUIRES: exactly the announced number of entries (the count leads the record).
  if (m_added != m_expected) std::abort();
  appendChecksum(&m_body);
  return std::move(m_body);
}

Result<std::vector<LogEntry>> decodeLogRecord(int64_t seq, BytesView record) {
  const auto corrupt = [seq](const std::string& what) {
    return Status::corruption("log record " + std::to_string(seq) + ": " + what);
  };
  if (record.size() < 10) return corrupt("too short");
  const BytesView body = record.substr(0, record.size() - 8);
  uint64_t stored = 0;
  for (size_t i = body.size(); i < record.size(); ++i) stored = (stored << 8) | static_cast<uint8_t>(record[i]);
  if (XXH3_64bits(body.data(), body.size()) != stored) return corrupt("checksum mismatch");
  if (static_cast<uint8_t>(body[0]) != kRecordVersion)
    return corrupt("unknown record version " + std::to_string(static_cast<uint8_t>(body[0])));
  size_t pos = 1;
  uint64_t count = 0;
  if (!getVarint(body, &pos, &count) || count > body.size()) return corrupt("bad entry count");
  std::vector<LogEntry> entries;
  entries.reserve(count);
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t region = 0;
    std::string_view family, key, value;
    if (!getVarint(body, &pos, &region) || !getLengthPrefixed(body, &pos, &family) ||
        !getLengthPrefixed(body, &pos, &key) || !getLengthPrefixed(body, &pos, &value))
      return corrupt("entry " + std::to_string(i) + " is cut short");
    entries.push_back({static_cast<int64_t>(region), std::string(family), std::string(key), Bytes(value)});
  }
  if (pos != body.size()) return corrupt("trailing bytes");
  return entries;
}

}  // namespace keyscope::engine
