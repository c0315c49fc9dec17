// BrowseQuery: what the data browser shows (a table, a row range and a
// prefix), and the pages it is read in. Plain values that cross threads.
//
// Paging is by key cursor: each page is a scan that starts just after the
// last row key of the page before (startInclusive false), never an offset,
// so page k costs what page 1 costs however deep the user has scrolled.
// Nothing ever counts the table: the browser knows its row count only once
// a page comes back with atEnd.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "keyscope/bytes.h"
#include "keyscope/key_schema.h"

namespace keyscope {

struct BrowseQuery {
  std::string table;
  Bytes startRow;  // inclusive; empty: the table's first row
  Bytes stopRow;   // exclusive; empty: to the table's end
  Bytes prefix;    // only rows that start with it; empty: every row
  // Splits row keys into decoded components (extra columns); nullopt: none.
  std::optional<KeySchema> keySchema;
  // "View as of": the time TTLs are judged against (ReadOptions::now), so
  // the table reads as it will once TTLs expire then; nullopt: the engine's
  // clock. Changes nothing stored.
  std::optional<int64_t> now;
};

// The [start, stop) a query reads: its range intersected with the prefix's.
struct RowRange {
  Bytes start;           // inclusive; empty: unbounded
  Bytes stop;            // exclusive; empty: unbounded
  bool isEmpty = false;  // the range and the prefix exclude each other
};
RowRange effectiveRange(const BrowseQuery& query);

// Why these sizes: a page of 256 rows is five screens of a tall window, so
// scrolling rarely waits; the cell and byte budgets keep a page of wide rows
// (OpenTSDB-style rows of 3,600 columns) or of large values to a few MiB
// and a few tens of milliseconds of scanning. A page always holds at least
// one whole row, however wide.
constexpr size_t kPageRows = 256;
constexpr size_t kPageCellBudget = 50'000;
constexpr size_t kPageByteBudget = size_t{4} << 20;
// Versions counted per cell: the badge says "100+" beyond it. The scan reads
// up to this many versions of each column to count them, so it bounds the
// cost of a column with 10,000 versions.
constexpr int32_t kVersionsCounted = 100;

struct PageRequest {
  BrowseQuery query;
  std::optional<Bytes> after;  // the last row already loaded: this page starts after it
  size_t maxRows = kPageRows;
  size_t maxCells = kPageCellBudget;
  size_t maxBytes = kPageByteBudget;
};

// One column's latest cell in a row.
struct PageCell {
  uint32_t column = 0;    // index into RowPage::columns
  Bytes value;            // the newest visible version's value
  int64_t timestamp = 0;  // and its timestamp
  uint32_t versions = 0;  // visible versions read, at most kVersionsCounted
};

struct PageRow {
  Bytes key;
  // With a key schema: each decoded component as text (strings as they are,
  // bytes escaped, numbers in decimal), and why decoding stopped, if it did.
  std::vector<std::string> components;
  // Each decoded component's [begin, end) bytes in `key`.
  std::vector<std::pair<uint32_t, uint32_t>> componentSpans;
  std::string decodeError;
  std::vector<PageCell> cells;  // in column order
  size_t bytes = 0;             // what the row costs in memory, roughly
};

// A family:qualifier column. Columns sort as HBase sorts cells: by family,
// then by qualifier bytes.
struct PageColumn {
  std::string family;
  Bytes qualifier;
  // "family:qualifier" with the qualifier in Bytes.toStringBinary form,
  // which is one-to-one, so the name identifies the column (in settings too).
  std::string name;
};

struct RowPage {
  std::vector<PageColumn> columns;  // every column the page's cells use, sorted
  std::vector<PageRow> rows;
  bool atEnd = false;      // no row follows the last one (in the query's range)
  uint64_t cellsRead = 0;  // versions included
};

}  // namespace keyscope
