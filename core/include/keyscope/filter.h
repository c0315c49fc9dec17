// Filters: HBase's server-side filters, with HBase's semantics.
//
// A Filter is a prototype: a read clones it (clone() returns a fresh copy in
// its initial state) and drives the copy through the calls below, in HBase's
// order (RegionScannerImpl + UserScanQueryMatcher):
//
//   for each row:
//     if filterAllRemaining(): the scan ends
//     reset()
//     if filterRowKey(row): the row is dropped (its cells are not offered)
//     for each cell of the row that passed the time range, column and version
//     checks, in cell order (family asc, qualifier asc, timestamp desc):
//       filterCell(cell) -> a FilterCode; included cells go through transformCell()
//     on a non-empty row: filterRowCells(cells) if hasFilterRow(); then the row
//     is dropped if filterRow() (called whether or not hasFilterRow())
//
// Instances are not thread-safe; prototypes are immutable and may be shared.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "keyscope/bytes.h"
#include "keyscope/cell.h"
#include "keyscope/status.h"

namespace keyscope {

// Filter.ReturnCode.
enum class FilterCode : uint8_t {
  kInclude,
  kIncludeAndNextCol,
  kIncludeAndSeekNextRow,
  kSkip,
  kNextCol,
  kNextRow,
  kSeekNextUsingHint,  // skip to getNextCellHint(); treated as kSkip when no hint
};

// A borrowed view of a cell, valid during the call it is passed to.
struct CellRef {
  BytesView row;
  std::string_view family;
  BytesView qualifier;
  int64_t timestamp = 0;
  CellType type = CellType::kPut;
  BytesView value;

  Cell toCell() const {
    return Cell{Bytes(row), std::string(family), Bytes(qualifier), timestamp, type, Bytes(value)};
  }
};

// A position to seek to within the current row: the first cell of `family`
// whose qualifier is >= `qualifier`; or, with nextRow set, the next row.
struct SeekHint {
  std::string family;
  Bytes qualifier;
  bool nextRow = false;
};

class Filter {
 public:
  virtual ~Filter() = default;

  // A fresh copy in its initial state, for one read.
  virtual std::unique_ptr<Filter> clone() const = 0;

  // The filter in HBase's filter language, e.g. "PrefixFilter ('row1')";
  // parseFilter(toString()) yields an equivalent filter.
  virtual std::string toString() const = 0;

  virtual void reset() {}
  virtual bool filterAllRemaining() { return false; }
  virtual bool filterRowKey(BytesView /*row*/) { return false; }
  virtual FilterCode filterCell(const CellRef& /*cell*/) { return FilterCode::kInclude; }
  virtual std::optional<SeekHint> getNextCellHint(const CellRef& /*cell*/) { return std::nullopt; }
  // Called on every included cell (KeyOnlyFilter empties the value).
  virtual void transformCell(Cell& /*cell*/) const {}
  virtual bool hasFilterRow() const { return false; }
  virtual void filterRowCells(std::vector<Cell>& /*cells*/) {}
  virtual bool filterRow() { return false; }

  // Filter.setReversed: a reversed scan sets it on its copy before the first
  // row (rows then arrive in descending order). Lists and wrappers pass it on.
  virtual void setReversed(bool reversed) { m_reversed = reversed; }
  bool isReversed() const { return m_reversed; }

 private:
  bool m_reversed = false;
};

// HBase's filter language (ParseFilter), e.g.
//   "PrefixFilter ('row') AND (QualifierFilter (>=, 'binary:q') OR KeyOnlyFilter ())"
// Errors are InvalidArgument and say where: "column 17: expected ',' ...".
Result<std::shared_ptr<const Filter>> parseFilter(std::string_view text);

// The batch API's JSON form: {"type":"PrefixFilter","prefix":"row"}, ... (see
// docs/FILTERS.md). `json` is the object's text.
Result<std::shared_ptr<const Filter>> filterFromJson(std::string_view json);

}  // namespace keyscope
