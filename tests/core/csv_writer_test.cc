// CsvWriter: minimal quoting, dialects, and the write -> read round trip.
#include <gtest/gtest.h>

#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "csv_test_util.h"
#include "keyscope/csv.h"

namespace keyscope {
namespace {

using namespace std::string_literals;
using test::Records;
using test::readAll;

std::string written(const Records& records, CsvDialect dialect = {}) {
  std::ostringstream out;
  CsvWriter writer(out, dialect);
  for (const auto& record : records) {
    Status s = writer.writeRecord(record);
    EXPECT_TRUE(s.isOk()) << s.toString();
  }
  return out.str();
}

TEST(CsvWriter, QuotesOnlyWhatNeedsIt) {
  EXPECT_EQ(written({{"plain", "with space", "a,b", "say \"hi\"", "l1\nl2", "cr\r"}}),
            "plain,with space,\"a,b\",\"say \"\"hi\"\"\",\"l1\nl2\",\"cr\r\"\r\n");
}

TEST(CsvWriter, ALoneEmptyFieldIsQuotedSoItIsNotABlankLine) {
  EXPECT_EQ(written({{""}, {"", ""}, {"a", ""}}), "\"\"\r\n,\r\na,\r\n");
  EXPECT_EQ(readAll(written({{""}}), {}), (Records{{""}}));
}

TEST(CsvWriter, UsesTheDialect) {
  EXPECT_EQ(written({{"a;b", "c|d", "'"}}, {';', '\'', "\n"}), "'a;b';c|d;''''\n");
  EXPECT_EQ(written({{"a", "b"}}, {'\t', '"', "\r"}), "a\tb\r");
}

TEST(CsvWriter, QuotesALeadingByteOrderMarkInTheFirstFieldOnly) {
  const std::string bom = "\xEF\xBB\xBF";
  EXPECT_EQ(written({{bom + "a", bom}, {bom}}), "\"" + bom + "a\"," + bom + "\r\n" + bom + "\r\n");
  EXPECT_EQ(readAll(written({{bom + "a"}}), {}), (Records{{bom + "a"}}));
}

TEST(CsvWriter, WithoutQuotingRefusesFieldsThatWouldBreakTheRecord) {
  std::ostringstream out;
  CsvWriter writer(out, {'\t', std::nullopt, "\n"});
  EXPECT_TRUE(writer.writeRecord({"a,\"b\"", "c"}).isOk());
  Status s = writer.writeRecord({"ok", "tab\there"});
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(s.message(), "field 2 holds the delimiter or a line break, and quoting is off");
  EXPECT_FALSE(writer.writeRecord({""}).isOk());
  EXPECT_TRUE(writer.writeRecord({"next"}).isOk());
  EXPECT_EQ(out.str(), "a,\"b\"\tc\nnext\n");  // the refused records wrote nothing
}

// Found by fuzz_csv_read: the refusal blamed a delimiter or line break the field does not hold.
TEST(CsvWriter, WithoutQuotingALeadingByteOrderMarkIsRefusedSayingWhy) {
  const std::string bom = "\xEF\xBB\xBF";
  std::ostringstream out;
  CsvWriter writer(out, {'|', std::nullopt, "\n"});
  Status s = writer.writeRecord({bom + "a", "b"});
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(s.message(),
            "field 1 starts with a UTF-8 byte order mark, which a reader skips at the start of the input, and quoting "
            "is off");
  EXPECT_TRUE(writer.writeRecord({"c", bom}).isOk());
  EXPECT_TRUE(writer.writeRecord({bom + "d"}).isOk());  // not at the start of the output: data
  EXPECT_EQ(out.str(), "c|" + bom + "\n" + bom + "d\n");
}

TEST(CsvWriter, AFailedStreamIsAnIoError) {
  std::ostringstream out;
  out.setstate(std::ios::badbit);
  CsvWriter writer(out, {});
  EXPECT_EQ(writer.writeRecord({"a"}).code(), Status::Code::kIOError);
}

// Fields drawn from the bytes that matter to CSV, plus any byte at all.
std::string randomField(std::mt19937_64& rng) {
  static const std::string kSpecial = ",;\t|\"'\r\n \xEF\xBB\xBF\x00\xff"s;
  std::uniform_int_distribution<int> length(0, 12), pick(0, 3), byte(0, 255);
  std::uniform_int_distribution<size_t> special(0, kSpecial.size() - 1);
  std::string field;
  for (int n = length(rng); n > 0; --n) {
    switch (pick(rng)) {
      case 0:
      case 1: field.push_back(kSpecial[special(rng)]); break;
      case 2: field.push_back(static_cast<char>('a' + byte(rng) % 26)); break;
      default: field.push_back(static_cast<char>(byte(rng))); break;
    }
  }
  return field;
}

TEST(CsvRoundTrip, RandomRecordsReadBackExactlyInEveryDialect) {
  std::mt19937_64 rng(20240611);
  const std::vector<CsvDialect> dialects = {
      {',', '"', "\r\n"}, {',', '"', "\n"}, {';', '\'', "\r"}, {'\t', '"', "\n"}, {'|', '"', "\r\n"}};
  for (const CsvDialect& dialect : dialects) {
    Records records;
    std::uniform_int_distribution<int> width(1, 6);
    for (int r = 0; r < 2000; ++r) {
      std::vector<std::string> record;
      for (int n = width(rng); n > 0; --n) record.push_back(randomField(rng));
      records.push_back(std::move(record));
    }
    const std::string text = written(records, dialect);
    EXPECT_EQ(readAll(text, dialect), records) << "delimiter '" << dialect.delimiter << "'";
  }
}

}  // namespace
}  // namespace keyscope
