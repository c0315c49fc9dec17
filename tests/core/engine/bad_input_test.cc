// Bad input (HBASE-SEMANTICS.md B3, B9; options.h limits): an unknown table
// is NotFound; an unknown family, a negative timestamp, a TimeRange with a
// negative bound or max < min (TimeRange.java), an empty or oversized row
// key, an oversized qualifier or value (hbase.client.keyvalue.maxsize) are
// InvalidArgument with a message that says what is wrong. A refused call
// changes nothing, a refused batch applies none of its mutations, and the
// workspace stays usable and consistent, also after reopening.
#include "engine_test_util.h"

namespace keyscope::test {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

class BadInputTest : public ::testing::Test {
 protected:
  BadInputTest() {
    fx.createTable("t", {familyOf("f").versions(3)});
    fx.put("t", "r", "f:q", 10, "kept");
  }
  // The data the fixture wrote is still exactly there, now and after a reopen.
  void expectConsistent() {
    ScanOptions all;
    all.maxVersions = 10;
    EXPECT_THAT(describeFull(fx.scanCells("t", all)), ElementsAre("r/f:q@10=kept"));
    fx.reopen();
    EXPECT_THAT(describeFull(fx.scanCells("t", all)), ElementsAre("r/f:q@10=kept"));
    fx.put("t", "r2", "f:q", 1, "still-writable");
    EXPECT_THAT(describe(fx.getColumn("t", "r2", "f:q")), ElementsAre("1:still-writable"));
  }
  Status put(const Bytes& row, const std::string& family, const Bytes& qualifier, int64_t ts, const Bytes& value) {
    return fx.ws().put("t", Put{row, {PutCell{family, qualifier, ts, value}}});
  }
  EngineFixture fx;
};

void expectCode(const Status& s, Status::Code code, const std::string& mentions) {
  EXPECT_EQ(s.code(), code) << s.toString();
  EXPECT_THAT(s.message(), HasSubstr(mentions));
}

TEST_F(BadInputTest, UnknownTableIsNotFoundEverywhere) {
  const Status::Code nf = Status::Code::kNotFound;
  expectCode(fx.ws().put("nope", Put{"r", {PutCell{"f", "q", 1, "v"}}}), nf, "nope");
  expectCode(fx.ws().remove("nope", Delete{"r", kLatestTimestamp, {}}), nf, "nope");
  GetOptions get;
  get.row = "r";
  expectCode(fx.ws().get("nope", get).status(), nf, "nope");
  expectCode(fx.ws().scan("nope", ScanOptions{}).status(), nf, "nope");
  expectCode(fx.ws().count("nope", ScanOptions{}).status(), nf, "nope");
  expectCode(fx.ws().increment("nope", Increment{"r", {{"f", "c", 1}}}).status(), nf, "nope");
  expectCode(fx.ws().flush("nope"), nf, "nope");
  expectCode(fx.ws().compact("nope", true), nf, "nope");
  expectCode(fx.ws().describeTable("nope").status(), nf, "nope");
  expectConsistent();
}

TEST_F(BadInputTest, UnknownFamilyIsInvalidArgumentEverywhere) {
  const Status::Code ia = Status::Code::kInvalidArgument;
  expectCode(put("r", "g", "q", 1, "v"), ia, "'g'");
  expectCode(fx.ws().remove("t", Delete{"r", kLatestTimestamp, {DeleteSpec{DeleteScope::kFamily, "g", "", 5}}}), ia,
             "'g'");
  GetOptions get;
  get.row = "r";
  get.columns = {column("g:q")};
  expectCode(fx.ws().get("t", get).status(), ia, "'g'");
  ScanOptions scan;
  scan.columns = {column("g")};
  expectCode(fx.ws().scan("t", scan).status(), ia, "'g'");
  expectCode(fx.ws().increment("t", Increment{"r", {{"g", "c", 1}}}).status(), ia, "'g'");
  expectConsistent();
}

TEST_F(BadInputTest, NegativeTimestampsAreRefused) {
  const Status::Code ia = Status::Code::kInvalidArgument;
  expectCode(put("r", "f", "q", -1, "v"), ia, "negative");
  expectCode(fx.ws().remove("t", Delete{"r", -5, {}}), ia, "negative");
  expectCode(fx.ws().remove("t", Delete{"r", kLatestTimestamp, {DeleteSpec{DeleteScope::kColumnAll, "f", "q", -2}}}),
             ia, "negative");
  expectConsistent();
}

TEST_F(BadInputTest, BadTimeRangesAreRefused) {
  const Status::Code ia = Status::Code::kInvalidArgument;
  GetOptions get;
  get.row = "r";
  get.timeRange = {-1, 10};
  expectCode(fx.ws().get("t", get).status(), ia, "negative");
  get.timeRange = {20, 10};
  expectCode(fx.ws().get("t", get).status(), ia, "max is less than min");
  get.timeRange = {};
  get.familyTimeRanges["f"] = {5, 4};
  expectCode(fx.ws().get("t", get).status(), ia, "family 'f'");
  ScanOptions scan;
  scan.timeRange = {20, 10};
  expectCode(fx.ws().scan("t", scan).status(), ia, "max is less than min");
  expectCode(fx.ws().count("t", scan).status(), ia, "max is less than min");
  EXPECT_EQ(validateTimeRange({0, -1}).code(), ia);
  EXPECT_TRUE(validateTimeRange({7, 7}).isOk());  // empty, not invalid
  expectConsistent();
}

TEST_F(BadInputTest, OversizedKeysAndValuesAreRefusedAtTheLimitAccepted) {
  const Status::Code ia = Status::Code::kInvalidArgument;
  expectCode(put(Bytes(kMaxRowKeySize + 1, 'r'), "f", "q", 1, "v"), ia, "row key");
  expectCode(put("r", "f", Bytes(kMaxQualifierSize + 1, 'q'), 1, "v"), ia, "qualifier");
  expectCode(put("r", "f", "q", 1, Bytes(kMaxValueSize + 1, 'v')), ia, "value");
  expectCode(put("", "f", "q", 1, "v"), ia, "empty");
  GetOptions get;
  get.row = Bytes(kMaxRowKeySize + 1, 'r');
  EXPECT_EQ(fx.ws().get("t", get).status().code(), ia);
  get.row = "";
  EXPECT_EQ(fx.ws().get("t", get).status().code(), ia);
  expectConsistent();

  const Bytes longRow(kMaxRowKeySize, 'r');
  const Bytes longQualifier(kMaxQualifierSize, 'q');
  ASSERT_TRUE(put(longRow, "f", longQualifier, 1, Bytes(kMaxValueSize, 'v')).isOk());
  fx.flush("t");
  get.row = longRow;
  const auto cells = fx.get("t", get);
  ASSERT_EQ(cells.size(), 1u);
  EXPECT_EQ(cells[0].qualifier, longQualifier);
  EXPECT_EQ(cells[0].value.size(), kMaxValueSize);
}

TEST_F(BadInputTest, ARefusedBatchAppliesNothing) {
  const Mutation batch[] = {Put{"a", {PutCell{"f", "q", 1, "v"}}}, Put{"b", {PutCell{"g", "q", 1, "v"}}}};
  const Status s = fx.ws().mutate("t", batch);
  expectCode(s, Status::Code::kInvalidArgument, "mutation 2");
  EXPECT_THAT(fx.getColumn("t", "a", "f:q"), IsEmpty());
  const Mutation mixed[] = {Put{"a", {PutCell{"f", "q", 1, "v"}, PutCell{"f", "q2", -3, "v"}}}};
  EXPECT_EQ(fx.ws().mutate("t", mixed).code(), Status::Code::kInvalidArgument);
  EXPECT_THAT(fx.getColumn("t", "a", "f:q"), IsEmpty());
  expectConsistent();
}

TEST_F(BadInputTest, BadReadOptionsAreRefused) {
  const Status::Code ia = Status::Code::kInvalidArgument;
  GetOptions get;
  get.row = "r";
  get.maxVersions = 0;
  EXPECT_EQ(fx.ws().get("t", get).status().code(), ia);
  ScanOptions scan;
  scan.batch = 0;
  EXPECT_EQ(fx.ws().scan("t", scan).status().code(), ia);
  scan.batch = -1;
  scan.limit = -2;
  EXPECT_EQ(fx.ws().scan("t", scan).status().code(), ia);
  scan.limit = -1;
  scan.rowOffsetPerFamily = -1;
  EXPECT_EQ(fx.ws().scan("t", scan).status().code(), ia);
  scan.rowOffsetPerFamily = 0;
  scan.startRow = Bytes(kMaxRowKeySize + 1, 'a');
  EXPECT_EQ(fx.ws().scan("t", scan).status().code(), ia);
  expectConsistent();
}

TEST_F(BadInputTest, BadFamilyOptionsAreRefusedWithTheFamilyNamed) {
  TableOptions table;
  table.name = "u";
  table.families = {familyOf("f").versions(3).minVersions(3)};
  expectCode(fx.ws().createTable(table), Status::Code::kInvalidArgument, "MIN_VERSIONS");
  table.families = {familyOf("f").ttl(0)};
  expectCode(fx.ws().createTable(table), Status::Code::kInvalidArgument, "TTL");
  table.families = {familyOf("f").blockSize(512)};
  expectCode(fx.ws().createTable(table), Status::Code::kInvalidArgument, "BLOCKSIZE");
  table.families = {familyOf("a:b")};
  EXPECT_EQ(fx.ws().createTable(table).code(), Status::Code::kInvalidArgument);
  EXPECT_FALSE(fx.ws().tableExists("u"));
  expectConsistent();
}

}  // namespace
}  // namespace keyscope::test
