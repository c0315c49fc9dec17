// TableScanner: a scan over a table's regions in row order (or reverse),
// returning whole rows or, with ScanOptions::batch, row fragments.
//
// Each row is read from one consistent snapshot. Between rows the scanner
// keeps its store versions while they are current; when a flush or
// compaction replaces one it reopens at the next row with a fresh read point.
// The page-source connection is given back at the end, and after a next()
// once it has been held 2 ms; a scanner left idle with one is found by the
// workspace's worker, which takes the connection back once it has lain
// unused for kIdleLease (reader_pool.h), so an idle scanner does not hold
// the log's checkpoints back.
// Not thread-safe. REQUIRES: destroyed before the workspace that made it.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/reader_pool.h"
#include "engine/region.h"
#include "engine/region_reader.h"
#include "stats/stats_recorder.h"
#include "keyscope/workspace.h"

namespace keyscope::engine {

struct ScanEnvironment {
  ReaderPool* pool = nullptr;
  BlockDecodePool* readahead = nullptr;  // decompresses the blocks the scan reads ahead; may be null
  std::function<uint64_t()> readPoint;
  int64_t now = 0;
  // Where rows read are charged (may be null), and the clock they are charged at.
  stats::StatsRecorder* stats = nullptr;
  std::function<int64_t()> clock;
  // The most of a row one result holds when the scan has no batch; none: unlimited.
  std::optional<RowResultLimits> rowLimits;
};

// A key greater than every internal key: no row is longer than
// kMaxRowKeySize, so no escaped row holds this many 0xFF bytes in a row.
const std::string& keyAfterEverything();

class TableScanner final : public Scanner {
 public:
  TableScanner(std::shared_ptr<const Table> table, ScanOptions options, ScanEnvironment env);
  ~TableScanner() override;

  bool next(RowResult* out) override;
  Status status() const override { return m_status; }
  const ReadReport& report() const override { return m_report; }

 private:
  // The next non-empty row: its cells into *cells (overwriting, see
  // CellAppender), its key into m_row; false at the end.
  bool fetchRow(std::vector<Cell>* cells);
  Status openRegion();
  bool pastStop(BytesView rowEscaped) const;
  // Statistics: rows read are charged to their region when the scan leaves it.
  void chargeRow(const Region& region, const std::vector<Cell>& cells);
  void flushCharge();

  std::shared_ptr<const Table> m_table;
  ScanOptions m_options;
  ScanEnvironment m_env;
  std::unique_ptr<Filter> m_filter;
  LeasedPageSource m_pages;
  ReadReport m_report;
  Status m_status;

  size_t m_regionIndex = 0;  // into m_table->regions (walked backwards when reversed)
  bool m_regionsDone = false;
  std::unique_ptr<RegionReader> m_reader;
  std::string m_position;    // forward: next seek key; reversed: exclusive upper bound
  std::string m_stopKey;     // escaped stop row; empty: none
  std::string m_regionEndKey;  // the open region's end row as a row start key; empty: the table's end
  std::string m_rowEscaped;    // fetchRow's row, kept to reuse its buffer
  bool m_filterDone = false;
  int64_t m_rowsReturned = 0;

  std::vector<Cell> m_rowCells;
  size_t m_rowOffset = 0;    // cells of m_rowCells already returned (batching)
  Bytes m_row;
  std::string m_rowScratch;

  // Reads not yet charged, all in m_chargeRegion.
  static constexpr size_t kSampleRowsPerRegion = 8;
  const Region* m_chargeRegion = nullptr;
  uint64_t m_chargeRows = 0, m_chargeCells = 0, m_chargeBytes = 0;
  std::vector<Bytes> m_sampleRows;
  uint64_t m_sampleState = 0x9e3779b97f4a7c15ull;
};

}  // namespace keyscope::engine
