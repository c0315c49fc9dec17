// `keyscope-cli import WORKSPACE TABLE FILE [options]`: CSV or TSV into a
// table, in the manner of HBase's ImportTsv (docs/CSV.md).
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>

#include "cli_io.h"
#include "cli_workspace.h"
#include "csv_cli.h"
#include "keyscope/csv_table.h"
#include "keyscope/workspace.h"

namespace keyscope::cli {

namespace {

constexpr const char* kImportUsage =
    "usage: keyscope-cli import WORKSPACE TABLE FILE [options]     (FILE '-': standard input)\n"
    "  --columns LIST          one name per CSV column, comma-separated (ImportTsv's importtsv.columns):\n"
    "                          HBASE_ROW_KEY or row; HBASE_TS_KEY or timestamp; family:qualifier;\n"
    "                          row.NAME (a key schema component); - or HBASE_SKIP (ignored);\n"
    "                          long layout: family, qualifier, type, value\n"
    "  --header use|skip|none  first line names the columns (default without --columns),\n"
    "                          is ignored, or is data (default with --columns)\n"
    "  --layout auto|wide|long auto: long when a column is named 'family' (default)\n"
    "  --separator C           field delimiter, one character or 'tab' (default ','; also --delimiter)\n"
    "  --quote C|none          quote character (default '\"')\n"
    "  --key-schema SCHEMA     builds row keys from row.NAME columns (default: the table's schema)\n"
    "  --bytes escaped|hex|base64|raw\n"
    "                          how row keys, qualifiers and values are written (default escaped: \\xNN)\n"
    "  --bad-lines skip|fail   skip: report bad lines and import the rest (default);\n"
    "                          fail: check the whole file first, import nothing if a line is bad\n"
    "  --timestamp MS          timestamp of cells without a timestamp column (default: now, once)\n"
    "  --empty skip|put        wide layout: an empty field writes no cell (default) or an empty value\n"
    "  --batch N               records per atomic write (default 2000)\n"
    "  --progress, --no-progress  progress on stderr (default: when stderr is a terminal)\n"
    "Exit status: 0 all imported, 1 bad lines skipped or the import stopped, 2 bad usage or input.\n";

// Bad lines listed by number in the summary, at most.
constexpr size_t kLinesListed = 20;
// Bad lines printed in full on stderr, at most (the rest are counted).
constexpr size_t kLinesPrinted = 100;

int usageError(Streams io, const std::string& message) {
  io.err << "keyscope-cli: import: " << message << "\n";
  return kExitBadInput;
}

std::string lineList(const CsvImportReport& report) {
  std::string list;
  for (size_t i = 0; i < report.badLineSamples.size() && i < kLinesListed; ++i)
    list += (i == 0 ? "" : ", ") + std::to_string(report.badLineSamples[i].line);
  if (report.badLines > kLinesListed) list += ", ...";
  return list;
}

// Copies standard input to a temporary file (for --bad-lines fail, which
// reads its input twice). The file is unlinked at once; the stream keeps it.
Result<std::unique_ptr<std::fstream>> spoolStdin(std::istream& in) {
  const char* dir = std::getenv("TMPDIR");
  std::string path = std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/keyscope-import-XXXXXX";
  const int fd = ::mkstemp(path.data());
  if (fd < 0) return Status::ioError("cannot create a temporary file in " + path.substr(0, path.rfind('/')));
  ::close(fd);
  auto file = std::make_unique<std::fstream>(path, std::ios::in | std::ios::out | std::ios::binary | std::ios::trunc);
  ::unlink(path.c_str());
  if (!*file) return Status::ioError("cannot open the temporary file " + path);
  *file << in.rdbuf();
  if (!*file) return Status::ioError("copying standard input to a temporary file failed");
  file->seekg(0);
  return file;
}

}  // namespace

int runImportCommand(const Args& args, Streams io) {
  std::vector<std::string> positional;
  CsvImportOptions options;
  std::optional<CsvHeader> header;
  std::optional<bool> progress;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "-h" || arg == "--help") {
      io.out << kImportUsage;
      return kExitOk;
    }
    if (arg == "--progress" || arg == "--no-progress") {
      progress = arg == "--progress";
      continue;
    }
    if (!arg.starts_with("--") || arg == "-") {
      positional.push_back(arg);
      continue;
    }
    if (i + 1 >= args.size()) return usageError(io, arg + " needs a value");
    const std::string& value = args[++i];
    Status bad;
    if (arg == "--columns") {
      Result<std::vector<std::string>> list = listArg(value);
      if (!list) bad = Status::invalidArgument("--columns: " + list.status().message());
      else options.columns = *list;
    } else if (arg == "--header") {
      if (value == "use") header = CsvHeader::kUse;
      else if (value == "skip") header = CsvHeader::kSkip;
      else if (value == "none") header = CsvHeader::kNone;
      else bad = Status::invalidArgument("--header takes use, skip or none");
    } else if (arg == "--layout") {
      if (value == "auto") options.layout = CsvLayout::kAuto;
      else if (value == "wide") options.layout = CsvLayout::kWide;
      else if (value == "long") options.layout = CsvLayout::kLong;
      else bad = Status::invalidArgument("--layout takes auto, wide or long");
    } else if (arg == "--separator" || arg == "--delimiter") {
      Result<char> c = delimiterArg(value);
      if (!c) bad = c.status();
      else options.dialect.delimiter = *c;
    } else if (arg == "--quote") {
      Result<std::optional<char>> q = quoteArg(value);
      if (!q) bad = q.status();
      else options.dialect.quote = *q;
    } else if (arg == "--key-schema") {
      options.keySchema = value;
    } else if (arg == "--bytes") {
      Result<ByteFormat> f = byteFormatArg(value);
      if (!f) bad = f.status();
      else options.bytes = *f;
    } else if (arg == "--bad-lines") {
      if (value == "skip") options.badLines = BadLines::kSkip;
      else if (value == "fail") options.badLines = BadLines::kFail;
      else bad = Status::invalidArgument("--bad-lines takes skip or fail");
    } else if (arg == "--timestamp") {
      char* end = nullptr;
      const long long ts = std::strtoll(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0' || ts < 0) bad = Status::invalidArgument("--timestamp takes milliseconds (0 or more)");
      else options.timestamp = ts;
    } else if (arg == "--empty") {
      if (value == "skip") options.skipEmptyValues = true;
      else if (value == "put") options.skipEmptyValues = false;
      else bad = Status::invalidArgument("--empty takes skip or put");
    } else if (arg == "--batch") {
      char* end = nullptr;
      const unsigned long long n = std::strtoull(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0' || n == 0 || n > 1000000) bad = Status::invalidArgument("--batch takes 1 to 1000000");
      else options.batchRecords = n;
    } else {
      return usageError(io, "unknown option '" + arg + "' (see keyscope-cli import --help)");
    }
    if (!bad.isOk()) return usageError(io, bad.message());
  }
  if (positional.size() != 3) {
    io.err << kImportUsage;
    return kExitBadInput;
  }
  const std::string& wsPath = positional[0];
  const std::string& table = positional[1];
  const std::string& file = positional[2];
  const std::string name = file == "-" ? "<stdin>" : file;
  options.header = header.value_or(options.columns.empty() ? CsvHeader::kUse : CsvHeader::kNone);
  if (Status s = validateDialect(options.dialect); !s) return usageError(io, s.message());

  Result<std::unique_ptr<Workspace>> ws = Workspace::open(wsPath, cliOpenOptions(wsPath, /*createIfMissing=*/false));
  if (!ws) return usageError(io, ws.status().message());

  ProgressLine line(io.err, progress.value_or(stderrIsTerminal()), stderrIsTerminal());
  options.progress = [&](const CsvImportProgress& p) {
    std::string text = std::string(p.phase == CsvImportProgress::Phase::kValidating ? "checking " : "importing ") + name +
                       ": ";
    if (p.totalBytes > 0)
      text += std::to_string(p.bytesRead * 100 / p.totalBytes) + "% of " + humanBytes(p.totalBytes) + ", ";
    else
      text += humanBytes(p.bytesRead) + ", ";
    text += withCommas(p.records) + " records";
    if (p.badLines > 0) text += ", " + withCommas(p.badLines) + " bad";
    line.update(text);
  };
  uint64_t printed = 0;
  options.onBadLine = [&](const CsvBadLine& bad) {
    if (printed++ >= kLinesPrinted) return;
    line.finish();
    io.err << "keyscope-cli: " << name << ": " << bad.message << "\n";
  };
  CancelToken cancel;
  options.cancel = &cancel;
  CancelOnInterrupt interrupt(cancel);

  CsvImportReport report;
  Status status;
  if (file == "-") {
    if (options.badLines == BadLines::kFail) {
      Result<std::unique_ptr<std::fstream>> spooled = spoolStdin(io.in);
      if (!spooled) return usageError(io, spooled.status().message());
      status = importCsv(**ws, table, **spooled, options, &report);
    } else {
      status = importCsv(**ws, table, io.in, options, &report);
    }
  } else {
    status = importCsvFile(**ws, table, file, options, &report);
  }
  line.finish();

  for (const std::string& note : report.notes) io.err << "keyscope-cli: " << name << ": note: " << note << "\n";
  if (printed > kLinesPrinted) io.err << "keyscope-cli: " << name << ": ... " << (printed - kLinesPrinted) << " more bad lines\n";
  const bool setupFailed = !status && report.records == 0 && report.badLines == 0;
  if (setupFailed) {
    // Nothing was read: the file, the table or the columns are wrong (or a Ctrl-C came first).
    io.err << "keyscope-cli: " << name << ": " << status.message() << "\n";
    return status.code() == Status::Code::kCancelled ? kExitFailed : kExitBadInput;
  }
  io.err << name << ": " << withCommas(report.records) << " record" << (report.records == 1 ? "" : "s") << ", "
         << withCommas(report.imported) << " imported (" << withCommas(report.cells) << " cell"
         << (report.cells == 1 ? "" : "s") << ") into '" << table << "'";
  if (report.badLines > 0) {
    io.err << "; " << withCommas(report.badLines) << " bad line" << (report.badLines == 1 ? "" : "s") << " ("
           << (report.badLines == 1 ? "line " : "lines ") << lineList(report) << ")";
    if (status) io.err << " skipped";
  }
  io.err << "\n";
  if (!status) {
    io.err << "keyscope-cli: " << name << ": " << status.message() << "\n";
    // Bad lines under --bad-lines fail are bad input; anything else stopped a running import.
    const bool badInput = options.badLines == BadLines::kFail && report.badLines > 0;
    return badInput ? kExitBadInput : kExitFailed;
  }
  return report.badLines > 0 ? kExitFailed : kExitOk;
}

}  // namespace keyscope::cli
