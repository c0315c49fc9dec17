// CsvReader: RFC 4180 records, positions of malformed input, streaming.
#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "csv_test_util.h"
#include "keyscope/csv.h"

namespace keyscope {
namespace {

using namespace std::string_literals;
using test::Records;
using test::readAll;

// Each record's start line, or its error message.
std::vector<std::string> outcomes(const std::string& text, CsvDialect dialect = {}, size_t maxRecord = CsvReader::kDefaultMaxRecordBytes) {
  std::istringstream in(text);
  CsvReader reader(in, dialect, maxRecord);
  CsvRecord record;
  std::vector<std::string> out;
  for (int guard = 0; guard < 100; ++guard) {
    Result<bool> got = reader.next(&record);
    if (got && !*got) return out;
    out.push_back(got ? "line " + std::to_string(record.line) : got.status().message());
  }
  ADD_FAILURE() << "the reader never ended";
  return out;
}

TEST(CsvReader, ReadsPlainRecords) {
  EXPECT_EQ(readAll("a,b,c\n1,2,3\n"), (Records{{"a", "b", "c"}, {"1", "2", "3"}}));
}

TEST(CsvReader, QuotedFieldsHoldDelimitersAndDoubledQuotes) {
  EXPECT_EQ(readAll("\"a,b\",c\n\"say \"\"hi\"\"\",\"\"\"\"\n"),
            (Records{{"a,b", "c"}, {"say \"hi\"", "\""}}));
}

TEST(CsvReader, LineBreaksInsideQuotesAreKeptByteForByte) {
  EXPECT_EQ(readAll("\"lf\nx\",\"cr\ry\",\"crlf\r\nz\"\r\nnext\n"),
            (Records{{"lf\nx", "cr\ry", "crlf\r\nz"}, {"next"}}));
  // Line numbers count the breaks inside quotes too.
  EXPECT_EQ(outcomes("\"a\nb\r\nc\rd\",1\nnext\n"), (std::vector<std::string>{"line 1", "line 5"}));
}

TEST(CsvReader, RecordsEndAtLfCrOrCrlf) {
  EXPECT_EQ(readAll("a\r\nb\rc\nd"), (Records{{"a"}, {"b"}, {"c"}, {"d"}}));
  EXPECT_EQ(outcomes("a\r\nb\rc\nd"), (std::vector<std::string>{"line 1", "line 2", "line 3", "line 4"}));
}

TEST(CsvReader, TheLastRecordNeedsNoLineEnding) {
  EXPECT_EQ(readAll("a,b"), (Records{{"a", "b"}}));
  EXPECT_EQ(readAll("a,"), (Records{{"a", ""}}));
  EXPECT_EQ(readAll("\"q\""), (Records{{"q"}}));
  EXPECT_EQ(readAll("x\n\"q\"\"\""), (Records{{"x"}, {"q\""}}));
}

TEST(CsvReader, EmptyFieldsAndBlankLines) {
  EXPECT_EQ(readAll(",,\n"), (Records{{"", "", ""}}));
  EXPECT_EQ(readAll("\"\"\n"), (Records{{""}}));        // one empty field, written quoted
  EXPECT_EQ(readAll("a\n\n\r\n\rb\n"), (Records{{"a"}, {"b"}}));  // blank lines are not records
  EXPECT_EQ(outcomes("a\n\n\nb\n"), (std::vector<std::string>{"line 1", "line 4"}));
  EXPECT_EQ(readAll(""), Records{});
  EXPECT_EQ(readAll("\n\n"), Records{});
}

TEST(CsvReader, SpacesAreData) {
  EXPECT_EQ(readAll(" a , b \n"), (Records{{" a ", " b "}}));
}

TEST(CsvReader, SkipsAByteOrderMarkAtTheStartOnly) {
  EXPECT_EQ(readAll("\xEF\xBB\xBF" "a,b\n"), (Records{{"a", "b"}}));
  EXPECT_EQ(readAll("\xEF\xBB\xBF"), Records{});
  EXPECT_EQ(readAll("x\n\xEF\xBB\xBF" "a\n"), (Records{{"x"}, {"\xEF\xBB\xBF" "a"}}));
  EXPECT_EQ(readAll("\"\xEF\xBB\xBF\",b\n"), (Records{{"\xEF\xBB\xBF", "b"}}));
}

TEST(CsvReader, FieldsAreBytes) {
  const std::string binary = "\x00\x01\xff\xfe\x80"s;
  EXPECT_EQ(readAll(binary + ",\"" + binary + "\"\n"), (Records{{binary, binary}}));
}

TEST(CsvReader, OtherDelimitersAndQuotes) {
  CsvDialect tsv{'\t', '\'', "\n"};
  EXPECT_EQ(readAll("a\t'b\tc'\t'it''s'\n", tsv), (Records{{"a", "b\tc", "it's"}}));
  CsvDialect unquoted{'\t', std::nullopt, "\n"};
  EXPECT_EQ(readAll("a\"b\t\"c\"\n", unquoted), (Records{{"a\"b", "\"c\""}}));
}

TEST(CsvReader, StrayQuoteIsReportedWhereItIsAndTheNextLineStillReads) {
  EXPECT_EQ(outcomes("ok,1\na,b\"c,d\nx,y\n"),
            (std::vector<std::string>{"line 1",
                                      "line 2, column 4: stray quote in an unquoted field (RFC 4180: quote the whole "
                                      "field and double the quote)",
                                      "line 3"}));
}

TEST(CsvReader, DataAfterAClosingQuoteIsMalformed) {
  EXPECT_EQ(outcomes("\"ab\"c,d\r\nx\n"),
            (std::vector<std::string>{"line 1, column 5: 'c' after the closing quote of a field (expected the "
                                      "delimiter or the end of the line)",
                                      "line 2"}));
}

TEST(CsvReader, AnUnterminatedQuoteIsReportedAtTheOpeningQuote) {
  EXPECT_EQ(outcomes("a,b\nc,\"de\nf,g\n"),
            (std::vector<std::string>{"line 1", "line 2, column 3: quoted field never closed: the input ended inside it"}));
}

TEST(CsvReader, ColumnsCountUtf8Characters) {
  EXPECT_EQ(outcomes("\xC3\xA9\xE2\x82\xAC,\"x\"y\n"),
            (std::vector<std::string>{"line 1, column 7: 'y' after the closing quote of a field (expected the "
                                      "delimiter or the end of the line)"}));
}

TEST(CsvReader, AnOversizedRecordIsMalformedAndReadingGoesOn) {
  EXPECT_EQ(outcomes("short\n\"0123456789abcdef\nmore\",x\nnext\n", {}, 10),
            (std::vector<std::string>{"line 1",
                                      "line 2: record longer than the limit of 10 bytes (a quoted field that never closes?)",
                                      "line 4"}));
}

TEST(CsvReader, RecordsStraddleTheBufferBoundary) {
  // 64 KiB buffer: put a CRLF, a doubled quote and a long field across it.
  for (size_t at : {65535u, 65536u, 65534u}) {
    std::string text(at, 'x');
    text += "\r\n\"a\"\"b\"," + std::string(200000, 'y') + "\n";
    Records records = readAll(text);
    ASSERT_EQ(records.size(), 2u) << at;
    EXPECT_EQ(records[0][0].size(), at);
    EXPECT_EQ(records[1][0], "a\"b");
    EXPECT_EQ(records[1][1].size(), 200000u);
  }
}

TEST(CsvReader, BytesReadReachesTheInputSize) {
  const std::string text = "\xEF\xBB\xBF" "a,b\r\n\"c\nd\",e";
  std::istringstream in(text);
  CsvReader reader(in, {});
  CsvRecord record;
  while (true) {
    Result<bool> got = reader.next(&record);
    ASSERT_TRUE(got);
    if (!*got) break;
  }
  EXPECT_EQ(reader.bytesRead(), text.size());
}

// A stream that fails (its buffer throws) after `good` bytes.
class FailingBuf : public std::streambuf {
 public:
  explicit FailingBuf(std::string good) : m_good(std::move(good)) {}

 protected:
  int_type underflow() override {
    if (m_served) throw std::runtime_error("disk gone");
    m_served = true;
    setg(m_good.data(), m_good.data(), m_good.data() + m_good.size());
    return traits_type::to_int_type(m_good[0]);
  }

 private:
  std::string m_good;
  bool m_served = false;
};

TEST(CsvReader, AReadErrorIsAnIoErrorThatStays) {
  FailingBuf buf(std::string(70000, 'a') + "\n");  // more than one buffer, so a second read happens
  std::istream in(&buf);
  CsvReader reader(in, {});
  CsvRecord record;
  Result<bool> got = reader.next(&record);
  while (got && *got) got = reader.next(&record);
  ASSERT_FALSE(got);
  EXPECT_EQ(got.status().code(), Status::Code::kIOError);
  EXPECT_EQ(reader.next(&record).status().code(), Status::Code::kIOError);
}

TEST(CsvDialect, RejectsDialectsThatCannotWork) {
  EXPECT_TRUE(validateDialect({}).isOk());
  EXPECT_FALSE(validateDialect({'\n', '"', "\n"}).isOk());
  EXPECT_FALSE(validateDialect({',', '\r', "\n"}).isOk());
  EXPECT_FALSE(validateDialect({',', ',', "\n"}).isOk());
  EXPECT_FALSE(validateDialect({',', '"', "\n\r"}).isOk());
  EXPECT_TRUE(validateDialect({'\t', std::nullopt, "\n"}).isOk());
}

}  // namespace
}  // namespace keyscope
