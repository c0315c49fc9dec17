#include "engine/query_matcher.h"

#include <limits>

#include "engine/short_bytes.h"

namespace keyscope::engine {

// --- DeleteTracker (ScanDeleteTracker) ----------------------------------------

void DeleteTracker::reset() {
  m_hasFamilyStamp = false;
  m_familyStamp = 0;
  m_familyVersionStamps.clear();
  m_hasColumnMarker = false;
}

void DeleteTracker::add(const ParsedKey& marker) {
  const int64_t ts = marker.timestamp;
  // Markers not newer than the newest DeleteFamily add nothing.
  if (m_hasFamilyStamp && ts <= m_familyStamp) return;
  if (marker.type == CellType::kDeleteFamily) {
    m_hasFamilyStamp = true;
    m_familyStamp = ts;
    return;
  }
  if (marker.type == CellType::kDeleteFamilyVersion) {
    m_familyVersionStamps.insert(ts);
    return;
  }
  // A weaker marker of the column already tracked adds nothing (a
  // DeleteColumn beats a Delete).
  if (m_hasColumnMarker && marker.type < m_columnMarkerType && BytesView(m_columnQualifier) == marker.qualifierEscaped)
    return;
  m_hasColumnMarker = true;
  m_columnQualifier.assign(marker.qualifierEscaped.data(), marker.qualifierEscaped.size());
  m_columnMarkerType = marker.type;
  m_columnMarkerTs = ts;
}

DeleteTracker::Result DeleteTracker::isDeleted(const ParsedKey& put) {
  const int64_t ts = put.timestamp;
  if (m_hasFamilyStamp && ts <= m_familyStamp) return Result::kFamilyDeleted;
  if (!m_familyVersionStamps.empty() && m_familyVersionStamps.count(ts) != 0) return Result::kFamilyVersionDeleted;
  if (m_hasColumnMarker) {
    if (BytesView(m_columnQualifier) == put.qualifierEscaped) {
      if (m_columnMarkerType == CellType::kDeleteColumn) return Result::kColumnDeleted;
      if (ts == m_columnMarkerTs) return Result::kVersionDeleted;
      // An older version: the Delete marker covered only its own timestamp.
      m_hasColumnMarker = false;
    } else {
      m_hasColumnMarker = false;  // the put belongs to a later column
    }
  }
  return Result::kNotDeleted;
}

// --- QueryMatcher -------------------------------------------------------------

QueryMatcher::QueryMatcher(MatcherSettings settings) : m_settings(std::move(settings)) {
  const int32_t familyVersions = m_settings.family->maxVersions;
  switch (m_settings.mode) {
    case MatchMode::kUserRead:
      // ScanQueryMatcher.getTrackers: min(scan, family); with a filter the
      // tracker counts up to the family's VERSIONS and the result is capped
      // after the filter.
      m_resultMaxVersions = std::min(m_settings.requestedVersions, familyVersions);
      m_maxVersionsToCheck = m_settings.hasFilter ? familyVersions : m_resultMaxVersions;
      break;
    case MatchMode::kRawRead:
      m_resultMaxVersions = m_settings.requestedVersions;
      m_maxVersionsToCheck = m_settings.hasFilter ? std::numeric_limits<int32_t>::max() : m_resultMaxVersions;
      break;
    case MatchMode::kMinorCompaction:
    case MatchMode::kMajorCompaction:
      m_resultMaxVersions = familyVersions;
      m_maxVersionsToCheck = familyVersions;
      break;
  }
  m_plainRead = m_settings.mode == MatchMode::kUserRead && !m_settings.hasFilter && m_settings.columns.empty() &&
                m_settings.timeRange.isAllTime() && m_settings.oldestUnexpiredTs == INT64_MIN;
}

void QueryMatcher::reset() {
  m_deletes.reset();
  m_hasColumn = false;
  m_count = 0;
  m_hasPrevious = false;
  m_hasFilterColumn = false;
  m_filterCount = 0;
}

MatchCode QueryMatcher::checkDeleted(const ParsedKey& key) {
  if (m_deletes.empty()) return MatchCode::kInclude;
  switch (m_deletes.isDeleted(key)) {
    case DeleteTracker::Result::kFamilyDeleted:
    case DeleteTracker::Result::kColumnDeleted:
      return MatchCode::kSeekNextColumn;
    case DeleteTracker::Result::kVersionDeleted:
    case DeleteTracker::Result::kFamilyVersionDeleted:
      return MatchCode::kSkip;
    case DeleteTracker::Result::kNotDeleted:
      break;
  }
  return MatchCode::kInclude;
}

MatchCode QueryMatcher::mergeFilterResponse(const ParsedKey& key, MatchCode code, FilterCode filterCode) {
  switch (filterCode) {
    case FilterCode::kSkip:
      if (code == MatchCode::kInclude) return MatchCode::kSkip;
      if (code == MatchCode::kIncludeAndSeekNextColumn) return MatchCode::kSeekNextColumn;
      if (code == MatchCode::kIncludeAndSeekNextRow) return MatchCode::kSeekNextRow;
      break;
    case FilterCode::kNextCol:
      if (code == MatchCode::kInclude || code == MatchCode::kIncludeAndSeekNextColumn) return MatchCode::kSeekNextColumn;
      if (code == MatchCode::kIncludeAndSeekNextRow) return MatchCode::kSeekNextRow;
      break;
    case FilterCode::kNextRow:
      return MatchCode::kSeekNextRow;
    case FilterCode::kSeekNextUsingHint:
      return MatchCode::kSeekNextUsingHint;
    case FilterCode::kInclude:
      break;
    case FilterCode::kIncludeAndNextCol:
      if (code == MatchCode::kInclude) code = MatchCode::kIncludeAndSeekNextColumn;
      break;
    case FilterCode::kIncludeAndSeekNextRow:
      code = MatchCode::kIncludeAndSeekNextRow;
      break;
  }
  // versionsAfterFilter: never more than min(scan, family) versions per column.
  if (!m_hasFilterColumn || BytesView(m_filterColumn) != key.qualifierEscaped) {
    m_filterColumn.assign(key.qualifierEscaped.data(), key.qualifierEscaped.size());
    m_hasFilterColumn = true;
    m_filterCount = 0;
  }
  if (++m_filterCount > m_resultMaxVersions) return MatchCode::kSeekNextColumn;
  return code;
}

MatchCode QueryMatcher::matchColumn(const ParsedKey& key, Filter* filter, const CellRef* cell) {
  const TimeRange& range = m_settings.timeRange;
  if (key.timestamp >= range.max) return MatchCode::kSkip;
  if (key.timestamp < range.min) return MatchCode::kSeekNextColumn;
  if (!m_settings.columns.empty() &&
      !std::binary_search(m_settings.columns.begin(), m_settings.columns.end(), key.qualifierEscaped,
                          [](BytesView a, BytesView b) { return a < b; }))
    return MatchCode::kSeekNextColumn;
  MatchCode code = checkVersions(key);
  if (code == MatchCode::kSkip || code == MatchCode::kSeekNextColumn) return code;
  // ExplicitColumnTracker.checkVersions: the last version wanted of a named
  // column moves on at once (a raw read keeps walking: older markers still show).
  if (m_settings.mode == MatchMode::kUserRead && !m_settings.columns.empty() && m_count >= m_maxVersionsToCheck)
    code = MatchCode::kIncludeAndSeekNextColumn;
  if (filter == nullptr) return code;
  return mergeFilterResponse(key, code, filter->filterCell(*cell));
}

void QueryMatcher::trackCompactionDelete(const ParsedKey& key) {
  // With KEEP_DELETED_CELLS, only versions and TTL remove cells; in TTL mode
  // an expired marker masks again.
  const KeepDeletedCells keep = m_settings.family->keepDeletedCells;
  if (keep == KeepDeletedCells::kFalse || (keep == KeepDeletedCells::kTtl && isExpired(key.timestamp)))
    m_deletes.add(key);
}

MatchCode QueryMatcher::matchAny(const ParsedKey& key, Filter* filter, const CellRef* cell) {
  const bool userRead = m_settings.mode == MatchMode::kUserRead || m_settings.mode == MatchMode::kRawRead;
  if (userRead && filter != nullptr && filter->filterAllRemaining()) return MatchCode::kDoneScan;
  // preCheck: with no MIN_VERSIONS an expired cell ends its column (every
  // older cell of the column is expired too).
  if (m_settings.family->minVersions <= 0 && isExpired(key.timestamp)) return MatchCode::kSeekNextColumn;

  switch (m_settings.mode) {
    case MatchMode::kRawRead:
      return matchColumn(key, filter, cell);

    case MatchMode::kUserRead: {
      if (key.type != CellType::kPut) {
        // KEEP_DELETED_CELLS lets a read see past markers outside its range;
        // otherwise markers reach back to the beginning of time.
        const bool seePast = m_settings.family->keepDeletedCells != KeepDeletedCells::kFalse;
        const bool apply = seePast ? m_settings.timeRange.contains(key.timestamp)
                                   : key.timestamp >= m_settings.timeRange.min;
        if (apply) m_deletes.add(key);
        return MatchCode::kSkip;
      }
      if (MatchCode c = checkDeleted(key); c != MatchCode::kInclude) return c;
      return matchColumn(key, filter, cell);
    }

    case MatchMode::kMinorCompaction:
      if (key.type != CellType::kPut) {
        trackCompactionDelete(key);
        return MatchCode::kInclude;
      }
      if (MatchCode c = checkDeleted(key); c != MatchCode::kInclude) return c;
      return checkVersions(key);

    case MatchMode::kMajorCompaction:
      if (key.type != CellType::kPut) {
        trackCompactionDelete(key);
        const KeepDeletedCells keep = m_settings.family->keepDeletedCells;
        if (keep == KeepDeletedCells::kFalse || (keep == KeepDeletedCells::kTtl && isExpired(key.timestamp)))
          return MatchCode::kSkip;  // the marker is dropped
        if (key.timestamp < m_settings.earliestPutTs) return MatchCode::kSkip;  // nothing older to mask
      } else if (MatchCode c = checkDeleted(key); c != MatchCode::kInclude) {
        return c;
      }
      return checkVersions(key);
  }
  return MatchCode::kSkip;
}

}  // namespace keyscope::engine
