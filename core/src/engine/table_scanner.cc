#include "engine/table_scanner.h"

#include <chrono>

#include "engine/internal_key.h"

namespace keyscope::engine {

const std::string& keyAfterEverything() {
  static const std::string key(kMaxRowKeySize + 1, '\xff');
  return key;
}

TableScanner::TableScanner(std::shared_ptr<const Table> table, ScanOptions options, ScanEnvironment env)
    : m_table(std::move(table)),
      m_options(std::move(options)),
      m_env(std::move(env)),
      m_pages(m_env.pool, LeasedPageSource::Span::kAcrossCalls) {
  if (m_options.filter != nullptr) {
    m_filter = m_options.filter->clone();
    m_filter->setReversed(m_options.reversed);
  }
  const auto& regions = m_table->regions;
  if (!m_options.stopRow.empty()) m_stopKey = rowStartKey(m_options.stopRow);
  if (!m_options.reversed) {
    if (!m_options.startRow.empty())
      m_position = m_options.startInclusive ? rowStartKey(m_options.startRow) : rowEndKey(m_options.startRow);
    m_regionIndex = 0;
    while (m_regionIndex < regions.size() && !m_options.startRow.empty() &&
           !regions[m_regionIndex]->endRow.empty() &&
           BytesView(regions[m_regionIndex]->endRow) <= BytesView(m_options.startRow))
      ++m_regionIndex;
  } else {
    if (m_options.startRow.empty()) {
      m_position = keyAfterEverything();
    } else {
      m_position = m_options.startInclusive ? rowEndKey(m_options.startRow) : rowStartKey(m_options.startRow);
    }
    m_regionIndex = regions.empty() ? 0 : regions.size() - 1;
    while (m_regionIndex > 0 && !m_options.startRow.empty() &&
           BytesView(regions[m_regionIndex]->startRow) > BytesView(m_options.startRow))
      --m_regionIndex;
  }
  m_regionsDone = regions.empty();
}

TableScanner::~TableScanner() { flushCharge(); }

void TableScanner::chargeRow(const Region& region, const std::vector<Cell>& cells) {
  if (m_env.stats == nullptr) return;
  if (&region != m_chargeRegion) {
    flushCharge();
    m_chargeRegion = &region;
  }
  ++m_chargeRows;
  m_chargeCells += cells.size();
  for (const Cell& cell : cells)
    m_chargeBytes += cell.row.size() + cell.family.size() + cell.qualifier.size() + 8 + cell.value.size();
  // A uniform sample of the region's rows (reservoir sampling, algorithm R).
  if (m_sampleRows.size() < kSampleRowsPerRegion) {
    m_sampleRows.push_back(m_row);
    return;
  }
  m_sampleState ^= m_sampleState << 13;
  m_sampleState ^= m_sampleState >> 7;
  m_sampleState ^= m_sampleState << 17;
  const uint64_t slot = m_sampleState % m_chargeRows;
  if (slot < kSampleRowsPerRegion) m_sampleRows[slot] = m_row;
}

void TableScanner::flushCharge() {
  if (m_chargeRegion == nullptr || m_chargeRows == 0) return;
  std::vector<BytesView> samples(m_sampleRows.begin(), m_sampleRows.end());
  m_env.stats->recordReads({m_chargeRegion->tableId, m_chargeRegion->id, m_chargeRegion->server.load()}, m_chargeRows,
                           m_chargeCells, m_chargeBytes, samples, m_env.clock ? m_env.clock() : m_env.now);
  m_chargeRows = m_chargeCells = m_chargeBytes = 0;
  m_sampleRows.clear();
}

bool TableScanner::pastStop(BytesView rowEscaped) const {
  if (m_stopKey.empty()) return false;
  const int c = rowEscaped.compare(m_stopKey);
  if (!m_options.reversed) return m_options.stopInclusive ? c > 0 : c >= 0;
  return m_options.stopInclusive ? c < 0 : c <= 0;
}

Status TableScanner::openRegion() {
  // The store versions taken below may name files committed after the read
  // snapshot of a connection still borrowed: start a fresh one. (A blob
  // handle that misses a page in its old snapshot would reopen in a fresh
  // one anyway, but only after a failed lookup.)
  m_pages.release();
  const auto& region = m_table->regions[m_regionIndex];
  ReadSettings settings;
  settings.options = &m_options;
  settings.raw = m_options.raw;
  settings.now = m_options.now.value_or(m_env.now);
  settings.readPoint = m_env.readPoint();
  settings.pages = &m_pages;
  settings.readahead = m_env.readahead;
  settings.readaheadPages = m_pages.readahead();
  settings.report = &m_report;
  if (m_options.batch <= 0) settings.rowLimits = m_env.rowLimits;  // a batch returns a row in parts
  m_reader = std::make_unique<RegionReader>(region, settings);
  // Bounds of the keys this scan can touch, for skipping store files.
  std::string low, high;
  if (!m_options.reversed) {
    low = m_position;
    if (!m_stopKey.empty()) high = m_options.stopInclusive ? rowEndKey(m_options.stopRow) : m_stopKey;
  } else {
    high = m_position;
    if (!m_stopKey.empty()) low = m_options.stopInclusive ? m_stopKey : rowEndKey(m_options.stopRow);
  }
  if (!region->startRow.empty() && BytesView(low) < BytesView(rowStartKey(region->startRow)))
    low = rowStartKey(region->startRow);
  m_regionEndKey = region->endRow.empty() ? std::string() : rowStartKey(region->endRow);
  if (!m_regionEndKey.empty() && (high.empty() || BytesView(m_regionEndKey) < BytesView(high))) high = m_regionEndKey;
  if (Status s = m_reader->open(low, high, /*isGet=*/false); !s) return s;
  ++m_report.regionsVisited;
  if (!m_options.reversed) m_reader->seek(low);
  return Status::ok();
}

bool TableScanner::fetchRow(std::vector<Cell>* cells) {
  const auto& regions = m_table->regions;
  std::string& rowEscaped = m_rowEscaped;
  bool doneScan = false;
  while (!m_regionsDone && !m_filterDone) {
    if (m_options.limit >= 0 && m_rowsReturned >= m_options.limit) return false;
    if (m_filter != nullptr && m_filter->filterAllRemaining()) return false;
    if (m_reader != nullptr && m_reader->stale()) m_reader.reset();  // reopen on a fresh snapshot
    if (m_reader == nullptr) {
      if (Status s = openRegion(); !s) {
        m_status = s;
        return false;
      }
    }
    const Region& region = m_reader->region();
    bool found;
    if (!m_options.reversed) {
      found = m_reader->peekRow(&rowEscaped);
      if (found && !m_regionEndKey.empty() && BytesView(rowEscaped) >= BytesView(m_regionEndKey)) found = false;
    } else {
      found = m_reader->lastRowBefore(m_position, &rowEscaped);
    }
    if (Status s = m_reader->status(); !s) {
      m_status = s;
      return false;
    }
    if (!found) {
      m_reader.reset();
      if (!m_options.reversed) {
        if (++m_regionIndex >= regions.size()) m_regionsDone = true;
      } else {
        if (m_regionIndex == 0) m_regionsDone = true; else --m_regionIndex;
      }
      continue;
    }
    if (pastStop(rowEscaped)) return false;
    m_position = rowEscaped;
    if (!m_options.reversed) toRowEndKey(&m_position);
    if (Status s = readFilteredRow(*m_reader, rowEscaped, m_filter.get(), cells, &doneScan); !s) {
      m_status = s;
      return false;
    }
    if (doneScan) m_filterDone = true;
    if (!cells->empty()) {
      m_row.assign(unescape(rowEscaped, &m_rowScratch));
      chargeRow(region, *cells);
      return true;
    }
  }
  return false;
}

bool TableScanner::next(RowResult* out) {
  if (!m_status.isOk()) return false;
  const auto started = std::chrono::steady_clock::now();
  bool produced = false;
  if (m_options.batch <= 0) {
    // Whole rows go straight into the caller's vector, whose cells (from its
    // previous row) lend their buffers.
    produced = fetchRow(&out->cells);
    if (produced) {
      out->row.assign(m_row);
      out->mayHaveMoreCellsInRow = false;
      m_report.cellsReturned += out->cells.size();
      ++m_rowsReturned;
      ++m_report.rowsReturned;
    } else {
      out->cells.clear();
    }
  } else if (m_rowOffset >= m_rowCells.size()) {
    m_rowOffset = 0;
    produced = fetchRow(&m_rowCells);
  } else {
    produced = true;
  }
  if (produced && m_options.batch > 0) {
    out->row = m_row;
    out->cells.clear();
    const size_t remaining = m_rowCells.size() - m_rowOffset;
    const size_t take = m_options.batch > 0 ? std::min(remaining, static_cast<size_t>(m_options.batch)) : remaining;
    out->cells.assign(std::make_move_iterator(m_rowCells.begin() + static_cast<ptrdiff_t>(m_rowOffset)),
                      std::make_move_iterator(m_rowCells.begin() + static_cast<ptrdiff_t>(m_rowOffset + take)));
    m_rowOffset += take;
    out->mayHaveMoreCellsInRow = m_rowOffset < m_rowCells.size();
    m_report.cellsReturned += take;
    if (!out->mayHaveMoreCellsInRow) {
      ++m_rowsReturned;
      ++m_report.rowsReturned;
    }
  }
  // Keeping the connection between rows keeps its blob handle open, so the
  // next block of the same stored page is read without SQLite walking the
  // page's overflow chain from its start again. But a borrowed connection is
  // an open read snapshot, which stops checkpoints from recycling the log:
  // it goes back after a few milliseconds of scanning, and at the end.
  const auto finished = std::chrono::steady_clock::now();
  if (!produced || m_pages.heldLongerThan(kMaxLeaseHold, finished)) m_pages.release();
  m_report.elapsedMicros += std::chrono::duration_cast<std::chrono::microseconds>(finished - started).count();
  return produced;
}

}  // namespace keyscope::engine
