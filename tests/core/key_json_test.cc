// Key tuples as JSON (key_json.h): parsing every accepted form, printing
// compact JSON, round trips, and errors that name the element.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "keyscope/key_json.h"
#include "test_util.h"

namespace keyscope {
namespace {

using namespace std::string_literals;
using namespace test::values;

// tupleFromJson must succeed and give `expected`.
::testing::AssertionResult readsAs(const std::string& schemaText, const std::string& json, const KeyTuple& expected) {
  auto tuple = tupleFromJson(test::schemaOf(schemaText), json);
  if (!tuple) return ::testing::AssertionFailure() << json << ": " << tuple.status().toString();
  return test::sameTuple(expected, *tuple);
}

// tupleFromJson must fail with a message containing `fragment`.
::testing::AssertionResult rejectedWith(const std::string& schemaText, const std::string& json, const std::string& fragment) {
  auto tuple = tupleFromJson(test::schemaOf(schemaText), json);
  if (tuple) return ::testing::AssertionFailure() << json << " was accepted as " << test::describe(*tuple);
  if (tuple.status().message().find(fragment) == std::string::npos) {
    return ::testing::AssertionFailure() << json << ": message \"" << tuple.status().message() << "\" lacks \"" << fragment << "\"";
  }
  return ::testing::AssertionSuccess();
}

std::string printed(const std::string& schemaText, const KeyTuple& t) { return tupleToJson(test::schemaOf(schemaText), t); }

TEST(KeyJson, ReadsEachTypeFromItsJsonForm) {
  EXPECT_TRUE(readsAs("a:utf8 | b:i64 | c:u8 | d:bool", R"(["alice", -5, 200, true])", {s("alice"), i(-5), u(200), b(true)}));
  EXPECT_TRUE(readsAs("a:f64 | b:f32", R"([1.5, -0.25])", {f(1.5), f(-0.25)}));
  EXPECT_TRUE(readsAs("b:domain", R"(["www.example.com/a"])", {s("www.example.com/a")}));
  EXPECT_TRUE(readsAs("a:u64", R"([18446744073709551615])", {u(UINT64_MAX)}));
  EXPECT_TRUE(readsAs("a:i64", R"([-9223372036854775808])", {i(std::numeric_limits<int64_t>::min())}));
}

TEST(KeyJson, ReadsIntegersGivenAsDecimalStrings) {
  EXPECT_TRUE(readsAs("a:i64 | b:u64", R"(["-42", "18446744073709551615"])", {i(-42), u(UINT64_MAX)}));
}

TEST(KeyJson, ReadsBytesAsStringBinaryOrHex) {
  EXPECT_TRUE(readsAs("a:bytes", R"(["a\\x00b"])", {s("a\0b"s)}));
  EXPECT_TRUE(readsAs("a:bytes", R"([{"hex": "6100ff"}])", {s("a\0\xff"s)}));
  EXPECT_TRUE(readsAs("a:bytes(2)", R"(["\\xFF\\x00"])", {s("\xff\0"s)}));
  EXPECT_TRUE(readsAs("h:md5(2) | a:u8", R"([{"hex": "abcd"}, 1])", {s("\xab\xcd"), u(1)}));
}

TEST(KeyJson, ReadsSpecialFloatsAsStrings) {
  auto tuple = tupleFromJson(test::schemaOf("a:f64 | b:f64 | c:f32"), R"(["NaN", "Infinity", "-Infinity"])");
  ASSERT_TRUE(tuple.isOk()) << tuple.status().toString();
  EXPECT_TRUE(std::isnan(std::get<double>((*tuple)[0])));
  EXPECT_EQ(std::get<double>((*tuple)[1]), std::numeric_limits<double>::infinity());
  EXPECT_EQ(std::get<double>((*tuple)[2]), -std::numeric_limits<double>::infinity());
}

TEST(KeyJson, ReadsQuadkeyAsTripleOrDigits) {
  EXPECT_TRUE(readsAs("t:quadkey", R"([[2, 3, 1]])", {tile(2, 3, 1)}));
  EXPECT_TRUE(readsAs("t:quadkey", R"(["13"])", {tile(2, 3, 1)}));
  EXPECT_TRUE(readsAs("t:quadkey", R"(["213"])", {tile(3, 3, 5)}));
  EXPECT_TRUE(readsAs("t:quadkey", R"([""])", {tile(0, 0, 0)}));
}

TEST(KeyJson, DerivedComponentsMayBeNullOrLeftOut) {
  const KeySchema schema = test::schemaOf("s:salt(16, ts) | ts:i64");
  auto withNull = tupleFromJson(schema, "[null, 1700000000000]");
  auto leftOut = tupleFromJson(schema, "[1700000000000]");
  ASSERT_TRUE(withNull.isOk()) << withNull.status().toString();
  ASSERT_TRUE(leftOut.isOk()) << leftOut.status().toString();
  EXPECT_EQ(test::encodeHex(schema, *withNull), "098000018bcfe56800");
  EXPECT_EQ(test::encodeHex(schema, *leftOut), "098000018bcfe56800");
}

TEST(KeyJson, InputOnlyArrayFillsNonDerivedComponentsInOrder) {
  const KeySchema schema = test::schemaOf("salt:salt(16, user) | user:utf8 | h:md5(4, user) | ts:i64 desc");
  auto tuple = tupleFromJson(schema, R"(["alice", 1])");
  ASSERT_TRUE(tuple.isOk()) << tuple.status().toString();
  EXPECT_EQ(test::encodeHex(schema, *tuple), "02" "616c6963650001" "6384e2b2" "7ffffffffffffffe");
}

TEST(KeyJson, ShorterArrayIsAPrefix) {
  EXPECT_TRUE(readsAs("a:utf8 | b:i64", R"(["alice"])", {s("alice")}));
}

TEST(KeyJson, PrintsCompactJson) {
  EXPECT_EQ(printed("user:utf8 | ts:i64", {s("alice"), i(1700000000000)}), R"(["alice",1700000000000])");
  EXPECT_EQ(printed("a:u64 | b:bool | c:revts", {u(UINT64_MAX), b(false), i(0)}), R"([18446744073709551615,false,0])");
  EXPECT_EQ(printed("a:bytes", {s("a\0\xff\\"s)}), R"(["a\\x00\\xFF\\x5C"])");
  EXPECT_EQ(printed("a:utf8", {s("say \"hi\"\n")}), R"(["say \"hi\"\n"])");
  EXPECT_EQ(printed("a:f64 | b:f64 | c:f64 | d:f64", {f(1.5), f(std::numeric_limits<double>::quiet_NaN()),
                                                        f(std::numeric_limits<double>::infinity()),
                                                        f(-std::numeric_limits<double>::infinity())}),
            R"([1.5,"NaN","Infinity","-Infinity"])");
  EXPECT_EQ(printed("t:quadkey", {tile(2, 3, 1)}), "[[2,3,1]]");
}

TEST(KeyJson, PrintsOnlyTheValuesGivenAndIgnoresExtras) {
  EXPECT_EQ(printed("a:i64 | b:i64", {i(1)}), "[1]");
  EXPECT_EQ(printed("a:i64", {i(1), i(2)}), "[1]");
  EXPECT_EQ(printed("a:i64", {}), "[]");
}

TEST(KeyJson, ValueToJsonPrintsOneValue) {
  const KeySchema schema = test::schemaOf("a:utf8 | b:i8");
  EXPECT_EQ(valueToJson(schema[0], s("x")), R"("x")");
  EXPECT_EQ(valueToJson(schema[1], i(-1)), "-1");
}

TEST(KeyJson, PrintedTuplesReadBackExactly) {
  std::mt19937_64 rng(31337);
  for (const char* text : {"a:i8 | b:i64 | c:u64 | d:bool | e:revts", "a:f32 | b:f64 | c:f64 desc",
                           "a:utf8 | b:bytes | c:bytes(3) | d:domain", "t:quadkey | s:salt(8) | h:md5(5, t)"}) {
    const KeySchema schema = test::schemaOf(text);
    for (int n = 0; n < 300; ++n) {
      const KeyTuple t = test::completed(schema, test::randomTuple(schema, rng));
      const std::string json = tupleToJson(schema, t);
      auto back = tupleFromJson(schema, json);
      ASSERT_TRUE(back.isOk()) << text << " " << json << ": " << back.status().toString();
      // Compared by encoding: an f32 may print in its shortest float form.
      ASSERT_EQ(test::encodeHex(schema, *back), test::encodeHex(schema, t)) << text << " " << json;
    }
  }
}

TEST(KeyJson, NegativeZeroKeepsItsSignThroughJson) {
  const KeySchema schema = test::schemaOf("a:f64");
  auto back = tupleFromJson(schema, tupleToJson(schema, {f(-0.0)}));
  ASSERT_TRUE(back.isOk());
  EXPECT_TRUE(std::signbit(std::get<double>((*back)[0])));
}

TEST(KeyJson, ErrorsNameTheElementAndComponent) {
  EXPECT_TRUE(rejectedWith("user:utf8 | ts:i64", R"(["alice", "abc"])", "element 2 ('ts'"));
  EXPECT_TRUE(rejectedWith("user:utf8 | ts:i64", R"([5, 1])", "element 1 ('user'"));
  EXPECT_TRUE(rejectedWith("a:i64", R"([1.5])", "element 1 ('a'"));
  EXPECT_TRUE(rejectedWith("a:bool", R"([1])", "element 1 ('a'"));
  EXPECT_TRUE(rejectedWith("a:bytes", R"([{"hex": "6"}])", "element 1 ('a'"));
  EXPECT_TRUE(rejectedWith("a:f64", R"(["nan"])", "element 1 ('a'"));
  EXPECT_TRUE(rejectedWith("t:quadkey", R"(["14"])", "element 1 ('t'"));
  EXPECT_TRUE(rejectedWith("a:i64 | b:i64", R"([null, 1])", "element 1 ('a'"));  // only derived may be null
  EXPECT_TRUE(rejectedWith("a:utf8 | b:i64", R"(["x", 1, 2])", "3"));            // too many values
}

// A value of the right JSON kind but out of the component's range is refused
// by tupleFromJson (naming the element) or, at the latest, by encodeKey
// (naming the component).
::testing::AssertionResult refusedByJsonOrEncoding(const std::string& schemaText, const std::string& json) {
  const KeySchema schema = test::schemaOf(schemaText);
  const std::string name = "'" + schema[0].name + "'";
  auto tuple = tupleFromJson(schema, json);
  if (!tuple) {
    if (tuple.status().message().find("element 1 (" + name) != std::string::npos) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "tupleFromJson message lacks the element: " << tuple.status().message();
  }
  auto key = encodeKey(schema, *tuple);
  if (key) return ::testing::AssertionFailure() << json << " encoded as " << toHex(*key);
  if (key.status().message().find(name) == std::string::npos) {
    return ::testing::AssertionFailure() << "encodeKey message lacks the component: " << key.status().message();
  }
  return ::testing::AssertionSuccess();
}

TEST(KeyJson, OutOfRangeValuesAreRefusedWithTheirName) {
  EXPECT_TRUE(refusedByJsonOrEncoding("a:i8", R"([300])"));
  EXPECT_TRUE(refusedByJsonOrEncoding("a:u8", R"([-1])"));
  EXPECT_TRUE(refusedByJsonOrEncoding("a:u16", R"([65536])"));
  EXPECT_TRUE(refusedByJsonOrEncoding("a:i64", R"([9223372036854775808])"));
  EXPECT_TRUE(refusedByJsonOrEncoding("a:bytes(2)", R"(["abc"])"));
  EXPECT_TRUE(refusedByJsonOrEncoding("t:quadkey", R"([[1, 2, 0]])"));
  EXPECT_TRUE(refusedByJsonOrEncoding("a:revts", R"([-1])"));
}

// key_codec.h: i8..i64 and revts hold int64_t, u8..u64 and salt uint64_t,
// whatever the sign of the JSON number.
TEST(KeyJson, IntegersUseTheAlternativeOfTheirComponentType) {
  EXPECT_TRUE(readsAs("a:i64 | b:i8 | c:revts", R"([5, 0, 1700000000000])", {i(5), i(0), i(1700000000000)}));
  EXPECT_TRUE(readsAs("a:u64 | b:u8", R"([5, "7"])", {u(5), u(7)}));
  EXPECT_TRUE(readsAs("s:salt(16, a) | a:i64", R"([9, 1700000000000])", {u(9), i(1700000000000)}));
}

TEST(KeyJson, RejectsTextThatIsNotOneArray) {
  const KeySchema schema = test::schemaOf("a:i64");
  EXPECT_FALSE(tupleFromJson(schema, "").isOk());
  EXPECT_FALSE(tupleFromJson(schema, "1").isOk());
  EXPECT_FALSE(tupleFromJson(schema, "[1").isOk());
  EXPECT_FALSE(tupleFromJson(schema, "[1] [2]").isOk());
  EXPECT_FALSE(tupleFromJson(schema, "{\"a\": 1}").isOk());
  EXPECT_FALSE(tupleFromJson(schema, "[1, 2]").isOk());  // more elements than components
}

}  // namespace
}  // namespace keyscope
