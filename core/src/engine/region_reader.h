// RegionReader: reads rows of one region for a get or a scan, merging each
// family's memstores and store files and applying the QueryMatcher, the
// filter, and the per-family limits. Store files are skipped by key range,
// by time range and TTL, and (for gets) by bloom filter; the read report
// counts what was skipped and read.
//
// Not thread-safe: one reader per get or scan. It holds the store versions it
// opened (a consistent snapshot); stale() tells when a flush or compaction
// has since replaced one, so a long scan can reopen.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/query_matcher.h"
#include "engine/region.h"
#include "keyscope/cell.h"
#include "keyscope/filter.h"
#include "keyscope/options.h"
#include "keyscope/read_report.h"

namespace keyscope::engine {

struct ReadSettings {
  const ReadOptions* options = nullptr;
  bool raw = false;
  int64_t now = 0;            // for TTLs
  uint64_t readPoint = 0;     // memstore entries visible
  PageSource* pages = nullptr;
  ReadReport* report = nullptr;
  BlockDecodePool* readahead = nullptr;  // ReadContext::readahead: scans set it
  PageSource* readaheadPages = nullptr;  // ReadContext::readaheadPages
  // A get reads one row and is done: readRow() then leaves the families
  // where the row's cells ended rather than seeking past the row (which can
  // cost a walk through the rest of the row and another block).
  bool singleRow = false;
  // The most of one row readRow() returns (OpenOptions::rowResultLimits); a
  // larger row is an InvalidArgument. Unlimited unless set: a scan with a
  // batch hands the row out in parts, and count() keeps no cells.
  std::optional<RowResultLimits> rowLimits;
};

// Fills a cell vector from its start, reusing the Cells already in it: a
// scan hands the same vector back row after row, so the cells' byte strings
// keep their capacity and a row costs no allocation once the buffers have
// grown. finish() drops the cells not reused.
class CellAppender {
 public:
  explicit CellAppender(std::vector<Cell>* cells) : m_cells(cells) {}
  Cell& append() {
    if (m_count < m_cells->size()) return (*m_cells)[m_count++];
    ++m_count;
    return m_cells->emplace_back();
  }
  size_t count() const { return m_count; }
  // The bytes of the cells appended, as RowResultLimits counts them; the
  // caller adds each cell's once it is filled in.
  uint64_t bytes() const { return m_bytes; }
  void addBytes(uint64_t bytes) { m_bytes += bytes; }
  void finish() { m_cells->resize(m_count); }

 private:
  std::vector<Cell>* m_cells;
  size_t m_count = 0;
  uint64_t m_bytes = 0;
};

class RegionReader {
 public:
  RegionReader(std::shared_ptr<Region> region, const ReadSettings& settings);
  ~RegionReader();

  // Opens the families to read. [lowKey, highKey) bounds the internal keys
  // the read can touch (empty highKey: unbounded), for skipping store files.
  // isGet: a get of one row, lowKey its rowStartKey() and highKey its
  // rowEndKey(); enables bloom filters.
  // InvalidArgument for a family the table does not have.
  Status open(BytesView lowKey, BytesView highKey, bool isGet);

  bool stale() const;
  const Region& region() const { return *m_region; }

  // Forward: positions every family at the first key >= target.
  void seek(BytesView target);
  // For a get (open() was given its row): positions every family at the
  // first cell the get can need. That is the row's start, or straight its
  // first wanted column when the family names columns and none of its
  // sources can hold a family delete marker, which sorts before every column
  // of the row (a memstore counts its family markers; a store file only
  // counts all its markers, so any marker keeps the row's start). A row
  // wider than a block then costs one block read, not two.
  void seekToGetRow();
  // Forward: the escaped row of the smallest key at or after the position.
  bool peekRow(std::string* rowEscaped) const;
  // Reversed: the greatest escaped row with a key < bound (a rowStartKey),
  // every family then positioned at that row's start.
  bool lastRowBefore(BytesView bound, std::string* rowEscaped);

  // Appends the row's cells, in family order. Leaves every family
  // positioned at or past the row's end (forward; unless singleRow).
  // *doneScan is set when the filter ends the scan inside the row.
  Status readRow(BytesView rowEscaped, Filter* filter, CellAppender* cells, bool* doneScan);
  // Positions every family past the row without reading it.
  void skipRow(BytesView rowEscaped);

  Status status() const;

 private:
  struct FamilyCursor;
  Status readFamily(FamilyCursor& cursor, BytesView rowEscaped, BytesView row, Filter* filter,
                    CellAppender* cells, bool* doneScan);

  std::shared_ptr<Region> m_region;
  ReadSettings m_settings;
  std::vector<FamilyCursor> m_families;  // in family name order
  std::string m_scratch;
  std::string m_qualifierScratch;
  std::string m_rowScratch;
};

}  // namespace keyscope::engine

namespace keyscope::engine {

// One row as a read returns it, with the filter's row-level calls in HBase's
// order: filterRowKey, the cells, then filterRowCells and filterRow on a
// non-empty row. An empty *cells means the row is not returned. The Cells
// already in *cells are overwritten (their buffers reused).
Status readFilteredRow(RegionReader& reader, BytesView rowEscaped, Filter* filter, std::vector<Cell>* cells,
                       bool* doneScan);

}  // namespace keyscope::engine
