// Round trips over edge values: decodeKey(encodeKey(t)) gives back exactly the
// completed tuple (floats bit for bit, -0.0 included), with spans that tile
// the key; plus the transforms exposed for display.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "keyscope/key_codec.h"
#include "test_util.h"

namespace keyscope {
namespace {

using namespace std::string_literals;
using namespace test::values;

// decode(encode(t)) == completeTuple(t), no error, spans contiguous over the key.
::testing::AssertionResult roundTrips(const std::string& schemaText, const KeyTuple& tuple) {
  const KeySchema schema = test::schemaOf(schemaText);
  auto key = encodeKey(schema, tuple);
  if (!key) return ::testing::AssertionFailure() << "encode failed: " << key.status().toString();
  const DecodedKey decoded = decodeKey(schema, *key);
  if (!decoded.ok()) {
    return ::testing::AssertionFailure() << "decode of " << toHex(*key)
                                         << " failed: " << decoded.error->toString(schema);
  }
  auto sameTuple = test::sameTuple(test::completed(schema, tuple), decoded.values);
  if (!sameTuple) return sameTuple << " (key " << toHex(*key) << ")";
  size_t at = 0;
  if (decoded.spans.size() != schema.size()) {
    return ::testing::AssertionFailure() << decoded.spans.size() << " spans for " << schema.size() << " components";
  }
  for (const auto& [begin, end] : decoded.spans) {
    if (begin != at || end < begin) return ::testing::AssertionFailure() << "span [" << begin << "," << end << ") after " << at;
    at = end;
  }
  if (at != key->size()) return ::testing::AssertionFailure() << "spans end at " << at << " of " << key->size();
  return ::testing::AssertionSuccess();
}

template <typename T>
using lim = std::numeric_limits<T>;

const char* const kOrders[] = {"", " desc", " hbase"};

TEST(KeyCodecRoundTrip, IntegersAtEveryWidthEdgeSurvive) {
  for (const char* order : kOrders) {
    for (int64_t v : {int64_t{0}, int64_t{1}, int64_t{-1}, int64_t{lim<int8_t>::min()}, int64_t{lim<int8_t>::max()}}) {
      EXPECT_TRUE(roundTrips(std::string("x:i8") + order, {i(v)})) << v << order;
    }
    for (int64_t v : {int64_t{0}, int64_t{1}, int64_t{-1}, int64_t{lim<int16_t>::min()}, int64_t{lim<int16_t>::max()}}) {
      EXPECT_TRUE(roundTrips(std::string("x:i16") + order, {i(v)})) << v << order;
    }
    for (int64_t v : {int64_t{0}, int64_t{1}, int64_t{-1}, int64_t{lim<int32_t>::min()}, int64_t{lim<int32_t>::max()}}) {
      EXPECT_TRUE(roundTrips(std::string("x:i32") + order, {i(v)})) << v << order;
    }
    for (int64_t v : {int64_t{0}, int64_t{1}, int64_t{-1}, lim<int64_t>::min(), lim<int64_t>::max()}) {
      EXPECT_TRUE(roundTrips(std::string("x:i64") + order, {i(v)})) << v << order;
    }
    for (uint64_t v : {uint64_t{0}, uint64_t{1}, uint64_t{255}}) EXPECT_TRUE(roundTrips(std::string("x:u8") + order, {u(v)}));
    for (uint64_t v : {uint64_t{0}, uint64_t{1}, uint64_t{65535}}) EXPECT_TRUE(roundTrips(std::string("x:u16") + order, {u(v)}));
    for (uint64_t v : {uint64_t{0}, uint64_t{1}, uint64_t{lim<uint32_t>::max()}}) EXPECT_TRUE(roundTrips(std::string("x:u32") + order, {u(v)}));
    for (uint64_t v : {uint64_t{0}, uint64_t{1}, lim<uint64_t>::max()}) EXPECT_TRUE(roundTrips(std::string("x:u64") + order, {u(v)}));
  }
}

TEST(KeyCodecRoundTrip, FloatEdgesSurviveBitForBit) {
  const double inf = lim<double>::infinity();
  for (const char* order : kOrders) {
    for (double v : {0.0, -0.0, 1.0, -1.0, inf, -inf, lim<double>::quiet_NaN(), lim<double>::max(),
                     lim<double>::lowest(), lim<double>::min(), lim<double>::denorm_min(), -lim<double>::denorm_min()}) {
      EXPECT_TRUE(roundTrips(std::string("x:f64") + order, {f(v)})) << v << order;
    }
    for (float v : {0.0f, -0.0f, 1.0f, -1.0f, lim<float>::infinity(), -lim<float>::infinity(), lim<float>::quiet_NaN(),
                    lim<float>::max(), lim<float>::lowest(), lim<float>::denorm_min(), -lim<float>::denorm_min()}) {
      EXPECT_TRUE(roundTrips(std::string("x:f32") + order, {f(double(v))})) << v << order;
    }
  }
}

TEST(KeyCodecRoundTrip, NegativeZeroKeepsItsSignBit) {
  const KeySchema schema = test::schemaOf("x:f64 | y:f32 desc");
  const DecodedKey decoded = decodeKey(schema, test::encodeOk(schema, {f(-0.0), f(-0.0)}));
  ASSERT_TRUE(decoded.ok());
  ASSERT_EQ(decoded.values.size(), 2u);
  EXPECT_TRUE(std::signbit(std::get<double>(decoded.values[0])));
  EXPECT_TRUE(std::signbit(std::get<double>(decoded.values[1])));
}

TEST(KeyCodecRoundTrip, BoolsSurvive) {
  for (const char* order : kOrders) {
    EXPECT_TRUE(roundTrips(std::string("x:bool") + order, {b(false)}));
    EXPECT_TRUE(roundTrips(std::string("x:bool") + order, {b(true)}));
  }
}

TEST(KeyCodecRoundTrip, StringEdgesSurvive) {
  const std::string longText(10000, 'z');
  std::string allBytes;
  for (int c = 0; c < 256; ++c) allBytes += static_cast<char>(c);
  for (const char* order : {"", " desc"}) {
    for (const std::string& v : {""s, "\0"s, "\0\0"s, "a\0"s, "\0a"s, "\x01"s, longText, "\xc3\xa9t\xc3\xa9"s}) {
      EXPECT_TRUE(roundTrips(std::string("x:utf8") + order + " | y:u8", {s(v), u(1)})) << test::describe(s(v)) << order;
    }
    for (const std::string& v : {""s, "\0"s, "\xff"s, "\xff\0"s, "\0\xff"s, "\x00\x01"s, longText, allBytes}) {
      EXPECT_TRUE(roundTrips(std::string("x:bytes") + order + " | y:u8", {s(v), u(1)})) << test::describe(s(v)) << order;
    }
  }
  for (const std::string& v : {""s, "\0"s, "\xff"s, allBytes}) {
    EXPECT_TRUE(roundTrips("y:u8 | x:bytes hbase", {u(1), s(v)})) << test::describe(s(v));
  }
  EXPECT_TRUE(roundTrips("y:u8 | x:utf8 hbase", {u(1), s("")}));
  EXPECT_TRUE(roundTrips("y:u8 | x:utf8 hbase", {u(1), s(longText)}));
}

TEST(KeyCodecRoundTrip, FixedBytesSurvive) {
  for (const char* order : kOrders) {
    EXPECT_TRUE(roundTrips(std::string("x:bytes(1)") + order, {s("\0"s)}));
    EXPECT_TRUE(roundTrips(std::string("x:bytes(4)") + order, {s("\0\xff\0\xff"s)}));
    EXPECT_TRUE(roundTrips(std::string("x:bytes(16)") + order + " | y:utf8", {s(std::string(16, '\xff')), s("a")}));
  }
}

TEST(KeyCodecRoundTrip, DerivedAndTransformedComponentsSurvive) {
  for (const char* order : kOrders) {
    for (int64_t ts : {int64_t{0}, int64_t{1}, int64_t{1700000000000}, lim<int64_t>::max()}) {
      EXPECT_TRUE(roundTrips(std::string("x:revts") + order, {i(ts)})) << ts << order;
    }
    for (const char* host : {"www.example.com/a", "example.com", "localhost", "a.org:8080/x?y", "", "a.b.c.d/e/f"}) {
      // A variable-length hbase string has no terminator: last place only.
      if (std::string(order) == " hbase") {
        EXPECT_TRUE(roundTrips(std::string("y:u8 | x:domain") + order, {u(1), s(host)})) << host << order;
      } else {
        EXPECT_TRUE(roundTrips(std::string("x:domain") + order + " | y:u8", {s(host), u(1)})) << host << order;
      }
    }
    for (Tile t : {Tile{0, 0, 0}, Tile{1, 1, 0}, Tile{29, (1u << 29) - 1, (1u << 29) - 1}, Tile{29, 0, 0}, Tile{15, 1234, 4321}}) {
      EXPECT_TRUE(roundTrips(std::string("x:quadkey") + order, {ComponentValue(t)})) << t.zoom << order;
    }
  }
  EXPECT_TRUE(roundTrips("s:salt(16, ts) | ts:i64", {test::absent(), i(1700000000000)}));
  EXPECT_TRUE(roundTrips("s:salt(256) | a:utf8 | b:f64", {test::absent(), s(""), f(-0.0)}));
  EXPECT_TRUE(roundTrips("s:salt(16, ts) desc | ts:i64", {test::absent(), i(-1)}));
  EXPECT_TRUE(roundTrips("h:md5(8, user) | user:utf8 | ts:revts", {test::absent(), s("alice"), i(0)}));
  EXPECT_TRUE(roundTrips("h:md5(16, user) | user:utf8", {test::absent(), s("")}));
}

TEST(KeyCodecRoundTrip, RandomTuplesOfEveryTypeSurvive) {
  std::mt19937_64 rng(20240601);
  for (const char* text : {"a:i8 | b:i16 desc | c:i32 | d:i64 desc | e:u8 | f:u16 desc | g:u32 | h:u64 desc",
                           "a:f32 | b:f64 desc | c:bool | d:bool desc | e:revts | f:quadkey desc",
                           "a:utf8 | b:bytes desc | c:bytes(3) | d:domain desc | e:utf8 desc",
                           "a:i64 hbase | b:f64 hbase | c:f32 hbase | d:revts hbase | e:bool hbase | f:bytes hbase",
                           "s:salt(7) | h:md5(3, a) | a:utf8 | b:bytes"}) {
    const KeySchema schema = test::schemaOf(text);
    for (int n = 0; n < 500; ++n) {
      const KeyTuple t = test::randomTuple(schema, rng);
      ASSERT_TRUE(roundTrips(text, t)) << text << " " << test::describe(t);
    }
  }
}

TEST(KeyCodecRoundTrip, CompleteTupleFillsDerivedComponents) {
  const KeySchema schema = test::schemaOf("s:salt(16, ts) | ts:i64");
  EXPECT_TRUE(test::sameTuple({u(9), i(1700000000000)}, test::completed(schema, {test::absent(), i(1700000000000)})));
}

TEST(KeyCodecRoundTrip, EncodeRejectsValuesOutOfRangeOrOfTheWrongType) {
  // Each error should name the component; the reason is free text.
  const auto rejects = [](const std::string& text, const KeyTuple& t) {
    return !encodeKey(test::schemaOf(text), t).isOk();
  };
  EXPECT_TRUE(rejects("x:i8", {i(128)}));
  EXPECT_TRUE(rejects("x:i8", {i(-129)}));
  EXPECT_TRUE(rejects("x:i16", {i(40000)}));
  EXPECT_TRUE(rejects("x:i32", {i(int64_t{1} << 31)}));
  EXPECT_TRUE(rejects("x:u8", {u(256)}));
  EXPECT_TRUE(rejects("x:u32", {u(uint64_t{1} << 32)}));
  EXPECT_TRUE(rejects("x:i64", {s("12")}));
  EXPECT_TRUE(rejects("x:utf8", {i(1)}));
  EXPECT_TRUE(rejects("x:utf8", {s("\xff")}));          // not UTF-8
  EXPECT_TRUE(rejects("x:bytes(3)", {s("ab")}));        // wrong width
  EXPECT_TRUE(rejects("x:revts", {i(-1)}));             // ts >= 0
  EXPECT_TRUE(rejects("x:quadkey", {tile(30, 0, 0)}));  // zoom <= 29
  EXPECT_TRUE(rejects("x:quadkey", {tile(1, 2, 0)}));   // x < 2^zoom
  EXPECT_TRUE(rejects("s:salt(16, ts) | ts:i64", {u(3), i(1700000000000)}));  // salt is 9
  EXPECT_TRUE(rejects("s:salt(16, ts) | ts:i64", {u(16), i(1700000000000)}));
  EXPECT_TRUE(rejects("x:i64", {i(1), i(2)}));  // more values than components
  EXPECT_TRUE(rejects("x:i64 | y:i64", {test::absent(), i(2)}));  // only derived may be absent
}

TEST(KeyCodecRoundTrip, EncodeErrorNamesTheComponent) {
  auto key = encodeKey(test::schemaOf("user:utf8 | ts:i8"), {s("a"), i(1000)});
  ASSERT_FALSE(key.isOk());
  EXPECT_NE(key.status().message().find("ts"), std::string::npos) << key.status().message();
}

TEST(KeyCodecTransforms, ReverseDomainReversesHostLabelsOnly) {
  EXPECT_EQ(reverseDomain("www.example.com/a"), "com.example.www/a");
  EXPECT_EQ(reverseDomain("hbase.apache.org"), "org.apache.hbase");
  EXPECT_EQ(reverseDomain("a.b:8080/c.d"), "b.a:8080/c.d");
  EXPECT_EQ(reverseDomain("localhost"), "localhost");
  EXPECT_EQ(reverseDomain(""), "");
}

TEST(KeyCodecTransforms, ReverseDomainIsAnInvolution) {
  for (const char* host : {"www.example.com/a", "a.b:8080/c.d", "x", "a.b.c", "a..b", ".a", "a./b"}) {
    EXPECT_EQ(reverseDomain(reverseDomain(host)), host);
  }
}

TEST(KeyCodecTransforms, QuadkeyPacksAndUnpacks) {
  EXPECT_EQ(packQuadkey(Tile{1, 1, 0}), 0x4000000000000001u);
  EXPECT_EQ(packQuadkey(Tile{2, 3, 1}), 0x7000000000000002u);
  EXPECT_EQ(quadkeyDigits(Tile{2, 3, 1}), "13");
  EXPECT_EQ(quadkeyDigits(Tile{0, 0, 0}), "");
  EXPECT_EQ(quadkeyDigits(Tile{3, 3, 5}), "213");  // Bing: tile (3,5) at level 3 is "213"
  EXPECT_EQ(unpackQuadkey(0x4000000000000001u), (Tile{1, 1, 0}));
  std::mt19937_64 rng(7);
  for (int n = 0; n < 1000; ++n) {
    const auto zoom = static_cast<uint32_t>(rng() % 30);
    const Tile t{zoom, static_cast<uint32_t>(rng() % (uint64_t{1} << zoom)), static_cast<uint32_t>(rng() % (uint64_t{1} << zoom))};
    EXPECT_EQ(unpackQuadkey(packQuadkey(t)), t);
  }
}

TEST(KeyCodecTransforms, UnpackRejectsWordsThatAreNotTiles) {
  EXPECT_FALSE(unpackQuadkey(30).has_value());                   // zoom 30
  EXPECT_FALSE(unpackQuadkey(63).has_value());                   // zoom 63
  EXPECT_FALSE(unpackQuadkey(0x4000000000000000u).has_value());  // digits at zoom 0
  EXPECT_FALSE(unpackQuadkey(0x1000000000000001u).has_value());  // level-2 digit at zoom 1
}

}  // namespace
}  // namespace keyscope
