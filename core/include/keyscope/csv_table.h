// CSV import into tables and export from them (docs/CSV.md).
//
// Two layouts:
//   long  one line per cell: row, family, qualifier, timestamp, type, value.
//         Exact: versions, timestamps and (from raw scans) delete markers.
//   wide  one line per row: the row key, then one column per family:qualifier
//         holding the latest value; a cell the row lacks is an empty field.
//
// Column names, in headers and in an import's column spec, are
//   row | HBASE_ROW_KEY           the row key
//   row.NAME                      component NAME of the key schema (split out
//                                 by an export's decodeKey; an import builds
//                                 the key from them when there is no row column)
//   timestamp | HBASE_TS_KEY      the cell timestamp (decimal milliseconds)
//   family:qualifier              wide: a cell column (qualifier in \xNN form)
//   family                        wide: family with the empty qualifier (as ImportTsv)
//   family qualifier type value   long: the cell's coordinates, type and value
//   - | HBASE_SKIP                a column the import ignores
// Reserved names win: a family called "row" is written "row:" in a spec.
//
// Row keys, qualifiers and values in data fields are rendered with one
// ByteFormat (escaped, hex, base64, raw); names in headers are always in
// Bytes.toStringBinary form.
//
// Thread rules: each call runs on its caller's thread and uses the Workspace
// as any other client does (it may be shared with other threads).
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "keyscope/byte_format.h"
#include "keyscope/cancel_token.h"
#include "keyscope/csv.h"
#include "keyscope/options.h"
#include "keyscope/status.h"
#include "keyscope/workspace.h"

namespace keyscope {

enum class CsvLayout : uint8_t {
  kAuto,  // import: long when a column is named "family", else wide; export: long
  kWide,
  kLong,
};
const char* csvLayoutName(CsvLayout layout);  // "auto", "wide", "long"

// --- Import -------------------------------------------------------------------

enum class CsvHeader : uint8_t {
  kNone,  // every line is data; the columns come from the spec
  kSkip,  // the first line is ignored; the columns come from the spec
  kUse,   // the first line names the columns
};

enum class BadLines : uint8_t {
  kSkip,  // report each bad line, import the others (ImportTsv's skip.bad.lines)
  kFail,  // a bad line anywhere means nothing is imported (see importCsv)
};

struct CsvBadLine {
  uint64_t line = 0;     // the physical line the record starts on
  std::string message;   // "line 7, field 3 (d:age): bad hex digit 'g' at character 2"
};

struct CsvImportProgress {
  enum class Phase : uint8_t { kValidating, kWriting };
  Phase phase = Phase::kWriting;
  uint64_t bytesRead = 0;
  uint64_t totalBytes = 0;  // 0: unknown
  uint64_t records = 0;     // data records read in this phase
  uint64_t badLines = 0;
};

struct CsvImportOptions {
  CsvDialect dialect;
  // One name per CSV column (the forms above). Empty: the header names them,
  // which needs header == kUse.
  std::vector<std::string> columns;
  CsvHeader header = CsvHeader::kUse;
  CsvLayout layout = CsvLayout::kAuto;
  // Key schema for row.NAME columns (docs/KEY-SCHEMAS.md); empty: the table's own.
  std::string keySchema;
  ByteFormat bytes = ByteFormat::kEscaped;
  BadLines badLines = BadLines::kSkip;
  // Wide layout: an empty field writes no cell, so that a wide export (where
  // a missing cell is an empty field) reads back as it was. false: an empty
  // value is put, as ImportTsv does by default.
  bool skipEmptyValues = true;
  // The timestamp of cells whose line has none; nullopt: the workspace clock,
  // read once when the import starts (ImportTsv's single timestamp).
  std::optional<int64_t> timestamp;
  // Lines are written in atomic batches of this many records or bytes,
  // whichever comes first: big enough that per-write costs vanish, small
  // enough that a batch is a few MiB of memory.
  size_t batchRecords = 2000;
  size_t batchBytes = size_t{4} << 20;
  WriteOptions write;
  bool flushAtEnd = true;   // flush the table's memstores when done
  uint64_t totalBytes = 0;  // size of the input, for progress; 0: unknown
  size_t maxBadLinesKept = 100;  // CsvImportReport::badLineSamples
  std::function<void(const CsvImportProgress&)> progress;  // a few times per MiB read
  std::function<void(const CsvBadLine&)> onBadLine;        // every bad line, as found
  const CancelToken* cancel = nullptr;
};

struct CsvImportReport {
  CsvLayout layout = CsvLayout::kAuto;  // the layout used
  std::vector<std::string> columns;     // the column names used
  int64_t timestamp = 0;                // given to cells whose line has none
  uint64_t records = 0;                 // data records read (header and blank lines excluded)
  uint64_t imported = 0;                // records written
  uint64_t cells = 0;                   // cells and delete markers written
  uint64_t badLines = 0;
  std::vector<CsvBadLine> badLineSamples;  // the first maxBadLinesKept
  std::vector<std::string> notes;          // things worth telling the user
};

// Imports CSV from `in` into an existing table.
//
// With BadLines::kSkip the input is read once; bad lines are reported and
// counted, the others written in batches.
//
// With BadLines::kFail the input is read twice: a first pass checks every
// line exactly as the write would (fields, bytes, key schema, families, size
// limits, timestamps) and writes nothing; only when no line is bad does a
// second pass write. The engine has no multi-row transaction, so this is the
// guarantee: a bad line leaves the table untouched. An I/O error, a
// cancellation or a file changed between the passes (detected when a line
// fails the second time; Corruption) can still stop the second pass after
// some batches were written; the report then counts them. `in` must be
// seekable for kFail (a file; a pipe is refused with InvalidArgument).
//
// Returns OK (possibly with bad lines skipped: see report->badLines);
// InvalidArgument for a bad column spec, header, schema or table, or for bad
// lines under kFail; IOError; Cancelled. `report` is filled in either way.
Status importCsv(Workspace& ws, std::string_view table, std::istream& in, const CsvImportOptions& options,
                 CsvImportReport* report);

// importCsv on a file; totalBytes is its size. IOError names the file.
Status importCsvFile(Workspace& ws, std::string_view table, const std::string& path, CsvImportOptions options,
                     CsvImportReport* report);

// --- Export -------------------------------------------------------------------

struct CsvExportProgress {
  uint64_t rows = 0;
  uint64_t cells = 0;
};

struct CsvExportOptions {
  // What to read. The wide layout needs maxVersions == 1 and no raw scan.
  ScanOptions scan;
  CsvLayout layout = CsvLayout::kLong;
  ByteFormat bytes = ByteFormat::kEscaped;
  CsvDialect dialect;
  bool header = true;
  // Adds a row.NAME column per key schema component after the row column.
  bool decodeKey = false;
  std::string keySchema;  // empty: the table's own (decodeKey then needs one)
  std::function<void(const CsvExportProgress&)> progress;  // every few thousand cells
  const CancelToken* cancel = nullptr;
};

struct CsvExportReport {
  uint64_t rows = 0;
  uint64_t cells = 0;     // long: lines written; wide: non-empty value fields
  uint64_t columns = 0;   // wide: family:qualifier columns
  bool spooled = false;   // wide: rows went through a temporary file
  uint64_t undecodedKeys = 0;    // decodeKey: keys that did not fit the schema
  std::string firstDecodeError;  // "row \x01abc: offset 9, component 'ts': ..."
};

// Writes the scan's cells to `out` as CSV (a header first unless header is
// false).
//
// The wide layout needs its column set before its first line. When the scan
// names every column (family:qualifier), that is the set. Otherwise the rows
// go once through a temporary file (std::tmpfile) while the columns are
// collected, and the header and the lines follow from it: one scan, so the
// output is what that one scan saw (two scans could see different columns
// under concurrent writes), at the cost of writing the values once to disk.
// Memory holds the column names only.
//
// Returns InvalidArgument (nothing written) for bad options, a missing table
// or schema; IOError when writing fails; Cancelled. Whatever was written
// before a failure stays in `out`.
Status exportCsv(const Workspace& ws, std::string_view table, std::ostream& out, const CsvExportOptions& options,
                 CsvExportReport* report);

}  // namespace keyscope
