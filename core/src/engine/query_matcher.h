// QueryMatcher: decides, cell by cell, what a read or a compaction does with
// the cells of one family within one row, following HBase 2.x's
// ScanQueryMatcher family (HBASE-SEMANTICS.md B2-B4):
//   user reads  NormalUserScanQueryMatcher  markers feed the delete tracker;
//                                           time range, versions, TTL, filter
//   raw reads   RawScanQueryMatcher         every cell, markers too; time
//                                           range and versions only
//   flush and minor compaction              MinorCompactionScanQueryMatcher:
//                                           markers kept, masked puts dropped
//                                           (unless KEEP_DELETED_CELLS)
//   major compaction                        DropDeletesCompactionScanQueryMatcher
// Cells must be offered in internal-key order; reset() at each row and family.
// Not thread-safe: one matcher per read.
#pragma once

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "engine/internal_key.h"
#include "engine/short_bytes.h"
#include "keyscope/filter.h"
#include "keyscope/options.h"

namespace keyscope::engine {

enum class MatchCode : uint8_t {
  kInclude,
  kIncludeAndSeekNextColumn,
  kIncludeAndSeekNextRow,
  kSkip,
  kSeekNextColumn,
  kSeekNextRow,
  kSeekNextUsingHint,
  kDoneScan,  // the filter says nothing more will pass
};

inline bool isInclude(MatchCode code) {
  return code == MatchCode::kInclude || code == MatchCode::kIncludeAndSeekNextColumn ||
         code == MatchCode::kIncludeAndSeekNextRow;
}

enum class MatchMode : uint8_t { kUserRead, kRawRead, kMinorCompaction, kMajorCompaction };

// HBase's ScanDeleteTracker: the newest DeleteFamily, the DeleteFamilyVersion
// timestamps, and the current column's strongest marker.
class DeleteTracker {
 public:
  enum class Result : uint8_t { kNotDeleted, kFamilyDeleted, kFamilyVersionDeleted, kColumnDeleted, kVersionDeleted };

  void reset();
  bool empty() const { return !m_hasFamilyStamp && m_familyVersionStamps.empty() && !m_hasColumnMarker; }
  void add(const ParsedKey& marker);
  Result isDeleted(const ParsedKey& put);

 private:
  bool m_hasFamilyStamp = false;
  int64_t m_familyStamp = 0;
  std::set<int64_t> m_familyVersionStamps;
  bool m_hasColumnMarker = false;
  std::string m_columnQualifier;  // escaped qualifier of the column marker
  CellType m_columnMarkerType = CellType::kDelete;
  int64_t m_columnMarkerTs = 0;
};

struct MatcherSettings {
  MatchMode mode = MatchMode::kUserRead;
  const FamilyOptions* family = nullptr;
  TimeRange timeRange;                 // reads only
  int32_t requestedVersions = 1;       // reads only
  bool hasFilter = false;
  // Cells older than this are expired (now - TTL); INT64_MIN when no TTL.
  int64_t oldestUnexpiredTs = INT64_MIN;
  // Major compactions with KEEP_DELETED_CELLS: the earliest put timestamp of
  // the input. A kept marker older than it masks nothing and is dropped
  // (CompactionScanQueryMatcher.tryDropDelete, EARLIEST_PUT_TS).
  int64_t earliestPutTs = INT64_MIN;
  // Explicit columns of this family (escaped qualifiers), sorted and
  // without repeats; empty: every column. A get names one or a few, so a
  // sorted vector (one allocation) serves where a set cost one per column.
  std::vector<std::string> columns;
};

class QueryMatcher {
 public:
  explicit QueryMatcher(MatcherSettings settings);

  // At each new row (and family).
  void reset();

  // The decision for one cell. For user reads with a filter, `filter` is
  // consulted after version counting and `cell` must describe the cell.
  MatchCode match(const ParsedKey& key, Filter* filter, const CellRef* cell) {
    // Most cells of a plain read are puts that no marker masks: of all the
    // rules, only the version count applies, and it is counted here, inline
    // in the read loop (the general path costs three calls a cell).
    if (m_plainRead && key.type == CellType::kPut && m_deletes.empty()) return checkVersions(key);
    return matchAny(key, filter, cell);
  }

  const MatcherSettings& settings() const { return m_settings; }

  // Explicit columns (ExplicitColumnTracker): a seek to the next column goes
  // straight to the next wanted one, nullptr when none is left in the row.
  bool hasExplicitColumns() const { return !m_settings.columns.empty(); }
  const std::string* wantedColumnAfter(BytesView qualifierEscaped) const {
    const auto it = std::upper_bound(m_settings.columns.begin(), m_settings.columns.end(), qualifierEscaped,
                                     [](BytesView q, const std::string& column) { return q < BytesView(column); });
    return it == m_settings.columns.end() ? nullptr : &*it;
  }
  // The first wanted column (REQUIRES: hasExplicitColumns()).
  const std::string& firstWantedColumn() const { return m_settings.columns.front(); }

 private:
  bool isExpired(int64_t ts) const { return ts < m_settings.oldestUnexpiredTs; }
  MatchCode matchAny(const ParsedKey& key, Filter* filter, const CellRef* cell);
  MatchCode checkDeleted(const ParsedKey& key);
  MatchCode matchColumn(const ParsedKey& key, Filter* filter, const CellRef* cell);
  MatchCode checkVersions(const ParsedKey& key) {
    // ScanWildcardColumnTracker.checkVersions / checkVersion.
    if (!m_hasColumn || !equalBytes(m_column, key.qualifierEscaped)) {
      assignBytes(m_column, key.qualifierEscaped);
      m_hasColumn = true;
      m_count = 0;
      m_hasPrevious = false;
    } else if (m_hasPrevious && m_previousTs == key.timestamp && m_previousType == key.type) {
      return MatchCode::kSkip;  // a duplicate of the version just counted
    }
    if (key.type == CellType::kPut) ++m_count;  // markers never count
    if (m_count > m_maxVersionsToCheck) return MatchCode::kSeekNextColumn;
    if (m_count <= m_settings.family->minVersions || !isExpired(key.timestamp)) {
      m_hasPrevious = true;
      m_previousTs = key.timestamp;
      m_previousType = key.type;
      return MatchCode::kInclude;
    }
    return MatchCode::kSeekNextColumn;
  }
  MatchCode mergeFilterResponse(const ParsedKey& key, MatchCode code, FilterCode filterCode);
  void trackCompactionDelete(const ParsedKey& key);

  MatcherSettings m_settings;
  // A user read with no filter, no named columns, no time range and no TTL:
  // a put that no marker masks gets checkVersions()'s answer alone.
  bool m_plainRead = false;
  int32_t m_maxVersionsToCheck;
  int32_t m_resultMaxVersions;
  DeleteTracker m_deletes;
  // ScanWildcardColumnTracker: the current column and its version count.
  std::string m_column;  // escaped qualifier
  bool m_hasColumn = false;
  int32_t m_count = 0;
  bool m_hasPrevious = false;
  int64_t m_previousTs = 0;
  CellType m_previousType = CellType::kPut;
  // versionsAfterFilter counter.
  std::string m_filterColumn;
  bool m_hasFilterColumn = false;
  int32_t m_filterCount = 0;
};

}  // namespace keyscope::engine
