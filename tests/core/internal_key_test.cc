// Internal keys: what parseInternalKey accepts and splits, against a plain
// reference reading of the layout, on well-formed keys and damaged ones.
#include "engine/internal_key.h"

#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

namespace keyscope::engine {
namespace {

struct Reference {
  std::string row;  // unescaped
  std::string qualifier;
  int64_t timestamp;
  CellType type;
};

// Reads one escaped field from `at`: its bytes unescaped, or nullopt when it
// is cut short or holds an escape other than 00 FF / 00 01.
std::optional<std::string> readField(const std::string& key, size_t* at) {
  std::string out;
  while (*at < key.size()) {
    const char c = key[(*at)++];
    if (c != '\0') {
      out.push_back(c);
      continue;
    }
    if (*at >= key.size()) return std::nullopt;
    const auto next = static_cast<uint8_t>(key[(*at)++]);
    if (next == 0x01) return out;
    if (next != 0xff) return std::nullopt;
    out.push_back('\0');
  }
  return std::nullopt;
}

// The layout read byte by byte, as internal_key.h describes it.
std::optional<Reference> referenceParse(const std::string& key) {
  size_t at = 0;
  std::optional<std::string> row = readField(key, &at);
  if (!row) return std::nullopt;
  std::optional<std::string> qualifier = readField(key, &at);
  if (!qualifier || key.size() - at != kKeyTrailerSize) return std::nullopt;
  uint64_t inverted = 0;
  for (int i = 0; i < 8; ++i) inverted = (inverted << 8) | static_cast<uint8_t>(key[at + static_cast<size_t>(i)]);
  const uint64_t ts = ~inverted;
  if (ts > static_cast<uint64_t>(kLatestTimestamp)) return std::nullopt;
  const auto type = static_cast<uint8_t>(~static_cast<uint8_t>(key[at + 8]));
  switch (static_cast<CellType>(type)) {
    case CellType::kPut:
    case CellType::kDelete:
    case CellType::kDeleteFamilyVersion:
    case CellType::kDeleteColumn:
    case CellType::kDeleteFamily:
      break;
    default:
      return std::nullopt;
  }
  return Reference{*row, *qualifier, static_cast<int64_t>(ts), static_cast<CellType>(type)};
}

void expectSameReading(const std::string& key) {
  const std::optional<Reference> want = referenceParse(key);
  ParsedKey parsed;
  const bool ok = parseInternalKey(key, &parsed);
  ASSERT_EQ(ok, want.has_value()) << testing::PrintToString(key);
  if (!ok) return;
  std::string scratch;
  EXPECT_EQ(std::string(unescape(parsed.rowEscaped, &scratch)), want->row);
  EXPECT_EQ(std::string(unescape(parsed.qualifierEscaped, &scratch)), want->qualifier);
  EXPECT_EQ(std::string(qualifierOf(parsed, &scratch)), want->qualifier);
  EXPECT_EQ(parsed.qualifierHasEscapes, want->qualifier.find('\0') != std::string::npos);
  EXPECT_EQ(parsed.timestamp, want->timestamp);
  EXPECT_EQ(parsed.type, want->type);
  // The row-known variant agrees.
  ParsedKey afterRow;
  ASSERT_TRUE(parseInternalKeyAfterRow(key, escapedRowLength(key), &afterRow));
  EXPECT_EQ(afterRow.qualifierEscaped, parsed.qualifierEscaped);
  EXPECT_EQ(afterRow.timestamp, parsed.timestamp);
}

// esc(b) and the whole key, byte by byte as internal_key.h describes them.
std::string referenceEscape(const std::string& field) {
  std::string out;
  for (const char c : field) {
    out.push_back(c);
    if (c == '\0') out.push_back('\xff');
  }
  return out + std::string("\x00\x01", 2);
}

std::string referenceKey(const std::string& row, const std::string& qualifier, int64_t ts, CellType type) {
  std::string key = referenceEscape(row) + referenceEscape(qualifier);
  const auto inverted = ~static_cast<uint64_t>(ts);
  for (int shift = 56; shift >= 0; shift -= 8) key.push_back(static_cast<char>((inverted >> shift) & 0xff));
  key.push_back(static_cast<char>(~static_cast<uint8_t>(type)));
  return key;
}

TEST(InternalKey, KeysAreBuiltAsTheLayoutSays) {
  // Short fields are escaped byte by byte and long ones run by run: 00s at
  // every place of fields on both sides of that line, appended after bytes
  // already in the buffer.
  for (size_t length = 0; length <= 80; ++length) {
    for (size_t at = 0; at <= length; ++at) {
      std::string field(length, 'f');
      if (at < length) field[at] = '\0';
      if (length > 2) field[length - 1] = '\0';
      for (const std::string& other : {std::string(), std::string("q\0", 2)}) {
        std::string key = "prefix";
        appendInternalKey(&key, field, other, 1700000000000, CellType::kDeleteColumn);
        ASSERT_EQ(key, "prefix" + referenceKey(field, other, 1700000000000, CellType::kDeleteColumn))
            << "length " << length << ", 00 at " << at;
        key = "prefix";
        appendInternalKey(&key, other, field, 0, CellType::kPut);
        ASSERT_EQ(key, "prefix" + referenceKey(other, field, 0, CellType::kPut));
      }
      std::string escaped = "x";
      appendEscaped(&escaped, field);
      ASSERT_EQ(escaped, "x" + referenceEscape(field));
    }
  }
  EXPECT_EQ(internalKey(std::string(3, '\0'), "", kLatestTimestamp, CellType::kDeleteFamily),
            referenceKey(std::string(3, '\0'), "", kLatestTimestamp, CellType::kDeleteFamily));
}

TEST(InternalKey, WellFormedKeysSplitIntoTheirParts) {
  const std::vector<std::string> parts = {"", "a", std::string("\0", 1), std::string("a\0b", 3),
                                          std::string("\0\0", 2), std::string("x\0", 2), "\x01\xff",
                                          std::string(40, 'q'), std::string(40, 'q') + std::string("\0", 1)};
  for (const std::string& row : parts) {
    for (const std::string& qualifier : parts) {
      for (const int64_t ts : {int64_t{0}, int64_t{1}, int64_t{1700000000000}, kLatestTimestamp}) {
        for (const CellType type : {CellType::kPut, CellType::kDeleteColumn, CellType::kDeleteFamily}) {
          const std::string key = internalKey(row, qualifier, ts, type);
          ASSERT_TRUE(referenceParse(key).has_value());
          expectSameReading(key);
        }
      }
    }
  }
}

TEST(InternalKey, A00ByteIsFoundAtEveryPlaceOfRowsAndQualifiersOfEveryLength) {
  // The search for 00 bytes reads eight at a time: a 00 in every position of
  // a word, before and after other 00s and FFs, in fields of every length
  // around the word and loop sizes.
  for (size_t length = 1; length <= 48; ++length) {
    for (size_t at = 0; at < length; ++at) {
      std::string field(length, static_cast<char>(0x80));
      field[at] = '\0';
      std::string twoZeros = field;
      twoZeros[length - 1] = '\0';
      std::string zeroBeforeFf = field;
      if (at + 1 < length) zeroBeforeFf[at + 1] = static_cast<char>(0xff);
      for (const std::string& f : {field, twoZeros, zeroBeforeFf}) {
        expectSameReading(internalKey(f, "q", 5, CellType::kPut));
        expectSameReading(internalKey("r", f, 5, CellType::kPut));
        expectSameReading(internalKey(f, f, 5, CellType::kDelete));
      }
    }
    const std::string plain(length, static_cast<char>(0x01));
    expectSameReading(internalKey(plain, plain, 5, CellType::kPut));
  }
}

TEST(InternalKey, DamagedKeysAreRefusedAsTheLayoutSays) {
  // Every single-byte change, every cut and one byte added, of keys whose
  // fields hold escapes: the parser and the reference agree on each.
  const std::vector<std::string> keys = {
      internalKey(std::string("r\0w", 3), std::string("q\0", 2), 42, CellType::kPut),
      internalKey("row", "", 7, CellType::kDelete),
      internalKey("", std::string("\0\0\0", 3), 0, CellType::kDeleteFamilyVersion),
      internalKey(std::string(50, 'r'), std::string(50, 'q'), 9, CellType::kPut),
  };
  const uint8_t values[] = {0x00, 0x01, 0x02, 0x7f, 0xfe, 0xff};
  for (const std::string& key : keys) {
    for (size_t i = 0; i < key.size(); ++i) {
      for (const uint8_t v : values) {
        std::string damaged = key;
        damaged[i] = static_cast<char>(v);
        expectSameReading(damaged);
      }
      expectSameReading(key.substr(0, i));
      expectSameReading(key.substr(0, i) + std::string("\0", 1) + key.substr(i));
    }
  }
}

TEST(InternalKey, RandomBytesAgreeWithTheReference) {
  // Bytes drawn mostly from the escape alphabet, so many come close to well formed.
  std::mt19937 rng(2026);
  const char alphabet[] = {'\0', '\x01', '\xff', 'a', '\x02'};
  int accepted = 0;
  for (int n = 0; n < 200000; ++n) {
    std::string key;
    const size_t length = 9 + rng() % 12;
    for (size_t i = 0; i < length; ++i) key.push_back(alphabet[rng() % 5]);
    // A valid trailer half of the time: a Put at a small timestamp.
    if (rng() % 2 == 0) key.replace(key.size() - 9, 9, std::string("\xff\xff\xff\xff\xff\xff\xff\xfe\xfb", 9));
    expectSameReading(key);
    if (referenceParse(key)) ++accepted;
  }
  EXPECT_GT(accepted, 100);  // the comparison covered accepted keys too
}

}  // namespace
}  // namespace keyscope::engine
