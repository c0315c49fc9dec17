// CsvWriter: RFC 4180 records with minimal quoting (see csv.h).
#include <ostream>

#include "keyscope/csv.h"

namespace keyscope {

CsvWriter::CsvWriter(std::ostream& out, CsvDialect dialect) : m_out(out), m_dialect(std::move(dialect)) {}

bool CsvWriter::needsQuotes(std::string_view field, size_t index) const {
  for (char c : field) {
    if (c == m_dialect.delimiter || c == '\r' || c == '\n' || (m_dialect.quote && c == *m_dialect.quote)) return true;
  }
  // A reader skips a byte order mark at the start of the input: quoted, the
  // first field's own leading BOM is data.
  return m_records == 0 && index == 0 && field.starts_with("\xEF\xBB\xBF");
}

void CsvWriter::add(std::string_view field) {
  const size_t index = m_fieldCount++;
  if (index == m_fields.size()) m_fields.emplace_back();
  m_fields[index].assign(field);
}

Status CsvWriter::endRecord() {
  const size_t count = m_fieldCount;
  m_fieldCount = 0;
  m_line.clear();
  if (count == 1 && m_fields[0].empty()) {
    // Written bare, a lone empty field would be a blank line, which is no record.
    if (!m_dialect.quote)
      return Status::invalidArgument("a record of one empty field cannot be written without quoting");
    m_line.append(2, *m_dialect.quote);
  } else {
    for (size_t i = 0; i < count; ++i) {
      if (i > 0) m_line.push_back(m_dialect.delimiter);
      const std::string& field = m_fields[i];
      if (!needsQuotes(field, i)) {
        m_line += field;
        continue;
      }
      if (!m_dialect.quote) {
        // Only quotes keep a leading byte order mark of the first record (see needsQuotes).
        const bool bom = m_records == 0 && i == 0 && field.starts_with("\xEF\xBB\xBF");
        return Status::invalidArgument("field " + std::to_string(i + 1) +
                                       (bom ? " starts with a UTF-8 byte order mark, which a reader skips at the "
                                              "start of the input,"
                                            : " holds the delimiter or a line break,") +
                                       " and quoting is off");
      }
      const char quote = *m_dialect.quote;
      m_line.push_back(quote);
      for (char c : field) {
        if (c == quote) m_line.push_back(quote);
        m_line.push_back(c);
      }
      m_line.push_back(quote);
    }
  }
  m_line += m_dialect.lineEnding;
  m_out.write(m_line.data(), static_cast<std::streamsize>(m_line.size()));
  if (!m_out) return Status::ioError("writing the CSV output failed");
  ++m_records;
  return Status::ok();
}

Status CsvWriter::writeRecord(const std::vector<std::string>& fields) {
  for (const std::string& field : fields) add(field);
  return endRecord();
}

}  // namespace keyscope
