// CSV export (see csv_table.h): one scan, written as long or wide lines.
#include <algorithm>
#include <ostream>
#include <set>

#include "csv/key_text.h"
#include "csv/wide_spool.h"
#include "keyscope/csv_table.h"

namespace keyscope {

namespace {

// Progress and cancellation are looked at once per this many cells: often
// enough to stop within a fraction of a second.
constexpr uint64_t kCheckEveryCells = 4096;

class Exporter {
 public:
  Exporter(std::ostream& out, const CsvExportOptions& options, CsvExportReport* report, std::optional<KeySchema> schema)
      : m_writer(out, options.dialect), m_options(options), m_report(report), m_schema(std::move(schema)) {}

  Status exportLong(Scanner& scanner) {
    if (m_options.header) {
      startHeader();
      for (const char* name : {"family", "qualifier", "timestamp", "type", "value"}) m_writer.add(name);
      if (Status s = m_writer.endRecord(); !s) return s;
    }
    RowResult row;
    Bytes lastRow;
    bool first = true;
    while (scanner.next(&row)) {
      if (first || row.row != lastRow) ++m_report->rows;  // a batch may split a row
      first = false;
      lastRow = row.row;
      for (const Cell& cell : row.cells) {
        startLine(cell.row);
        m_writer.add(cell.family);
        m_writer.add(formatBytes(cell.qualifier, m_options.bytes));
        m_writer.add(std::to_string(cell.timestamp));
        m_writer.add(cellTypeName(cell.type));
        m_writer.add(formatBytes(cell.value, m_options.bytes));
        if (Status s = endLine(cell.row); !s) return s;
        if (Status s = counted(1); !s) return s;
      }
    }
    return scanner.status();
  }

  // The columns are known up front: stream.
  Status exportWide(Scanner& scanner, const std::vector<csv::ColumnName>& columns) {
    if (Status s = wideHeader(columns); !s) return s;
    std::map<csv::ColumnName, size_t> position;
    for (size_t i = 0; i < columns.size(); ++i) position.emplace(columns[i], i);
    RowResult row;
    std::vector<std::pair<size_t, Bytes>> cells;
    while (scanner.next(&row)) {
      cells.clear();
      for (Cell& cell : row.cells) {
        auto it = position.find(csv::ColumnName(cell.family, cell.qualifier));
        if (it != position.end()) cells.emplace_back(it->second, std::move(cell.value));
      }
      if (Status s = wideLine(row.row, cells, columns.size()); !s) return s;
    }
    return scanner.status();
  }

  // The columns are found on the way: park the rows, then write.
  Status exportWideSpooled(Scanner& scanner) {
    Result<std::unique_ptr<csv::WideSpool>> spool = csv::WideSpool::create();
    if (!spool) return spool.status();
    m_report->spooled = true;
    RowResult row;
    uint64_t cells = 0;
    while (scanner.next(&row)) {
      if (Status s = (*spool)->add(row); !s) return s;
      cells += row.cells.size();
      if (cells >= kCheckEveryCells) {
        cells = 0;
        if (m_options.cancel != nullptr && m_options.cancel->cancelled())
          return Status::cancelled("export cancelled while reading the table");
      }
    }
    if (Status s = scanner.status(); !s) return s;
    const std::vector<csv::ColumnName> columns = (*spool)->sortedColumns();
    if (Status s = wideHeader(columns); !s) return s;
    return (*spool)->replay([&](BytesView rowKey, const std::vector<std::pair<size_t, Bytes>>& rowCells) {
      return wideLine(rowKey, rowCells, columns.size());
    });
  }

 private:
  void startHeader() {
    m_writer.add("row");
    if (m_schema) {
      for (const KeyComponent& c : m_schema->components()) m_writer.add("row." + c.name);
    }
  }

  Status wideHeader(const std::vector<csv::ColumnName>& columns) {
    m_report->columns = columns.size();
    if (!m_options.header) return Status::ok();
    startHeader();
    for (const auto& [family, qualifier] : columns) m_writer.add(family + ":" + toStringBinary(qualifier));
    return m_writer.endRecord();
  }

  // The row key and, with decodeKey, its components.
  void startLine(BytesView row) {
    m_writer.add(formatBytes(row, m_options.bytes));
    if (!m_schema) return;
    if (row != m_decodedRow || m_keyFields.empty()) {
      m_decodedRow = Bytes(row);
      m_keyFields.assign(m_schema->size(), std::string());
      DecodedKey decoded = decodeKey(*m_schema, row);
      for (size_t i = 0; i < decoded.values.size() && i < m_schema->size(); ++i)
        m_keyFields[i] = csv::componentToText((*m_schema)[i], decoded.values[i], m_options.bytes);
      if (decoded.error) {
        // Components that did not decode keep empty fields.
        if (m_report->undecodedKeys++ == 0)
          m_report->firstDecodeError = "row " + toStringBinary(row) + ": " + decoded.error->toString(*m_schema);
      }
    }
    for (const std::string& field : m_keyFields) m_writer.add(field);
  }

  Status wideLine(BytesView row, const std::vector<std::pair<size_t, Bytes>>& cells, size_t columnCount) {
    ++m_report->rows;
    startLine(row);
    size_t next = 0;
    for (const auto& [column, value] : cells) {
      for (; next < column; ++next) m_writer.add("");
      m_writer.add(formatBytes(value, m_options.bytes));
      next = column + 1;
    }
    for (; next < columnCount; ++next) m_writer.add("");
    if (Status s = endLine(row); !s) return s;
    return counted(cells.size());
  }

  // Ends a data line; a line the dialect cannot hold says which.
  Status endLine(BytesView row) {
    Status s = m_writer.endRecord();
    if (s || s.code() != Status::Code::kInvalidArgument) return s;
    return Status::invalidArgument("output line " + std::to_string(m_writer.records() + 1) + " (row " +
                                   toStringBinary(row) + "): " + s.message() +
                                   " (turn quoting on, or render bytes escaped, hex or base64)");
  }

  Status counted(uint64_t cells) {
    m_report->cells += cells;
    m_sinceCheck += cells;
    if (m_sinceCheck < kCheckEveryCells) return Status::ok();
    m_sinceCheck = 0;
    if (m_options.progress) m_options.progress(CsvExportProgress{m_report->rows, m_report->cells});
    if (m_options.cancel != nullptr && m_options.cancel->cancelled())
      return Status::cancelled("export cancelled after " + std::to_string(m_report->rows) + " rows");
    return Status::ok();
  }

  CsvWriter m_writer;
  const CsvExportOptions& m_options;
  CsvExportReport* m_report;
  std::optional<KeySchema> m_schema;  // with decodeKey
  Bytes m_decodedRow;
  std::vector<std::string> m_keyFields;
  uint64_t m_sinceCheck = 0;
};

}  // namespace

Status exportCsv(const Workspace& ws, std::string_view table, std::ostream& out, const CsvExportOptions& options,
                 CsvExportReport* report) {
  *report = {};
  if (Status s = validateDialect(options.dialect); !s) return s;
  const bool wide = options.layout == CsvLayout::kWide;
  if (wide && (options.scan.raw || options.scan.maxVersions != 1))
    return Status::invalidArgument("the wide layout holds the latest value of each column: "
                                   "more versions and raw scans need the long layout");
  Result<TableOptions> descriptor = ws.describeTable(table);
  if (!descriptor) return descriptor.status();
  std::optional<KeySchema> schema;
  if (options.decodeKey) {
    const std::string& text = options.keySchema.empty() ? descriptor->keySchema : options.keySchema;
    if (text.empty())
      return Status::invalidArgument("decoding keys needs a key schema: give one, or set one on table '" +
                                     std::string(table) + "'");
    Result<KeySchema> parsed = KeySchema::parse(text);
    if (!parsed) return Status::invalidArgument("key schema: " + parsed.status().message());
    schema = std::move(parsed).value();
  }
  ScanOptions scan = options.scan;
  if (wide) scan.batch = -1;  // a wide line is a whole row
  Result<std::unique_ptr<Scanner>> scanner = ws.scan(table, scan);
  if (!scanner) return scanner.status();

  Exporter exporter(out, options, report, std::move(schema));
  Status status;
  if (!wide) {
    status = exporter.exportLong(**scanner);
  } else {
    const bool named = !scan.columns.empty() &&
                       std::all_of(scan.columns.begin(), scan.columns.end(), [](const ColumnSelector& c) { return c.qualifier.has_value(); });
    if (named) {
      std::set<csv::ColumnName> unique;
      for (const ColumnSelector& c : scan.columns) unique.emplace(c.family, *c.qualifier);
      status = exporter.exportWide(**scanner, std::vector<csv::ColumnName>(unique.begin(), unique.end()));
    } else {
      status = exporter.exportWideSpooled(**scanner);
    }
  }
  if (status) out.flush();
  if (status && !out) status = Status::ioError("writing the CSV output failed");
  return status;
}

}  // namespace keyscope
