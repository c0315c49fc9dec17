// Byte renderings for CSV: golden vectors, strict parsing, exact round trips.
#include "keyscope/byte_format.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace keyscope {
namespace {

using namespace std::string_literals;

TEST(ByteFormat, Base64MatchesRfc4648TestVectors) {
  const std::pair<std::string, std::string> vectors[] = {
      {"", ""},         {"f", "Zg=="},         {"fo", "Zm8="},        {"foo", "Zm9v"},
      {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"}, {"\x00\xff\xfe"s, "AP/+"}};
  for (const auto& [bytes, text] : vectors) {
    EXPECT_EQ(toBase64(bytes), text);
    EXPECT_EQ(fromBase64(text), bytes) << text;
  }
}

TEST(ByteFormat, Base64IsStrict) {
  size_t at = 99;
  EXPECT_FALSE(fromBase64("Zg=", &at));
  EXPECT_EQ(at, 3u);  // the length
  EXPECT_FALSE(fromBase64("Z!==", &at));
  EXPECT_EQ(at, 1u);
  EXPECT_FALSE(fromBase64("Zg==Zg==", &at));  // padding in the middle
  EXPECT_EQ(at, 2u);
  EXPECT_FALSE(fromBase64("Z===", &at));
  EXPECT_FALSE(fromBase64("Zm9v\n", &at));
}

TEST(ByteFormat, RendersEachFormat) {
  const Bytes bytes = "a,\"\\\x00\xff"s;
  EXPECT_EQ(formatBytes(bytes, ByteFormat::kEscaped), "a,\"\\x5C\\x00\\xFF");
  EXPECT_EQ(formatBytes(bytes, ByteFormat::kHex), "612c225c00ff");
  EXPECT_EQ(formatBytes(bytes, ByteFormat::kBase64), "YSwiXAD/");
  EXPECT_EQ(formatBytes(bytes, ByteFormat::kRaw), bytes);
}

TEST(ByteFormat, ParseErrorsSayWhatAndWhere) {
  EXPECT_EQ(parseBytes("61g2", ByteFormat::kHex).status().message(), "bad hex digit 'g' at character 3");
  EXPECT_EQ(parseBytes("616", ByteFormat::kHex).status().message(), "odd number of hex digits");
  EXPECT_EQ(parseBytes("YW*=", ByteFormat::kBase64).status().message(), "bad base64 character '*' at character 3");
  EXPECT_EQ(parseBytes("YWJ", ByteFormat::kBase64).status().message(),
            "base64 text of 3 characters: the length must be a multiple of 4");
  EXPECT_TRUE(parseBytes("\\xZZ", ByteFormat::kEscaped));  // kept as is, like any text
}

TEST(ByteFormat, EveryFormatRoundTripsRandomBytes) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> length(0, 40), byte(0, 255);
  for (int i = 0; i < 2000; ++i) {
    Bytes bytes;
    for (int n = length(rng); n > 0; --n) bytes.push_back(static_cast<char>(byte(rng)));
    for (ByteFormat f : {ByteFormat::kEscaped, ByteFormat::kHex, ByteFormat::kBase64, ByteFormat::kRaw}) {
      Result<Bytes> back = parseBytes(formatBytes(bytes, f), f);
      ASSERT_TRUE(back) << byteFormatName(f) << ": " << back.status().toString();
      EXPECT_EQ(*back, bytes) << byteFormatName(f);
    }
  }
}

TEST(ByteFormat, NamesRoundTrip) {
  for (ByteFormat f : {ByteFormat::kEscaped, ByteFormat::kHex, ByteFormat::kBase64, ByteFormat::kRaw})
    EXPECT_EQ(byteFormatFromName(byteFormatName(f)), f);
  EXPECT_FALSE(byteFormatFromName("binary"));
}

}  // namespace
}  // namespace keyscope
