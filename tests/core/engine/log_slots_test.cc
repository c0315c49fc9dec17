// The log's slots (log_slots.h): space reused once its records are flushed,
// given back once the whole log is, and what replays after a reopen.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "engine_test_util.h"
#include "keyscope/check.h"
#include "log_on_disk.h"
#include "raw_db.h"

namespace keyscope {
namespace {

using test::EngineFixture;
using test::familyOf;
using test::RawDb;
using test::StoredLogRecord;
using test::storedLogRecords;
using ::testing::IsEmpty;
using ::testing::SizeIs;

struct SlotSpace {
  int64_t slots = 0;
  int64_t bytes = 0;
  bool operator==(const SlotSpace&) const = default;
};

SlotSpace slotSpace(const std::string& path) {
  RawDb db(path);
  return {db.integer("SELECT count(*) FROM wal_slots"), db.integer("SELECT coalesce(sum(length(data)), 0) FROM wal_slots")};
}

void PrintTo(const SlotSpace& s, std::ostream* out) { *out << s.slots << " slots of " << s.bytes << " bytes"; }

// Writes `batches` batches of 10 rows with 1 KiB values (a record of about
// 10 KiB each), rows named after `round`.
void writeRound(EngineFixture& fx, int round, int batches) {
  for (int b = 0; b < batches; ++b) {
    std::vector<Mutation> batch;
    for (int r = 0; r < 10; ++r) {
      const std::string row = "r" + std::to_string(round) + "-" + std::to_string(b * 10 + r);
      batch.push_back(Put{row, {PutCell{"f", "q", 1, std::string(1024, static_cast<char>('a' + round))}}});
    }
    ASSERT_TRUE(fx.ws().mutate("t", batch));
  }
}

TEST(LogSlots, FlushedRecordsSpaceIsWrittenAgainNotAdded) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("f")});
  std::vector<SlotSpace> after;
  for (int round = 0; round < 5; ++round) {
    writeRound(fx, round, 40);  // about 400 KiB of records: under what an empty log keeps
    fx.flush("t");
    fx.close();
    after.push_back(slotSpace(fx.path()));
    fx.reopen();
  }
  EXPECT_GT(after[0].bytes, 300 << 10) << "the records were logged in slots";
  for (size_t round = 1; round < after.size(); ++round)
    EXPECT_EQ(after[round], after[0]) << "round " << round << " wrote its records where round 0's were";
  fx.close();
  RawDb db(fx.path());
  EXPECT_THAT(storedLogRecords(db), IsEmpty()) << "every record is flushed";
  EXPECT_GT(db.integer("SELECT count(*) FROM wal_slots"), 0) << "the flushed records' frames are still there";
}

TEST(LogSlots, AWholeLogFlushedGivesItsSpaceBack) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("f")});
  writeRound(fx, 0, 200);  // about 2 MiB of records: more than an empty log keeps
  fx.close();
  EXPECT_GT(slotSpace(fx.path()).bytes, 1 << 20);
  fx.reopen();
  fx.flush("t");
  fx.close();
  EXPECT_EQ(slotSpace(fx.path()), SlotSpace{}) << "the slots are deleted";
  fx.reopen();
  EXPECT_THAT(fx.rawCells("t"), SizeIs(2000));
}

// A flushed record stays in its slot, below the saved truncation point, and
// the log no longer lists it: check counts one record, not two. (Replay
// would skip it anyway by its region's flush; the count is where a log
// that listed it would show.)
TEST(LogSlots, AFlushedRecordLeftInItsSlotIsNoLongerInTheLog) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("f")});
  fx.put("t", "row", "f:q", 1, "flushed");
  fx.flush("t");
  fx.put("t", "row", "f:q", 2, "logged");
  fx.close();
  {
    RawDb db(fx.path());
    const std::vector<StoredLogRecord> log = storedLogRecords(db);
    ASSERT_THAT(log, SizeIs(1));
    EXPECT_GT(log.front().frame, 0u) << "the flushed record's frame is still in the slot, before it";
    EXPECT_EQ(test::logTruncatedThrough(db), log.front().seq - 1);
  }
  Result<CheckReport> report = checkWorkspace(fx.path());
  ASSERT_TRUE(report) << report.status().toString();
  EXPECT_EQ(report->counts.logRecords, 1u);
  EXPECT_TRUE(report->clean());
  fx.reopen();
  EXPECT_THAT(test::describe(fx.rawCells("t")), ::testing::ElementsAre("2:logged", "1:flushed"));
}

}  // namespace
}  // namespace keyscope
