// Increment (HBASE-SEMANTICS.md B6, TestIncrementsFromClientSide): a counter is
// an 8-byte big-endian two's-complement long; a missing column starts at 0
// and an increment of 0 creates a 0 cell; any other width fails with "Field
// is not a long, it's N bytes wide"; the same column twice in one call is
// applied once; a row delete followed by an increment restarts at 0; the new
// cell is never behind the old one (HRegion#reckonDelta).
#include "engine_test_util.h"

namespace keyscope::test {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

class IncrementTest : public ::testing::Test {
 protected:
  IncrementTest() {
    fx.setClock(1'000);
    fx.createTable("t", {familyOf("f").versions(3), familyOf("g")});
  }
  Result<std::vector<Cell>> incr(std::vector<IncrementColumn> columns, const std::string& row = "r") {
    return fx.ws().increment("t", Increment{row, std::move(columns)});
  }
  int64_t stored(const std::string& column, const std::string& row = "r") {
    const auto cells = fx.getColumn("t", row, column);
    if (cells.size() != 1) {
      ADD_FAILURE() << column << ": " << cells.size() << " cells";
      return -12345;
    }
    EXPECT_EQ(cells[0].value.size(), 8u);
    return longValue(cells[0].value);
  }
  EngineFixture fx;
};

TEST_F(IncrementTest, MissingColumnStartsAtZeroAndTheResultCarriesTheNewValue) {
  auto r = incr({{"f", "c", 5}});
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  ASSERT_EQ(r->size(), 1u);
  EXPECT_EQ((*r)[0].value, std::string("\0\0\0\0\0\0\0\x05", 8));
  EXPECT_EQ((*r)[0].timestamp, 1'000);
  EXPECT_EQ(stored("f:c"), 5);
  fx.setClock(2'000);
  r = incr({{"f", "c", -7}});
  ASSERT_TRUE(r.isOk());
  EXPECT_EQ(longValue((*r)[0].value), -2);
  EXPECT_EQ((*r)[0].value, std::string("\xff\xff\xff\xff\xff\xff\xff\xfe", 8));
  EXPECT_EQ(stored("f:c"), -2);
}

TEST_F(IncrementTest, IncrementOfZeroCreatesAZeroCell) {
  auto r = incr({{"f", "c", 0}});
  ASSERT_TRUE(r.isOk());
  EXPECT_EQ((*r)[0].value, std::string(8, '\0'));
  EXPECT_EQ(stored("f:c"), 0);
}

TEST_F(IncrementTest, AddsToAnEightByteValueWrittenByAPut) {
  fx.put("t", "r", "f:c", 10, longBytes(41));
  auto r = incr({{"f", "c", 1}});
  ASSERT_TRUE(r.isOk());
  EXPECT_EQ(longValue((*r)[0].value), 42);
  fx.put("t", "r", "f:max", 10, longBytes(std::numeric_limits<int64_t>::max()));
  r = incr({{"f", "max", 1}});
  ASSERT_TRUE(r.isOk());
  EXPECT_EQ(longValue((*r)[0].value), std::numeric_limits<int64_t>::min());  // Java long wrap-around
}

TEST_F(IncrementTest, AValueThatIsNotEightBytesIsAnErrorAndNothingChanges) {
  fx.put("t", "r", "f:c", 10, "abcd");
  fx.put("t", "r", "g:ok", 10, longBytes(1));
  auto r = incr({{"g", "ok", 1}, {"f", "c", 1}});
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument);
  EXPECT_THAT(r.status().message(), HasSubstr("Field is not a long, it's 4 bytes wide"));
  EXPECT_THAT(describe(fx.getColumn("t", "r", "f:c")), ElementsAre("10:abcd"));
  EXPECT_EQ(stored("g:ok"), 1);  // the call is all or nothing
}

TEST_F(IncrementTest, TheSameColumnTwiceInOneCallIsAppliedOnce) {
  auto r = incr({{"f", "c", 1}, {"f", "c", 1}});
  ASSERT_TRUE(r.isOk());
  ASSERT_EQ(r->size(), 1u);
  EXPECT_EQ(longValue((*r)[0].value), 1);
  EXPECT_EQ(stored("f:c"), 1);
  EXPECT_EQ(fx.getColumn("t", "r", "f:c", 3).size(), 1u);
}

TEST_F(IncrementTest, SeveralColumnsAndFamiliesInOneCall) {
  auto r = incr({{"g", "x", 3}, {"f", "b", 2}, {"f", "a", 1}});
  ASSERT_TRUE(r.isOk());
  EXPECT_EQ(r->size(), 3u);
  EXPECT_EQ(stored("f:a"), 1);
  EXPECT_EQ(stored("f:b"), 2);
  EXPECT_EQ(stored("g:x"), 3);
}

TEST_F(IncrementTest, RowDeleteThenIncrementRestartsAtZero) {
  ASSERT_TRUE(incr({{"f", "c", 5}}).isOk());
  fx.setClock(2'000);
  fx.deleteRow("t", "r");
  EXPECT_THAT(fx.getColumn("t", "r", "f:c"), IsEmpty());
  fx.setClock(3'000);
  auto r = incr({{"f", "c", 1}});
  ASSERT_TRUE(r.isOk());
  EXPECT_EQ(longValue((*r)[0].value), 1);
  EXPECT_EQ((*r)[0].timestamp, 3'000);
  EXPECT_EQ(stored("f:c"), 1);
}

TEST_F(IncrementTest, TheNewCellIsNeverBehindTheOldOne) {
  fx.put("t", "r", "f:c", 5'000, longBytes(10));  // in the clock's future
  auto r = incr({{"f", "c", 1}});
  ASSERT_TRUE(r.isOk());
  EXPECT_EQ((*r)[0].timestamp, 5'001);
  EXPECT_EQ(stored("f:c"), 11);
  // Same clock, successive increments: each one a new, newer version.
  fx.put("t", "r", "f:d", 1'000, longBytes(0));
  ASSERT_TRUE(incr({{"f", "d", 1}}).isOk());
  ASSERT_TRUE(incr({{"f", "d", 1}}).isOk());
  EXPECT_THAT(describe(fx.getColumn("t", "r", "f:d", 3)), ElementsAre("1002:" + longBytes(2), "1001:" + longBytes(1), "1000:" + longBytes(0)));
  EXPECT_EQ(stored("f:d"), 2);
}

TEST_F(IncrementTest, UnknownFamilyOrEmptyIncrementIsInvalid) {
  auto r = incr({{"nope", "c", 1}});
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument);
  r = incr({});
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument);
}

class IncrementStorage : public StorageTest {};
KEYSCOPE_STORAGE_CASES(IncrementStorage);

TEST_P(IncrementStorage, CountersSurviveFlushesAndCompactions) {
  createTable("t", {familyOf("f")});
  int64_t clock = 1'000;
  for (int i = 0; i < 3; ++i) {
    fx().setClock(clock++);
    ASSERT_TRUE(fx().ws().increment("t", Increment{"r", {{"f", "c", 2}}}).isOk());
  }
  afterPhase("t", 1);
  for (int i = 0; i < 2; ++i) {
    fx().setClock(clock++);
    ASSERT_TRUE(fx().ws().increment("t", Increment{"r", {{"f", "c", 10}}}).isOk());
  }
  afterPhase("t", 2);
  const auto cells = fx().getColumn("t", "r", "f:c");
  ASSERT_EQ(cells.size(), 1u);
  EXPECT_EQ(longValue(cells[0].value), 26);
}

}  // namespace
}  // namespace keyscope::test
