#include "engine/wal_record.h"

#include <xxhash.h>

#include <cstdlib>

#include "engine/varint.h"

namespace keyscope::engine {

namespace {
constexpr uint8_t kUnplacedVersion = 1;  // the checksum does not cover the sequence number
constexpr uint8_t kRecordVersion = 2;
constexpr size_t kCountBytes = 10;     // the entry count: a varint64 at most
constexpr size_t kChecksumBytes = 8;

uint64_t checksumOf(BytesView body, uint8_t version, int64_t seq) {
  return XXH3_64bits_withSeed(body.data(), body.size(), version >= 2 ? static_cast<uint64_t>(seq) : 0);
}

void appendChecksum(std::string* out, int64_t seq) {
  const uint64_t sum = checksumOf(*out, kRecordVersion, seq);
  for (int shift = 56; shift >= 0; shift -= 8) out->push_back(static_cast<char>((sum >> shift) & 0xff));
}

// The body (the record without its checksum) once the checksum verifies.
Result<BytesView> verifiedBody(int64_t seq, BytesView record) {
  const auto corrupt = [seq](const std::string& what) {
    return Status::corruption("log record " + std::to_string(seq) + ": " + what);
  };
  if (record.size() < 10) return corrupt("too short");
  const BytesView body = record.substr(0, record.size() - 8);
  uint64_t stored = 0;
  for (size_t i = body.size(); i < record.size(); ++i) stored = (stored << 8) | static_cast<uint8_t>(record[i]);
  const auto version = static_cast<uint8_t>(body[0]);
  if (checksumOf(body, version, seq) != stored) return corrupt("checksum mismatch");
  if (version != kRecordVersion && version != kUnplacedVersion)
    return corrupt("unknown record version " + std::to_string(version));
  return body;
}
}  // namespace

LogRecordBuilder::LogRecordBuilder(size_t entryCount, size_t bytesHint) : m_expected(entryCount) {
  m_body.reserve(1 + kCountBytes + bytesHint + kChecksumBytes);
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

std::string LogRecordBuilder::finish(int64_t seq) && {
  // REQUIRES: exactly the announced number of entries (the count leads the record).
  if (m_added != m_expected) std::abort();
  appendChecksum(&m_body, seq);
  return std::move(m_body);
}

Result<std::string> upgradeLogRecord(int64_t seq, BytesView record) {
  Result<BytesView> body = verifiedBody(seq, record);
  if (!body) return body.status();
  std::string out(*body);
  out[0] = static_cast<char>(kRecordVersion);
  appendChecksum(&out, seq);
  return out;
}

Result<std::vector<LogEntry>> decodeLogRecord(int64_t seq, BytesView record) {
  const auto corrupt = [seq](const std::string& what) {
    return Status::corruption("log record " + std::to_string(seq) + ": " + what);
  };
  Result<BytesView> verified = verifiedBody(seq, record);
  if (!verified) return verified.status();
  const BytesView body = *verified;
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
