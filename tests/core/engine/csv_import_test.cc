// CSV import into real workspaces: column specs and headers, key schemas,
// byte formats, the long layout's markers, bad lines in both modes, batches,
// progress and cancellation.
#include <gtest/gtest.h>

#include <sstream>

#include "engine_test_util.h"
#include "keyscope/csv_table.h"
#include "keyscope/key_codec.h"

namespace keyscope::test {
namespace {

using namespace std::string_literals;

class CsvImport : public ::testing::Test {
 protected:
  CsvImport() {
    fx.createTable("t", {familyOf("d").versions(5), familyOf("e")});
    options.timestamp = 100;
  }

  Status import(const std::string& text) {
    std::istringstream in(text);
    return importCsv(fx.ws(), "t", in, options, &report);
  }
  std::vector<std::string> cells() { return describeFull(fx.rawCells("t")); }
  std::vector<std::string> badLines() const {
    std::vector<std::string> out;
    for (const CsvBadLine& bad : report.badLineSamples) out.push_back(bad.message);
    return out;
  }

  EngineFixture fx;
  CsvImportOptions options;
  CsvImportReport report;
};

TEST_F(CsvImport, HeaderNamesTheColumns) {
  ASSERT_TRUE(import("row,d:name,d:age\nr1,alice,30\nr2,bob,\n").isOk());
  EXPECT_EQ(cells(), (std::vector<std::string>{"r1/d:age@100=30", "r1/d:name@100=alice", "r2/d:name@100=bob"}));
  EXPECT_EQ(report.layout, CsvLayout::kWide);
  EXPECT_EQ(report.records, 2u);
  EXPECT_EQ(report.imported, 2u);
  EXPECT_EQ(report.cells, 3u);
  EXPECT_EQ(report.badLines, 0u);
}

TEST_F(CsvImport, ImportTsvColumnSpecWithTimestampAndBareFamily) {
  options.columns = {"HBASE_ROW_KEY", "d:name", "HBASE_TS_KEY", "e"};
  options.header = CsvHeader::kNone;
  options.dialect.delimiter = '\t';
  ASSERT_TRUE(import("r1\talice\t7\tx\nr2\tbob\t8\t\n").isOk());
  EXPECT_EQ(cells(), (std::vector<std::string>{"r1/d:name@7=alice", "r1/e:@7=x", "r2/d:name@8=bob"}));
}

TEST_F(CsvImport, EmptyValuesArePutWhenAsked) {
  options.skipEmptyValues = false;
  ASSERT_TRUE(import("row,d:a\nr,\n").isOk());
  EXPECT_EQ(cells(), (std::vector<std::string>{"r/d:a@100="}));
}

TEST_F(CsvImport, HeaderSkipIgnoresTheFirstLine) {
  options.columns = {"row", "-", "d:v"};
  options.header = CsvHeader::kSkip;
  ASSERT_TRUE(import("anything,at,all\nr,ignored,v\n").isOk());
  EXPECT_EQ(cells(), (std::vector<std::string>{"r/d:v@100=v"}));
}

TEST_F(CsvImport, KeySchemaBuildsTheRowFromTypedFields) {
  options.keySchema = "user:utf8 | ts:i64 desc";
  ASSERT_TRUE(import("row.ts,row.user,d:v\n5,bob,x\n-7,al,y\n").isOk());
  const KeySchema schema = *KeySchema::parse(options.keySchema);
  std::vector<std::string> rows;
  for (const Cell& c : fx.rawCells("t")) rows.push_back(c.row);
  EXPECT_EQ(rows, (std::vector<std::string>{*encodeKey(schema, {"al"s, int64_t{-7}}),
                                            *encodeKey(schema, {"bob"s, int64_t{5}})}));
}

TEST_F(CsvImport, KeySchemaComesFromTheTableWhenNotGiven) {
  TableOptions table = *fx.ws().describeTable("t");
  table.keySchema = "salt:salt(4) | id:u16";
  ASSERT_TRUE(fx.ws().alterTable(table).isOk());
  ASSERT_TRUE(import("row.id,d:v\n258,x\n").isOk());
  const KeySchema schema = *KeySchema::parse(table.keySchema);
  const Bytes key = *encodeKey(schema, {std::monostate{}, uint64_t{258}});
  EXPECT_EQ(fx.rawCells("t").at(0).row, key);
  EXPECT_EQ(key.substr(1), "\x01\x02"s);
}

TEST_F(CsvImport, ByteFormatsDecodeRowsAndValues) {
  options.bytes = ByteFormat::kHex;
  ASSERT_TRUE(import("row,d:v\n00ff,0a0d\n").isOk());
  options.bytes = ByteFormat::kBase64;
  ASSERT_TRUE(import("row,d:w\nAP8=,Cg0=\n").isOk());
  options.bytes = ByteFormat::kEscaped;
  ASSERT_TRUE(import("row,d:x\n\\x00\\xFF,a\\x5Cb\n").isOk());
  std::vector<std::string> got;
  for (const Cell& c : fx.rawCells("t")) got.push_back(c.row + "|" + c.qualifier + "|" + c.value);
  EXPECT_EQ(got, (std::vector<std::string>{"\x00\xff|v|\n\r"s, "\x00\xff|w|\n\r"s, "\x00\xff|x|a\\b"s}));
}

TEST_F(CsvImport, LongLayoutWritesCellsAndMarkers) {
  ASSERT_TRUE(import("row,family,qualifier,timestamp,type,value\n"
                     "r,d,q,5,Put,v5\n"
                     "r,d,q,3,Put,v3\n"
                     "r,d,q,4,Delete,\n"
                     "r,d,p,9,DeleteColumn,\n"
                     "r,e,,6,DeleteFamily,\n"
                     "r,e,,2,DeleteFamilyVersion,\n"
                     "s,e,,7,Put,x\n")
                  .isOk());
  EXPECT_EQ(report.layout, CsvLayout::kLong);
  EXPECT_EQ(cells(), (std::vector<std::string>{"r/d:p@9=DeleteColumn", "r/d:q@5=v5", "r/d:q@4=Delete",
                                               "r/d:q@3=v3", "r/e:@6=DeleteFamily", "r/e:@2=DeleteFamilyVersion",
                                               "s/e:@7=x"}));
  EXPECT_EQ(report.cells, 7u);
}

TEST_F(CsvImport, BadLinesAreSkippedReportedAndCounted) {
  std::vector<uint64_t> seen;
  options.onBadLine = [&](const CsvBadLine& bad) { seen.push_back(bad.line); };
  options.bytes = ByteFormat::kHex;
  ASSERT_TRUE(import("row,d:v,timestamp\n"
                     "61,62,1\n"
                     "61,6g,1\n"
                     "62,63\n"
                     "\"6\"3,64,1\n"
                     ",64,1\n"
                     "63,64,-1\n"
                     "64,65,2\n")
                  .isOk());
  EXPECT_EQ(cells(), (std::vector<std::string>{"a/d:v@1=b", "d/d:v@2=e"}));
  EXPECT_EQ(report.badLines, 5u);
  EXPECT_EQ(seen, (std::vector<uint64_t>{3, 4, 5, 6, 7}));
  EXPECT_EQ(badLines(),
            (std::vector<std::string>{
                "line 3, field 2 (d:v): bad hex digit 'g' at character 2",
                "line 4: expected 3 fields, got 2",
                "line 5, column 4: '3' after the closing quote of a field (expected the delimiter or the end of the line)",
                "line 6: the row key is empty",
                "line 7, field 3 (timestamp): expected a timestamp (milliseconds, 0 or more), got '-1'"}));
  EXPECT_EQ(report.records, 6u);  // the malformed line is no record
  EXPECT_EQ(report.imported, 2u);
}

TEST_F(CsvImport, FailModeLeavesTheTableExactlyAsItWas) {
  fx.put("t", "old", "d:v", 1, "kept");
  options.badLines = BadLines::kFail;
  options.batchRecords = 2;  // several batches would have been written
  Status s = import("row,d:v\na,1\nb,2\nc,3\nd,4\n\"e,5\nf,6\n");
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(s.message(),
            "1 bad line (the first: line 6, column 1: quoted field never closed: the input ended inside it); "
            "nothing was imported");
  EXPECT_EQ(cells(), (std::vector<std::string>{"old/d:v@1=kept"}));
  EXPECT_EQ(report.imported, 0u);
  EXPECT_EQ(report.badLines, 1u);
}

TEST_F(CsvImport, FailModeImportsEverythingWhenNoLineIsBad) {
  options.badLines = BadLines::kFail;
  options.batchRecords = 2;
  ASSERT_TRUE(import("row,d:v\na,1\nb,2\nc,3\n").isOk());
  EXPECT_EQ(cells(), (std::vector<std::string>{"a/d:v@100=1", "b/d:v@100=2", "c/d:v@100=3"}));
  EXPECT_EQ(report.imported, 3u);
}

TEST_F(CsvImport, FailModeChecksWhatTheEngineWouldRefuse) {
  options.badLines = BadLines::kFail;
  options.bytes = ByteFormat::kHex;
  const std::string longKey(2 * (kMaxRowKeySize + 1), 'a');
  Status s = import("row,d:v\n61,62\n" + longKey + ",62\n");
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(badLines(), (std::vector<std::string>{"line 3: row key of 32768 bytes is longer than the limit of 32767"}));
  EXPECT_TRUE(cells().empty());
}

TEST_F(CsvImport, ValuesAndQualifiersOverTheLimitsAreBadLinesNamingTheLimit) {
  const std::string large(kMaxValueSize + 1, 'v');
  ASSERT_TRUE(import("row,d:v\na,1\nb," + large + "\n").isOk());
  EXPECT_EQ(badLines(),
            (std::vector<std::string>{"line 3, field 2 (d:v): value of 10485761 bytes is larger than the limit of 10485760"}));
  const std::string longQualifier(kMaxQualifierSize + 1, 'q');
  ASSERT_TRUE(import("row,family,qualifier,value\nc,d,q,1\nc,d," + longQualifier + ",2\n").isOk());
  EXPECT_EQ(badLines(), (std::vector<std::string>{
                            "line 3, field 3 (qualifier): qualifier of 65536 bytes is longer than the limit of 65535"}));
  EXPECT_EQ(import("row,d:" + longQualifier + "\n").message(),
            "header (line 1): column 2 'd:" + longQualifier + "': qualifier of 65536 bytes is longer than the limit of 65535");
  EXPECT_EQ(cells(), (std::vector<std::string>{"a/d:v@100=1", "c/d:q@100=1"}));
}

// A streambuf that cannot seek, as a pipe.
class PipeBuf : public std::stringbuf {
 public:
  using std::stringbuf::stringbuf;

 protected:
  pos_type seekoff(off_type, std::ios_base::seekdir, std::ios_base::openmode) override { return pos_type(-1); }
};

TEST_F(CsvImport, FailModeRefusesAStreamThatCannotBeReadTwice) {
  PipeBuf buf("row,d:v\na,1\n");
  std::istream in(&buf);
  options.badLines = BadLines::kFail;
  Status s = importCsv(fx.ws(), "t", in, options, &report);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_TRUE(cells().empty());
}

// A stream whose content changes when it is rewound: the file was edited
// between the check and the write.
class ChangingBuf : public std::stringbuf {
 public:
  ChangingBuf(std::string first, std::string second) : std::stringbuf(first), m_second(std::move(second)) {}

 protected:
  pos_type seekpos(pos_type pos, std::ios_base::openmode which) override {
    if (pos == pos_type(0) && m_armed) str(m_second);
    m_armed = true;
    return std::stringbuf::seekpos(pos, which);
  }
  pos_type seekoff(off_type off, std::ios_base::seekdir dir, std::ios_base::openmode which) override {
    m_armed = true;  // tellg() goes through here before the first pass
    return std::stringbuf::seekoff(off, dir, which);
  }

 private:
  std::string m_second;
  bool m_armed = false;
};

TEST_F(CsvImport, FailModeNoticesAnInputChangedBetweenThePasses) {
  ChangingBuf buf("row,d:v\na,1\nb,2\nc,3\n", "row,d:v\na,1\nb,2\nc\n");
  std::istream in(&buf);
  options.badLines = BadLines::kFail;
  options.batchRecords = 2;
  Status s = importCsv(fx.ws(), "t", in, options, &report);
  EXPECT_EQ(s.code(), Status::Code::kCorruption);
  EXPECT_EQ(s.message(), "the input changed after it was checked: line 4: expected 2 fields, got 1; "
                         "2 records were imported before it");
  EXPECT_EQ(report.imported, 2u);
}

TEST_F(CsvImport, SetupErrorsNameTheColumn) {
  EXPECT_EQ(import("row,x:q\n").message(), "header (line 1): column 2 'x:q': table 't' has no column family 'x'");
  EXPECT_EQ(import("row,d:a,d:a\n").message(), "header (line 1): column 3 'd:a': named twice");
  EXPECT_EQ(import("d:a\n").message(),
            "header (line 1): no row key column: name one 'row' (or HBASE_ROW_KEY), or build the key from row.NAME "
            "columns and a key schema");
  EXPECT_EQ(import("row.user,d:a\n").message(),
            "header (line 1): columns row.NAME build the key from a key schema, and there is none (give one, or set "
            "one on the table)");
  EXPECT_EQ(import("row,family,bogus\n").message(),
            "header (line 1): column 3 'bogus': not a column of the long layout (row, family, qualifier, timestamp, "
            "type, value, row.NAME, -)");
  EXPECT_EQ(import("row,HBASE_CELL_TTL\n").message(),
            "header (line 1): column 2 'HBASE_CELL_TTL': not supported (known: HBASE_ROW_KEY, HBASE_TS_KEY, HBASE_SKIP)");
  EXPECT_EQ(import("").message(), "the input is empty: no header line");
  options.keySchema = "user:utf8 | ts:i64";
  EXPECT_EQ(import("row.user,d:a\n").message(), "header (line 1): key component 'ts' has no column (name one row.ts)");
  options.columns = {"row", "d:a"};
  EXPECT_EQ(import("").message(),
            "both a column spec and a header naming the columns: pick one (header 'skip' ignores the input's header line)");
  options.header = CsvHeader::kNone;
  EXPECT_EQ(importCsv(fx.ws(), "nope", *std::make_unique<std::istringstream>(""), options, &report).code(),
            Status::Code::kNotFound);
  EXPECT_TRUE(cells().empty());
}

TEST_F(CsvImport, RowColumnWinsOverComponentColumns) {
  ASSERT_TRUE(import("row,row.user,d:v\nr,ignored,x\n").isOk());
  EXPECT_EQ(cells(), (std::vector<std::string>{"r/d:v@100=x"}));
  EXPECT_EQ(report.notes, (std::vector<std::string>{"not read: row.user (the row column gives the key)"}));
}

TEST_F(CsvImport, KeyComponentErrorsAreBadLines) {
  options.keySchema = "id:u8 | name:utf8";
  ASSERT_TRUE(import("row.id,row.name,d:v\n300,a,x\nabc,b,y\n7,c,z\n").isOk());
  EXPECT_EQ(badLines(), (std::vector<std::string>{"line 2, field 1 (row.id): 300 is out of range [0, 255]",
                                                  "line 3, field 1 (row.id): expected an integer, got 'abc'"}));
  EXPECT_EQ(report.imported, 1u);
}

TEST_F(CsvImport, LongLayoutErrorsAreBadLines) {
  ASSERT_TRUE(import("row,family,qualifier,type,value\n"
                     "r,x,q,Put,v\n"
                     "r,d,q,Frob,v\n"
                     "r,d,q,Delete,v\n"
                     "r,d,q,DeleteFamily,\n"
                     "r,d,q,Put,ok\n")
                  .isOk());
  EXPECT_EQ(badLines(),
            (std::vector<std::string>{
                "line 2, field 2 (family): table 't' has no column family 'x'",
                "line 3, field 4 (type): unknown cell type 'Frob' (Put, Delete, DeleteColumn, DeleteFamily, "
                "DeleteFamilyVersion)",
                "line 4, field 5 (value): a Delete marker has no value",
                "line 5, field 3 (qualifier): a DeleteFamily marker has no qualifier"}));
  EXPECT_EQ(cells(), (std::vector<std::string>{"r/d:q@100=ok"}));
}

TEST_F(CsvImport, BatchesProgressAndTheFinalCount) {
  std::string text = "row,d:v\n";
  for (int i = 0; i < 1000; ++i) text += "r" + std::to_string(1000 + i) + "," + std::to_string(i) + "\n";
  options.batchRecords = 64;
  options.totalBytes = text.size();
  std::vector<CsvImportProgress> progress;
  options.progress = [&](const CsvImportProgress& p) { progress.push_back(p); };
  ASSERT_TRUE(import(text).isOk());
  EXPECT_EQ(fx.scanRows("t", {}).size(), 1000u);
  ASSERT_FALSE(progress.empty());
  EXPECT_EQ(progress.back().bytesRead, text.size());
  EXPECT_EQ(progress.back().totalBytes, text.size());
  EXPECT_EQ(progress.back().records, 1000u);
  EXPECT_GE(progress.size(), 1000u / 64);
}

TEST_F(CsvImport, CancellationStopsBetweenBatchesAndSaysHowFarItGot) {
  std::string text = "row,d:v\n";
  for (int i = 0; i < 100; ++i) text += "r" + std::to_string(100 + i) + ",v\n";
  CancelToken cancel;
  options.cancel = &cancel;
  options.batchRecords = 10;
  options.progress = [&](const CsvImportProgress& p) {
    if (p.records >= 30) cancel.cancel();
  };
  Status s = import(text);
  EXPECT_EQ(s.code(), Status::Code::kCancelled);
  EXPECT_EQ(s.message(), "import cancelled after line 31; 30 records were imported");
  EXPECT_EQ(report.imported, 30u);
  EXPECT_EQ(fx.scanRows("t", {}).size(), 30u);
}

TEST_F(CsvImport, TheClockGivesOneTimestampToTheWholeImport) {
  options.timestamp.reset();
  fx.setClock(4242);
  ASSERT_TRUE(import("row,d:v\na,1\nb,2\n").isOk());
  EXPECT_EQ(cells(), (std::vector<std::string>{"a/d:v@4242=1", "b/d:v@4242=2"}));
  EXPECT_EQ(report.timestamp, 4242);
}

TEST_F(CsvImport, AFileThatIsNotThereIsAnIoErrorNamingIt) {
  Status s = importCsvFile(fx.ws(), "t", "/nonexistent/x.csv", options, &report);
  EXPECT_EQ(s.code(), Status::Code::kIOError);
  EXPECT_EQ(s.message(), "cannot open /nonexistent/x.csv: No such file or directory");
}

}  // namespace
}  // namespace keyscope::test
