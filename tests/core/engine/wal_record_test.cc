// Log records: what is written reads back, and damage is a Corruption.
#include <gtest/gtest.h>
#include <xxhash.h>

#include "engine/internal_key.h"
#include "engine/wal_record.h"

namespace keyscope::engine {
namespace {

std::string sampleRecord(int64_t seq) {
  LogRecordBuilder builder(2);
  builder.add(7, "d", internalKey(std::string("r\0w", 3), "q", 5, CellType::kPut), std::string("v\0", 2));
  builder.add(8, "meta", internalKey("r", "", 9, CellType::kDeleteFamily), "");
  return std::move(builder).finish(seq);
}

// The same record as a version-1 build wrote it: its checksum ignores the
// sequence number.
std::string version1Record() {
  std::string record = sampleRecord(1);
  record.resize(record.size() - 8);
  record[0] = 1;
  const uint64_t sum = XXH3_64bits(record.data(), record.size());
  for (int shift = 56; shift >= 0; shift -= 8) record.push_back(static_cast<char>((sum >> shift) & 0xff));
  return record;
}

TEST(LogRecord, EntriesReadBackExactly) {
  Result<std::vector<LogEntry>> entries = decodeLogRecord(1, sampleRecord(1));
  ASSERT_TRUE(entries.isOk()) << entries.status().toString();
  ASSERT_EQ(entries->size(), 2u);
  EXPECT_EQ((*entries)[0].regionId, 7);
  EXPECT_EQ((*entries)[0].family, "d");
  EXPECT_EQ((*entries)[0].key, internalKey(std::string("r\0w", 3), "q", 5, CellType::kPut));
  EXPECT_EQ((*entries)[0].value, std::string("v\0", 2));
  EXPECT_EQ((*entries)[1].regionId, 8);
  EXPECT_EQ((*entries)[1].family, "meta");
  EXPECT_EQ((*entries)[1].value, "");
}

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
  EXPECT_EQ(*upgraded, sampleRecord(5));
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
