// Key component values as CSV text (row.NAME columns): exact round trips for
// every component type and byte format, and errors that say what is wrong.
#include "csv/key_text.h"

#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "keyscope/csv.h"
#include "test_util.h"

namespace keyscope::test {
namespace {

using csv::componentFromText;
using csv::componentToText;

TEST(CsvKeyText, EveryComponentTypeRoundTripsInEveryByteFormat) {
  const KeySchema schema = schemaOf(
      "a:i8 | b:i16 desc | c:i32 | d:i64 | e:u8 | f:u16 | g:u32 | h:u64 | i:f32 | j:f64 | k:bool | l:utf8 | "
      "m:bytes | n:bytes(3) | o:revts | p:domain | q:quadkey | r:md5(4, l) | s:salt(8, a)");
  std::mt19937_64 rng(99);
  for (ByteFormat format : {ByteFormat::kEscaped, ByteFormat::kHex, ByteFormat::kBase64, ByteFormat::kRaw}) {
    for (int round = 0; round < 300; ++round) {
      const KeyTuple tuple = completed(schema, randomTuple(schema, rng));
      for (size_t i = 0; i < schema.size(); ++i) {
        const std::string text = componentToText(schema[i], tuple[i], format);
        Result<ComponentValue> back = componentFromText(schema[i], text, format);
        ASSERT_TRUE(back) << schema[i].name << " '" << text << "': " << back.status().toString();
        EXPECT_TRUE(sameValue(tuple[i], *back)) << schema[i].name << " " << byteFormatName(format) << ": '" << text
                                                << "' read back as " << describe(*back);
      }
    }
  }
}

TEST(CsvKeyText, TextForms) {
  const KeySchema schema = schemaOf("i:i32 | f:f32 | d:f64 | b:bool | q:quadkey | r:revts | raw:bytes");
  EXPECT_EQ(componentToText(schema[0], i(-42), ByteFormat::kEscaped), "-42");
  EXPECT_EQ(componentToText(schema[1], f(0.1f), ByteFormat::kEscaped), "0.1");
  EXPECT_EQ(componentToText(schema[2], f(-1e300), ByteFormat::kEscaped), "-1e+300");
  EXPECT_EQ(componentToText(schema[2], f(std::numeric_limits<double>::infinity()), ByteFormat::kEscaped), "Infinity");
  EXPECT_EQ(componentToText(schema[3], b(true), ByteFormat::kEscaped), "true");
  EXPECT_EQ(componentToText(schema[4], tile(3, 5, 2), ByteFormat::kEscaped), "121");
  EXPECT_EQ(componentToText(schema[5], i(1700), ByteFormat::kEscaped), "1700");
  EXPECT_EQ(componentToText(schema[6], s(std::string("\x00\xff", 2)), ByteFormat::kEscaped), "\\x00\\xFF");
  EXPECT_EQ(componentToText(schema[6], s(std::string("\x00\xff", 2)), ByteFormat::kHex), "00ff");
  EXPECT_TRUE(sameValue(*componentFromText(schema[4], "3/5/2", ByteFormat::kEscaped), tile(3, 5, 2)));
  EXPECT_TRUE(sameValue(*componentFromText(schema[3], "0", ByteFormat::kEscaped), b(false)));
  EXPECT_TRUE(sameValue(*componentFromText(schema[2], "nan", ByteFormat::kEscaped),
                        f(std::numeric_limits<double>::quiet_NaN())));
}

TEST(CsvKeyText, ErrorsSayWhatIsWrong) {
  const KeySchema schema = schemaOf("i:i8 | u:u16 | f:f64 | b:bool | q:quadkey | x:bytes(2)");
  auto error = [&](size_t c, std::string_view text, ByteFormat format = ByteFormat::kEscaped) {
    Result<ComponentValue> v = componentFromText(schema[c], text, format);
    return v ? std::string("parsed") : v.status().message();
  };
  EXPECT_EQ(error(0, "200"), "200 is out of range [-128, 127]");
  EXPECT_EQ(error(0, "1.5"), "expected an integer, got '1.5'");
  EXPECT_EQ(error(0, ""), "expected an integer, got ''");
  EXPECT_EQ(error(1, "-1"), "expected a non-negative integer, got '-1'");
  EXPECT_EQ(error(1, "99999999999999999999"), "'99999999999999999999' is out of the range of a u64");
  EXPECT_EQ(error(2, "1,5"), "expected a number (or NaN, Infinity, -Infinity), got '1,5'");
  EXPECT_EQ(error(3, "yes"), "expected true or false, got 'yes'");
  EXPECT_EQ(error(4, "0124"), "expected quadkey digits 0-3 or zoom/x/y, got '0124'");
  EXPECT_EQ(error(4, "3/5"), "expected quadkey digits or zoom/x/y, got '3/5'");
  EXPECT_EQ(error(5, "abc", ByteFormat::kHex), "odd number of hex digits");
  EXPECT_NE(error(5, "616263", ByteFormat::kHex), "parsed");  // 3 bytes for bytes(2)
}

// Random bytes in random dialects: the reader never crashes, always ends,
// and accounts for every byte.
TEST(CsvReaderGarbage, RandomBytesNeverBreakTheReader) {
  std::mt19937_64 rng(4242);
  std::uniform_int_distribution<int> length(0, 3000), pick(0, 9), byte(0, 255);
  const std::string special = ",;\t\"'\r\n";
  for (int round = 0; round < 400; ++round) {
    std::string text;
    for (int n = length(rng); n > 0; --n)
      text.push_back(pick(rng) < 6 ? special[static_cast<size_t>(byte(rng)) % special.size()] : static_cast<char>(byte(rng)));
    CsvDialect dialect;
    if (round % 3 == 1) dialect = {'\t', '\'', "\n"};
    if (round % 3 == 2) dialect = {';', std::nullopt, "\n"};
    std::istringstream in(text);
    CsvReader reader(in, dialect, 512);
    CsvRecord record;
    int calls = 0;
    for (;; ++calls) {
      ASSERT_LT(calls, 10000) << "the reader does not end";
      Result<bool> got = reader.next(&record);
      if (got && !*got) break;
      if (!got) {
        EXPECT_EQ(got.status().code(), Status::Code::kInvalidArgument);
      } else {
        EXPECT_FALSE(record.fields.empty());
      }
    }
    EXPECT_EQ(reader.bytesRead(), text.size());
  }
}

}  // namespace
}  // namespace keyscope::test
