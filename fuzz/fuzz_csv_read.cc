// libFuzzer target: the RFC 4180 reader (CsvReader) on arbitrary bytes, in a
// few dialects, and the writer on what it reads.
//
// Input: byte 0 picks the dialect and the reader's settings (bits 0-1 the
// delimiter , ; TAB |; bits 2-3 the quote " ' none "; bit 4 a record limit of
// 64 bytes instead of 64 MiB; bit 5 a first line of padding that puts the
// reader's 64 KiB buffer boundary at offset byte 1 of the rest; bit 6 the
// writer's line ending LF instead of CRLF); the rest is the CSV text.
//
// Checks: no crash (ASan/UBSan); the reader ends after at most one call per
// input byte (plus one); records start on increasing lines; an error names a
// line within the input and, when it gives one, a column within that line (or
// one past its end); the fields never hold more bytes than the input; input
// that reads without error, written back by CsvWriter in the same dialect,
// reads back to the same records (or, without quoting, is refused only for a
// leading byte order mark, which nothing but quotes would keep).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "keyscope/bytes.h"
#include "keyscope/csv.h"

namespace {

using keyscope::CsvDialect;
using keyscope::CsvReader;
using keyscope::CsvRecord;

// The reader's buffer size (csv_reader.cc), for the padding that moves its boundary.
constexpr size_t kReaderBuffer = size_t{64} << 10;
constexpr size_t kSmallRecordLimit = 64;

[[noreturn]] void fail(const std::string& what, std::string_view text) {
  std::fprintf(stderr, "%s\n  input: %s\n", what.c_str(),
               keyscope::toStringBinary(text.substr(0, 2000)).c_str());
  std::abort();
}

// Characters (UTF-8 lead bytes) on each physical line; CR, LF and CRLF each end one.
std::vector<size_t> charactersPerLine(std::string_view text) {
  std::vector<size_t> lines(1, 0);
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\r' || c == '\n') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      lines.push_back(0);
    } else if ((static_cast<uint8_t>(c) & 0xC0) != 0x80) {
      ++lines.back();
    }
  }
  return lines;
}

// "line L, column C: ..." or "line L: ...": L and C (0 when there is none).
bool parsePosition(const std::string& message, unsigned long* line, unsigned long* column) {
  if (message.rfind("line ", 0) != 0) return false;
  char* end = nullptr;
  *line = std::strtoul(message.c_str() + 5, &end, 10);
  *column = 0;
  if (std::string_view(end).rfind(", column ", 0) == 0) {
    *column = std::strtoul(end + 9, &end, 10);
    if (*column == 0) return false;
  }
  return *end == ':';
}

struct Outcome {
  std::vector<std::vector<std::string>> records;
  size_t errors = 0;
};

Outcome readAll(std::string_view text, const CsvDialect& dialect, size_t maxRecordBytes) {
  const std::vector<size_t> lines = charactersPerLine(text);
  std::istringstream in{std::string(text)};
  CsvReader reader(in, dialect, maxRecordBytes);
  CsvRecord record;
  Outcome out;
  uint64_t lastLine = 0;
  size_t fieldBytes = 0;
  for (size_t calls = 0;; ++calls) {
    if (calls > text.size() + 1) fail("the reader does not end", text);
    keyscope::Result<bool> got = reader.next(&record);
    if (got && !*got) break;
    if (!got) {
      const std::string message = got.status().message();
      unsigned long line = 0, column = 0;
      if (got.status().code() != keyscope::Status::Code::kInvalidArgument || !parsePosition(message, &line, &column))
        fail("error without a position: " + got.status().toString(), text);
      if (line < 1 || line > lines.size()) fail("error on a line outside the input: " + message, text);
      if (column > lines[line - 1] + 1) fail("error at a column past the end of its line: " + message, text);
      if (line < lastLine) fail("error on a line before the last record's: " + message, text);
      ++out.errors;
      continue;
    }
    if (record.line <= lastLine || record.line > lines.size())
      fail("record on line " + std::to_string(record.line) + " after one on line " + std::to_string(lastLine), text);
    lastLine = record.line;
    if (record.fields.empty()) fail("a record without fields", text);
    for (const std::string& field : record.fields) {
      fieldBytes += field.size();
      if (field.size() > maxRecordBytes) fail("a field longer than the record limit", text);
    }
    if (fieldBytes > text.size()) fail("the fields hold more bytes than the input", text);
    out.records.push_back(record.fields);
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t mode = data[0];
  static const char kDelimiters[] = {',', ';', '\t', '|'};
  CsvDialect dialect;
  dialect.delimiter = kDelimiters[mode & 3];
  switch ((mode >> 2) & 3) {
    case 1: dialect.quote = '\''; break;
    case 2: dialect.quote.reset(); break;
    default: dialect.quote = '"'; break;
  }
  dialect.lineEnding = (mode & 0x40) != 0 ? "\n" : "\r\n";
  if (!keyscope::validateDialect(dialect).isOk()) std::abort();
  const size_t maxRecordBytes = (mode & 0x10) != 0 ? kSmallRecordLimit : CsvReader::kDefaultMaxRecordBytes;

  std::string text;
  std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
  if ((mode & 0x20) != 0 && !rest.empty()) {
    // One line of padding, so the buffer ends `offset` bytes into the rest.
    const size_t offset = static_cast<uint8_t>(rest[0]);
    rest.remove_prefix(1);
    text.assign(kReaderBuffer - offset - 1, 'p');
    text += '\n';
  }
  text += rest;

  const Outcome first = readAll(text, dialect, maxRecordBytes);
  if (first.errors > 0) return 0;

  std::ostringstream written;
  keyscope::CsvWriter writer(written, dialect);
  for (size_t i = 0; i < first.records.size(); ++i) {
    const auto& fields = first.records[i];
    if (keyscope::Status s = writer.writeRecord(fields); !s) {
      // Without quotes nothing can keep a first field's leading byte order
      // mark: the one refusal allowed, and it must say so.
      const bool bom = !dialect.quote && i == 0 && fields[0].starts_with("\xEF\xBB\xBF");
      if (bom && s.message().find("byte order mark") != std::string::npos) return 0;
      fail("a record read does not write: " + s.toString(), text);
    }
  }
  const std::string again = written.str();
  const Outcome second = readAll(again, dialect, CsvReader::kDefaultMaxRecordBytes);
  if (second.errors > 0 || second.records != first.records)
    fail("written records read back differently; written: " + keyscope::toStringBinary(again.substr(0, 2000)), text);
  return 0;
}
