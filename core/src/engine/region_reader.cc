#include "engine/region_reader.h"

#include <algorithm>

#include "engine/internal_key.h"
#include "engine/merging_iterator.h"
#include "engine/short_bytes.h"

namespace keyscope::engine {

struct RegionReader::FamilyCursor {
  std::string name;
  std::shared_ptr<Store> store;
  std::shared_ptr<const StoreVersion> version;
  std::unique_ptr<InternalIterator> it;
  std::optional<QueryMatcher> matcher;
  std::string getStart;  // a get's first key (seekToGetRow)
};

namespace {

// One family a read covers: all its columns, or those named (escaped).
struct FamilyRequest {
  const std::pair<const std::string, std::shared_ptr<Store>>* entry;  // in Region::stores
  bool wildcard = false;
  std::vector<std::string> columns;
};

// A column seek first tries a few next() calls: most columns hold one or
// two versions, and a merged seek touches every source.
constexpr int kNextBeforeSeek = 4;

int64_t oldestUnexpired(const FamilyOptions& family, int64_t now) {
  if (family.ttlSeconds >= kTtlForever) return INT64_MIN;
  return now - family.ttlSeconds * 1000;
}

// HBase's RowTooBigException, with what to do about it.
Status rowTooBig(BytesView row, const RowResultLimits& limits, const CellAppender& cells) {
  constexpr size_t kShownRowBytes = 64;
  std::string name = toStringBinary(row.substr(0, kShownRowBytes));
  if (row.size() > kShownRowBytes) name += "... (" + std::to_string(row.size()) + " bytes)";
  const std::string what = cells.count() > limits.maxCells
                               ? "more than " + std::to_string(limits.maxCells) + " cells"
                               : "more than " + std::to_string(limits.maxBytes) + " bytes of cells";
  return Status::invalidArgument("row '" + name + "' is too big to return at once: " + what +
                                 " (the limit of one result); read it in parts with a scan's BATCH (cells per "
                                 "result), or less of it with COLUMNS, VERSIONS, a TIMERANGE or a "
                                 "ColumnPaginationFilter");
}

}  // namespace

RegionReader::RegionReader(std::shared_ptr<Region> region, const ReadSettings& settings)
    : m_region(std::move(region)), m_settings(settings) {}

RegionReader::~RegionReader() = default;

Status RegionReader::open(BytesView lowKey, BytesView highKey, bool isGet) {
  const ReadOptions& options = *m_settings.options;
  // The families to read, in name order, each with the columns asked of it.
  std::vector<FamilyRequest> requests;
  if (options.columns.empty()) {
    requests.reserve(m_region->stores.size());
    for (const auto& entry : m_region->stores) requests.push_back({&entry, true, {}});
  }
  for (const ColumnSelector& column : options.columns) {
    const auto store = m_region->stores.find(column.family);
    if (store == m_region->stores.end())
      return Status::invalidArgument("table '" + m_region->tableName + "' has no column family '" + column.family + "'");
    auto request = std::find_if(requests.begin(), requests.end(),
                                [&](const FamilyRequest& r) { return r.entry == &*store; });
    if (request == requests.end()) request = requests.insert(requests.end(), {&*store, false, {}});
    if (!column.qualifier) {
      request->wildcard = true;
    } else {
      std::string& escaped = request->columns.emplace_back();
      appendEscaped(&escaped, *column.qualifier);
    }
  }
  std::sort(requests.begin(), requests.end(),
            [](const FamilyRequest& a, const FamilyRequest& b) { return a.entry->first < b.entry->first; });
  m_families.reserve(requests.size());

  ReadReport* report = m_settings.report;
  ReadContext context{m_settings.pages, report, options.cacheBlocks, m_settings.readahead};
  if (context.readahead != nullptr) {
    context.readaheadEnd.assign(highKey.data(), highKey.size());
    context.readaheadPages = m_settings.readaheadPages;
  }
  for (FamilyRequest& request : requests) {
    const std::string& name = request.entry->first;
    FamilyCursor cursor;
    cursor.name = name;
    cursor.store = request.entry->second;
    cursor.version = cursor.store->current();
    const StoreVersion& version = *cursor.version;
    // Without a damaged file's cells the answer would be wrong: say so.
    if (Status s = version.damage(); !s) return s;
    const FamilyOptions& family = version.options;

    MatcherSettings ms;
    ms.mode = m_settings.raw ? MatchMode::kRawRead : MatchMode::kUserRead;
    ms.family = &cursor.version->options;
    const auto familyRange = options.familyTimeRanges.find(name);
    ms.timeRange = familyRange != options.familyTimeRanges.end() ? familyRange->second : options.timeRange;
    ms.requestedVersions = options.maxVersions;
    ms.hasFilter = options.filter != nullptr;
    ms.oldestUnexpiredTs = m_settings.raw ? INT64_MIN : oldestUnexpired(family, m_settings.now);
    if (!request.wildcard) {
      std::sort(request.columns.begin(), request.columns.end());
      request.columns.erase(std::unique(request.columns.begin(), request.columns.end()), request.columns.end());
      ms.columns = std::move(request.columns);
    }

    // Sources, newest first: memstores, then store files by age.
    const TimeRange range = ms.timeRange;
    const bool markersReachForward = !m_settings.raw && family.keepDeletedCells == KeepDeletedCells::kFalse;
    const auto outsideTime = [&](int64_t minTs, int64_t maxTs, bool hasMarkers) {
      if (maxTs < range.min) return true;
      if (minTs >= range.max && !(markersReachForward && hasMarkers)) return true;
      return false;
    };
    const auto allExpired = [&](int64_t maxTs) {
      return family.minVersions <= 0 && maxTs < ms.oldestUnexpiredTs;
    };

    const BytesView getRowKey = isGet ? lowKey : BytesView();
    // ROWCOL probes of a get of one column (built at the first ROWCOL file).
    std::string columnKey, familyMarkerKey;
    std::vector<std::unique_ptr<InternalIterator>> children;
    bool mayHoldFamilyMarkers = false;  // in a source read: see seekToGetRow
    for (const Memstore* memstore : {version.active.get(), version.flushing.get()}) {
      if (memstore == nullptr || memstore->empty()) continue;
      if (outsideTime(memstore->minTimestamp(), memstore->maxTimestamp(), true)) continue;
      mayHoldFamilyMarkers = mayHoldFamilyMarkers || memstore->hasFamilyMarkers();
      children.push_back(memstore->newIterator(m_settings.readPoint, getRowKey));
      if (report != nullptr) ++report->memstoresRead;
    }
    for (const auto& live : version.files) {
      const StoreFileReader& file = *live->reader;
      const StoreFileMeta& meta = file.meta();
      if (report != nullptr) ++report->storeFilesConsidered;
      if (BytesView(meta.lastKey) < lowKey || (!highKey.empty() && BytesView(meta.firstKey) >= highKey)) {
        if (report != nullptr) ++report->storeFilesSkippedByKeyRange;
        continue;
      }
      if (outsideTime(meta.minTimestamp, meta.maxTimestamp, meta.deleteMarkerCount > 0) ||
          (!m_settings.raw && allExpired(meta.maxTimestamp))) {
        if (report != nullptr) ++report->storeFilesSkippedByTimeRange;
        continue;
      }
      if (isGet) {
        bool mayContain = file.mayContainRow(getRowKey);
        // A family marker has an empty qualifier: a ROWCOL probe must ask
        // for it too, or a file holding only the marker would be skipped.
        if (mayContain && ms.columns.size() == 1 && meta.bloomType == BloomType::kRowCol) {
          if (columnKey.empty()) {
            columnKey.assign(getRowKey.data(), getRowKey.size());
            columnKey += ms.columns.front();
            familyMarkerKey.assign(getRowKey.data(), getRowKey.size());
            appendEscaped(&familyMarkerKey, {});  // columnStartKey(row, empty qualifier)
          }
          mayContain = file.mayContainColumn(columnKey) || file.mayContainColumn(familyMarkerKey);
        }
        if (!mayContain) {
          if (report != nullptr) ++report->storeFilesSkippedByBloom;
          continue;
        }
      }
      mayHoldFamilyMarkers = mayHoldFamilyMarkers || meta.deleteMarkerCount > 0;
      children.push_back(file.newIterator(context));
    }
    if (children.empty()) continue;
    if (isGet) {
      cursor.getStart.assign(getRowKey.data(), getRowKey.size());
      if (!ms.columns.empty() && !mayHoldFamilyMarkers) cursor.getStart += ms.columns.front();
    }
    cursor.it = newMergingIterator(std::move(children));
    cursor.matcher.emplace(std::move(ms));
    m_families.push_back(std::move(cursor));
  }
  return Status::ok();
}

bool RegionReader::stale() const {
  for (const auto& cursor : m_families) {
    if (cursor.store->current() != cursor.version) return true;
  }
  return false;
}

void RegionReader::seek(BytesView target) {
  for (FamilyCursor& cursor : m_families) cursor.it->seek(target);
}

void RegionReader::seekToGetRow() {
  for (FamilyCursor& cursor : m_families) cursor.it->seek(cursor.getStart);
}

bool RegionReader::peekRow(std::string* rowEscaped) const {
  bool found = false;
  BytesView best;
  for (const auto& cursor : m_families) {
    if (!cursor.it->valid()) continue;
    const BytesView key = cursor.it->key();
    const BytesView row = key.substr(0, escapedRowLength(key));
    if (!found || row < best) {
      best = row;
      found = true;
    }
  }
  if (found) rowEscaped->assign(best.data(), best.size());
  return found;
}

bool RegionReader::lastRowBefore(BytesView bound, std::string* rowEscaped) {
  bool found = false;
  for (auto& cursor : m_families) {
    cursor.it->seekToLastRowBefore(bound);
    if (!cursor.it->valid()) continue;
    const BytesView key = cursor.it->key();
    const BytesView row = key.substr(0, escapedRowLength(key));
    if (!found || row > BytesView(*rowEscaped)) {
      rowEscaped->assign(row.data(), row.size());
      found = true;
    }
  }
  if (!found) return false;
  // Families whose last row is smaller are moved to the chosen row's start
  // (where they hold nothing, or the row's cells).
  for (auto& cursor : m_families) {
    if (!cursor.it->valid() || !startsWithBytes(cursor.it->key(), *rowEscaped)) cursor.it->seek(*rowEscaped);
  }
  return true;
}

void RegionReader::skipRow(BytesView rowEscaped) {
  m_scratch.assign(rowEscaped.data(), rowEscaped.size());
  toRowEndKey(&m_scratch);
  for (auto& cursor : m_families) {
    if (cursor.it->valid() && startsWithBytes(cursor.it->key(), rowEscaped)) cursor.it->seek(m_scratch);
  }
}

Status RegionReader::readRow(BytesView rowEscaped, Filter* filter, CellAppender* cells, bool* doneScan) {
  const BytesView row = unescape(rowEscaped, &m_rowScratch);
  for (auto& cursor : m_families) {
    if (*doneScan) break;
    if (Status s = readFamily(cursor, rowEscaped, row, filter, cells, doneScan); !s) return s;
  }
  if (!m_settings.singleRow) skipRow(rowEscaped);
  return status();
}

Status RegionReader::readFamily(FamilyCursor& cursor, BytesView rowEscaped, BytesView row, Filter* filter,
                                CellAppender* cells, bool* doneScan) {
  InternalIterator& it = *cursor.it;
  if (!it.valid() || !startsWithBytes(it.key(), rowEscaped)) return it.status();
  QueryMatcher& matcher = *cursor.matcher;
  matcher.reset();
  const ReadOptions& options = *m_settings.options;
  const int32_t offset = options.rowOffsetPerFamily;
  const int32_t limit = options.maxResultsPerFamily;
  int32_t included = 0;
  ReadReport* report = m_settings.report;
  ParsedKey parsed;
  CellRef ref;
  ref.row = row;
  ref.family = cursor.name;

  // Past the current column: with explicit columns straight to the next
  // wanted one (false when none is left: the family is done with the row).
  const auto seekPastColumn = [&](const ParsedKey& at) {
    if (matcher.hasExplicitColumns()) {
      const std::string* next = matcher.wantedColumnAfter(at.qualifierEscaped);
      if (next == nullptr) return false;
      m_scratch.assign(rowEscaped.data(), rowEscaped.size());
      m_scratch += *next;
      it.seek(m_scratch);
      return true;
    }
    const BytesView columnPrefix = at.columnPrefix();
    m_scratch.assign(columnPrefix.data(), columnPrefix.size());
    for (int i = 0; i < kNextBeforeSeek; ++i) {
      it.next();
      if (!it.valid() || !startsWithBytes(it.key(), m_scratch)) return true;
    }
    m_scratch.back() = '\x02';  // columnEndKey
    it.seek(m_scratch);
    return true;
  };

  while (it.valid()) {
    const BytesView key = it.key();
    if (!startsWithBytes(key, rowEscaped)) break;
    if (!parseInternalKeyAfterRow(key, rowEscaped.size(), &parsed))
      return Status::corruption("table '" + m_region->tableName + "', region " + std::to_string(m_region->id) +
                                ", family '" + cursor.name + "': malformed cell key");
    if (report != nullptr) ++report->cellsExamined;
    if (filter != nullptr) {
      ref.qualifier = qualifierOf(parsed, &m_qualifierScratch);
      ref.timestamp = parsed.timestamp;
      ref.type = parsed.type;
      ref.value = it.value();
    }
    MatchCode code = matcher.match(parsed, filter, filter != nullptr ? &ref : nullptr);
    if (isInclude(code)) {
      ++included;
      if (limit >= 0 && included > offset + limit) break;  // storeLimit reached: rest of the row
      if (included > offset) {
        Cell& cell = cells->append();
        assignBytes(cell.row, row);
        assignBytes(cell.family, cursor.name);
        assignBytes(cell.qualifier, qualifierOf(parsed, &m_qualifierScratch));
        cell.timestamp = parsed.timestamp;
        cell.type = parsed.type;
        cell.value.assign(it.value());
        if (filter != nullptr) filter->transformCell(cell);
        if (const auto& limits = m_settings.rowLimits) {
          cells->addBytes(cell.row.size() + cell.family.size() + cell.qualifier.size() + 8 + cell.value.size());
          if (cells->count() > limits->maxCells || cells->bytes() > limits->maxBytes) return rowTooBig(row, *limits, *cells);
        }
      }
    }
    switch (code) {
      case MatchCode::kInclude:
      case MatchCode::kSkip:
        it.next();
        break;
      case MatchCode::kIncludeAndSeekNextColumn:
      case MatchCode::kSeekNextColumn:
        if (!seekPastColumn(parsed)) return it.status();
        break;
      case MatchCode::kIncludeAndSeekNextRow:
      case MatchCode::kSeekNextRow:
        return it.status();
      case MatchCode::kSeekNextUsingHint: {
        std::optional<SeekHint> hint = filter != nullptr ? filter->getNextCellHint(ref) : std::nullopt;
        if (!hint) {
          it.next();
        } else if (hint->nextRow || hint->family > cursor.name) {
          return it.status();
        } else if (hint->family < cursor.name) {
          it.next();  // a hint behind us: never seek backwards
        } else {
          m_scratch.assign(rowEscaped.data(), rowEscaped.size());
          appendEscaped(&m_scratch, hint->qualifier);
          if (BytesView(m_scratch) > key) {
            it.seek(m_scratch);
          } else {
            it.next();
          }
        }
        break;
      }
      case MatchCode::kDoneScan:
        *doneScan = true;
        return it.status();
    }
  }
  return it.status();
}

Status RegionReader::status() const {
  for (const auto& cursor : m_families) {
    Status s = cursor.it->status();
    if (!s) return s;
  }
  return Status::ok();
}

}  // namespace keyscope::engine

namespace keyscope::engine {

Status readFilteredRow(RegionReader& reader, BytesView rowEscaped, Filter* filter, std::vector<Cell>* cells,
                       bool* doneScan) {
  if (filter != nullptr) {
    filter->reset();
    if (filter->filterRowKey(unescaped(rowEscaped))) {
      cells->clear();
      reader.skipRow(rowEscaped);
      if (filter->filterAllRemaining()) *doneScan = true;
      return reader.status();
    }
  }
  CellAppender appender(cells);
  const Status s = reader.readRow(rowEscaped, filter, &appender, doneScan);
  appender.finish();
  if (!s) return s;
  if (filter == nullptr || cells->empty()) return Status::ok();
  if (filter->hasFilterRow()) filter->filterRowCells(*cells);
  if (cells->empty() || filter->filterRow()) cells->clear();
  return Status::ok();
}

}  // namespace keyscope::engine
