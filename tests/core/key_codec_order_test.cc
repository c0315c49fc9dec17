// Order properties of the sorted encoding, with fixed seeds:
//  - random pairs: sign(memcmp(enc(a), enc(b))) == sign(compareTuples(a, b)),
//    and both agree with an independent reference order written from the spec;
//  - SQLite's ORDER BY on a BLOB column puts the keys in compareTuples order;
//  - the key of the first k components is a scan prefix of every key that
//    starts with those values, and of no other.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "keyscope/key_codec.h"
#include "test_util.h"

namespace keyscope {
namespace {

using namespace std::string_literals;
using namespace test::values;

constexpr uint64_t kSeed = 0x5eed'4b65'7973'636fULL;  // fixed: failures reproduce
constexpr int kPairs = 3000;

bool sortsBefore(BytesView a, BytesView c) { return test::byteOrder(a, c) < 0; }
bool startsWith(BytesView key, BytesView prefix) { return key.substr(0, prefix.size()) == prefix; }

// Every random pair of complete tuples sorts by bytes as by value.
void expectOrderPreserved(const std::string& schemaText, uint64_t seed, int pairs = kPairs) {
  const KeySchema schema = test::schemaOf(schemaText);
  std::mt19937_64 rng(seed);
  int failures = 0;
  for (int n = 0; n < pairs && failures < 5; ++n) {
    const KeyTuple a = test::completed(schema, test::randomTuple(schema, rng));
    const KeyTuple c = test::completed(schema, test::randomTuple(schema, rng));
    const int expected = test::referenceCompare(schema, a, c);
    const int byValue = test::sign(compareTuples(schema, a, c));
    const int byBytes = test::byteOrder(test::encodeOk(schema, a), test::encodeOk(schema, c));
    if (byValue != expected || byBytes != expected) {
      ++failures;
      ADD_FAILURE() << schemaText << ": a=" << test::describe(a) << " b=" << test::describe(c)
                    << "\n  spec order " << expected << ", compareTuples " << byValue
                    << ", memcmp " << byBytes << " (" << toHex(test::encodeOk(schema, a)) << " vs "
                    << toHex(test::encodeOk(schema, c)) << ")";
    }
  }
}

// --- every type x order ----------------------------------------------------

class EveryTypeAndOrder : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryTypeAndOrder, RandomPairsSortByBytesAsByValue) {
  expectOrderPreserved("x:" + GetParam(), kSeed);
}

std::vector<std::string> everyTypeAndOrder() {
  std::vector<std::string> out;
  for (const char* type : {"i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f32", "f64", "bool",
                           "utf8", "bytes", "bytes(1)", "bytes(3)", "revts", "domain", "quadkey"}) {
    out.push_back(std::string(type) + " asc");
    out.push_back(std::string(type) + " desc");
  }
  // Layouts whose HBase form keeps the order (docs/KEY-SCHEMAS.md, HBase table).
  for (const char* type : {"u8", "u16", "u32", "u64", "bool", "bytes(3)", "revts", "quadkey", "utf8", "bytes"}) {
    out.push_back(std::string(type) + " hbase");
  }
  return out;
}

std::string paramName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name;
  for (char c : info.param) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(KeyCodec, EveryTypeAndOrder, ::testing::ValuesIn(everyTypeAndOrder()), paramName);

// --- multi-component schemas -------------------------------------------------

const std::vector<std::string>& multiComponentSchemas() {
  static const std::vector<std::string> schemas = {
      "a:utf8 | b:i32",
      "a:bytes | b:bytes | c:utf8",
      "a:bytes desc | b:f64 | c:utf8",
      "a:utf8 desc | b:bytes desc | c:i8 desc",
      "a:f32 | b:f64 desc | c:bytes",
      "s:salt(16, a) | a:i64 | b:bytes",
      "s:salt(4) | a:utf8 | b:i16 desc",
      "h:md5(4, a) | a:utf8 | b:f32 desc",
      "a:bool | b:u16 desc | c:domain | d:quadkey",
      "a:revts | b:bytes(2) | c:utf8 hbase",
      "a:u32 hbase | b:bool hbase | c:revts hbase | d:bytes",
      "metric:u32 | hour:u32 | tags:bytes",
      "site:domain | path:utf8",
      "tile:quadkey | ts:i64 desc",
  };
  return schemas;
}

class MultiComponent : public ::testing::TestWithParam<std::string> {};

TEST_P(MultiComponent, RandomPairsSortByBytesAsByValue) { expectOrderPreserved(GetParam(), kSeed + 1); }

// SQLite compares BLOBs with memcmp, then by length: the keys stored in a real
// table come back from ORDER BY in compareTuples order.
TEST_P(MultiComponent, SqliteOrderByMatchesValueOrder) {
  const KeySchema schema = test::schemaOf(GetParam());
  std::mt19937_64 rng(kSeed + 2);
  std::vector<KeyTuple> tuples;
  for (int n = 0; n < 500; ++n) tuples.push_back(test::completed(schema, test::randomTuple(schema, rng)));

  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(":memory:", &raw), SQLITE_OK);
  std::unique_ptr<sqlite3, decltype(&sqlite3_close)> db(raw, &sqlite3_close);
  ASSERT_EQ(sqlite3_exec(db.get(), "CREATE TABLE keys (k BLOB NOT NULL)", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_stmt* insert = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db.get(), "INSERT INTO keys (k) VALUES (?)", -1, &insert, nullptr), SQLITE_OK);
  for (const KeyTuple& t : tuples) {
    const Bytes key = test::encodeOk(schema, t);
    sqlite3_bind_blob(insert, 1, key.data(), static_cast<int>(key.size()), SQLITE_TRANSIENT);
    ASSERT_EQ(sqlite3_step(insert), SQLITE_DONE);
    sqlite3_reset(insert);
  }
  sqlite3_finalize(insert);

  std::vector<Bytes> fromSqlite;
  sqlite3_stmt* select = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db.get(), "SELECT k FROM keys ORDER BY k", -1, &select, nullptr), SQLITE_OK);
  while (sqlite3_step(select) == SQLITE_ROW) {
    const auto* data = static_cast<const char*>(sqlite3_column_blob(select, 0));
    fromSqlite.emplace_back(data ? data : "", static_cast<size_t>(sqlite3_column_bytes(select, 0)));
  }
  sqlite3_finalize(select);

  std::stable_sort(tuples.begin(), tuples.end(),
                   [&](const KeyTuple& x, const KeyTuple& y) { return compareTuples(schema, x, y) < 0; });
  std::vector<Bytes> byValue;
  for (const KeyTuple& t : tuples) byValue.push_back(test::encodeOk(schema, t));

  ASSERT_EQ(fromSqlite.size(), byValue.size());
  for (size_t n = 0; n < byValue.size(); ++n) {
    ASSERT_EQ(toHex(fromSqlite[n]), toHex(byValue[n]))
        << "row " << n << " of ORDER BY k differs from value order; tuple " << test::describe(tuples[n]);
  }
}

// The key of the first k values is a prefix of every key that starts with
// those values; a key whose first k values sort before (after) them sorts
// before (after) the whole prefix range.
TEST_P(MultiComponent, LeadingComponentsFormAScanPrefix) {
  const KeySchema schema = test::schemaOf(GetParam());
  std::mt19937_64 rng(kSeed + 3);
  int failures = 0;
  for (int n = 0; n < 1000 && failures < 5; ++n) {
    const KeyTuple a = test::completed(schema, test::randomTuple(schema, rng));
    const KeyTuple c = test::completed(schema, test::randomTuple(schema, rng));
    const Bytes fullA = test::encodeOk(schema, a);
    const Bytes fullC = test::encodeOk(schema, c);
    for (size_t k = 0; k <= schema.size(); ++k) {
      // The last component of a `hbase` variable string is not prefix-free.
      const bool prefixFree = k == 0 || schema[k - 1].encoding == Encoding::kSorted ||
                              schema[k - 1].fixedSize().has_value();
      if (!prefixFree) continue;
      // A derived component needs its sources in the prefix to be checked;
      // prefixes that cut them off are covered by SaltBucketAloneIsAScanPrefix.
      bool sourcesInPrefix = true;
      for (size_t d = 0; d < k; ++d) {
        for (size_t src : schema[d].sources) sourcesInPrefix = sourcesInPrefix && src < k;
      }
      if (!sourcesInPrefix) continue;
      const KeyTuple lead(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(k));
      const Bytes prefix = test::encodeOk(schema, lead);
      const int order = test::referenceCompare(schema, c, a, k);
      const bool ok = startsWith(fullA, prefix) &&
                      (order == 0 ? startsWith(fullC, prefix)
                                  : !startsWith(fullC, prefix) && (order < 0) == sortsBefore(fullC, prefix));
      if (!ok) {
        ++failures;
        ADD_FAILURE() << GetParam() << ", k=" << k << ": prefix " << toHex(prefix) << " of "
                      << test::describe(a) << " (" << toHex(fullA) << "); other " << test::describe(c)
                      << " (" << toHex(fullC) << ") has leading order " << order;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(KeyCodec, MultiComponent, ::testing::ValuesIn(multiComponentSchemas()),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                           return "schema" + std::to_string(p.index);
                         });

// --- hand-picked orders that the random pairs might miss ---------------------

// One-line checks so the tests below read as sentences.
bool sortsBeforeByBytes(const std::string& schemaText, const KeyTuple& a, const KeyTuple& c) {
  const KeySchema schema = test::schemaOf(schemaText);
  return sortsBefore(test::encodeOk(schema, a), test::encodeOk(schema, c));
}

TEST(KeyCodec, EmbeddedZeroSortsBeforeLongerKey) {
  EXPECT_TRUE(sortsBeforeByBytes("x:utf8", {s("a")}, {s("a\0"s)}));
  EXPECT_TRUE(sortsBeforeByBytes("x:utf8", {s("a\0"s)}, {s("a\x01")}));
  EXPECT_TRUE(sortsBeforeByBytes("x:utf8", {s("a\0"s)}, {s("ab")}));
  EXPECT_TRUE(sortsBeforeByBytes("x:bytes", {s("a\0"s)}, {s("a\0\0"s)}));
}

TEST(KeyCodec, StringPrefixSortsBeforeItsExtensionsWhateverFollows) {
  // "a" then a large i32 must still sort before "a\0" then a small one.
  EXPECT_TRUE(sortsBeforeByBytes("x:bytes | y:i32", {s("a"), i(2147483647)}, {s("a\0"s), i(-2147483648)}));
  EXPECT_TRUE(sortsBeforeByBytes("x:bytes | y:u8", {s(""), u(255)}, {s("\0"s), u(0)}));
}

TEST(KeyCodec, DescendingStringPutsExtensionsFirst) {
  EXPECT_TRUE(sortsBeforeByBytes("x:utf8 desc", {s("ab")}, {s("a")}));
  EXPECT_TRUE(sortsBeforeByBytes("x:utf8 desc", {s("a\0"s)}, {s("a")}));
  EXPECT_TRUE(sortsBeforeByBytes("x:bytes desc | y:u8", {s("a\xff")}, {s("a"), u(0)}));
}

TEST(KeyCodec, FloatsFollowTotalOrderWithNaNLast) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> ascending = {-inf, -1e300, -1.0, -5e-324, -0.0, 0.0, 5e-324, 1.0, 1e300, inf, nan};
  for (const char* type : {"x:f64", "x:f32"}) {
    for (size_t k = 0; k + 1 < ascending.size(); ++k) {
      double lo = ascending[k], hi = ascending[k + 1];
      if (std::string(type) == "x:f32") {
        if (std::abs(lo) == 5e-324 || std::abs(hi) == 5e-324 || std::abs(lo) == 1e300 || std::abs(hi) == 1e300)
          continue;  // not floats
      }
      EXPECT_TRUE(sortsBeforeByBytes(type, {f(lo)}, {f(hi)})) << type << " " << lo << " < " << hi;
    }
  }
}

TEST(KeyCodec, NegativeZeroSortsJustBeforePositiveZero) {
  EXPECT_TRUE(sortsBeforeByBytes("x:f64", {f(-0.0)}, {f(0.0)}));
  EXPECT_LT(compareTuples(test::schemaOf("x:f64"), {f(-0.0)}, {f(0.0)}), 0);
  EXPECT_GT(compareTuples(test::schemaOf("x:f64 desc"), {f(-0.0)}, {f(0.0)}), 0);
}

TEST(KeyCodec, AllNaNsCompareEqual) {
  const KeySchema schema = test::schemaOf("x:f64");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(compareTuples(schema, {f(nan)}, {f(-nan)}), 0);
  EXPECT_EQ(test::encodeHex(schema, {f(nan)}), test::encodeHex(schema, {f(-nan)}));
}

TEST(KeyCodec, ReverseTimestampPutsNewestFirst) {
  EXPECT_TRUE(sortsBeforeByBytes("x:revts", {i(1700000000001)}, {i(1700000000000)}));
  EXPECT_TRUE(sortsBeforeByBytes("x:revts hbase", {i(1700000000001)}, {i(1700000000000)}));
  EXPECT_GT(compareTuples(test::schemaOf("x:revts"), {i(1)}, {i(2)}), 0);
}

TEST(KeyCodec, QuadkeyTileSortsRightBeforeItsSubTiles) {
  // (1,0,0) then its children (2,0..1,0..1), then its sibling (1,1,0).
  EXPECT_TRUE(sortsBeforeByBytes("x:quadkey", {test::tile(1, 0, 0)}, {test::tile(2, 0, 0)}));
  EXPECT_TRUE(sortsBeforeByBytes("x:quadkey", {test::tile(2, 1, 1)}, {test::tile(1, 1, 0)}));
  EXPECT_TRUE(sortsBeforeByBytes("x:quadkey", {test::tile(0, 0, 0)}, {test::tile(29, 0, 0)}));
}

TEST(KeyCodec, DomainsOfOneSiteAreAdjacent) {
  // org.apache.hbase and org.apache.www sort together, away from com.*.
  EXPECT_TRUE(sortsBeforeByBytes("x:domain", {s("www.example.com")}, {s("hbase.apache.org")}));
  EXPECT_TRUE(sortsBeforeByBytes("x:domain", {s("hbase.apache.org")}, {s("www.apache.org")}));
}

TEST(KeyCodec, SaltBucketAloneIsAScanPrefix) {
  const KeySchema schema = test::schemaOf("s:salt(16, ts) | ts:i64");
  EXPECT_EQ(test::encodeHex(schema, {u(9)}), "09");
  EXPECT_EQ(test::encodeHex(schema, {}), "");
}

}  // namespace
}  // namespace keyscope
