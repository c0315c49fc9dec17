// The schema design: any key schema, a value generator per component
// (docs/WORKLOAD.md "Generators"), derived components computed, and errors
// that name the component and the generator.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "keyscope/key_codec.h"
#include "keyscope/key_json.h"
#include "workload/value_generator.h"
#include "workload_test_util.h"

namespace keyscope::test {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

WorkloadOptions schemaRun(const std::string& schema, std::vector<std::pair<std::string, std::string>> generators) {
  WorkloadOptions o = singleClient(KeyDesign::kSchema);
  o.keys.keySchema = schema;
  o.keys.generators = std::move(generators);
  return o;
}

// The first keys decoded, as JSON arrays.
std::vector<std::string> firstTuples(const WorkloadOptions& o, size_t count) {
  Result<KeySchema> schema = KeySchema::parse(o.keys.keySchema);
  EXPECT_TRUE(schema.isOk());
  Result<std::vector<Bytes>> keys = previewKeys(o, count);
  EXPECT_TRUE(keys.isOk()) << keys.status().toString();
  std::vector<std::string> out;
  if (!schema || !keys) return out;
  for (const Bytes& key : *keys) {
    const DecodedKey d = decodeKey(*schema, key);
    EXPECT_TRUE(d.ok()) << toHex(key);
    out.push_back(tupleToJson(*schema, d.values));
  }
  return out;
}

std::string errorOf(const WorkloadOptions& o) { return validateWorkloadOptions(o).message(); }

TEST(SchemaDesign, CountingGeneratorsGiveGoldenKeys) {
  WorkloadOptions o = schemaRun("id:u32 | c:u8 | ts:i64", {{"id", "seq"}, {"c", "client"}, {"ts", "now"}});
  o.clients = 2;
  EXPECT_THAT(firstKeysHex(o, 3), ElementsAre("00000000" "00" "8000018cc251f400", "00000001" "01" "8000018cc251f401",
                                              "00000002" "00" "8000018cc251f402"));
}

TEST(SchemaDesign, StepCountsEachClientsOwnPuts) {
  WorkloadOptions o = schemaRun("row:u64 | c:u16", {{"row", "step"}, {"c", "client"}});
  o.clients = 2;
  EXPECT_THAT(firstTuples(o, 4), ElementsAre("[0,0]", "[0,1]", "[1,0]", "[1,1]"));
}

TEST(SchemaDesign, TextComponentsAreTheirNamePlusTheNumberZeroPadded) {
  EXPECT_THAT(firstTuples(schemaRun("user:utf8", {{"user", "uniform(42, 42)"}}), 1), ElementsAre("[\"user0042\"]"));
  EXPECT_THAT(firstTuples(schemaRun("host:utf8", {{"host", "uniform(99999, 99999)"}}), 1),
              ElementsAre("[\"host99999\"]"));
  EXPECT_THAT(firstTuples(schemaRun("site:domain", {{"site", "uniform(7, 7)"}}), 1),
              ElementsAre("[\"site0007.example.com\"]"));
}

TEST(SchemaDesign, ChoiceTakesWordsNumbersAndQuotedText) {
  WorkloadOptions o = schemaRun("site:domain | path:utf8 | n:i32",
                                {{"site", "choice(www.example.com)"}, {"path", "choice(\"/a, b\")"}, {"n", "choice(-5)"}});
  EXPECT_THAT(firstTuples(o, 1), ElementsAre("[\"www.example.com\",\"/a, b\",-5]"));
}

TEST(SchemaDesign, DerivedComponentsAreComputedFromTheirFields) {
  WorkloadOptions o = schemaRun("salt:salt(4, user) | user:utf8 | ts:revts", {{"user", "zipf(100)"}});
  Result<KeySchema> schema = KeySchema::parse(o.keys.keySchema);
  ASSERT_TRUE(schema.isOk());
  Result<std::vector<Bytes>> keys = previewKeys(o, 50);
  ASSERT_TRUE(keys.isOk()) << keys.status().toString();
  for (const Bytes& key : *keys) {
    const DecodedKey d = decodeKey(*schema, key);
    ASSERT_TRUE(d.ok()) << d.error->toString(*schema);  // a wrong salt would not decode cleanly
    EXPECT_LT(std::get<uint64_t>(d.values[0]), 4u);
  }
}

TEST(SchemaDesign, ComponentsWithoutAGeneratorGetOneByType) {
  WorkloadOptions o = schemaRun("ts:i64 | host:utf8 | n:u8 | on:bool", {});
  Result<KeySchema> schema = KeySchema::parse(o.keys.keySchema);
  Result<std::vector<Bytes>> keys = previewKeys(o, 100);
  ASSERT_TRUE(keys.isOk()) << keys.status().toString();
  for (size_t i = 0; i < keys->size(); ++i) {
    const DecodedKey d = decodeKey(*schema, (*keys)[i]);
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(std::get<int64_t>(d.values[0]), kDefaultStartMillis + static_cast<int64_t>(i));  // ts: now
    EXPECT_THAT(std::get<std::string>(d.values[1]), ::testing::StartsWith("host"));        // one of 10,000 hosts
    EXPECT_EQ(std::get<std::string>(d.values[1]).size(), 8u);
  }
}

TEST(SchemaDesign, ErrorsNameTheComponentAndTheGenerator) {
  EXPECT_EQ(errorOf(schemaRun("a:u8 | b:utf8", {{"x", "seq"}})),
            "generator 'x=seq': the key schema has no component 'x' (it has a, b)");
  EXPECT_EQ(errorOf(schemaRun("salt:salt(4, user) | user:utf8", {{"salt", "seq"}})),
            "generator 'salt=seq': 'salt' is salt(4, user), computed from its fields: it takes no generator");
  EXPECT_THAT(errorOf(schemaRun("a:u8", {{"a", "seq"}, {"a", "client"}})), HasSubstr("has a generator already"));
  EXPECT_THAT(errorOf(schemaRun("a:u8", {{"a", "foo"}})), HasSubstr("unknown generator 'foo'"));
  EXPECT_THAT(errorOf(schemaRun("a:u8", {{"a", "zipf(0)"}})), HasSubstr("N must be 1 to 10,000,000"));
  EXPECT_THAT(errorOf(schemaRun("a:u8", {{"a", "uniform(5, 1)"}})), HasSubstr("LO is above HI"));
  EXPECT_THAT(errorOf(schemaRun("a:u8", {{"a", "uniform(1)"}})), HasSubstr("takes two integers"));
  EXPECT_THAT(errorOf(schemaRun("a:u8", {{"a", "choice(\"x)"}})), HasSubstr("unclosed quote"));
  EXPECT_THAT(errorOf(schemaRun("a:u8", {{"a", "now(3)"}})), HasSubstr("now takes no arguments"));
  EXPECT_THAT(errorOf(schemaRun("a:int64", {})), ::testing::StartsWith("key schema: column 3: unknown type 'int64'"));
  EXPECT_EQ(errorOf(schemaRun("", {})), "the schema design needs a key schema");
}

TEST(SchemaDesign, AGeneratorThatOutgrowsItsComponentIsRefusedBeforeTheRun) {
  WorkloadOptions o = schemaRun("n:u8", {{"n", "seq"}});
  o.operations = 1000;
  EXPECT_THAT(errorOf(o), ::testing::StartsWith("component 'n' (u8) from seq: 999: "));
  o.operations = 256;
  EXPECT_EQ(errorOf(o), "");
  EXPECT_THAT(errorOf(schemaRun("n:u16", {{"n", "uniform(-1, 3)"}})), HasSubstr("component 'n' (u16) from uniform(-1, 3)"));
  EXPECT_EQ(errorOf(schemaRun("b:bytes(3)", {{"b", "choice(abc, ab)"}})),
            "component 'b' (bytes(3)) from choice(abc, ab): 'ab': needs exactly 3 bytes, got 2");
  EXPECT_EQ(errorOf(schemaRun("n:i8", {{"n", "choice(1, 300)"}})),
            "component 'n' (i8) from choice(1, 300): '300': 300 is out of range [-128, 127]");
}

TEST(ValueGenerator, ParsesAndPrintsItsCanonicalForm) {
  for (const char* spec : {"now", "seq", "client", "step", "random", "uniform(-3, 9)", "zipf(1000, 1.5)",
                           "choice(a, \"b c\", 3)"}) {
    Result<workload::ValueGenerator> g = workload::ValueGenerator::parse(spec);
    ASSERT_TRUE(g.isOk()) << spec << ": " << g.status().toString();
    EXPECT_EQ(g->text(), spec);
  }
  EXPECT_EQ(workload::ValueGenerator::parse(" zipf( 10 ) ")->text(), "zipf(10, 1.1)");
}

}  // namespace
}  // namespace keyscope::test
