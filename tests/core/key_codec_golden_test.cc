// Golden byte vectors for every component type, in both orders and with the
// `hbase` modifier, computed by hand from the layout tables in
// docs/KEY-SCHEMAS.md. These bytes are stored in workspaces: a change here is a
// format change. Float vectors agree with FoundationDB's tuple layer (same
// float transform; shared/reference/encoding-vectors.jsonl); md5/salt vectors
// were computed independently with python3 hashlib:
//   salt = int.from_bytes(md5(h)[:4], 'big') % N,  h = Bytes.toBytes of the fields.
#include <gtest/gtest.h>

#include <bit>
#include <limits>
#include <string>

#include "keyscope/key_codec.h"
#include "test_util.h"

namespace keyscope {
namespace {

using namespace std::string_literals;
using namespace test::values;

struct Golden {
  const char* schema;
  KeyTuple tuple;
  const char* hex;
};

constexpr int64_t kI64Min = std::numeric_limits<int64_t>::min();
constexpr int64_t kI64Max = std::numeric_limits<int64_t>::max();
const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

// Every vector encodes to its bytes, and those bytes decode to the completed tuple.
void expectGolden(const std::vector<Golden>& table, bool checkDecode = true) {
  for (const Golden& g : table) {
    const KeySchema schema = test::schemaOf(g.schema);
    SCOPED_TRACE(std::string(g.schema) + " " + test::describe(g.tuple));
    EXPECT_EQ(test::encodeHex(schema, g.tuple), g.hex);
    if (!checkDecode) continue;
    const DecodedKey decoded = decodeKey(schema, test::unhex(g.hex));
    EXPECT_TRUE(decoded.ok()) << decoded.error->toString(schema);
    EXPECT_TRUE(test::sameTuple(test::completed(schema, g.tuple), decoded.values));
  }
}

TEST(KeyCodecGolden, SignedIntegersFlipTheSignBit) {
  expectGolden({
      // value                         -> hex
      {"x:i8", {i(-128)}, "00"},
      {"x:i8", {i(-1)}, "7f"},
      {"x:i8", {i(0)}, "80"},
      {"x:i8", {i(1)}, "81"},
      {"x:i8", {i(127)}, "ff"},
      {"x:i16", {i(-32768)}, "0000"},
      {"x:i16", {i(-1)}, "7fff"},
      {"x:i16", {i(0)}, "8000"},
      {"x:i16", {i(258)}, "8102"},
      {"x:i16", {i(32767)}, "ffff"},
      {"x:i32", {i(-2147483648)}, "00000000"},
      {"x:i32", {i(-1)}, "7fffffff"},
      {"x:i32", {i(0)}, "80000000"},
      {"x:i32", {i(1)}, "80000001"},
      {"x:i32", {i(2147483647)}, "ffffffff"},
      {"x:i64", {i(kI64Min)}, "0000000000000000"},
      {"x:i64", {i(-1)}, "7fffffffffffffff"},
      {"x:i64", {i(0)}, "8000000000000000"},
      {"x:i64", {i(1700000000000)}, "8000018bcfe56800"},
      {"x:i64", {i(kI64Max)}, "ffffffffffffffff"},
  });
}

TEST(KeyCodecGolden, DescendingSignedIntegersAreTheComplement) {
  expectGolden({
      {"x:i8 desc", {i(-128)}, "ff"},
      {"x:i8 desc", {i(0)}, "7f"},
      {"x:i8 desc", {i(127)}, "00"},
      {"x:i16 desc", {i(-1)}, "8000"},
      {"x:i16 desc", {i(258)}, "7efd"},
      {"x:i32 desc", {i(-1)}, "80000000"},
      {"x:i32 desc", {i(1)}, "7ffffffe"},
      {"x:i64 desc", {i(0)}, "7fffffffffffffff"},
      {"x:i64 desc", {i(kI64Min)}, "ffffffffffffffff"},
      {"x:i64 desc", {i(kI64Max)}, "0000000000000000"},
  });
}

TEST(KeyCodecGolden, HBaseSignedIntegersArePlainTwosComplement) {
  expectGolden({
      {"x:i8 hbase", {i(-1)}, "ff"},
      {"x:i8 hbase", {i(-128)}, "80"},
      {"x:i8 hbase", {i(127)}, "7f"},
      {"x:i16 hbase", {i(-1)}, "ffff"},
      {"x:i16 hbase", {i(258)}, "0102"},
      {"x:i32 hbase", {i(-1)}, "ffffffff"},
      {"x:i32 hbase", {i(1)}, "00000001"},
      {"x:i64 hbase", {i(-5)}, "fffffffffffffffb"},
      {"x:i64 hbase", {i(0)}, "0000000000000000"},
      {"x:i64 hbase", {i(kI64Min)}, "8000000000000000"},
  });
}

TEST(KeyCodecGolden, UnsignedIntegersArePlainBigEndianInEveryEncoding) {
  expectGolden({
      {"x:u8", {u(0)}, "00"},
      {"x:u8", {u(255)}, "ff"},
      {"x:u16", {u(258)}, "0102"},
      {"x:u16", {u(65535)}, "ffff"},
      {"x:u32", {u(0x01020304)}, "01020304"},
      {"x:u64", {u(1)}, "0000000000000001"},
      {"x:u64", {u(UINT64_MAX)}, "ffffffffffffffff"},
      {"x:u8 desc", {u(0)}, "ff"},
      {"x:u16 desc", {u(258)}, "fefd"},
      {"x:u32 desc", {u(0x01020304)}, "fefdfcfb"},
      {"x:u64 desc", {u(1)}, "fffffffffffffffe"},
      {"x:u8 hbase", {u(200)}, "c8"},
      {"x:u16 hbase", {u(258)}, "0102"},
      {"x:u32 hbase", {u(0x01020304)}, "01020304"},
      {"x:u64 hbase", {u(1)}, "0000000000000001"},
  });
}

TEST(KeyCodecGolden, FloatsFlipNegativesAndSetTheSignBitOfPositives) {
  expectGolden({
      {"x:f32", {f(1.0)}, "bf800000"},
      {"x:f32", {f(-1.0)}, "407fffff"},
      {"x:f32", {f(0.0)}, "80000000"},
      {"x:f32", {f(-0.0)}, "7fffffff"},
      {"x:f32", {f(kInf)}, "ff800000"},
      {"x:f32", {f(-kInf)}, "007fffff"},
      {"x:f32", {f(kNaN)}, "ffc00000"},
      {"x:f32", {f(double(3.14f))}, "c048f5c3"},   // FoundationDB: 20 c048f5c3
      {"x:f32", {f(double(-3.14f))}, "3fb70a3c"},  // FoundationDB: 20 3fb70a3c
      {"x:f64", {f(1.0)}, "bff0000000000000"},
      {"x:f64", {f(-1.0)}, "400fffffffffffff"},
      {"x:f64", {f(0.0)}, "8000000000000000"},
      {"x:f64", {f(-0.0)}, "7fffffffffffffff"},
      {"x:f64", {f(2.5)}, "c004000000000000"},
      {"x:f64", {f(kInf)}, "fff0000000000000"},
      {"x:f64", {f(-kInf)}, "000fffffffffffff"},
      {"x:f64", {f(kNaN)}, "fff8000000000000"},
      {"x:f64", {f(3.14)}, "c0091eb851eb851f"},   // FoundationDB: 21 c0091eb851eb851f
      {"x:f64", {f(-3.14)}, "3ff6e147ae147ae0"},  // FoundationDB: 21 3ff6e147ae147ae0
  });
}

TEST(KeyCodecGolden, EveryNaNIsStoredAsTheCanonicalQuietNaN) {
  const double negativeNaN = -kNaN;
  const double payloadNaN = std::bit_cast<double>(uint64_t{0x7ff0000000000001});  // signalling
  expectGolden({
      {"x:f64", {f(negativeNaN)}, "fff8000000000000"},
      {"x:f64", {f(payloadNaN)}, "fff8000000000000"},
      {"x:f32", {f(negativeNaN)}, "ffc00000"},
  });
}

TEST(KeyCodecGolden, DescendingFloatsAreTheComplement) {
  expectGolden({
      {"x:f32 desc", {f(1.0)}, "407fffff"},
      {"x:f32 desc", {f(-0.0)}, "80000000"},
      {"x:f64 desc", {f(1.0)}, "400fffffffffffff"},
      {"x:f64 desc", {f(-0.0)}, "8000000000000000"},
      {"x:f64 desc", {f(kNaN)}, "0007ffffffffffff"},
      {"x:f64 desc", {f(-kInf)}, "fff0000000000000"},
  });
}

TEST(KeyCodecGolden, HBaseFloatsAreRawIeeeBits) {
  expectGolden({
      {"x:f32 hbase", {f(1.0)}, "3f800000"},
      {"x:f32 hbase", {f(-1.0)}, "bf800000"},
      {"x:f32 hbase", {f(-0.0)}, "80000000"},
      {"x:f64 hbase", {f(1.0)}, "3ff0000000000000"},
      {"x:f64 hbase", {f(-2.5)}, "c004000000000000"},
      {"x:f64 hbase", {f(0.0)}, "0000000000000000"},
      {"x:f64 hbase", {f(-kInf)}, "fff0000000000000"},
  });
}

TEST(KeyCodecGolden, BoolIsOneByte) {
  expectGolden({
      {"x:bool", {b(false)}, "00"},
      {"x:bool", {b(true)}, "01"},
      {"x:bool desc", {b(false)}, "ff"},
      {"x:bool desc", {b(true)}, "fe"},
      {"x:bool hbase", {b(false)}, "00"},
      {"x:bool hbase", {b(true)}, "ff"},
  });
}

TEST(KeyCodecGolden, StringsEscapeZeroAndEndWithZeroOne) {
  expectGolden({
      {"x:utf8", {s("")}, "0001"},
      {"x:utf8", {s("ab")}, "61620001"},
      {"x:utf8", {s("a\0"s)}, "6100ff0001"},
      {"x:utf8", {s("\0"s)}, "00ff0001"},
      {"x:utf8", {s("\xc3\xa9")}, "c3a90001"},  // é
      {"x:bytes", {s("")}, "0001"},
      {"x:bytes", {s("\0"s)}, "00ff0001"},
      {"x:bytes", {s("\0\0"s)}, "00ff00ff0001"},
      {"x:bytes", {s("\xff")}, "ff0001"},
      {"x:bytes", {s("\0\x01"s)}, "00ff010001"},
      {"x:bytes", {s("a\0b"s)}, "6100ff620001"},
  });
}

TEST(KeyCodecGolden, DescendingStringsAreTheComplementIncludingTheTerminator) {
  expectGolden({
      {"x:utf8 desc", {s("")}, "fffe"},
      {"x:utf8 desc", {s("ab")}, "9e9dfffe"},
      {"x:utf8 desc", {s("a\0"s)}, "9eff00fffe"},
      {"x:bytes desc", {s("\0"s)}, "ff00fffe"},
      {"x:bytes desc", {s("\xff")}, "00fffe"},
  });
}

TEST(KeyCodecGolden, HBaseStringsAreRawBytesWithoutTerminator) {
  expectGolden({
      {"x:utf8 hbase", {s("ab")}, "6162"},
      {"x:utf8 hbase", {s("")}, ""},
      {"x:bytes hbase", {s("\0\x01"s)}, "0001"},
      {"x:bytes hbase", {s("\xff\0"s)}, "ff00"},
      {"a:i32 | x:utf8 hbase", {i(1), s("a\0"s)}, "800000016100"},
  });
}

TEST(KeyCodecGolden, FixedBytesAreStoredAsIs) {
  expectGolden({
      {"x:bytes(3)", {s("\0\xff\x01"s)}, "00ff01"},
      {"x:bytes(1)", {s("\0"s)}, "00"},
      {"x:bytes(3) desc", {s("\0\xff\x01"s)}, "ff00fe"},
      {"x:bytes(3) hbase", {s("\0\xff\x01"s)}, "00ff01"},
      {"x:bytes(2) | y:u8", {s("ab"), u(7)}, "616207"},
  });
}

TEST(KeyCodecGolden, ReverseTimestampIsTheI64LayoutOfMaxMinusTs) {
  expectGolden({
      {"x:revts", {i(0)}, "ffffffffffffffff"},
      {"x:revts", {i(1)}, "fffffffffffffffe"},
      {"x:revts", {i(1700000000000)}, "fffffe74301a97ff"},
      {"x:revts", {i(kI64Max)}, "8000000000000000"},
      {"x:revts desc", {i(0)}, "0000000000000000"},
      {"x:revts desc", {i(kI64Max)}, "7fffffffffffffff"},
      {"x:revts hbase", {i(0)}, "7fffffffffffffff"},
      {"x:revts hbase", {i(1)}, "7ffffffffffffffe"},
      {"x:revts hbase", {i(1700000000000)}, "7ffffe74301a97ff"},
  });
}

TEST(KeyCodecGolden, DomainStoresReversedHostLabelsAsAString) {
  expectGolden({
      // "com.example.www/a"
      {"x:domain", {s("www.example.com/a")}, "636f6d2e6578616d706c652e7777772f610001"},
      // "com.example"
      {"x:domain", {s("example.com")}, "636f6d2e6578616d706c650001"},
      // "localhost"
      {"x:domain", {s("localhost")}, "6c6f63616c686f73740001"},
      // "org.a:8080/x": the port stays behind the host
      {"x:domain", {s("a.org:8080/x")}, "6f72672e613a383038302f780001"},
      // "b.a" complemented
      {"x:domain desc", {s("a.b")}, "9dd19efffe"},
      // "b.a" raw
      {"x:domain hbase", {s("a.b")}, "622e61"},
  });
}

TEST(KeyCodecGolden, QuadkeyPacksLeftAlignedDigitsAndZoom) {
  expectGolden({
      {"x:quadkey", {tile(0, 0, 0)}, "0000000000000000"},
      {"x:quadkey", {tile(1, 1, 0)}, "4000000000000001"},
      {"x:quadkey", {tile(1, 0, 1)}, "8000000000000001"},
      {"x:quadkey", {tile(1, 1, 1)}, "c000000000000001"},
      {"x:quadkey", {tile(2, 3, 1)}, "7000000000000002"},  // digits "13"
      {"x:quadkey", {tile(29, (1u << 29) - 1, (1u << 29) - 1)}, "ffffffffffffffdd"},
      {"x:quadkey desc", {tile(1, 1, 0)}, "bffffffffffffffe"},
      {"x:quadkey hbase", {tile(1, 1, 0)}, "4000000000000001"},
  });
}

TEST(KeyCodecGolden, SaltIsMd5OfTheNamedFieldsModBuckets) {
  expectGolden({
      // md5(i64 1700000000000 big-endian)[:4] as u32: % 16 = 9, % 256 = 153
      {"s:salt(16, ts) | ts:i64", {test::absent(), i(1700000000000)}, "098000018bcfe56800"},
      {"s:salt(256, ts) | ts:i64", {test::absent(), i(1700000000000)}, "998000018bcfe56800"},
      // md5("alice") = 6384e2b2...: 0x6384e2b2 % 16 = 2
      {"salt:salt(16, user) | user:utf8 | ts:i64 desc", {test::absent(), s("alice"), i(1)},
       "02616c6963650001" "7ffffffffffffffe"},
      // no field named: all non-derived components, h = "x" + i32be(7); % 8 = 6
      {"s:salt(8) | a:utf8 | b:i32", {test::absent(), s("x"), i(7)}, "06780001" "80000007"},
      // h = "bob" + i64be(-5) (Bytes.toBytes, not the sorted layout); % 4 = 3
      {"s:salt(4, user, n) | user:utf8 | n:i64", {test::absent(), s("bob"), i(-5)},
       "03626f620001" "7ffffffffffffffb"},
      // a given salt that matches is accepted
      {"s:salt(16, ts) | ts:i64", {u(9), i(1700000000000)}, "098000018bcfe56800"},
      // salt(1): everything in bucket 0
      {"s:salt(1) | ts:i64", {test::absent(), i(1700000000000)}, "008000018bcfe56800"},
  });
}

TEST(KeyCodecGolden, Md5KeepsTheFirstNDigestBytes) {
  expectGolden({
      // md5("alice") = 6384e2b2184bcbf58eccf10ca7a6563c
      {"h:md5(4, user) | user:utf8", {test::absent(), s("alice")}, "6384e2b2" "616c6963650001"},
      {"h:md5(16, user) | user:utf8", {test::absent(), s("alice")},
       "6384e2b2184bcbf58eccf10ca7a6563c" "616c6963650001"},
  });
  // With no field the component holds a digest the caller computes with
  // md5Prefix (md5 is one-way, so the key keeps the digest and decodes to it).
  // md5("") = d41d8cd98f00b204...
  const auto digestOf = [](const char* schemaText, size_t index, const char* input) {
    return s(md5Prefix(test::schemaOf(schemaText)[index], input));
  };
  expectGolden({
      {"user:md5(8) | ts:revts hbase", {digestOf("user:md5(8) | ts:revts hbase", 0, "alice"), i(0)},
       "6384e2b2184bcbf5" "7fffffffffffffff"},
      {"h:md5", {digestOf("h:md5", 0, "")}, "d41d8cd98f00b204e9800998ecf8427e"},
      {"h:md5(2) desc", {digestOf("h:md5(2) desc", 0, "alice")}, "9c7b"},
  });
}

TEST(KeyCodecGolden, ComponentsConcatenateInSchemaOrder) {
  expectGolden({
      {"user:utf8 | ts:i64 desc", {s("alice"), i(1)}, "616c6963650001" "7ffffffffffffffe"},
      {"metric:u32 | hour:u32 | tags:bytes", {u(7), u(3600), s("\0"s)}, "00000007" "00000e10" "00ff0001"},
      {"a:bool | b:i8 desc | c:f32", {b(true), i(-1), f(-0.0)}, "01" "80" "7fffffff"},
  });
}

}  // namespace
}  // namespace keyscope
