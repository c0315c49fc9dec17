// CsvReader: RFC 4180 records pulled through a fixed buffer (see csv.h).
//
// A byte-at-a-time state machine, with bulk copies for the runs of ordinary
// bytes between delimiters, quotes and line breaks:
//
//   STATE           BYTE             ACTION
//   field start     quote            open a quoted field
//                   delimiter        an empty field
//                   CR / LF          end of record (a blank line when nothing came before)
//                   other            start an unquoted field
//   unquoted        delimiter        end of field
//                   CR / LF          end of field and record
//                   quote            malformed: stray quote
//   quoted          quote            maybe the closing quote (see the next byte)
//                   CR / LF          data, kept byte for byte
//   quote in quoted quote            a doubled quote: one quote of data
//                   delimiter        end of field
//                   CR / LF          end of field and record
//                   other            malformed: data after the closing quote
//   end of input in a quoted field: malformed (never closed); elsewhere it ends the record.
#include <cstring>
#include <istream>

#include "keyscope/bytes.h"
#include "keyscope/csv.h"

namespace keyscope {

namespace {

// 64 KiB: large enough that the per-read overhead vanishes, small enough to
// be irrelevant to memory.
constexpr size_t kBufferBytes = size_t{64} << 10;

bool isContinuationByte(char c) { return (static_cast<uint8_t>(c) & 0xC0) == 0x80; }

std::string describeByte(char c) { return "'" + toStringBinary(std::string_view(&c, 1)) + "'"; }

std::string describeSize(size_t bytes) {
  if (bytes % (size_t{1} << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes) + " bytes";
}

}  // namespace

Status validateDialect(const CsvDialect& dialect) {
  auto isLineBreak = [](char c) { return c == '\r' || c == '\n'; };
  if (isLineBreak(dialect.delimiter)) return Status::invalidArgument("the delimiter cannot be a line break");
  if (dialect.quote) {
    if (isLineBreak(*dialect.quote)) return Status::invalidArgument("the quote character cannot be a line break");
    if (*dialect.quote == dialect.delimiter)
      return Status::invalidArgument("the quote character and the delimiter must differ");
  }
  if (dialect.lineEnding != "\n" && dialect.lineEnding != "\r\n" && dialect.lineEnding != "\r")
    return Status::invalidArgument("the line ending must be LF, CRLF or CR");
  return Status::ok();
}

CsvReader::CsvReader(std::istream& in, CsvDialect dialect, size_t maxRecordBytes)
    : m_in(in), m_dialect(std::move(dialect)), m_maxRecordBytes(maxRecordBytes), m_buffer(kBufferBytes) {}

bool CsvReader::fill() {
  if (m_pos < m_end) return true;
  if (m_eof) return false;
  m_pos = 0;
  m_end = 0;
  m_in.read(m_buffer.data(), static_cast<std::streamsize>(m_buffer.size()));
  m_end = static_cast<size_t>(m_in.gcount());
  if (m_end == 0) {
    m_eof = true;
    if (m_in.bad()) m_ioError = Status::ioError("reading the input failed after " + std::to_string(m_consumed) + " bytes");
    return false;
  }
  return true;
}

int CsvReader::peekByte() { return fill() ? static_cast<uint8_t>(m_buffer[m_pos]) : -1; }

void CsvReader::advance(char c) {
  ++m_pos;
  ++m_consumed;
  if (!isContinuationByte(c)) ++m_column;
}

void CsvReader::appendByte(char c) {
  if (++m_recordBytes > m_maxRecordBytes) {
    m_oversized = true;
    return;
  }
  if (m_fieldCount == m_record->fields.size()) m_record->fields.emplace_back();
  m_record->fields[m_fieldCount].push_back(c);
}

void CsvReader::endField() {
  // A field that received no byte still needs its (empty) slot.
  if (m_fieldCount == m_record->fields.size()) m_record->fields.emplace_back();
  ++m_fieldCount;
  if (m_fieldCount < m_record->fields.size()) m_record->fields[m_fieldCount].clear();
}

void CsvReader::skipRestOfLine() {
  for (int b = peekByte(); b >= 0; b = peekByte()) {
    const char c = static_cast<char>(b);
    ++m_pos;
    ++m_consumed;
    if (c == '\n' || c == '\r') {
      if (c == '\r' && peekByte() == '\n') {
        ++m_pos;
        ++m_consumed;
      }
      ++m_line;
      m_column = 0;
      return;
    }
  }
}

Status CsvReader::malformed(uint64_t line, uint64_t column, const std::string& what) {
  return Status::invalidArgument("line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + what);
}

Result<bool> CsvReader::next(CsvRecord* record) {
  if (!m_ioError.isOk()) return m_ioError;
  if (!m_started) {
    m_started = true;
    // A UTF-8 byte order mark may straddle a short first read: look at three bytes.
    while (m_end - m_pos < 3 && !m_eof) {
      std::memmove(m_buffer.data(), m_buffer.data() + m_pos, m_end - m_pos);
      m_end -= m_pos;
      m_pos = 0;
      m_in.read(m_buffer.data() + m_end, static_cast<std::streamsize>(m_buffer.size() - m_end));
      const auto got = static_cast<size_t>(m_in.gcount());
      if (got == 0) {
        m_eof = true;
        if (m_in.bad()) return m_ioError = Status::ioError("reading the input failed");
      }
      m_end += got;
    }
    if (m_end - m_pos >= 3 && std::memcmp(m_buffer.data() + m_pos, "\xEF\xBB\xBF", 3) == 0) {
      m_pos += 3;
      m_consumed += 3;
    }
  }

  m_record = record;
  m_fieldCount = 0;
  m_recordBytes = 0;
  m_oversized = false;
  if (!record->fields.empty()) record->fields[0].clear();
  record->line = m_line;

  const char delimiter = m_dialect.delimiter;
  const bool quoting = m_dialect.quote.has_value();
  const char quote = quoting ? *m_dialect.quote : '\0';
  State state = State::kFieldStart;
  bool started = false;  // anything but a blank line seen
  uint64_t quoteLine = 0, quoteColumn = 0;

  auto finish = [&]() -> Result<bool> {
    record->fields.resize(m_fieldCount);
    if (m_oversized)
      return Status::invalidArgument("line " + std::to_string(record->line) + ": record longer than the limit of " +
                                     describeSize(m_maxRecordBytes) + " (a quoted field that never closes?)");
    return true;
  };
  // Consumes a line break (CR, LF or CRLF) that starts at the current byte;
  // inside a quoted field its bytes are data.
  auto lineBreak = [&](bool keep) {
    const char c = m_buffer[m_pos];
    ++m_pos;
    ++m_consumed;
    if (keep) appendByte(c);
    if (c == '\r' && peekByte() == '\n') {
      ++m_pos;
      ++m_consumed;
      if (keep) appendByte('\n');
    }
    ++m_line;
    m_column = 0;
  };
  // Copies the run of bytes that are not special in the current state.
  auto copyRun = [&](bool inQuotes) {
    const size_t start = m_pos;
    while (m_pos < m_end) {
      const char c = m_buffer[m_pos];
      if (c == '\n' || c == '\r' || (quoting && c == quote) || (!inQuotes && c == delimiter)) break;
      if (!isContinuationByte(c)) ++m_column;
      ++m_pos;
    }
    const size_t n = m_pos - start;
    m_consumed += n;
    m_recordBytes += n;
    if (m_recordBytes > m_maxRecordBytes) {
      m_oversized = true;
      return;
    }
    if (m_fieldCount == m_record->fields.size()) m_record->fields.emplace_back();
    m_record->fields[m_fieldCount].append(m_buffer.data() + start, n);
  };

  for (;;) {
    const int b = peekByte();
    if (b < 0) {
      if (!m_ioError.isOk()) return m_ioError;
      switch (state) {
        case State::kFieldStart:
          if (!started) {
            record->fields.clear();
            return false;
          }
          endField();
          return finish();
        case State::kUnquoted:
        case State::kQuoteInQuoted: endField(); return finish();
        case State::kQuoted:
          return malformed(quoteLine, quoteColumn, "quoted field never closed: the input ended inside it");
      }
    }
    const char c = static_cast<char>(b);
    const bool isBreak = c == '\n' || c == '\r';
    switch (state) {
      case State::kFieldStart:
        if (isBreak) {
          lineBreak(false);
          if (!started) {  // a blank line
            record->line = m_line;
            continue;
          }
          endField();
          return finish();
        }
        started = true;
        advance(c);
        if (quoting && c == quote) {
          quoteLine = m_line;
          quoteColumn = m_column;
          state = State::kQuoted;
        } else if (c == delimiter) {
          endField();
        } else {
          appendByte(c);
          state = State::kUnquoted;
        }
        continue;
      case State::kUnquoted:
        if (c == delimiter) {
          advance(c);
          endField();
          state = State::kFieldStart;
        } else if (isBreak) {
          lineBreak(false);
          endField();
          return finish();
        } else if (quoting && c == quote) {
          advance(c);
          const uint64_t line = m_line, column = m_column;
          skipRestOfLine();
          return malformed(line, column,
                           "stray quote in an unquoted field (RFC 4180: quote the whole field and double the quote)");
        } else {
          copyRun(false);
        }
        continue;
      case State::kQuoted:
        if (quoting && c == quote) {
          advance(c);
          state = State::kQuoteInQuoted;
        } else if (isBreak) {
          lineBreak(true);
        } else {
          copyRun(true);
        }
        continue;
      case State::kQuoteInQuoted:
        if (c == quote) {
          advance(c);
          appendByte(c);
          state = State::kQuoted;
        } else if (c == delimiter) {
          advance(c);
          endField();
          state = State::kFieldStart;
        } else if (isBreak) {
          lineBreak(false);
          endField();
          return finish();
        } else {
          advance(c);
          const uint64_t line = m_line, column = m_column;
          skipRestOfLine();
          return malformed(line, column,
                           describeByte(c) + " after the closing quote of a field (expected the delimiter or the end of the line)");
        }
        continue;
    }
  }
}

}  // namespace keyscope
