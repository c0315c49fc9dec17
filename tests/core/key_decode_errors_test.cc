// Bytes that do not fit a schema: decodeKey never crashes, never reads past the
// key (run under ASan), decodes what it can, and says where (an offset within
// the key) and in which component it stopped.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "keyscope/key_codec.h"
#include "test_util.h"

namespace keyscope {
namespace {

using namespace std::string_literals;
using namespace test::values;

// A decode failure whose offset lies within the key and whose component is
// the one expected; the values before it are fully decoded.
::testing::AssertionResult failsAt(const KeySchema& schema, BytesView key, size_t component,
                                   std::optional<size_t> offset = std::nullopt) {
  const DecodedKey decoded = decodeKey(schema, key);
  if (decoded.ok()) return ::testing::AssertionFailure() << toHex(key) << " decoded without error";
  const DecodeError& e = *decoded.error;
  if (e.offset > key.size()) return ::testing::AssertionFailure() << "offset " << e.offset << " beyond key size " << key.size();
  if (e.component != component) {
    return ::testing::AssertionFailure() << "stopped in component " << e.component << ", expected " << component
                                         << ": " << e.toString(schema);
  }
  if (offset && e.offset != *offset) {
    return ::testing::AssertionFailure() << "offset " << e.offset << ", expected " << *offset << ": " << e.toString(schema);
  }
  if (e.reason.empty()) return ::testing::AssertionFailure() << "empty reason";
  return ::testing::AssertionSuccess() << e.toString(schema);
}

::testing::AssertionResult failsAt(const std::string& schemaText, const std::string& hex, size_t component,
                                   std::optional<size_t> offset = std::nullopt) {
  return failsAt(test::schemaOf(schemaText), test::unhex(hex), component, offset);
}

// Sensible whatever happens: offset within the key, component within the
// schema, values a prefix of the schema, spans within the key.
::testing::AssertionResult isSane(const KeySchema& schema, BytesView key, const DecodedKey& decoded) {
  if (decoded.values.size() > schema.size()) return ::testing::AssertionFailure() << "more values than components";
  for (const auto& [begin, end] : decoded.spans) {
    if (begin > end || end > key.size()) return ::testing::AssertionFailure() << "span [" << begin << "," << end << ") outside key";
  }
  if (decoded.ok()) return ::testing::AssertionSuccess();
  if (decoded.error->offset > key.size()) return ::testing::AssertionFailure() << "offset beyond key";
  if (decoded.error->component >= schema.size() && !(schema.size() == 0)) {
    // "trailing bytes" may point one past the last component; allow == size.
    if (decoded.error->component > schema.size()) return ::testing::AssertionFailure() << "component beyond schema";
  }
  if (decoded.error->toString(schema).find("offset " + std::to_string(decoded.error->offset)) == std::string::npos) {
    return ::testing::AssertionFailure() << "toString does not name the offset: " << decoded.error->toString(schema);
  }
  return ::testing::AssertionSuccess();
}

const char* const kSchemas[] = {
    "a:i8 | b:i16 | c:i32 | d:i64",
    "a:u64 desc | b:f32 | c:f64 desc | d:bool",
    "a:utf8 | b:bytes desc | c:i32",
    "user:utf8 | ts:revts",
    "s:salt(16, ts) | ts:i64",
    "h:md5(4, user) | user:utf8 | x:bytes(3)",
    "site:domain | tile:quadkey | ts:i64 desc",
    "a:i64 hbase | b:f64 hbase | c:bool hbase | d:utf8",
};

TEST(KeyDecodeErrors, EveryTruncationOfAValidKeyIsReportedWithinTheKey) {
  std::mt19937_64 rng(99);
  for (const char* text : kSchemas) {
    const KeySchema schema = test::schemaOf(text);
    for (int n = 0; n < 20; ++n) {
      const KeyTuple t = test::randomTuple(schema, rng);
      const Bytes key = test::encodeOk(schema, t);
      for (size_t len = 0; len < key.size(); ++len) {
        const DecodedKey decoded = decodeKey(schema, BytesView(key).substr(0, len));
        ASSERT_FALSE(decoded.ok()) << text << ": prefix " << toHex(key.substr(0, len)) << " of " << toHex(key);
        ASSERT_TRUE(isSane(schema, BytesView(key).substr(0, len), decoded)) << text;
        EXPECT_LT(decoded.error->component, schema.size());
      }
    }
  }
}

TEST(KeyDecodeErrors, TruncatedFixedWidthSaysHowManyBytesAreMissing) {
  const KeySchema schema = test::schemaOf("user:utf8 | ts:i64");
  // "alice" 0001 then 3 of the 8 bytes of ts
  const DecodedKey decoded = decodeKey(schema, test::unhex("616c6963650001" "800001"));
  ASSERT_TRUE(failsAt(schema, test::unhex("616c6963650001" "800001"), 1, 7));
  EXPECT_TRUE(test::sameTuple({s("alice")}, decoded.values));
  EXPECT_NE(decoded.error->reason.find('8'), std::string::npos) << decoded.error->reason;
  EXPECT_NE(decoded.error->reason.find('3'), std::string::npos) << decoded.error->reason;
  EXPECT_NE(decoded.error->toString(schema).find("'ts'"), std::string::npos) << decoded.error->toString(schema);
}

TEST(KeyDecodeErrors, StringWithoutTerminatorIsTruncated) {
  EXPECT_TRUE(failsAt("a:utf8", "6162", 0));
  EXPECT_TRUE(failsAt("a:utf8", "616200", 0));
  EXPECT_TRUE(failsAt("a:bytes desc", "9e9dff", 0));
}

TEST(KeyDecodeErrors, TrailingBytesAreReportedAtTheEndOfTheLastComponent) {
  EXPECT_TRUE(failsAt("a:i32", "80000001" "00", 0, 4) || failsAt("a:i32", "80000001" "00", 1, 4));
  const DecodedKey decoded = decodeKey(test::schemaOf("a:i32 | b:utf8"), test::unhex("80000001" "620001" "ff"));
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.error->offset, 7u);
  EXPECT_TRUE(test::sameTuple({i(1), s("b")}, decoded.values));
}

TEST(KeyDecodeErrors, ByteAfterEscapingZeroMustBeFfOrOne) {
  EXPECT_TRUE(failsAt("a:utf8", "610002", 0));
  EXPECT_TRUE(failsAt("a:bytes", "6100fe0001", 0));
  EXPECT_TRUE(failsAt("a:bytes desc", "9eff01fffe", 0));  // complement of 61 00 fe 00 01
  EXPECT_TRUE(failsAt("x:u8 | a:bytes", "07" "0000", 1));
}

TEST(KeyDecodeErrors, BoolByteMustBeZeroOrOne) {
  EXPECT_TRUE(failsAt("a:bool", "02", 0, 0));
  EXPECT_TRUE(failsAt("a:u8 | b:bool", "07ff", 1, 1));
  EXPECT_TRUE(failsAt("a:bool desc", "00", 0, 0));        // complement of ff
  EXPECT_TRUE(failsAt("a:bool hbase", "01", 0, 0));       // hbase: 00 or ff
}

TEST(KeyDecodeErrors, InvalidUtf8IsReportedInItsComponent) {
  EXPECT_TRUE(failsAt("a:utf8", "61c3280001", 0));  // c3 28: bad continuation
  EXPECT_TRUE(failsAt("a:utf8", "ff0001", 0));
  EXPECT_TRUE(failsAt("a:utf8", "c0800001", 0));    // overlong NUL
  EXPECT_TRUE(failsAt("a:utf8", "eda0800001", 0));  // UTF-16 surrogate
  EXPECT_TRUE(failsAt("x:i8 | a:utf8 hbase", "80" "61ff", 1));
  EXPECT_TRUE(failsAt("a:domain", "ff0001", 0));
}

TEST(KeyDecodeErrors, SaltMismatchIsReportedWithEveryComponentDecoded) {
  const KeySchema schema = test::schemaOf("s:salt(16, ts) | ts:i64");
  const Bytes key = test::unhex("03" "8000018bcfe56800");  // the right salt is 09
  const DecodedKey decoded = decodeKey(schema, key);
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.error->component, 0u);
  EXPECT_LE(decoded.error->offset, key.size());
  EXPECT_TRUE(test::sameTuple({u(3), i(1700000000000)}, decoded.values));
}

TEST(KeyDecodeErrors, SaltOutOfBucketRangeIsReported) {
  EXPECT_TRUE(failsAt("s:salt(16, ts) | ts:i64", "10" "8000018bcfe56800", 0));
}

TEST(KeyDecodeErrors, Md5MismatchIsReportedWithEveryComponentDecoded) {
  const KeySchema schema = test::schemaOf("h:md5(4, user) | user:utf8");
  const DecodedKey decoded = decodeKey(schema, test::unhex("00000000" "616c6963650001"));
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.error->component, 0u);
  EXPECT_EQ(decoded.values.size(), 2u);
}

TEST(KeyDecodeErrors, InvalidQuadkeyIsReported) {
  EXPECT_TRUE(failsAt("t:quadkey", "000000000000001e", 0, 0));  // zoom 30
  EXPECT_TRUE(failsAt("t:quadkey", "4000000000000000", 0, 0));  // digit below zoom 0
  EXPECT_TRUE(failsAt("x:u8 | t:quadkey", "01" "1000000000000001", 1, 1));  // level-2 digit at zoom 1
}

TEST(KeyDecodeErrors, NegativeReverseTimestampIsReported) {
  // i64 layout of INT64_MAX - ts with ts < 0 would need INT64_MAX - ts > INT64_MAX:
  // every 8-byte word below 0x80.. stores a negative INT64_MAX - ts, i.e. ts > INT64_MAX.
  EXPECT_TRUE(failsAt("x:revts", "7fffffffffffffff", 0, 0));
}

TEST(KeyDecodeErrors, EmptyKeyOfANonEmptySchemaIsTruncated) {
  EXPECT_TRUE(failsAt("a:i64", "", 0, 0));
  EXPECT_TRUE(failsAt("a:utf8", "", 0, 0));
}

TEST(KeyDecodeErrors, ErrorTextNamesOffsetAndComponent) {
  const KeySchema schema = test::schemaOf("user:utf8 | ts:i64");
  const DecodedKey decoded = decodeKey(schema, test::unhex("616c6963650001" "800001"));
  ASSERT_FALSE(decoded.ok());
  const std::string text = decoded.error->toString(schema);
  EXPECT_EQ(text.rfind("offset 7, component 'ts': ", 0), 0u) << text;
}

TEST(KeyDecodeErrors, RandomGarbageNeverCrashesAndStaysWithinTheKey) {
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    std::mt19937_64 rng(seed);
    for (const char* text : kSchemas) {
      const KeySchema schema = test::schemaOf(text);
      Bytes key(rng() % 40, '\0');
      for (char& c : key) {
        // Mostly the bytes that drive escapes and terminators.
        c = static_cast<char>((rng() & 1) ? "\x00\x01\xfe\xff\x80\x7f"[rng() % 6] : static_cast<char>(rng()));
      }
      const DecodedKey decoded = decodeKey(schema, key);
      ASSERT_TRUE(isSane(schema, key, decoded)) << text << " " << toHex(key);
      if (decoded.ok()) {
        // Whatever decodes cleanly re-encodes to the same bytes.
        EXPECT_EQ(test::encodeHex(schema, decoded.values), toHex(key)) << text;
      }
    }
  }
}

TEST(KeyDecodeErrors, FlippedBytesInValidKeysAreCaughtOrDecodeToAnotherValidKey) {
  std::mt19937_64 rng(4242);
  for (const char* text : kSchemas) {
    const KeySchema schema = test::schemaOf(text);
    for (int n = 0; n < 200; ++n) {
      Bytes key = test::encodeOk(schema, test::randomTuple(schema, rng));
      if (key.empty()) continue;
      key[rng() % key.size()] ^= static_cast<char>(1u << (rng() % 8));
      const DecodedKey decoded = decodeKey(schema, key);
      ASSERT_TRUE(isSane(schema, key, decoded)) << text << " " << toHex(key);
      if (decoded.ok()) {
        EXPECT_EQ(test::encodeHex(schema, decoded.values), toHex(key)) << text;
      }
    }
  }
}

}  // namespace
}  // namespace keyscope
