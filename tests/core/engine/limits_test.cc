// The engine's explicit limits (options.h): key, qualifier and value sizes on
// every write path, each error naming the limit and the size given; and the
// most of one row a get or a scan returns at once (RowResultLimits), with an
// error that names the row and says how to read it instead.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine_test_util.h"
#include "keyscope/filter.h"
#include "keyscope/options.h"
#include "keyscope/workspace.h"

namespace keyscope::test {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

// The message of a failed call, or "OK" (so a call that wrongly succeeds reads clearly).
std::string messageOf(const Status& s) { return s.isOk() ? "OK" : s.message(); }
template <typename T>
std::string messageOf(const Result<T>& r) {
  return r ? "OK" : r.status().message();
}

const Bytes kLongRow(kMaxRowKeySize + 1, 'r');
const Bytes kLongQualifier(kMaxQualifierSize + 1, 'q');
const Bytes kLargeValue(kMaxValueSize + 1, 'v');

class WriteLimitsTest : public ::testing::Test {
 protected:
  WriteLimitsTest() { fx.createTable("t", {familyOf("f")}); }
  Status put(Bytes row, Bytes qualifier, Bytes value) {
    return fx.ws().put("t", Put{std::move(row), {PutCell{"f", std::move(qualifier), 1, std::move(value)}}});
  }
  EngineFixture fx;
};

TEST_F(WriteLimitsTest, APutNamesTheLimitAndTheSizeItBroke) {
  EXPECT_EQ(messageOf(put(kLongRow, "q", "v")), "row key of 32768 bytes is longer than the limit of 32767");
  EXPECT_EQ(messageOf(put("r", kLongQualifier, "v")), "qualifier of 65536 bytes is longer than the limit of 65535");
  EXPECT_EQ(messageOf(put("r", "q", kLargeValue)), "value of 10485761 bytes is larger than the limit of 10485760");
  EXPECT_TRUE(fx.rawCells("t").empty());
}

TEST_F(WriteLimitsTest, ABatchNamesTheMutationThatBrokeALimit) {
  const std::vector<Mutation> batch = {Put{"a", {PutCell{"f", "q", 1, "v"}}},
                                       Put{"b", {PutCell{"f", "q", 1, kLargeValue}}}};
  EXPECT_EQ(messageOf(fx.ws().mutate("t", batch)),
            "mutation 2: value of 10485761 bytes is larger than the limit of 10485760");
  EXPECT_TRUE(fx.rawCells("t").empty());
}

TEST_F(WriteLimitsTest, ADeleteNamesTheLimitAndTheSizeItBroke) {
  Delete del;
  del.row = "r";
  del.specs.push_back(DeleteSpec{DeleteScope::kColumnAll, "f", kLongQualifier, kLatestTimestamp});
  EXPECT_EQ(messageOf(fx.ws().remove("t", del)), "qualifier of 65536 bytes is longer than the limit of 65535");
  del.row = kLongRow;
  EXPECT_EQ(messageOf(fx.ws().remove("t", del)), "row key of 32768 bytes is longer than the limit of 32767");
}

TEST_F(WriteLimitsTest, AnIncrementNamesTheLimitAndTheSizeItBroke) {
  EXPECT_EQ(messageOf(fx.ws().increment("t", Increment{kLongRow, {IncrementColumn{"f", "n", 1}}})),
            "row key of 32768 bytes is longer than the limit of 32767");
  EXPECT_EQ(messageOf(fx.ws().increment("t", Increment{"r", {IncrementColumn{"f", kLongQualifier, 1}}})),
            "qualifier of 65536 bytes is longer than the limit of 65535");
  EXPECT_TRUE(fx.rawCells("t").empty());
}

TEST_F(WriteLimitsTest, CheckAndMutateNamesTheLimitAndTheSizeItBroke) {
  CheckAndMutate check;
  check.row = "r";
  check.family = "f";
  check.qualifier = kLongQualifier;
  EXPECT_EQ(messageOf(fx.ws().checkAndMutate("t", check)), "qualifier of 65536 bytes is longer than the limit of 65535");
  check.qualifier = "q";
  check.mutations = {Put{"r", {PutCell{"f", "q", 1, kLargeValue}}}};
  EXPECT_EQ(messageOf(fx.ws().checkAndMutate("t", check)), "value of 10485761 bytes is larger than the limit of 10485760");
  // Refused even when the check fails (the cell is missing, so "x" does not match).
  check.value = "x";
  EXPECT_EQ(messageOf(fx.ws().checkAndMutate("t", check)), "value of 10485761 bytes is larger than the limit of 10485760");
  check.mutations = {Delete{"r", kLatestTimestamp, {DeleteSpec{DeleteScope::kColumnAll, "f", kLongQualifier, 1}}}};
  EXPECT_EQ(messageOf(fx.ws().checkAndMutate("t", check)), "qualifier of 65536 bytes is longer than the limit of 65535");
  check.value.reset();
  check.row = kLongRow;
  check.mutations = {Put{kLongRow, {PutCell{"f", "q", 1, "v"}}}};
  EXPECT_EQ(messageOf(fx.ws().checkAndMutate("t", check)), "row key of 32768 bytes is longer than the limit of 32767");
  EXPECT_TRUE(fx.rawCells("t").empty());
}

TEST(NameLimits, TableAndFamilyNamesNameTheLimitAndTheSize) {
  EngineFixture fx;
  TableOptions table;
  table.name = std::string(kMaxTableNameSize + 1, 't');
  table.families = {familyOf("f")};
  EXPECT_EQ(messageOf(fx.ws().createTable(table)), "table name of 256 bytes is longer than the limit of 255");
  table.name = std::string(kMaxTableNameSize, 't');
  table.families = {familyOf(std::string(kMaxFamilyNameSize + 1, 'f'))};
  EXPECT_THAT(messageOf(fx.ws().createTable(table)), HasSubstr("name of 201 bytes is longer than the limit of 200"));
  table.families = {familyOf(std::string(kMaxFamilyNameSize, 'f'))};
  EXPECT_TRUE(fx.ws().createTable(table).isOk());
}

// A workspace whose rows may return at most 10 cells or 1000 bytes of cells at once.
OpenOptions smallRowResults() {
  OpenOptions options;
  options.rowResultLimits = RowResultLimits{10, 1000};
  return options;
}

class RowResultLimitTest : public ::testing::TestWithParam<bool> {
 protected:
  RowResultLimitTest() : fx(smallRowResults()) {
    fx.createTable("t", {familyOf("f").versions(5), familyOf("g")});
    // Row "wide": 8 columns in f and 4 in g, 12 cells; rows "a" and "z": one each.
    for (int i = 0; i < 8; ++i) fx.put("t", "wide", "f:q" + std::to_string(i), 1, "v");
    for (int i = 0; i < 4; ++i) fx.put("t", "wide", "g:q" + std::to_string(i), 1, "v");
    fx.put("t", "a", "f:q", 1, "v");
    fx.put("t", "z", "f:q", 1, "v");
    if (GetParam()) fx.flush("t");
  }
  Result<GetResult> get(GetOptions options) { return fx.ws().get("t", options); }
  // The rows a scan returns, then "error: <message>" if it failed.
  std::vector<std::string> scan(ScanOptions options) {
    std::vector<std::string> out;
    auto scanner = fx.ws().scan("t", options);
    if (!scanner) return {"error: " + scanner.status().message()};
    RowResult row;
    while ((*scanner)->next(&row)) out.push_back(row.row + ":" + std::to_string(row.cells.size()));
    if (Status s = (*scanner)->status(); !s) out.push_back("error: " + s.message());
    return out;
  }
  EngineFixture fx;
};

TEST_P(RowResultLimitTest, AGetOfARowWithTooManyCellsNamesTheRowAndWhatToDo) {
  GetOptions options;
  options.row = "wide";
  EXPECT_THAT(messageOf(get(options)),
              AllOf(HasSubstr("row 'wide' is too big to return at once: more than 10 cells"), HasSubstr("BATCH"),
                    HasSubstr("COLUMNS"), HasSubstr("ColumnPaginationFilter")));
  EXPECT_EQ(get(options).status().code(), Status::Code::kInvalidArgument);
}

TEST_P(RowResultLimitTest, ARowAtTheLimitIsReturnedWhole) {
  GetOptions options;
  options.row = "wide";
  options.columns = {column("f"), column("g:q0"), column("g:q1")};
  auto got = get(options);
  ASSERT_TRUE(got) << got.status().toString();
  EXPECT_EQ(got->cells.size(), 10u);
}

TEST_P(RowResultLimitTest, FiltersAndColumnsThatShrinkTheRowLetItThrough) {
  GetOptions options;
  options.row = "wide";
  options.filter = *parseFilter("ColumnPaginationFilter (5, 0)");
  auto paged = get(options);
  ASSERT_TRUE(paged) << paged.status().toString();
  EXPECT_EQ(paged->cells.size(), 5u);
  options.filter = nullptr;
  options.columns = {column("g")};
  auto family = get(options);
  ASSERT_TRUE(family) << family.status().toString();
  EXPECT_EQ(family->cells.size(), 4u);
}

TEST_P(RowResultLimitTest, ARowWithTooManyBytesNamesTheRow) {
  fx.put("t", "heavy", "f:q", 1, std::string(1100, 'x'));
  GetOptions options;
  options.row = "heavy";
  EXPECT_THAT(messageOf(get(options)), HasSubstr("row 'heavy' is too big to return at once: more than 1000 bytes of cells"));
  options.filter = *parseFilter("KeyOnlyFilter ()");  // the value emptied: small again
  EXPECT_TRUE(get(options));
}

TEST_P(RowResultLimitTest, AScanStopsAtTheRowThatIsTooBig) {
  EXPECT_THAT(scan({}), ::testing::ElementsAre("a:1", HasSubstr("error: row 'wide' is too big to return at once")));
}

TEST_P(RowResultLimitTest, AScanWithABatchReadsTheRowInParts) {
  ScanOptions options;
  options.batch = 5;
  EXPECT_THAT(scan(options), ::testing::ElementsAre("a:1", "wide:5", "wide:5", "wide:2", "z:1"));
  EXPECT_EQ(*fx.ws().count("t", {}), 3u);  // counting keeps no cells
}

TEST_P(RowResultLimitTest, ALongRowKeyIsShortenedInTheMessage) {
  const std::string row(200, 'k');
  for (int i = 0; i < 11; ++i) fx.put("t", row, "f:q" + std::to_string(i), 1, "v");
  GetOptions options;
  options.row = row;
  EXPECT_THAT(messageOf(get(options)), HasSubstr("row '" + std::string(64, 'k') + "... (200 bytes)' is too big"));
}

INSTANTIATE_TEST_SUITE_P(MemstoreAndFlushed, RowResultLimitTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& flushed) { return flushed.param ? "Flushed" : "Memstore"; });

TEST(RowResultLimits, TheDefaultsAreAMillionCellsAnd256MiB) {
  const OpenOptions options;
  EXPECT_EQ(options.rowResultLimits.maxCells, 1'000'000u);
  EXPECT_EQ(options.rowResultLimits.maxBytes, 256u << 20);
}

}  // namespace
}  // namespace keyscope::test
