// checkAndMutate (HBASE-SEMANTICS.md B6, FromClientSideTestCheckAndMutate):
// the check reads the newest visible cell of row/f/q, optionally within a
// time range; ifNotExists means no such cell; ifMatches(op, v) evaluates
// `v <op> cellValue` (the supplied value is the LEFT operand) over unsigned
// bytes; every mutation must be on the checked row.
#include "engine_test_util.h"

namespace keyscope::test {
namespace {

using ::testing::IsEmpty;

class CheckAndMutateTest : public ::testing::Test {
 protected:
  CheckAndMutateTest() {
    fx.setClock(1'000);
    fx.createTable("t", {familyOf("f").versions(3)});
  }
  // A Put of f:out, each at a newer timestamp so a cleared one cannot mask it.
  Put marker() { return Put{"r", {PutCell{"f", "out", ++m_markerTs, "done"}}}; }
  // ifMatches(op, value) on f:q, with a Put of f:out.
  Result<bool> check(CompareOp op, std::optional<Bytes> value, TimeRange range = {}) {
    CheckAndMutate c;
    c.row = "r";
    c.family = "f";
    c.qualifier = "q";
    c.op = op;
    c.value = std::move(value);
    c.timeRange = range;
    c.mutations = {marker()};
    return fx.ws().checkAndMutate("t", c);
  }
  bool applied() { return !fx.getColumn("t", "r", "f:out").empty(); }
  void clearMarker() { fx.deleteCells("t", "r", DeleteScope::kColumnAll, "f:out", m_markerTs); }

  EngineFixture fx;
  int64_t m_markerTs = 500;
};

TEST_F(CheckAndMutateTest, TheSuppliedValueIsTheLeftOperand) {
  fx.put("t", "r", "f:q", 10, "5");
  // LESS passes when the supplied value is less than the cell's: "3" < "5".
  auto r = check(CompareOp::kLess, "3");
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  EXPECT_TRUE(*r);
  EXPECT_TRUE(applied());
}

TEST_F(CheckAndMutateTest, AFailedCheckAppliesNothing) {
  fx.put("t", "r", "f:q", 10, "5");
  auto r = check(CompareOp::kGreater, "3");
  ASSERT_TRUE(r.isOk());
  EXPECT_FALSE(*r);
  EXPECT_FALSE(applied());
  r = check(CompareOp::kLess, "7");
  ASSERT_TRUE(r.isOk());
  EXPECT_FALSE(*r);
  EXPECT_FALSE(applied());
}

TEST_F(CheckAndMutateTest, EveryOperatorWithTheValueOnTheLeft) {
  fx.put("t", "r", "f:q", 10, "5");
  struct Case {
    CompareOp op;
    const char* value;
    bool passes;
  };
  const Case cases[] = {
      {CompareOp::kLess, "4", true},           {CompareOp::kLess, "5", false},
      {CompareOp::kLessOrEqual, "5", true},    {CompareOp::kLessOrEqual, "6", false},
      {CompareOp::kEqual, "5", true},          {CompareOp::kEqual, "6", false},
      {CompareOp::kNotEqual, "6", true},       {CompareOp::kNotEqual, "5", false},
      {CompareOp::kGreaterOrEqual, "5", true}, {CompareOp::kGreaterOrEqual, "4", false},
      {CompareOp::kGreater, "6", true},        {CompareOp::kGreater, "5", false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(compareOpName(c.op)) + " " + c.value);
    auto r = check(c.op, c.value);
    ASSERT_TRUE(r.isOk());
    EXPECT_EQ(*r, c.passes);
    EXPECT_EQ(applied(), c.passes);
    if (applied()) clearMarker();
  }
}

TEST_F(CheckAndMutateTest, ComparisonIsOverUnsignedBytes) {
  fx.put("t", "r", "f:q", 10, "\x80");
  auto r = check(CompareOp::kLess, "\x7f");  // 0x7F < 0x80 unsigned (signed it would be greater)
  ASSERT_TRUE(r.isOk());
  EXPECT_TRUE(*r);
}

TEST_F(CheckAndMutateTest, IfNotExistsPassesOnlyWithoutACell) {
  auto r = check(CompareOp::kEqual, std::nullopt);
  ASSERT_TRUE(r.isOk());
  EXPECT_TRUE(*r);
  clearMarker();
  fx.put("t", "r", "f:q", 10, "x");
  r = check(CompareOp::kEqual, std::nullopt);
  ASSERT_TRUE(r.isOk());
  EXPECT_FALSE(*r);
  fx.deleteCells("t", "r", DeleteScope::kColumnAll, "f:q", 10);
  r = check(CompareOp::kEqual, std::nullopt);
  ASSERT_TRUE(r.isOk());
  EXPECT_TRUE(*r);
}

TEST_F(CheckAndMutateTest, AValueCheckOnAMissingCellFails) {
  for (CompareOp op : {CompareOp::kEqual, CompareOp::kNotEqual, CompareOp::kLess, CompareOp::kGreater}) {
    auto r = check(op, "x");
    ASSERT_TRUE(r.isOk());
    EXPECT_FALSE(*r);
  }
  EXPECT_FALSE(applied());
}

TEST_F(CheckAndMutateTest, TheCheckReadsOnlyItsTimeRange) {
  fx.put("t", "r", "f:q", 10, "old");
  fx.put("t", "r", "f:q", 20, "new");
  auto r = check(CompareOp::kEqual, "old");
  ASSERT_TRUE(r.isOk());
  EXPECT_FALSE(*r);
  r = check(CompareOp::kEqual, "old", {0, 15});
  ASSERT_TRUE(r.isOk());
  EXPECT_TRUE(*r);
  clearMarker();
  r = check(CompareOp::kEqual, std::nullopt, {21, 100});
  ASSERT_TRUE(r.isOk());
  EXPECT_TRUE(*r);
}

TEST_F(CheckAndMutateTest, TheCheckDoesNotSeeDeletedCells) {
  fx.put("t", "r", "f:q", 10, "v");
  fx.deleteCells("t", "r", DeleteScope::kColumnVersion, "f:q", 10);
  auto r = check(CompareOp::kEqual, "v");
  ASSERT_TRUE(r.isOk());
  EXPECT_FALSE(*r);
}

TEST_F(CheckAndMutateTest, AMutationOnAnotherRowIsAnErrorAndNothingIsApplied) {
  fx.put("t", "r", "f:q", 10, "5");
  CheckAndMutate c;
  c.row = "r";
  c.family = "f";
  c.qualifier = "q";
  c.op = CompareOp::kEqual;
  c.value = "5";
  c.mutations = {marker(), Put{"other", {PutCell{"f", "out", 900, "x"}}}};
  auto r = fx.ws().checkAndMutate("t", c);
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument);
  EXPECT_FALSE(applied());
  EXPECT_THAT(fx.getColumn("t", "other", "f:out"), IsEmpty());
}

TEST_F(CheckAndMutateTest, PutsAndDeletesApplyTogether) {
  fx.put("t", "r", "f:q", 10, "5");
  fx.put("t", "r", "f:gone", 10, "x");
  CheckAndMutate c;
  c.row = "r";
  c.family = "f";
  c.qualifier = "q";
  c.op = CompareOp::kEqual;
  c.value = "5";
  Delete del;
  del.row = "r";
  del.specs = {DeleteSpec{DeleteScope::kColumnAll, "f", "gone", kLatestTimestamp}};
  c.mutations = {marker(), del};
  auto r = fx.ws().checkAndMutate("t", c);
  ASSERT_TRUE(r.isOk()) << r.status().toString();
  EXPECT_TRUE(*r);
  EXPECT_TRUE(applied());
  EXPECT_THAT(fx.getColumn("t", "r", "f:gone"), IsEmpty());
}

TEST_F(CheckAndMutateTest, UnknownFamilyNoOpAndBadRangeAreInvalid) {
  CheckAndMutate c;
  c.row = "r";
  c.family = "nope";
  c.qualifier = "q";
  c.value = "x";
  auto r = fx.ws().checkAndMutate("t", c);
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument);
  c.family = "f";
  c.op = CompareOp::kNoOp;
  r = fx.ws().checkAndMutate("t", c);
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument);
  c.op = CompareOp::kEqual;
  c.timeRange = {20, 10};
  r = fx.ws().checkAndMutate("t", c);
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument);
  r = fx.ws().checkAndMutate("missing", CheckAndMutate{"r", "f", "q", CompareOp::kEqual, Bytes("x"), {}, {}});
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.status().code(), Status::Code::kNotFound);
}

}  // namespace
}  // namespace keyscope::test

namespace keyscope::test {
namespace {

// HRegion.checkAndMutateInternal: an empty compare value is a null one.
TEST(CheckAndMutateNullValue, IfNotExistsPassesOnAMissingOrEmptyCellAndNotEqualInvertsIt) {
  EngineFixture fx;
  fx.createTable("t", {FamilyOptions{.name = "f"}});
  const auto check = [&](const std::string& row, CompareOp op, std::optional<Bytes> value) {
    CheckAndMutate c;
    c.row = row;
    c.family = "f";
    c.qualifier = "q";
    c.op = op;
    c.value = std::move(value);
    auto result = fx.ws().checkAndMutate("t", c);
    EXPECT_TRUE(result.isOk()) << result.status().toString();
    return result.isOk() && *result;
  };
  fx.put("t", "empty", "f:q", 1, "");
  fx.put("t", "full", "f:q", 1, "x");
  EXPECT_TRUE(check("missing", CompareOp::kEqual, std::nullopt));
  EXPECT_TRUE(check("empty", CompareOp::kEqual, std::nullopt));
  EXPECT_FALSE(check("full", CompareOp::kEqual, std::nullopt));
  EXPECT_TRUE(check("missing", CompareOp::kEqual, Bytes()));
  EXPECT_FALSE(check("missing", CompareOp::kNotEqual, std::nullopt));
  EXPECT_TRUE(check("full", CompareOp::kNotEqual, Bytes()));
}

}  // namespace
}  // namespace keyscope::test
