// CSV: a streaming RFC 4180 reader and writer.
//
// The reader pulls one record at a time from a std::istream through a fixed
// 64 KiB buffer, so a file of any size streams in bounded memory (one record
// at a time, each capped by maxRecordBytes). It reads RFC 4180 with these
// choices, which are also Python's csv module's:
//   - records end at LF, CR or CRLF; the last one may lack a line ending;
//   - a field is quoted when it starts with the quote character; inside it,
//     delimiters and line breaks (kept byte for byte) are data and a doubled
//     quote is one quote;
//   - blank lines are not records (a lone empty field is written `""`);
//   - a UTF-8 byte order mark at the very start of the input is skipped;
//   - fields are bytes: no character set is assumed, nothing is trimmed.
// Where Python is lenient, the reader is strict (RFC 4180), because a stray
// quote is nearly always a damaged line: a quote inside an unquoted field, or
// anything but a delimiter or a line ending after a closing quote, is
// malformed, and so is a quoted field still open at the end of the input.
//
// Positions are 1-based: `line` counts physical lines (CRLF is one line
// break), `column` counts UTF-8 characters on that line (bytes that are not
// continuation bytes).
//
// The writer quotes a field only when it must (QUOTE_MINIMAL): it holds the
// delimiter, the quote character, CR or LF, or it is a record's only field
// and empty (else the record would be a blank line). What it writes reads
// back identically with CsvReader and with Python's csv.reader (open the file
// with newline="").
//
// Not thread-safe: one reader or writer per thread. The streams must outlive them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "keyscope/status.h"

namespace keyscope {

struct CsvDialect {
  char delimiter = ',';
  std::optional<char> quote = '"';  // nullopt: no quoting at all; every byte is data
  std::string lineEnding = "\r\n";  // the writer's; RFC 4180 says CRLF. The reader accepts all three.
};

// InvalidArgument when the dialect cannot work: the delimiter or the quote is
// CR or LF, the two are equal, or the line ending is not "\n", "\r\n" or "\r".
Status validateDialect(const CsvDialect& dialect);

struct CsvRecord {
  std::vector<std::string> fields;
  uint64_t line = 0;  // the physical line the record starts on
};

class CsvReader {
 public:
  // A record longer than this is reported malformed instead of being held:
  // it is nearly always a quote that never closes, and the limit keeps memory
  // bounded. 64 MiB is six times the engine's largest value (10 MiB) even
  // after base64 or \xNN escaping, with room for the other fields.
  static constexpr size_t kDefaultMaxRecordBytes = size_t{64} << 20;

  // REQUIRES: validateDialect(dialect) is OK.
  CsvReader(std::istream& in, CsvDialect dialect, size_t maxRecordBytes = kDefaultMaxRecordBytes);

  // Reads the next record into *record (its field strings are reused, so a
  // caller that keeps one record object allocates little). Returns
  //   true             a record was read
  //   false            the input is exhausted
  //   InvalidArgument  the record starting on record->line is malformed:
  //                    "line 3, column 17: stray quote in an unquoted field ...".
  //                    The reader has skipped to the end of the physical line
  //                    where it found the fault, so next() may be called to go on.
  //   IOError          reading failed; every later call fails the same way.
  Result<bool> next(CsvRecord* record);

  // Bytes consumed from the stream so far (a BOM included): for progress.
  uint64_t bytesRead() const { return m_consumed; }

 private:
  enum class State { kFieldStart, kUnquoted, kQuoted, kQuoteInQuoted };

  bool fill();  // false at the end of input or on error (then m_ioError)
  int peekByte();  // -1 at the end of input
  void advance(char c);
  void skipRestOfLine();
  void appendByte(char c);
  void endField();
  Status malformed(uint64_t line, uint64_t column, const std::string& what);

  std::istream& m_in;
  CsvDialect m_dialect;
  size_t m_maxRecordBytes;
  std::vector<char> m_buffer;
  size_t m_pos = 0;
  size_t m_end = 0;
  uint64_t m_consumed = 0;
  bool m_started = false;  // the BOM check is done
  bool m_eof = false;
  Status m_ioError;

  uint64_t m_line = 1;
  uint64_t m_column = 0;  // characters consumed on the current line

  // The record being read.
  CsvRecord* m_record = nullptr;
  size_t m_fieldCount = 0;
  size_t m_recordBytes = 0;
  bool m_oversized = false;
};

class CsvWriter {
 public:
  // REQUIRES: validateDialect(dialect) is OK.
  CsvWriter(std::ostream& out, CsvDialect dialect);

  // Adds one field to the current record.
  void add(std::string_view field);
  // Writes the current record and its line ending. InvalidArgument (nothing
  // written) when quoting is off and a field holds the delimiter or a line
  // break; IOError when the stream failed.
  Status endRecord();

  // The whole record at once.
  Status writeRecord(const std::vector<std::string>& fields);

  uint64_t records() const { return m_records; }

 private:
  bool needsQuotes(std::string_view field, size_t index) const;

  std::ostream& m_out;
  CsvDialect m_dialect;
  std::vector<std::string> m_fields;
  size_t m_fieldCount = 0;
  std::string m_line;
  uint64_t m_records = 0;
};

}  // namespace keyscope
