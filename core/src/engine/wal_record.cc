#include "engine/wal_record.h"

#include <xxhash.h>

#include <cstdlib>

#include "engine/key_compare.h"
#include "engine/varint.h"

namespace keyscope::engine {

namespace {
constexpr uint8_t kUnplacedVersion = 1;  // the checksum does not cover the sequence number
constexpr uint8_t kPlacedVersion = 2;    // version 1's entries, the checksum seeded with the number
constexpr uint8_t kRecordVersion = 3;    // what is written: keys prefix-compressed
constexpr size_t kCountBytes = 10;     // the entry count: a varint64 at most
constexpr size_t kChecksumBytes = 8;

uint64_t checksumOf(BytesView body, uint8_t version, int64_t seq) {
  return XXH3_64bits_withSeed(body.data(), body.size(), version >= 2 ? static_cast<uint64_t>(seq) : 0);
}

// REQUIRES: out holds a record's body, its version first.
void appendChecksum(std::string* out, int64_t seq) {
  const uint64_t sum = checksumOf(*out, static_cast<uint8_t>((*out)[0]), seq);
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
  if (version != kUnplacedVersion && version != kPlacedVersion && version != kRecordVersion)
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
  const bool newContext = m_added == 0 || regionId != m_lastRegion || family != m_lastFamily;
  const size_t shared = m_added == 0 ? 0 : sharedPrefixLength(m_lastKey, key);
  putVarint(&m_body, (static_cast<uint64_t>(shared) << 1) | (newContext ? 1 : 0));
  if (newContext) {
    putVarint(&m_body, static_cast<uint64_t>(regionId));
    putLengthPrefixed(&m_body, family);
    m_lastRegion = regionId;
    m_lastFamily.assign(family);
  }
  putLengthPrefixed(&m_body, key.substr(shared));
  putLengthPrefixed(&m_body, value);
  m_lastKey.assign(key.data(), key.size());
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
  out[0] = static_cast<char>(kPlacedVersion);
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
  const bool prefixCompressed = static_cast<uint8_t>(body[0]) == kRecordVersion;
  for (uint64_t i = 0; i < count; ++i) {
    const auto cutShort = [&] { return corrupt("entry " + std::to_string(i) + " is cut short"); };
    uint64_t region = 0;
    std::string_view family, key, value;
    if (!prefixCompressed) {
      if (!getVarint(body, &pos, &region) || !getLengthPrefixed(body, &pos, &family) ||
          !getLengthPrefixed(body, &pos, &key) || !getLengthPrefixed(body, &pos, &value))
        return cutShort();
      entries.push_back({static_cast<int64_t>(region), std::string(family), std::string(key), Bytes(value)});
      continue;
    }
    uint64_t sharedAndContext = 0;
    if (!getVarint(body, &pos, &sharedAndContext)) return cutShort();
    const uint64_t shared = sharedAndContext >> 1;
    LogEntry entry;
    if ((sharedAndContext & 1) != 0) {
      if (!getVarint(body, &pos, &region) || !getLengthPrefixed(body, &pos, &family)) return cutShort();
      entry.regionId = static_cast<int64_t>(region);
      entry.family.assign(family);
    } else if (entries.empty()) {
      return corrupt("entry 0 names no region and family");
    } else {
      entry.regionId = entries.back().regionId;
      entry.family = entries.back().family;
    }
    const BytesView previousKey = entries.empty() ? BytesView() : BytesView(entries.back().key);
    if (shared > previousKey.size())
      return corrupt("entry " + std::to_string(i) + " shares more key bytes than the entry before has");
    if (!getLengthPrefixed(body, &pos, &key) || !getLengthPrefixed(body, &pos, &value)) return cutShort();
    entry.key.reserve(shared + key.size());
    if (shared > 0) entry.key.assign(previousKey.data(), shared);
    entry.key.append(key);
    entry.value = Bytes(value);
    entries.push_back(std::move(entry));
  }
  if (pos != body.size()) return corrupt("trailing bytes");
  return entries;
}

}  // namespace keyscope::engine
