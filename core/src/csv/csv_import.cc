// CSV import (see csv_table.h): a streaming pass that reads records, maps
// them to mutations and writes them in atomic batches; with BadLines::kFail
// the same pass runs first without writing, to validate the whole input.
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <istream>
#include <system_error>

#include "csv/csv_columns.h"
#include "csv/record_mapper.h"
#include "keyscope/csv_table.h"

namespace keyscope {

namespace {

// Progress goes out at most once per this many bytes read (and after every
// batch): often enough for a smooth display, rarely enough to cost nothing.
constexpr uint64_t kProgressEveryBytes = uint64_t{256} << 10;

class ImportPass {
 public:
  enum class Mode {
    kValidate,      // write nothing; count and report bad lines
    kWrite,         // skip bad lines (BadLines::kSkip)
    kWriteChecked,  // after a clean validation: a bad line means the input changed
  };

  ImportPass(Workspace& ws, std::string_view table, const TableOptions& descriptor, const CsvImportOptions& options,
             CsvImportReport* report, Mode mode)
      : m_ws(ws), m_table(table), m_descriptor(descriptor), m_options(options), m_report(report), m_mode(mode) {}

  Status run(std::istream& in) {
    CsvReader reader(in, m_options.dialect);
    CsvRecord record;
    std::vector<std::string> names = m_options.columns;
    if (m_options.header != CsvHeader::kNone) {
      Result<bool> got = reader.next(&record);
      if (!got) return got.status().code() == Status::Code::kIOError ? got.status()
                                                                     : Status::invalidArgument("header: " + got.status().message());
      if (!*got) {
        if (m_options.header == CsvHeader::kUse) return Status::invalidArgument("the input is empty: no header line");
        return Status::ok();
      }
      if (m_options.header == CsvHeader::kUse) names = record.fields;
    }
    Result<csv::ColumnBinding> binding = csv::bindColumns(names, m_options.layout, m_descriptor, m_options.keySchema);
    if (!binding) {
      const bool fromHeader = m_options.header == CsvHeader::kUse;
      return Status::invalidArgument((fromHeader ? "header (line " + std::to_string(record.line) + "): " : "columns: ") +
                                     binding.status().message());
    }
    m_report->layout = binding->layout;
    m_report->columns = names;
    m_report->notes = binding->notes;
    csv::RecordMapper mapper(*binding, m_descriptor, m_options.bytes, m_options.skipEmptyValues, m_report->timestamp);

    uint64_t nextProgress = 0;
    for (;;) {
      if (m_options.cancel != nullptr && m_options.cancel->cancelled()) return cancelled(record.line);
      Result<bool> got = reader.next(&record);
      if (got && !*got) break;
      if (reader.bytesRead() >= nextProgress) {
        reportProgress(reader.bytesRead());
        nextProgress = reader.bytesRead() + kProgressEveryBytes;
      }
      if (!got) {
        if (got.status().code() == Status::Code::kIOError) return got.status();
        if (Status s = badLine(record.line, got.status().message()); !s) return s;
        continue;
      }
      ++m_records;
      Result<size_t> cells = mapper.map(record, &m_batch, &m_batchBytes);
      if (!cells) {
        const std::string& why = cells.status().message();
        const std::string where = "line " + std::to_string(record.line) + (why.starts_with("field ") ? ", " : ": ");
        if (Status s = badLine(record.line, where + why); !s) return s;
        continue;
      }
      if (m_mode == Mode::kValidate) {
        m_batch.clear();
        m_batchBytes = 0;
        continue;
      }
      if (m_batchRecords == 0) m_batchFirstLine = record.line;
      m_batchLastLine = record.line;
      ++m_batchRecords;
      m_batchCells += *cells;
      if (m_batchRecords >= m_options.batchRecords || m_batchBytes >= m_options.batchBytes) {
        if (Status s = writeBatch(); !s) return s;
        reportProgress(reader.bytesRead());
      }
    }
    if (Status s = writeBatch(); !s) return s;
    reportProgress(reader.bytesRead());
    return Status::ok();
  }

  uint64_t records() const { return m_records; }

 private:
  Status badLine(uint64_t line, const std::string& message) {
    if (m_mode == Mode::kWriteChecked)
      return Status::corruption("the input changed after it was checked: " + message + "; " + writtenSoFar());
    ++m_report->badLines;
    CsvBadLine bad{line, message};
    if (m_options.onBadLine) m_options.onBadLine(bad);
    if (m_report->badLineSamples.size() < m_options.maxBadLinesKept) m_report->badLineSamples.push_back(std::move(bad));
    return Status::ok();
  }

  Status writeBatch() {
    if (m_batch.empty() && m_batchRecords == 0) return Status::ok();
    if (!m_batch.empty()) {
      if (Status s = m_ws.mutate(m_table, m_batch, m_options.write); !s) {
        // Whatever stopped it (a bad value, a full disk): where, and how much is in.
        return s.withMessage("writing lines " + std::to_string(m_batchFirstLine) + "-" +
                             std::to_string(m_batchLastLine) + ": " + s.message() + "; " + writtenSoFar());
      }
    }
    m_report->imported += m_batchRecords;
    m_report->cells += m_batchCells;
    m_batch.clear();
    m_batchBytes = 0;
    m_batchRecords = 0;
    m_batchCells = 0;
    return Status::ok();
  }

  std::string writtenSoFar() const {
    return std::to_string(m_report->imported) + (m_report->imported == 1 ? " record was" : " records were") +
           " imported before it";
  }

  Status cancelled(uint64_t line) const {
    const std::string where = line == 0 ? "before the first line" : "after line " + std::to_string(line);
    if (m_mode == Mode::kValidate)
      return Status::cancelled("import cancelled while checking the input (" + where + "); nothing was imported");
    return Status::cancelled("import cancelled " + where + "; " + std::to_string(m_report->imported) +
                             (m_report->imported == 1 ? " record was" : " records were") + " imported");
  }

  void reportProgress(uint64_t bytesRead) const {
    if (!m_options.progress) return;
    CsvImportProgress p;
    p.phase = m_mode == Mode::kValidate ? CsvImportProgress::Phase::kValidating : CsvImportProgress::Phase::kWriting;
    p.bytesRead = bytesRead;
    p.totalBytes = m_options.totalBytes;
    p.records = m_records;
    p.badLines = m_report->badLines;
    m_options.progress(p);
  }

  Workspace& m_ws;
  std::string_view m_table;
  const TableOptions& m_descriptor;
  const CsvImportOptions& m_options;
  CsvImportReport* m_report;
  Mode m_mode;

  uint64_t m_records = 0;
  std::vector<Mutation> m_batch;
  size_t m_batchBytes = 0;
  size_t m_batchRecords = 0;
  size_t m_batchCells = 0;
  uint64_t m_batchFirstLine = 0;
  uint64_t m_batchLastLine = 0;
};

std::string plural(uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

const char* csvLayoutName(CsvLayout layout) {
  switch (layout) {
    case CsvLayout::kAuto: return "auto";
    case CsvLayout::kWide: return "wide";
    case CsvLayout::kLong: return "long";
  }
  return "?";
}

Status importCsv(Workspace& ws, std::string_view table, std::istream& in, const CsvImportOptions& options,
                 CsvImportReport* report) {
  *report = {};
  if (Status s = validateDialect(options.dialect); !s) return s;
  if (options.columns.empty() && options.header != CsvHeader::kUse)
    return Status::invalidArgument("no column spec: name the columns, or read them from a header line");
  if (!options.columns.empty() && options.header == CsvHeader::kUse)
    return Status::invalidArgument("both a column spec and a header naming the columns: pick one "
                                   "(header 'skip' ignores the input's header line)");
  if (options.batchRecords == 0) return Status::invalidArgument("a batch needs at least one record");
  Result<TableOptions> descriptor = ws.describeTable(table);
  if (!descriptor) return descriptor.status();
  report->timestamp = options.timestamp.value_or(ws.now());
  if (report->timestamp < 0 || report->timestamp == kLatestTimestamp)
    return Status::invalidArgument("the import timestamp " + std::to_string(report->timestamp) + " is out of range");

  Status status;
  if (options.badLines == BadLines::kFail) {
    const std::istream::pos_type start = in.tellg();
    if (start == std::istream::pos_type(-1))
      return Status::invalidArgument("bad lines 'fail' reads the input twice (check, then write), "
                                     "so it needs a file, not a pipe");
    ImportPass check(ws, table, *descriptor, options, report, ImportPass::Mode::kValidate);
    if (Status s = check.run(in); !s) return s;
    report->records = check.records();
    if (report->badLines > 0) {
      const CsvBadLine& first = report->badLineSamples.front();
      return Status::invalidArgument(plural(report->badLines, "bad line", "bad lines") + " (the first: " + first.message +
                                     "); nothing was imported");
    }
    in.clear();
    in.seekg(start);
    if (!in) return Status::ioError("cannot rewind the input for the write pass; nothing was imported");
    ImportPass write(ws, table, *descriptor, options, report, ImportPass::Mode::kWriteChecked);
    status = write.run(in);
    if (status && write.records() != report->records)
      status = Status::corruption("the input changed after it was checked: " + plural(report->records, "record", "records") +
                                  " then, " + std::to_string(write.records()) + " now; all " +
                                  std::to_string(write.records()) + " were imported");
  } else {
    ImportPass pass(ws, table, *descriptor, options, report, ImportPass::Mode::kWrite);
    status = pass.run(in);
    report->records = pass.records();
  }
  if (report->cells > 0 && options.flushAtEnd) {
    // Even after a failure: what was written is better in store files than
    // waiting in the log.
    Status flushed = ws.flush(table);
    if (status && !flushed) status = flushed;
  }
  return status;
}

Status importCsvFile(Workspace& ws, std::string_view table, const std::string& path, CsvImportOptions options,
                     CsvImportReport* report) {
  *report = {};
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return Status::ioError("cannot read " + path + ": it is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::ioError("cannot open " + path + ": " + std::generic_category().message(errno));
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec) options.totalBytes = size;
  return importCsv(ws, table, in, options, report);
}

}  // namespace keyscope
