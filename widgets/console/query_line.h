// The query console's two views of one query: the form's value (QuerySpec)
// and the shell line (the language of keyscope-cli shell, keyscope/shell_command.h).
//
//   form  -> line: queryLine(spec) writes the get or scan with only the
//                  options that differ from their defaults;
//   line  -> form: parseConsoleLine(text) parses with core's ShellParser and,
//                  when the line is one get or scan the form can hold
//                  exactly, gives its QuerySpec (checked by writing the spec
//                  back and comparing the two parsed commands).
//
// The engine reads some options the shell language has no words for (the
// "now" TTLs are judged against, results per family and their offset,
// an exclusive start or inclusive stop row). The console writes them as a
// trailing comment, which keyscope-cli shell skips and the console reads:
//
//   scan 'web_visits', {LIMIT => 10}  # console: NOW => 1767225600000, MAX_RESULTS_PER_FAMILY => 2
//
// Keys: NOW (ms since the epoch), MAX_RESULTS_PER_FAMILY, ROW_OFFSET_PER_FAMILY,
// START_INCLUSIVE, STOP_INCLUSIVE (true/false). They apply to get and scan only.
//
// Byte strings in the form are HBase's toStringBinary text (printable ASCII
// as is, any other byte as \xNN), as in the data browser's key box.
//
// Pure values and functions; any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "keyscope/bytes.h"
#include "keyscope/options.h"
#include "keyscope/shell_command.h"
#include "keyscope/status.h"

namespace keyscope {

enum class QueryKind : uint8_t { kScan, kGet };

// A column of COLUMNS: a family, or one qualifier of it, with its value
// formatter ('f:q:toLong').
struct QueryColumn {
  std::string family;
  std::optional<Bytes> qualifier;
  std::optional<shell::ValueFormatter> formatter;  // qualified columns only

  bool operator==(const QueryColumn&) const = default;
};

// Everything the console's form holds. Defaults are the engine's.
struct QuerySpec {
  QueryKind kind = QueryKind::kScan;
  std::string table;
  Bytes row;                          // get
  // Scan rows: a prefix (ROWPREFIXFILTER) replaces the start and stop rows.
  std::optional<Bytes> rowPrefix;
  Bytes startRow;                     // empty: from the beginning (the end, reversed)
  bool startInclusive = true;
  Bytes stopRow;                      // empty: to the end
  bool stopInclusive = false;         // the shell reads start == stop as one row (inclusive)
  bool reversed = false;
  bool raw = false;
  int64_t limit = -1;                 // rows; -1: none
  int32_t batch = -1;                 // cells per result; -1: whole rows
  // Get and scan.
  std::vector<QueryColumn> columns;   // empty: every family
  std::optional<int64_t> timestamp;   // TIMESTAMP; wins over timeRange
  TimeRange timeRange;                // TIMERANGE [min, max)
  int32_t versions = 1;
  std::string filter;                 // the filter language; empty: none
  int32_t maxResultsPerFamily = -1;   // -1: no cap
  int32_t rowOffsetPerFamily = 0;
  bool cacheBlocks = true;
  std::optional<int64_t> now;         // TTLs judged at this time (ms); nullopt: the workspace clock
  shell::ValueFormatter formatter = shell::ValueFormatter::kToStringBinary;  // FORMATTER

  bool operator==(const QuerySpec&) const = default;
};

// The shell line for `spec`: "scan 't', {STARTROW => 'a', ...}" (and the
// console comment when it needs one). One line, no newline.
std::string queryLine(const QuerySpec& spec);

// `bytes` as a shell string literal: 'text' when that is exact, else a
// double-quoted literal with \xNN, \" and \\ escapes.
std::string shellLiteral(BytesView bytes);

// A console line, parsed.
struct ConsoleLine {
  // OK, or the first error: InvalidArgument, "line 1, column 17: ...".
  Status status;
  int errorColumn = 0;                   // 1-based character column of the error; 0: unknown
  std::vector<shell::Command> commands;  // every statement, when status is OK
  std::vector<std::string> names;        // their command names
  // When the line is one get or scan the form can hold exactly.
  std::optional<QuerySpec> spec;
  // When it is one get or scan the form cannot hold: why ("MAXLENGTH").
  std::string formCannotHold;

  bool isSingleRead() const;             // one get or scan
};

// Parses `line` with the shell's parser, applies the console comment's
// options to a get or scan, and derives the form's spec.
ConsoleLine parseConsoleLine(std::string_view line);

// The ScanCommand/GetCommand the spec runs as (queryLine parsed, comment applied).
Result<shell::Command> commandForSpec(const QuerySpec& spec);

// Two reads that would return the same cells shown the same way.
bool sameRead(const shell::Command& a, const shell::Command& b);

}  // namespace keyscope
