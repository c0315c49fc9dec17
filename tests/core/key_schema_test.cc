// Parsing key schemas: the grammar of docs/KEY-SCHEMAS.md, the canonical text,
// and errors that name the column (1-based) and the reason.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "keyscope/key_schema.h"
#include "test_util.h"

namespace keyscope {
namespace {

// The column named by "column N: ..." in a parse error, or 0 when none.
size_t errorColumn(const Status& status) {
  static const std::regex kColumn("column ([0-9]+)");
  std::smatch m;
  if (!std::regex_search(status.message(), m, kColumn)) return 0;
  return std::stoul(m[1].str());
}

// Parsing fails with InvalidArgument and a "column N" in [lo, hi].
::testing::AssertionResult rejectedAtColumn(std::string_view text, size_t lo, size_t hi) {
  auto parsed = KeySchema::parse(text);
  if (parsed) return ::testing::AssertionFailure() << "'" << text << "' parsed as '" << parsed->toString() << "'";
  const Status status = parsed.status();
  if (status.code() != Status::Code::kInvalidArgument) {
    return ::testing::AssertionFailure() << "code " << codeName(status.code()) << ": " << status.message();
  }
  const size_t column = errorColumn(status);
  if (column < lo || column > hi) {
    return ::testing::AssertionFailure() << "'" << text << "': expected column " << lo << ".." << hi
                                         << ", got \"" << status.message() << "\"";
  }
  return ::testing::AssertionSuccess() << status.message();
}
::testing::AssertionResult rejectedAtColumn(std::string_view text, size_t column) {
  return rejectedAtColumn(text, column, column);
}

bool parses(std::string_view text) { return KeySchema::parse(text).isOk(); }

TEST(KeySchema, ParsesEveryTypeOfTheGrammar) {
  const KeySchema schema = test::schemaOf(
      "a:utf8 | b:bytes | c:bytes(16) | d:i8 | e:i16 | f:i32 | g:i64 | h:u8 | i:u16 | j:u32 | k:u64 | "
      "l:f32 | m:f64 | n:bool | o:salt(16, a) | p:md5(8, b) | q:revts | r:domain | s:quadkey");
  ASSERT_EQ(schema.size(), 19u);
  const ComponentType expected[] = {
      ComponentType::kUtf8,   ComponentType::kBytes,   ComponentType::kFixedBytes, ComponentType::kInt8,
      ComponentType::kInt16,  ComponentType::kInt32,   ComponentType::kInt64,      ComponentType::kUInt8,
      ComponentType::kUInt16, ComponentType::kUInt32,  ComponentType::kUInt64,     ComponentType::kFloat32,
      ComponentType::kFloat64, ComponentType::kBool,   ComponentType::kSalt,       ComponentType::kMd5,
      ComponentType::kReverseTimestamp, ComponentType::kReverseDomain, ComponentType::kQuadkey};
  for (size_t k = 0; k < schema.size(); ++k) EXPECT_EQ(schema[k].type, expected[k]) << schema[k].name;
  EXPECT_EQ(schema[2].width, 16u);
  EXPECT_EQ(schema[14].buckets, 16u);
  EXPECT_EQ(schema[14].sources, (std::vector<size_t>{0}));
  EXPECT_EQ(schema[15].width, 8u);
  EXPECT_EQ(schema[15].sources, (std::vector<size_t>{1}));
}

TEST(KeySchema, ReadsModifiersAndDefaultsToAscendingSorted) {
  const KeySchema schema = test::schemaOf("a:i64 | b:i64 desc | c:i64 hbase | d:i64 asc");
  EXPECT_EQ(schema[0].order, SortOrder::kAscending);
  EXPECT_EQ(schema[0].encoding, Encoding::kSorted);
  EXPECT_EQ(schema[1].order, SortOrder::kDescending);
  EXPECT_EQ(schema[2].encoding, Encoding::kHBaseBytes);
  EXPECT_EQ(schema[2].order, SortOrder::kAscending);
  EXPECT_EQ(schema[3].order, SortOrder::kAscending);
}

TEST(KeySchema, WhitespaceBetweenTokensIsFree) {
  const KeySchema tight = test::schemaOf("s:salt(16,ts)|ts:i64 desc");
  const KeySchema loose = test::schemaOf("  s : salt ( 16 , ts )  |\tts :i64   desc  ");
  EXPECT_EQ(tight.toString(), loose.toString());
}

TEST(KeySchema, Md5WidthDefaultsToSixteenAndHashesItsOwnValueWithoutFields) {
  const KeySchema schema = test::schemaOf("h:md5 | user:utf8");
  EXPECT_EQ(schema[0].width, 16u);
  EXPECT_TRUE(schema[0].sources.empty());
  EXPECT_FALSE(schema[0].isDerived());
  EXPECT_EQ(schema.inputCount(), 2u);
}

TEST(KeySchema, DerivedComponentsAreNotInputs) {
  const KeySchema schema = test::schemaOf("salt:salt(16, user) | h:md5(4, user) | user:utf8 | ts:i64 desc");
  EXPECT_TRUE(schema[0].isDerived());
  EXPECT_TRUE(schema[1].isDerived());
  EXPECT_FALSE(schema[2].isDerived());
  EXPECT_EQ(schema.inputCount(), 2u);
  EXPECT_EQ(schema.indexOf("user"), 2u);
  EXPECT_EQ(schema.indexOf("nope"), std::nullopt);
}

TEST(KeySchema, SaltWithoutFieldsHashesEveryInputComponent) {
  const KeySchema schema = test::schemaOf("s:salt(8) | a:utf8 | h:md5(2, a) | b:i32");
  EXPECT_EQ(schema[0].buckets, 8u);
  // Either listed explicitly or left empty meaning "all"; the bytes decide (golden tests).
  if (!schema[0].sources.empty()) {
    EXPECT_EQ(schema[0].sources, (std::vector<size_t>{1, 3}));
  }
}

TEST(KeySchema, FixedSizesFollowTheLayoutTable) {
  const KeySchema schema = test::schemaOf(
      "a:i8 | b:i16 | c:i32 | d:i64 | e:f32 | f:f64 | g:bool | h:bytes(5) | i:salt(3) | j:md5(7, a) | "
      "k:revts | l:quadkey | m:u16 | n:utf8 | o:bytes | p:domain");
  const std::optional<size_t> expected[] = {1, 2, 4, 8, 4, 8, 1, 5, 1, 7, 8, 8, 2, std::nullopt, std::nullopt, std::nullopt};
  for (size_t k = 0; k < schema.size(); ++k) EXPECT_EQ(schema[k].fixedSize(), expected[k]) << schema[k].name;
}

TEST(KeySchema, TypeTextIsWhatASchemaWouldSay) {
  const KeySchema schema = test::schemaOf("a:bytes(16) | s:salt(16, a) | u:utf8 | q:quadkey");
  EXPECT_EQ(schema[0].typeText(), "bytes(16)");
  EXPECT_EQ(schema[1].typeText(), "salt(16)");
  EXPECT_EQ(schema.typeText(1), "salt(16, a)");
  EXPECT_EQ(schema[2].typeText(), "utf8");
  EXPECT_EQ(schema[3].typeText(), "quadkey");
  EXPECT_STREQ(componentTypeName(ComponentType::kInt64), "i64");
}

TEST(KeySchema, TextOffsetPointsAtTheComponent) {
  const KeySchema schema = test::schemaOf("a:i64 | bb:utf8");
  EXPECT_EQ(schema[0].textOffset, 0u);
  EXPECT_EQ(schema[1].textOffset, 8u);
}

TEST(KeySchema, CanonicalTextReparsesToTheSameSchema) {
  for (const char* text : {"metric:u32 | hour:u32 | tags:bytes", "cookie:bytes(16) | ts:revts",
                           "user:md5(8) | ts:revts hbase", "salt:salt(16, ts) | ts:i64", "site:domain | path:utf8",
                           "tile:quadkey | ts:i64 desc", "  a :f64 hbase|b:bool desc | c:utf8 hbase",
                           "s:salt(4, a, b) | a:i8 | b:bytes(2) asc | h:md5(3, a)"}) {
    const KeySchema schema = test::schemaOf(text);
    const KeySchema again = test::schemaOf(schema.toString());
    EXPECT_EQ(again.toString(), schema.toString()) << text;
    ASSERT_EQ(again.size(), schema.size());
    for (size_t k = 0; k < schema.size(); ++k) {
      EXPECT_EQ(again[k].name, schema[k].name);
      EXPECT_EQ(again[k].type, schema[k].type);
      EXPECT_EQ(again[k].order, schema[k].order);
      EXPECT_EQ(again[k].encoding, schema[k].encoding);
      EXPECT_EQ(again[k].width, schema[k].width);
      EXPECT_EQ(again[k].buckets, schema[k].buckets);
      EXPECT_EQ(again[k].sources, schema[k].sources);
    }
  }
}

TEST(KeySchema, AcceptsTheLimitsOfEachParameter) {
  EXPECT_TRUE(parses("s:salt(1) | a:i64"));
  EXPECT_TRUE(parses("s:salt(256) | a:i64"));
  EXPECT_TRUE(parses("h:md5(1, a) | a:i64"));
  EXPECT_TRUE(parses("h:md5(16, a) | a:i64"));
  EXPECT_TRUE(parses("a:bytes(1)"));
  EXPECT_TRUE(parses("_a9:i64 | B_:utf8"));
  EXPECT_TRUE(parses("a:i64 | z:utf8 hbase"));  // variable hbase string last
  EXPECT_TRUE(parses("z:bytes(4) hbase | a:i64"));  // fixed hbase bytes anywhere
}

TEST(KeySchema, UnknownTypeNamesTheColumnOfTheType) {
  EXPECT_TRUE(rejectedAtColumn("a:int64", 3));
  EXPECT_TRUE(rejectedAtColumn("user:utf8 | ts:int64", 16));
  auto parsed = KeySchema::parse("user:utf8 | ts:int64");
  ASSERT_FALSE(parsed.isOk());
  EXPECT_NE(parsed.status().message().find("int64"), std::string::npos) << parsed.status().message();
}

TEST(KeySchema, UnknownTypeSuggestsTheIntendedOne) {
  auto parsed = KeySchema::parse("ts:int64");
  ASSERT_FALSE(parsed.isOk());
  EXPECT_NE(parsed.status().message().find("i64"), std::string::npos) << parsed.status().message();
}

TEST(KeySchema, MissingColonIsAnError) {
  EXPECT_TRUE(rejectedAtColumn("a i64", 1, 3));
  EXPECT_TRUE(rejectedAtColumn("a:i64 | b", 9, 10));
}

TEST(KeySchema, DuplicateNamesAreAnError) {
  EXPECT_TRUE(rejectedAtColumn("a:i64 | a:u8", 9));
}

TEST(KeySchema, SaltOrMd5OverAMissingFieldIsAnError) {
  EXPECT_TRUE(rejectedAtColumn("s:salt(4, nope) | a:i64", 3, 14));
  EXPECT_TRUE(rejectedAtColumn("h:md5(4, nope) | a:i64", 3, 13));
}

TEST(KeySchema, SaltOverADerivedOrItselfIsAnError) {
  EXPECT_TRUE(rejectedAtColumn("s:salt(4, s) | a:i64", 3, 12));
  EXPECT_TRUE(rejectedAtColumn("s:salt(4, h) | h:md5(4, a) | a:i64", 3, 12));
}

TEST(KeySchema, ParameterOutOfRangeIsAnError) {
  EXPECT_TRUE(rejectedAtColumn("a:bytes(0)", 3, 9));
  EXPECT_TRUE(rejectedAtColumn("s:salt(0) | a:i64", 3, 8));
  EXPECT_TRUE(rejectedAtColumn("s:salt(257) | a:i64", 3, 10));
  EXPECT_TRUE(rejectedAtColumn("s:salt(300) | a:i64", 3, 10));
  EXPECT_TRUE(rejectedAtColumn("h:md5(0, a) | a:i64", 3, 7));
  EXPECT_TRUE(rejectedAtColumn("h:md5(17, a) | a:i64", 3, 8));
  EXPECT_TRUE(rejectedAtColumn("a:bytes(-1)", 3, 9));
  EXPECT_TRUE(rejectedAtColumn("a:bytes(99999999999999999999)", 3, 28));
}

TEST(KeySchema, DescAndHbaseTogetherAreAnError) {
  EXPECT_TRUE(rejectedAtColumn("a:i64 desc hbase", 7, 12));
  EXPECT_TRUE(rejectedAtColumn("a:i64 hbase desc", 7, 13));
}

TEST(KeySchema, VariableHbaseStringMustBeLast) {
  EXPECT_TRUE(rejectedAtColumn("a:utf8 hbase | b:i64", 1, 13));
  EXPECT_TRUE(rejectedAtColumn("a:bytes hbase | b:i64", 1, 14));
  EXPECT_TRUE(rejectedAtColumn("a:domain hbase | b:i64", 1, 15));
}

TEST(KeySchema, TrailingJunkIsAnError) {
  EXPECT_TRUE(rejectedAtColumn("a:i64 desc x", 12));
  EXPECT_TRUE(rejectedAtColumn("a:i64 |", 7, 8));
  EXPECT_TRUE(rejectedAtColumn("a:bytes(4", 3, 10));
  EXPECT_TRUE(rejectedAtColumn("a:i64)", 6));
}

TEST(KeySchema, BadNamesAndEmptyTextAreErrors) {
  EXPECT_TRUE(rejectedAtColumn("", 1));
  EXPECT_TRUE(rejectedAtColumn("   ", 1, 4));
  EXPECT_TRUE(rejectedAtColumn("9a:i64", 1));
  EXPECT_TRUE(rejectedAtColumn("a-b:i64", 1, 2));
  EXPECT_TRUE(rejectedAtColumn(":i64", 1));
  EXPECT_TRUE(rejectedAtColumn("a:i64 || b:i64", 8, 9));
  EXPECT_TRUE(rejectedAtColumn("a:i64 | b:i64 asc x", 19));
}

TEST(KeySchema, AStoredSchemaIsReadOrIsNone) {
  const std::optional<KeySchema> stored = KeySchema::parseStored("metric:utf8 | ts:i64");
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(stored->size(), 2u);
  EXPECT_EQ((*stored)[1].name, "ts");
  EXPECT_FALSE(KeySchema::parseStored("").has_value());
  EXPECT_FALSE(KeySchema::parseStored("metric:int64").has_value());  // damaged: shown as raw keys
}

}  // namespace
}  // namespace keyscope
