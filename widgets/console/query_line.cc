// QuerySpec <-> shell line (see query_line.h). Pure functions.
#include "console/query_line.h"

#include <cctype>
#include <charconv>
#include <limits>
#include <variant>

#include "keyscope/filter.h"

namespace keyscope {

namespace {

constexpr std::string_view kCommentMarker = "console:";

bool isPlainPrintable(char c) { return c >= 0x20 && c <= 0x7e; }

// Where the trailing comment starts: the first '#' outside a string literal
// (npos: none). Backslash escapes are skipped inside literals.
size_t commentStart(std::string_view line) {
  char quote = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quote) {
      if (c == '\\') {
        ++i;
      } else if (c == quote) {
        quote = 0;
      }
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '#') {
      return i;
    }
  }
  return std::string_view::npos;
}

// The line without its string literals and comment: for spotting option names.
std::string codeOutsideStrings(std::string_view line) {
  std::string out;
  char quote = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quote) {
      if (c == '\\') {
        ++i;
      } else if (c == quote) {
        quote = 0;
      }
    } else if (c == '\'' || c == '"') {
      quote = c;
      out.push_back(' ');
    } else if (c == '#') {
      break;
    } else {
      out.push_back(c);
    }
  }
  return out;
}

// The console comment's options.
struct Extras {
  std::optional<int64_t> now;
  std::optional<int32_t> maxResultsPerFamily;
  std::optional<int32_t> rowOffsetPerFamily;
  std::optional<bool> startInclusive;
  std::optional<bool> stopInclusive;
  bool any() const {
    return now || maxResultsPerFamily || rowOffsetPerFamily || startInclusive || stopInclusive;
  }
};

Status errorAtColumn(size_t offset, const std::string& message) {
  return Status::invalidArgument("line 1, column " + std::to_string(offset + 1) + ": " + message);
}

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Reads "# console: KEY => value, ..." starting at `start` (the '#').
// Comments that are not the console's are ignored.
Status readExtras(std::string_view line, size_t start, Extras* extras) {
  size_t i = start + 1;
  while (i < line.size() && isSpace(line[i])) ++i;
  if (line.substr(i, kCommentMarker.size()) != kCommentMarker) return Status::ok();
  i += kCommentMarker.size();
  auto skipSpaces = [&] {
    while (i < line.size() && isSpace(line[i])) ++i;
  };
  bool first = true;
  for (;;) {
    skipSpaces();
    if (i >= line.size()) break;
    if (!first) {
      if (line[i] != ',') return errorAtColumn(i, "console options: expected ',' between options");
      ++i;
      skipSpaces();
    }
    first = false;
    const size_t keyAt = i;
    while (i < line.size() && (std::isalpha(static_cast<unsigned char>(line[i])) || line[i] == '_')) ++i;
    const std::string key(line.substr(keyAt, i - keyAt));
    if (key.empty()) return errorAtColumn(keyAt, "console options: expected an option name");
    skipSpaces();
    if (line.substr(i, 2) != "=>") return errorAtColumn(i, "console options: expected '=>' after '" + key + "'");
    i += 2;
    skipSpaces();
    const size_t valueAt = i;
    while (i < line.size() && !isSpace(line[i]) && line[i] != ',') ++i;
    const std::string_view value = line.substr(valueAt, i - valueAt);
    auto readInt = [&](int64_t min, int64_t max) -> std::optional<int64_t> {
      int64_t n = 0;
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
      if (ec != std::errc() || end != value.data() + value.size() || value.empty() || n < min || n > max)
        return std::nullopt;
      return n;
    };
    auto readFlag = [&]() -> std::optional<bool> {
      if (value == "true") return true;
      if (value == "false") return false;
      return std::nullopt;
    };
    if (key == "NOW") {
      auto n = readInt(0, std::numeric_limits<int64_t>::max());
      if (!n) return errorAtColumn(valueAt, "NOW: expected milliseconds since the epoch (0 or more)");
      extras->now = *n;
    } else if (key == "MAX_RESULTS_PER_FAMILY") {
      auto n = readInt(-1, std::numeric_limits<int32_t>::max());
      if (!n) return errorAtColumn(valueAt, "MAX_RESULTS_PER_FAMILY: expected a count (-1: no cap)");
      extras->maxResultsPerFamily = static_cast<int32_t>(*n);
    } else if (key == "ROW_OFFSET_PER_FAMILY") {
      auto n = readInt(0, std::numeric_limits<int32_t>::max());
      if (!n) return errorAtColumn(valueAt, "ROW_OFFSET_PER_FAMILY: expected a count (0 or more)");
      extras->rowOffsetPerFamily = static_cast<int32_t>(*n);
    } else if (key == "START_INCLUSIVE" || key == "STOP_INCLUSIVE") {
      auto b = readFlag();
      if (!b) return errorAtColumn(valueAt, key + ": expected true or false");
      (key == "START_INCLUSIVE" ? extras->startInclusive : extras->stopInclusive) = *b;
    } else {
      return errorAtColumn(keyAt, "console options: unknown option '" + key +
                                      "' (NOW, MAX_RESULTS_PER_FAMILY, ROW_OFFSET_PER_FAMILY, "
                                      "START_INCLUSIVE, STOP_INCLUSIVE)");
    }
  }
  return Status::ok();
}

void applyExtras(const Extras& extras, ReadOptions* read) {
  if (extras.now) read->now = extras.now;
  if (extras.maxResultsPerFamily) read->maxResultsPerFamily = *extras.maxResultsPerFamily;
  if (extras.rowOffsetPerFamily) read->rowOffsetPerFamily = *extras.rowOffsetPerFamily;
}

// "line 1, column 17: ..." -> 17; 0 when the message names no column.
int columnOf(const std::string& message) {
  const size_t at = message.find("column ");
  if (at == std::string::npos) return 0;
  int column = 0;
  const char* begin = message.data() + at + 7;
  std::from_chars(begin, message.data() + message.size(), column);
  return column;
}

std::string escapeDoubleQuoted(std::string_view text, bool escapeNonAscii) {
  std::string out = "\"";
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\' || c == '#') {
      out.push_back('\\');
      out.push_back(c);
    } else if (isPlainPrintable(c) || (!escapeNonAscii && byte >= 0x80)) {
      out.push_back(c);
    } else {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out.push_back(kHex[byte >> 4]);
      out.push_back(kHex[byte & 0xf]);
    }
  }
  out.push_back('"');
  return out;
}

// What the shell reads for STARTROW/STOPROW alone: start inclusive, stop
// exclusive unless start == stop.
bool shellStopInclusive(const QuerySpec& spec) {
  return !spec.startRow.empty() && spec.startRow == spec.stopRow;
}

std::string columnText(const QueryColumn& column) {
  std::string text = column.family;
  if (column.qualifier) text += ":" + *column.qualifier;
  if (column.qualifier && column.formatter) text += std::string(":") + shell::valueFormatterName(*column.formatter);
  return text;
}

const ReadOptions& readOptionsOf(const shell::Command& command) {
  if (const auto* get = std::get_if<shell::GetCommand>(&command)) return get->options;
  return std::get<shell::ScanCommand>(command).options;
}

bool sameFilter(const std::shared_ptr<const Filter>& a, const std::shared_ptr<const Filter>& b) {
  if (!a || !b) return !a && !b;
  return a->toString() == b->toString();
}

bool sameReadOptions(const ReadOptions& a, const ReadOptions& b) {
  if (a.columns.size() != b.columns.size()) return false;
  for (size_t i = 0; i < a.columns.size(); ++i) {
    if (a.columns[i].family != b.columns[i].family || a.columns[i].qualifier != b.columns[i].qualifier) return false;
  }
  return a.timeRange == b.timeRange && a.familyTimeRanges == b.familyTimeRanges && a.maxVersions == b.maxVersions &&
         sameFilter(a.filter, b.filter) && a.maxResultsPerFamily == b.maxResultsPerFamily &&
         a.rowOffsetPerFamily == b.rowOffsetPerFamily && a.cacheBlocks == b.cacheBlocks && a.now == b.now;
}

bool sameFormat(const shell::OutputFormat& a, const shell::OutputFormat& b) {
  return a.values == b.values && a.columns == b.columns && a.maxLength == b.maxLength && a.metrics == b.metrics;
}

// The spec of a parsed get or scan; `asPrefix`: read a scan's range as a
// ROWPREFIXFILTER.
QuerySpec specOf(const shell::Command& command, bool asPrefix) {
  QuerySpec spec;
  const ReadOptions& read = readOptionsOf(command);
  const shell::OutputFormat* format = nullptr;
  if (const auto* get = std::get_if<shell::GetCommand>(&command)) {
    spec.kind = QueryKind::kGet;
    spec.table = get->table;
    spec.row = get->options.row;
    format = &get->format;
  } else {
    const auto& scan = std::get<shell::ScanCommand>(command);
    spec.kind = QueryKind::kScan;
    spec.table = scan.table;
    const ScanOptions& o = scan.options;
    if (asPrefix) {
      spec.rowPrefix = o.reversed ? o.stopRow : o.startRow;
    } else {
      spec.startRow = o.startRow;
      spec.stopRow = o.stopRow;
      spec.startInclusive = o.startInclusive;
      spec.stopInclusive = o.stopInclusive;
    }
    spec.reversed = o.reversed;
    spec.raw = o.raw;
    spec.limit = o.limit;
    spec.batch = o.batch;
    format = &scan.format;
  }
  for (const ColumnSelector& c : read.columns) {
    QueryColumn column{c.family, c.qualifier, std::nullopt};
    if (c.qualifier) {
      const auto found = format->columns.find({c.family, *c.qualifier});
      if (found != format->columns.end()) column.formatter = found->second;
    }
    spec.columns.push_back(std::move(column));
  }
  if (!read.timeRange.isAllTime()) {
    if (read.timeRange.max != std::numeric_limits<int64_t>::max() && read.timeRange.max == read.timeRange.min + 1) {
      spec.timestamp = read.timeRange.min;
    } else {
      spec.timeRange = read.timeRange;
    }
  }
  spec.versions = read.maxVersions;
  if (read.filter) spec.filter = read.filter->toString();
  spec.maxResultsPerFamily = read.maxResultsPerFamily;
  spec.rowOffsetPerFamily = read.rowOffsetPerFamily;
  spec.cacheBlocks = read.cacheBlocks;
  spec.now = read.now;
  spec.formatter = format->values;
  return spec;
}

// What in `command` the form has no field for, for the note under the line.
std::string whatTheFormLacks(const shell::Command& command) {
  const ReadOptions& read = readOptionsOf(command);
  const shell::OutputFormat& format = std::holds_alternative<shell::GetCommand>(command)
                                          ? std::get<shell::GetCommand>(command).format
                                          : std::get<shell::ScanCommand>(command).format;
  if (format.maxLength >= 0) return "MAXLENGTH";
  if (format.metrics) return "ALL_METRICS";
  if (!read.familyTimeRanges.empty()) return "per-family time ranges";
  return "this combination of options";
}

}  // namespace

std::string shellLiteral(BytesView bytes) {
  bool singleQuotable = true;
  for (char c : bytes) {
    if (!isPlainPrintable(c) || c == '\'' || c == '\\') singleQuotable = false;
  }
  if (singleQuotable) return "'" + std::string(bytes) + "'";
  return escapeDoubleQuoted(bytes, /*escapeNonAscii=*/true);
}

std::string queryLine(const QuerySpec& spec) {
  const bool scan = spec.kind == QueryKind::kScan;
  std::string line = scan ? "scan " : "get ";
  line += shellLiteral(spec.table);
  if (!scan) line += ", " + shellLiteral(spec.row);
  std::vector<std::string> options;
  auto add = [&options](const std::string& key, const std::string& value) { options.push_back(key + " => " + value); };
  Extras extras;
  if (scan) {
    if (spec.rowPrefix) {
      add("ROWPREFIXFILTER", shellLiteral(*spec.rowPrefix));
    } else {
      if (!spec.startRow.empty()) add("STARTROW", shellLiteral(spec.startRow));
      if (!spec.stopRow.empty()) add("STOPROW", shellLiteral(spec.stopRow));
      if (!spec.startInclusive) extras.startInclusive = false;
      if (spec.stopInclusive != shellStopInclusive(spec)) extras.stopInclusive = spec.stopInclusive;
    }
  }
  if (!spec.columns.empty()) {
    if (spec.columns.size() == 1) {
      add("COLUMNS", shellLiteral(columnText(spec.columns.front())));
    } else {
      std::string list = "[";
      for (size_t i = 0; i < spec.columns.size(); ++i) {
        if (i) list += ", ";
        list += shellLiteral(columnText(spec.columns[i]));
      }
      add("COLUMNS", list + "]");
    }
  }
  if (spec.timestamp) {
    add("TIMESTAMP", std::to_string(*spec.timestamp));
  } else if (!spec.timeRange.isAllTime()) {
    add("TIMERANGE", "[" + std::to_string(spec.timeRange.min) + ", " + std::to_string(spec.timeRange.max) + "]");
  }
  if (spec.versions != 1) add("VERSIONS", std::to_string(spec.versions));
  if (scan) {
    if (spec.reversed) add("REVERSED", "true");
    if (spec.raw) add("RAW", "true");
    if (spec.limit > 0) add("LIMIT", std::to_string(spec.limit));
    if (spec.batch > 0) add("BATCH", std::to_string(spec.batch));
  }
  if (!spec.filter.empty()) add("FILTER", escapeDoubleQuoted(spec.filter, /*escapeNonAscii=*/false));
  if (!spec.cacheBlocks) add("CACHE_BLOCKS", "false");
  if (spec.formatter != shell::ValueFormatter::kToStringBinary)
    add("FORMATTER", shellLiteral(shell::valueFormatterName(spec.formatter)));
  if (spec.now) extras.now = spec.now;
  if (spec.maxResultsPerFamily != -1) extras.maxResultsPerFamily = spec.maxResultsPerFamily;
  if (spec.rowOffsetPerFamily != 0) extras.rowOffsetPerFamily = spec.rowOffsetPerFamily;

  if (!options.empty()) {
    line += ", {";
    for (size_t i = 0; i < options.size(); ++i) {
      if (i) line += ", ";
      line += options[i];
    }
    line += "}";
  }
  if (extras.any()) {
    std::vector<std::string> parts;
    if (extras.now) parts.push_back("NOW => " + std::to_string(*extras.now));
    if (extras.maxResultsPerFamily) parts.push_back("MAX_RESULTS_PER_FAMILY => " + std::to_string(*extras.maxResultsPerFamily));
    if (extras.rowOffsetPerFamily) parts.push_back("ROW_OFFSET_PER_FAMILY => " + std::to_string(*extras.rowOffsetPerFamily));
    if (extras.startInclusive) parts.push_back(std::string("START_INCLUSIVE => ") + (*extras.startInclusive ? "true" : "false"));
    if (extras.stopInclusive) parts.push_back(std::string("STOP_INCLUSIVE => ") + (*extras.stopInclusive ? "true" : "false"));
    line += "  # ";
    line += kCommentMarker;
    for (size_t i = 0; i < parts.size(); ++i) line += (i ? ", " : " ") + parts[i];
  }
  return line;
}

bool ConsoleLine::isSingleRead() const {
  return status.isOk() && commands.size() == 1 &&
         (std::holds_alternative<shell::GetCommand>(commands.front()) ||
          std::holds_alternative<shell::ScanCommand>(commands.front()));
}

ConsoleLine parseConsoleLine(std::string_view line) {
  ConsoleLine parsed;
  for (shell::Statement& statement : shell::parseShell(line)) {
    if (!statement.status.isOk()) {
      parsed.status = statement.status;
      parsed.errorColumn = columnOf(statement.status.message());
      parsed.commands.clear();
      parsed.names.clear();
      return parsed;
    }
    parsed.names.push_back(statement.name);
    parsed.commands.push_back(std::move(*statement.command));
  }
  if (parsed.commands.empty()) {
    parsed.status = Status::invalidArgument("line 1, column 1: nothing to run: type a command (help lists them)");
    parsed.errorColumn = 1;
    return parsed;
  }
  Extras extras;
  if (const size_t comment = commentStart(line); comment != std::string_view::npos) {
    if (Status s = readExtras(line, comment, &extras); !s.isOk()) {
      parsed.status = s;
      parsed.errorColumn = columnOf(s.message());
      parsed.commands.clear();
      parsed.names.clear();
      return parsed;
    }
  }
  if (!parsed.isSingleRead()) {
    if (extras.any()) {
      parsed.status = errorAtColumn(commentStart(line), "console options apply to a single get or scan only");
      parsed.errorColumn = static_cast<int>(commentStart(line)) + 1;
      parsed.commands.clear();
      parsed.names.clear();
    }
    return parsed;
  }
  shell::Command& command = parsed.commands.front();
  if (auto* get = std::get_if<shell::GetCommand>(&command)) {
    applyExtras(extras, &get->options);
    if (extras.startInclusive || extras.stopInclusive) {
      parsed.status = errorAtColumn(commentStart(line), "START_INCLUSIVE and STOP_INCLUSIVE apply to a scan only");
      parsed.errorColumn = static_cast<int>(commentStart(line)) + 1;
      parsed.commands.clear();
      parsed.names.clear();
      return parsed;
    }
  } else {
    auto& scan = std::get<shell::ScanCommand>(command);
    applyExtras(extras, &scan.options);
    if (extras.startInclusive) scan.options.startInclusive = *extras.startInclusive;
    if (extras.stopInclusive) scan.options.stopInclusive = *extras.stopInclusive;
  }

  // The form's reading: a prefix when the line wrote one, else the range.
  std::vector<bool> readings = {false};
  if (std::holds_alternative<shell::ScanCommand>(command) &&
      codeOutsideStrings(line).find("ROWPREFIXFILTER") != std::string::npos)
    readings.insert(readings.begin(), true);
  for (bool asPrefix : readings) {
    QuerySpec spec = specOf(command, asPrefix);
    Result<shell::Command> back = commandForSpec(spec);
    if (back.isOk() && sameRead(*back, command)) {
      parsed.spec = std::move(spec);
      return parsed;
    }
  }
  parsed.formCannotHold = whatTheFormLacks(command);
  return parsed;
}

Result<shell::Command> commandForSpec(const QuerySpec& spec) {
  ConsoleLine parsed;
  const std::string line = queryLine(spec);
  std::vector<shell::Statement> statements = shell::parseShell(line);
  if (statements.size() != 1) return Status::invalidArgument("the form's query is not one statement: " + line);
  if (!statements.front().status.isOk()) return statements.front().status;
  shell::Command command = std::move(*statements.front().command);
  Extras extras;
  if (const size_t comment = commentStart(line); comment != std::string_view::npos) {
    if (Status s = readExtras(line, comment, &extras); !s.isOk()) return s;
  }
  if (auto* get = std::get_if<shell::GetCommand>(&command)) {
    applyExtras(extras, &get->options);
  } else if (auto* scan = std::get_if<shell::ScanCommand>(&command)) {
    applyExtras(extras, &scan->options);
    if (extras.startInclusive) scan->options.startInclusive = *extras.startInclusive;
    if (extras.stopInclusive) scan->options.stopInclusive = *extras.stopInclusive;
  }
  return command;
}

bool sameRead(const shell::Command& a, const shell::Command& b) {
  if (const auto* ga = std::get_if<shell::GetCommand>(&a)) {
    const auto* gb = std::get_if<shell::GetCommand>(&b);
    return gb && ga->table == gb->table && ga->options.row == gb->options.row &&
           sameReadOptions(ga->options, gb->options) && sameFormat(ga->format, gb->format);
  }
  const auto* sa = std::get_if<shell::ScanCommand>(&a);
  const auto* sb = std::get_if<shell::ScanCommand>(&b);
  if (!sa || !sb) return false;
  const ScanOptions& x = sa->options;
  const ScanOptions& y = sb->options;
  return sa->table == sb->table && x.startRow == y.startRow && x.startInclusive == y.startInclusive &&
         x.stopRow == y.stopRow && x.stopInclusive == y.stopInclusive && x.reversed == y.reversed &&
         x.raw == y.raw && x.limit == y.limit && x.batch == y.batch && sameReadOptions(x, y) &&
         sameFormat(sa->format, sb->format);
}

}  // namespace keyscope
