// PutBatch (keyscope/put_batch.h): the cells it holds read back as added,
// and Workspace::mutate(table, PutBatch) writes exactly what the equivalent
// Puts write - the same cells and versions, the server's timestamp where none
// is given, each row in its own region, all of it after a reopen - and
// refuses what they refuse, naming the cell, with nothing applied.
#include "keyscope/put_batch.h"

#include "engine_test_util.h"

namespace keyscope::test {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

std::string render(const PutBatch::Cell& cell) {
  const std::string ts = cell.timestamp == kLatestTimestamp ? "now" : std::to_string(cell.timestamp);
  return std::string(cell.row) + "/" + std::string(cell.family) + ":" + std::string(cell.qualifier) + "@" + ts + "=" +
         std::string(cell.value);
}

std::vector<std::string> renderAll(const PutBatch& batch) {
  std::vector<std::string> out;
  for (size_t i = 0; i < batch.size(); ++i) out.push_back(render(batch[i]));
  return out;
}

TEST(PutBatch, HoldsItsCellsAsAdded) {
  PutBatch batch;
  EXPECT_TRUE(batch.empty());
  batch.add("r1", "f", "a", 5, "v1");
  batch.add("r1", "g", "", kLatestTimestamp, "");  // same row: shares its copy
  batch.add("r2", "f", "b", 0, std::string(300, 'x'));
  batch.add("r1", "f", "c", 7, "v3");  // r1 again after r2
  ASSERT_EQ(batch.size(), 4u);
  EXPECT_THAT(renderAll(batch), ElementsAre("r1/f:a@5=v1", "r1/g:@now=", "r2/f:b@0=" + std::string(300, 'x'),
                                            "r1/f:c@7=v3"));
  batch.clear();
  EXPECT_TRUE(batch.empty());
  batch.add("r3", "f", "q", 1, "after clear");
  EXPECT_THAT(renderAll(batch), ElementsAre("r3/f:q@1=after clear"));
}

// The same cells through Puts into one table and through a PutBatch into
// another read back alike.
class PutBatchWriteTest : public ::testing::Test {
 protected:
  PutBatchWriteTest() {
    for (const char* table : {"puts", "batch"}) fx.createTable(table, {familyOf("f").versions(5), familyOf("g")});
    fx.setClock(1'000);
  }

  struct Spec {
    Bytes row;
    std::string family;
    Bytes qualifier;
    int64_t timestamp;
    Bytes value;
  };

  // One Put per run of consecutive cells with the same row, as PutBatch's
  // contract says.
  void writeBoth(const std::vector<Spec>& cells) {
    std::vector<Mutation> puts;
    PutBatch batch;
    for (const Spec& c : cells) {
      if (puts.empty() || std::get<Put>(puts.back()).row != c.row) puts.emplace_back(Put{c.row, {}});
      std::get<Put>(puts.back()).cells.push_back(PutCell{c.family, c.qualifier, c.timestamp, c.value});
      batch.add(c.row, c.family, c.qualifier, c.timestamp, c.value);
    }
    ASSERT_TRUE(fx.ws().mutate("puts", puts).isOk());
    ASSERT_TRUE(fx.ws().mutate("batch", batch).isOk());
  }

  void expectAlike(const std::vector<std::string>& expected) {
    EXPECT_THAT(describeFull(fx.rawCells("puts")), ::testing::ElementsAreArray(expected));
    EXPECT_THAT(describeFull(fx.rawCells("batch")), ::testing::ElementsAreArray(expected));
  }

  EngineFixture fx;
};

TEST_F(PutBatchWriteTest, WritesWhatItsPutsWrite) {
  writeBoth({{"a", "f", "q1", 10, "a1"},
             {"a", "f", "q1", 20, "a2"},
             {"a", "g", "q", kLatestTimestamp, "server time"},
             {"b", "f", "q1", 5, "b1"},
             {"a", "f", "q2", 30, "a3"},  // row a again, after b
             {"c", "f", "", 1, ""}});
  const std::vector<std::string> expected = {"a/f:q1@20=a2", "a/f:q1@10=a1", "a/f:q2@30=a3", "a/g:q@1000=server time",
                                             "b/f:q1@5=b1",  "c/f:@1=",};
  expectAlike(expected);
  fx.reopen();  // from the log
  expectAlike(expected);
  fx.flush("puts");
  fx.flush("batch");
  expectAlike(expected);
}

// Each cell goes to the region holding its row, also when consecutive cells'
// rows lie in different regions.
TEST(PutBatchRegions, EachRowGoesToItsRegion) {
  EngineFixture fx;
  fx.createTableWithSplits("t", {familyOf("f")}, {"m"});
  PutBatch batch;
  for (const char* row : {"a", "z", "b", "n", "n", "c"}) batch.add(row, "f", "q", 1, std::string("v-") + row);
  ASSERT_TRUE(fx.ws().mutate("t", batch).isOk());
  for (const char* row : {"a", "b", "c", "n", "z"})
    EXPECT_THAT(describe(fx.getColumn("t", row, "f:q")), ElementsAre(std::string("1:v-") + row)) << row;
  fx.reopen();
  for (const char* row : {"a", "b", "c", "n", "z"})
    EXPECT_THAT(describe(fx.getColumn("t", row, "f:q")), ElementsAre(std::string("1:v-") + row)) << row;
}

class PutBatchRefusedTest : public ::testing::Test {
 protected:
  PutBatchRefusedTest() { fx.createTable("t", {familyOf("f")}); }
  // The refused batch left nothing behind, now and after a reopen.
  void expectNothingApplied() {
    EXPECT_THAT(fx.rawCells("t"), IsEmpty());
    fx.reopen();
    EXPECT_THAT(fx.rawCells("t"), IsEmpty());
  }
  EngineFixture fx;
};

TEST_F(PutBatchRefusedTest, AnUnknownFamilyNamesTheCell) {
  PutBatch batch;
  batch.add("a", "f", "q", 1, "v");
  batch.add("a", "f", "q2", 1, "v");
  batch.add("b", "nope", "q", 1, "v");
  const Status s = fx.ws().mutate("t", batch);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument) << s.toString();
  EXPECT_THAT(s.message(), HasSubstr("cell 3: table 't' has no column family 'nope'"));
  expectNothingApplied();
}

TEST_F(PutBatchRefusedTest, ABadRowOrTimestampNamesTheCell) {
  PutBatch emptyRow;
  emptyRow.add("a", "f", "q", 1, "v");
  emptyRow.add("", "f", "q", 1, "v");
  const Status row = fx.ws().mutate("t", emptyRow);
  EXPECT_EQ(row.code(), Status::Code::kInvalidArgument) << row.toString();
  EXPECT_THAT(row.message(), HasSubstr("cell 2: "));
  EXPECT_THAT(row.message(), HasSubstr("row"));

  PutBatch negative;
  negative.add("a", "f", "q", 1, "v");
  negative.add("a", "f", "q", -5, "v");
  const Status ts = fx.ws().mutate("t", negative);
  EXPECT_EQ(ts.code(), Status::Code::kInvalidArgument) << ts.toString();
  EXPECT_THAT(ts.message(), HasSubstr("cell 2: "));
  EXPECT_THAT(ts.message(), HasSubstr("-5"));
  expectNothingApplied();
}

TEST_F(PutBatchRefusedTest, OneCellsErrorIsAPutsError) {
  PutBatch batch;
  batch.add("a", "nope", "q", 1, "v");
  const Status fromBatch = fx.ws().mutate("t", batch);
  const Status fromPut = fx.ws().put("t", Put{"a", {PutCell{"nope", "q", 1, "v"}}});
  EXPECT_EQ(fromBatch.toString(), fromPut.toString());
  expectNothingApplied();
}

TEST_F(PutBatchRefusedTest, AnUnknownTableIsNotFound) {
  PutBatch batch;
  batch.add("a", "f", "q", 1, "v");
  EXPECT_EQ(fx.ws().mutate("missing", batch).code(), Status::Code::kNotFound);
  expectNothingApplied();
}

TEST_F(PutBatchRefusedTest, AnEmptyBatchWritesNothing) {
  EXPECT_TRUE(fx.ws().mutate("t", PutBatch()).isOk());
  EXPECT_TRUE(fx.ws().mutate("missing", PutBatch()).isOk());  // as an empty span of mutations
  expectNothingApplied();
}

}  // namespace
}  // namespace keyscope::test
