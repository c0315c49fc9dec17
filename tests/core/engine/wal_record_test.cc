// Log records: what is written reads back, and damage is a Corruption.
#include <gtest/gtest.h>

#include "engine/internal_key.h"
#include "engine/wal_record.h"

namespace keyscope::engine {
namespace {

std::string sampleRecord() {
  LogRecordBuilder builder(2);
  builder.add(7, "d", internalKey(std::string("r\0w", 3), "q", 5, CellType::kPut), std::string("v\0", 2));
  builder.add(8, "meta", internalKey("r", "", 9, CellType::kDeleteFamily), "");
  return std::move(builder).finish();
}

TEST(LogRecord, EntriesReadBackExactly) {
  Result<std::vector<LogEntry>> entries = decodeLogRecord(1, sampleRecord());
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
  const std::string record = sampleRecord();
  for (size_t i = 0; i < record.size(); ++i) {
    std::string damaged = record;
    damaged[i] = static_cast<char>(damaged[i] ^ 0x20);
    Result<std::vector<LogEntry>> entries = decodeLogRecord(42, damaged);
    ASSERT_FALSE(entries.isOk()) << "byte " << i;
    EXPECT_EQ(entries.status().code(), Status::Code::kCorruption);
    EXPECT_NE(entries.status().message().find("log record 42"), std::string::npos);
  }
}

TEST(LogRecord, TruncatedRecordsAreCorruptions) {
  const std::string record = sampleRecord();
  for (size_t n = 0; n < record.size(); ++n) {
    EXPECT_EQ(decodeLogRecord(3, record.substr(0, n)).status().code(), Status::Code::kCorruption) << n;
  }
}

}  // namespace
}  // namespace keyscope::engine
