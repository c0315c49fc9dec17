// Log records: what is written reads back, and damage is a Corruption.
#include <gtest/gtest.h>

#include "engine/internal_key.h"
#include "engine/varint.h"
#include "engine/wal_record.h"
#include "older_formats.h"

namespace keyscope::engine {
namespace {

std::vector<LogEntry> sampleEntries() {
  return {{7, "d", internalKey(std::string("r\0w", 3), "q", 5, CellType::kPut), Bytes(std::string("v\0", 2))},
          {8, "meta", internalKey("r", "", 9, CellType::kDeleteFamily), Bytes("")}};
}

std::string sampleRecord(int64_t seq) {
  const std::vector<LogEntry> entries = sampleEntries();
  LogRecordBuilder builder(entries.size());
  for (const LogEntry& e : entries) builder.add(e.regionId, e.family, e.key, e.value);
  return std::move(builder).finish(seq);
}

// sampleRecord's entries as builds before version 3 wrote them, each key
// whole: version 1's checksum ignores the sequence number, version 2's is
// seeded with it.
std::string wholeKeysRecord(uint8_t version, int64_t seq) { return test::wholeKeysRecord(sampleEntries(), version, seq); }

std::string version1Record() { return wholeKeysRecord(1, 0); }

void expectSampleEntries(const Result<std::vector<LogEntry>>& entries) {
  ASSERT_TRUE(entries.isOk()) << entries.status().toString();
  ASSERT_EQ(entries->size(), 2u);
  EXPECT_EQ((*entries)[0].regionId, 7);
  EXPECT_EQ((*entries)[0].family, "d");
  EXPECT_EQ((*entries)[0].key, internalKey(std::string("r\0w", 3), "q", 5, CellType::kPut));
  EXPECT_EQ((*entries)[0].value, std::string("v\0", 2));
  EXPECT_EQ((*entries)[1].regionId, 8);
  EXPECT_EQ((*entries)[1].family, "meta");
  EXPECT_EQ((*entries)[1].key, internalKey("r", "", 9, CellType::kDeleteFamily));
  EXPECT_EQ((*entries)[1].value, "");
}

TEST(LogRecord, EntriesReadBackExactly) { expectSampleEntries(decodeLogRecord(1, sampleRecord(1))); }

// Keys coded against the key before: a run of one row's cells, a second
// family, a region switch and back with the same key (all of the key
// before shared), and a key sharing none of it.
TEST(LogRecord, PrefixCodedKeysAndContextsReadBackExactly) {
  std::vector<LogEntry> written;
  const auto add = [&](int64_t region, const std::string& family, std::string key, std::string value) {
    written.push_back({region, family, std::move(key), Bytes(std::move(value))});
  };
  for (int q = 0; q < 5; ++q) add(3, "d", internalKey("row-1", "q" + std::to_string(q), 100 - q, CellType::kPut), "v");
  add(3, "d", internalKey("row-1", "q4", 90, CellType::kPut), "older");
  add(3, "d", internalKey("row-2", "", 7, CellType::kDeleteFamily), "");
  add(3, "e", internalKey("row-2", "x", 7, CellType::kPut), std::string(300, 'x'));
  add(4, "e", internalKey("row-3", "x", 7, CellType::kPut), "other region");
  add(3, "e", internalKey("row-3", "x", 7, CellType::kPut), "back again");
  add(3, "e", internalKey(std::string("\xff\0", 2), "x", 1, CellType::kPut), "nothing shared");
  LogRecordBuilder builder(written.size());
  for (const LogEntry& e : written) builder.add(e.regionId, e.family, e.key, e.value);
  const std::string record = std::move(builder).finish(77);
  Result<std::vector<LogEntry>> read = decodeLogRecord(77, record);
  ASSERT_TRUE(read.isOk()) << read.status().toString();
  ASSERT_EQ(read->size(), written.size());
  for (size_t i = 0; i < written.size(); ++i) {
    EXPECT_EQ((*read)[i].regionId, written[i].regionId) << i;
    EXPECT_EQ((*read)[i].family, written[i].family) << i;
    EXPECT_EQ((*read)[i].key, written[i].key) << i;
    EXPECT_EQ((*read)[i].value, written[i].value) << i;
  }
}

// What version 3 is for: a row's cells in key order cost their keys' shared
// bytes once, and one region and family once.
TEST(LogRecord, ARowsCellsInKeyOrderStoreTheirSharedBytesOnce) {
  const std::string row(40, 'r');
  constexpr int kCells = 100;
  size_t wholeKeys = 0;
  LogRecordBuilder builder(kCells);
  for (int q = 0; q < kCells; ++q) {
    const std::string key = internalKey(row, "q" + std::to_string(1000 + q), 5, CellType::kPut);
    wholeKeys += key.size();
    builder.add(1, "family", key, "v");
  }
  const std::string record = std::move(builder).finish(1);
  // An entry after the first is 16 bytes: its 12 unshared key bytes and four
  // of lengths and value (whole 58-byte keys: over 5,800 bytes in all;
  // naming the family every time: another 800).
  EXPECT_LT(record.size(), wholeKeys / 3);
  EXPECT_TRUE(decodeLogRecord(1, record).isOk());
}

// Damage behind a valid checksum (a bug, or bytes written that way): a
// version-3 entry that names no context or shares bytes its predecessor
// does not have is refused, not read as some other key.
TEST(LogRecord, PrefixCodingThatCannotBeFollowedIsACorruption) {
  std::string noContext(1, '\3');
  putVarint(&noContext, 1);
  putVarint(&noContext, 0);  // shared 0, no context
  putLengthPrefixed(&noContext, internalKey("r", "q", 1, CellType::kPut));
  putLengthPrefixed(&noContext, "v");
  EXPECT_EQ(decodeLogRecord(4, test::sealLogRecord(noContext, 4)).status().message(),
            "log record 4: entry 0 names no region and family");

  const std::string key = internalKey("r", "q", 1, CellType::kPut);
  std::string overShared(1, '\3');
  putVarint(&overShared, 2);
  putVarint(&overShared, 1);  // shared 0, a context
  putVarint(&overShared, 1);
  putLengthPrefixed(&overShared, "d");
  putLengthPrefixed(&overShared, key);
  putLengthPrefixed(&overShared, "v");
  putVarint(&overShared, (key.size() + 1) << 1);  // one byte more than the key before has
  putLengthPrefixed(&overShared, "");
  putLengthPrefixed(&overShared, "v");
  EXPECT_EQ(decodeLogRecord(4, test::sealLogRecord(overShared, 4)).status().message(),
            "log record 4: entry 1 shares more key bytes than the entry before has");
}

TEST(LogRecord, Version2RecordsStillRead) { expectSampleEntries(decodeLogRecord(9, wholeKeysRecord(2, 9))); }

TEST(LogRecord, EveryFlippedByteIsACorruptionNamingTheRecord) {
  const std::string record = sampleRecord(42);
  for (size_t i = 0; i < record.size(); ++i) {
    std::string damaged = record;
    damaged[i] = static_cast<char>(damaged[i] ^ 0x20);
    Result<std::vector<LogEntry>> entries = decodeLogRecord(42, damaged);
    ASSERT_FALSE(entries.isOk()) << "byte " << i;
    EXPECT_EQ(entries.status().code(), Status::Code::kCorruption);
    EXPECT_NE(entries.status().message().find("log record 42"), std::string::npos);
  }
}

// A record whose row id (its sequence number) was damaged must not replay
// in another place of the log, or be skipped as already flushed.
TEST(LogRecord, ARecordUnderAnotherSequenceNumberIsACorruption) {
  const std::string record = sampleRecord(1000);
  ASSERT_TRUE(decodeLogRecord(1000, record).isOk());
  for (const int64_t seq : {int64_t{0}, int64_t{1}, int64_t{999}, int64_t{1001}, int64_t{1000} ^ (int64_t{1} << 40)}) {
    Result<std::vector<LogEntry>> entries = decodeLogRecord(seq, record);
    ASSERT_FALSE(entries.isOk()) << seq;
    EXPECT_EQ(entries.status().message(), "log record " + std::to_string(seq) + ": checksum mismatch");
  }
}

TEST(LogRecord, Version1RecordsReadAndUpgradeToRecordsBoundToTheirNumber) {
  const std::string old = version1Record();
  Result<std::vector<LogEntry>> entries = decodeLogRecord(5, old);
  ASSERT_TRUE(entries.isOk()) << entries.status().toString();
  EXPECT_EQ(entries->size(), 2u);
  Result<std::string> upgraded = upgradeLogRecord(5, old);
  ASSERT_TRUE(upgraded.isOk()) << upgraded.status().toString();
  EXPECT_EQ(*upgraded, wholeKeysRecord(2, 5));
  EXPECT_FALSE(decodeLogRecord(6, *upgraded).isOk());
  std::string damaged = old;
  damaged[3] ^= 0x01;
  EXPECT_EQ(upgradeLogRecord(5, damaged).status().code(), Status::Code::kCorruption);
}

TEST(LogRecord, TruncatedRecordsAreCorruptions) {
  const std::string record = sampleRecord(3);
  for (size_t n = 0; n < record.size(); ++n) {
    EXPECT_EQ(decodeLogRecord(3, record.substr(0, n)).status().code(), Status::Code::kCorruption) << n;
  }
}

}  // namespace
}  // namespace keyscope::engine
