// Byte renderings: hex both ways, and HBase's Bytes.toStringBinary.
#include "keyscope/bytes.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>

namespace keyscope {
namespace {

using namespace std::string_literals;

// fromHex fails, reporting the character offset of the problem.
::testing::AssertionResult hexRejectedAt(std::string_view text, size_t expectedAt) {
  size_t at = 12345;
  auto bytes = fromHex(text, &at);
  if (bytes) return ::testing::AssertionFailure() << "'" << text << "' parsed";
  if (at != expectedAt) return ::testing::AssertionFailure() << "'" << text << "': error at " << at << ", expected " << expectedAt;
  return ::testing::AssertionSuccess();
}

std::string hexOf(std::string_view text) {
  auto bytes = fromHex(text);
  return bytes ? *bytes : "<error>";
}

// What HBase's Bytes.toStringBinary writes for one byte (its published rule:
// ASCII letters, digits and " `~!@#$%^&*()-_=+[]{}|;:'\",.<>/?" as is).
std::string hbaseRendering(unsigned char c) {
  static const std::string kPunctuation = " `~!@#$%^&*()-_=+[]{}|;:'\",.<>/?";
  const bool plain = (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                     kPunctuation.find(static_cast<char>(c)) != std::string::npos;
  if (plain) return std::string(1, static_cast<char>(c));
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02X", c);
  return buf;
}

TEST(Bytes, ToHexIsLowercaseTwoDigitsPerByte) {
  EXPECT_EQ(toHex(""), "");
  EXPECT_EQ(toHex("\x00\xff\x10\xab"s), "00ff10ab");
  EXPECT_EQ(toHex("a"), "61");
}

TEST(Bytes, FromHexAcceptsEitherCaseSpacesAndPrefix) {
  EXPECT_EQ(hexOf("00ff10ab"), "\x00\xff\x10\xab"s);
  EXPECT_EQ(hexOf("00FF10AB"), "\x00\xff\x10\xab"s);
  EXPECT_EQ(hexOf("0x00ff"), "\x00\xff"s);
  EXPECT_EQ(hexOf("00 ff  10 ab"), "\x00\xff\x10\xab"s);
  EXPECT_EQ(hexOf(""), "");
  EXPECT_EQ(hexOf("0X61"), "a");
}

TEST(Bytes, FromHexRejectsOddDigitCountsAndNonHex) {
  EXPECT_TRUE(hexRejectedAt("0g", 1));
  EXPECT_TRUE(hexRejectedAt("00zz", 2));
  EXPECT_TRUE(hexRejectedAt("00 -1", 3));
  EXPECT_FALSE(fromHex("abc").has_value());
  EXPECT_FALSE(fromHex("a").has_value());
  EXPECT_FALSE(fromHex("0x0").has_value());
}

TEST(Bytes, FromHexInvertsToHex) {
  std::mt19937_64 rng(5);
  for (int n = 0; n < 200; ++n) {
    Bytes bytes(rng() % 64, '\0');
    for (char& c : bytes) c = static_cast<char>(rng());
    EXPECT_EQ(fromHex(toHex(bytes)), bytes);
  }
}

TEST(Bytes, ToStringBinaryMatchesHBaseForEveryByte) {
  for (int c = 0; c < 256; ++c) {
    const auto byte = static_cast<unsigned char>(c);
    EXPECT_EQ(toStringBinary(std::string(1, static_cast<char>(byte))), hbaseRendering(byte)) << "byte " << c;
  }
}

TEST(Bytes, ToStringBinaryEscapesBackslashAndControlBytes) {
  EXPECT_EQ(toStringBinary("a\\b"), "a\\x5Cb");
  EXPECT_EQ(toStringBinary("row-1\x00\x7f\xff"s), "row-1\\x00\\x7F\\xFF");
  EXPECT_EQ(toStringBinary("\t\n"), "\\x09\\x0A");
  EXPECT_EQ(toStringBinary(""), "");
  EXPECT_EQ(toStringBinary("Hello, World! {\"k\": [1]}"), "Hello, World! {\"k\": [1]}");
}

TEST(Bytes, FromStringBinaryInvertsToStringBinary) {
  std::string all;
  for (int c = 0; c < 256; ++c) all += static_cast<char>(c);
  EXPECT_EQ(fromStringBinary(toStringBinary(all)), all);
  EXPECT_EQ(fromStringBinary("a\\x00b\\xFF"), "a\x00" "b\xff"s);
  EXPECT_EQ(fromStringBinary("plain text"), "plain text");
}

TEST(Bytes, FromStringBinaryTakesMalformedEscapesLiterally) {
  EXPECT_EQ(fromStringBinary("\\xZZ"), "\\xZZ");
  EXPECT_EQ(fromStringBinary("\\x4"), "\\x4");
  EXPECT_EQ(fromStringBinary("a\\"), "a\\");
  EXPECT_EQ(fromStringBinary("\\y41"), "\\y41");
}

TEST(Bytes, ByteAtIsUnsigned) {
  EXPECT_EQ(byteAt("\xff", 0), 255);
  EXPECT_EQ(byteAt("\x00\x80"s, 1), 128);
}

}  // namespace
}  // namespace keyscope
