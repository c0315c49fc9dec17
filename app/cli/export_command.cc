// `keyscope-cli export WORKSPACE TABLE [scan options] --out FILE`: a scan as
// RFC 4180 CSV (docs/CSV.md).
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <system_error>

#include "cli_io.h"
#include "csv_cli.h"
#include "keyscope/csv_table.h"
#include "keyscope/filter.h"
#include "keyscope/workspace.h"

namespace keyscope::cli {

namespace {

constexpr const char* kExportUsage =
    "usage: keyscope-cli export WORKSPACE TABLE [options] [--out FILE]\n"
    "  --out FILE              where to write; '-' or none: standard output. A file is written\n"
    "                          as FILE.part and renamed when complete\n"
    "  --layout long|wide      long: one line per cell (row, family, qualifier, timestamp, type,\n"
    "                          value; default); wide: one line per row, one column per family:qualifier\n"
    "  --bytes escaped|hex|base64|raw\n"
    "                          how row keys, qualifiers and values are written (default escaped: \\xNN)\n"
    "  --decode-key            add a row.NAME column per key schema component\n"
    "  --key-schema SCHEMA     the schema for --decode-key (default: the table's)\n"
    "  --delimiter C           one character or 'tab' (default ','; also --separator)\n"
    "  --quote C|none          (default '\"')\n"
    "  --line-ending crlf|lf   (default crlf, as RFC 4180)\n"
    "  --no-header             no header line\n"
    "scan options (row keys in \\xNN form):\n"
    "  --start ROW  --stop ROW  --prefix ROW  --limit N  --reversed\n"
    "  --columns LIST          families and family:qualifier columns, comma-separated\n"
    "  --time-range MIN,MAX    [MIN, MAX) in milliseconds   --timestamp T\n"
    "  --versions N|all        (long layout)   --raw: delete markers and deleted cells too (long layout)\n"
    "  --filter 'FILTER'       HBase filter language, e.g. \"PrefixFilter ('a')\"\n"
    "  --progress, --no-progress, --quiet\n"
    "Exit status: 0 ok, 1 the export failed or stopped, 2 bad usage.\n";

int usageError(Streams io, const std::string& message) {
  io.err << "keyscope-cli: export: " << message << "\n";
  return kExitBadInput;
}

Result<int64_t> integerArg(const std::string& option, const std::string& text, int64_t min) {
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno != 0 || v < min)
    return Status::invalidArgument(option + " takes an integer of at least " + std::to_string(min) + ", got '" + text + "'");
  return static_cast<int64_t>(v);
}

Result<std::vector<ColumnSelector>> columnsArg(const std::string& text) {
  Result<std::vector<std::string>> items = listArg(text);
  if (!items) return Status::invalidArgument("--columns: " + items.status().message());
  std::vector<ColumnSelector> columns;
  for (const std::string& item : *items) {
    const size_t colon = item.find(':');
    if (item.empty() || colon == 0) return Status::invalidArgument("--columns: '" + item + "' names no family");
    if (colon == std::string::npos) columns.push_back({item, std::nullopt});
    else columns.push_back({item.substr(0, colon), fromStringBinary(std::string_view(item).substr(colon + 1))});
  }
  return columns;
}

}  // namespace

int runExportCommand(const Args& args, Streams io) {
  std::vector<std::string> positional;
  CsvExportOptions options;
  std::string out = "-";
  std::optional<bool> progress;
  bool quiet = false;
  bool versionsGiven = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "-h" || arg == "--help") {
      io.out << kExportUsage;
      return kExitOk;
    }
    if (arg == "--progress" || arg == "--no-progress") {
      progress = arg == "--progress";
      continue;
    }
    if (arg == "--decode-key" || arg == "--no-header" || arg == "--raw" || arg == "--reversed" || arg == "--quiet") {
      if (arg == "--decode-key") options.decodeKey = true;
      if (arg == "--no-header") options.header = false;
      if (arg == "--raw") options.scan.raw = true;
      if (arg == "--reversed") options.scan.reversed = true;
      if (arg == "--quiet") quiet = true;
      continue;
    }
    if (!arg.starts_with("--")) {
      positional.push_back(arg);
      continue;
    }
    if (i + 1 >= args.size()) return usageError(io, arg + " needs a value");
    const std::string& value = args[++i];
    Status bad;
    if (arg == "--out") {
      out = value;
    } else if (arg == "--layout") {
      if (value == "long") options.layout = CsvLayout::kLong;
      else if (value == "wide") options.layout = CsvLayout::kWide;
      else bad = Status::invalidArgument("--layout takes long or wide");
    } else if (arg == "--bytes") {
      Result<ByteFormat> f = byteFormatArg(value);
      if (!f) bad = f.status();
      else options.bytes = *f;
    } else if (arg == "--key-schema") {
      options.keySchema = value;
    } else if (arg == "--delimiter" || arg == "--separator") {
      Result<char> c = delimiterArg(value);
      if (!c) bad = c.status();
      else options.dialect.delimiter = *c;
    } else if (arg == "--quote") {
      Result<std::optional<char>> q = quoteArg(value);
      if (!q) bad = q.status();
      else options.dialect.quote = *q;
    } else if (arg == "--line-ending") {
      Result<std::string> e = lineEndingArg(value);
      if (!e) bad = e.status();
      else options.dialect.lineEnding = *e;
    } else if (arg == "--start") {
      options.scan.startRow = fromStringBinary(value);
    } else if (arg == "--stop") {
      options.scan.stopRow = fromStringBinary(value);
    } else if (arg == "--prefix") {
      options.scan.setRowPrefix(fromStringBinary(value));
    } else if (arg == "--limit") {
      Result<int64_t> n = integerArg(arg, value, 1);
      if (!n) bad = n.status();
      else options.scan.limit = *n;
    } else if (arg == "--columns") {
      Result<std::vector<ColumnSelector>> columns = columnsArg(value);
      if (!columns) bad = columns.status();
      else options.scan.columns = *columns;
    } else if (arg == "--time-range") {
      const size_t comma = value.find(',');
      Result<int64_t> min = integerArg(arg, value.substr(0, comma), 0);
      Result<int64_t> max = comma == std::string::npos ? Result<int64_t>(Status::invalidArgument("--time-range takes MIN,MAX"))
                                                       : integerArg(arg, value.substr(comma + 1), 0);
      if (!min) bad = min.status();
      else if (!max) bad = max.status();
      else options.scan.timeRange = {*min, *max};
      if (bad.isOk()) bad = validateTimeRange(options.scan.timeRange);
    } else if (arg == "--timestamp") {
      Result<int64_t> ts = integerArg(arg, value, 0);
      if (!ts) bad = ts.status();
      else options.scan.timeRange = TimeRange::at(*ts);
    } else if (arg == "--versions") {
      versionsGiven = true;
      if (value == "all") {
        options.scan.maxVersions = std::numeric_limits<int32_t>::max();
      } else {
        Result<int64_t> n = integerArg(arg, value, 1);
        if (!n) bad = n.status();
        else options.scan.maxVersions = static_cast<int32_t>(std::min<int64_t>(*n, std::numeric_limits<int32_t>::max()));
      }
    } else if (arg == "--filter") {
      Result<std::shared_ptr<const Filter>> filter = parseFilter(value);
      if (!filter) bad = Status::invalidArgument("--filter: " + filter.status().message());
      else options.scan.filter = *filter;
    } else {
      return usageError(io, "unknown option '" + arg + "' (see keyscope-cli export --help)");
    }
    if (!bad.isOk()) return usageError(io, bad.message());
  }
  if (positional.size() != 2) {
    io.err << kExportUsage;
    return kExitBadInput;
  }
  if (options.scan.raw && !versionsGiven && options.layout == CsvLayout::kLong)
    options.scan.maxVersions = std::numeric_limits<int32_t>::max();  // a raw export wants every marker and version
  if (Status s = validateDialect(options.dialect); !s) return usageError(io, s.message());
  const std::string& table = positional[1];

  OpenOptions open;
  open.createIfMissing = false;
  Result<std::unique_ptr<Workspace>> ws = Workspace::open(positional[0], open);
  if (!ws) return usageError(io, ws.status().message());

  const bool toFile = out != "-";
  const std::string partial = out + ".part";
  std::ofstream file;
  if (toFile) {
    file.open(partial, std::ios::binary | std::ios::trunc);
    if (!file) return usageError(io, "cannot write " + partial + ": " + std::generic_category().message(errno));
  }
  std::ostream& sink = toFile ? static_cast<std::ostream&>(file) : io.out;

  ProgressLine line(io.err, progress.value_or(stderrIsTerminal()) && !quiet, stderrIsTerminal());
  options.progress = [&](const CsvExportProgress& p) {
    line.update("exporting '" + table + "': " + withCommas(p.rows) + " rows, " + withCommas(p.cells) + " cells");
  };
  CancelToken cancel;
  options.cancel = &cancel;
  CancelOnInterrupt interrupt(cancel);

  CsvExportReport report;
  Status status = exportCsv(**ws, table, sink, options, &report);
  line.finish();
  if (toFile) {
    file.close();
    if (status && !file) status = Status::ioError("writing " + partial + " failed");
    std::error_code ec;
    if (status) {
      std::filesystem::rename(partial, out, ec);
      if (ec) status = Status::ioError("cannot rename " + partial + " to " + out + ": " + ec.message());
    }
    if (!status) std::filesystem::remove(partial, ec);
  }
  if (!status) {
    io.err << "keyscope-cli: export: " << status.message() << "\n";
    const bool usage = report.rows == 0 && (status.code() == Status::Code::kInvalidArgument ||
                                            status.code() == Status::Code::kNotFound);
    return usage ? kExitBadInput : kExitFailed;
  }
  if (report.undecodedKeys > 0)
    io.err << "keyscope-cli: export: " << withCommas(report.undecodedKeys) << " row key"
           << (report.undecodedKeys == 1 ? " does" : "s do") << " not fit the key schema (their row.NAME fields are "
           << "left empty from the fault on); the first: " << report.firstDecodeError << "\n";
  if (!quiet) {
    io.err << "exported " << withCommas(report.rows) << " row" << (report.rows == 1 ? "" : "s") << ", "
           << withCommas(report.cells) << " cell" << (report.cells == 1 ? "" : "s");
    if (options.layout == CsvLayout::kWide) io.err << " in " << report.columns << " column" << (report.columns == 1 ? "" : "s");
    io.err << " from '" << table << "' to " << (toFile ? out : "standard output") << "\n";
  }
  return kExitOk;
}

}  // namespace keyscope::cli
