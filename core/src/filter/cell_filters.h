// Filters that look at each cell on its own: KeyOnlyFilter, FirstKeyOnlyFilter,
// TimestampsFilter (after HBase 2's classes of the same names).
#pragma once

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "keyscope/filter.h"

namespace keyscope::filter {

// Includes every cell with its value emptied, or with lenAsVal replaced by the
// value's length as a 4-byte big-endian int.
class KeyOnlyFilter final : public Filter {
 public:
  explicit KeyOnlyFilter(bool lenAsVal = false) : m_lenAsVal(lenAsVal) {}
  bool lenAsVal() const { return m_lenAsVal; }

  std::unique_ptr<Filter> clone() const override { return std::make_unique<KeyOnlyFilter>(m_lenAsVal); }
  std::string toString() const override;
  void transformCell(Cell& cell) const override;

 private:
  bool m_lenAsVal;
};

// Includes the first cell offered for each row, then answers kNextRow.
class FirstKeyOnlyFilter final : public Filter {
 public:
  std::unique_ptr<Filter> clone() const override { return std::make_unique<FirstKeyOnlyFilter>(); }
  std::string toString() const override { return "FirstKeyOnlyFilter ()"; }
  void reset() override { m_foundKV = false; }
  FilterCode filterCell(const CellRef& cell) override;

 private:
  bool m_foundKV = false;
};

// Includes only cells whose timestamp is in the set. With canHint, a cell between
// two wanted timestamps answers kSeekNextUsingHint instead of kSkip.
// REQUIRES: every timestamp >= 0.
class TimestampsFilter final : public Filter {
 public:
  TimestampsFilter(const std::vector<int64_t>& timestamps, bool canHint);
  const std::set<int64_t>& timestamps() const { return m_timestamps; }
  bool canHint() const { return m_canHint; }

  std::unique_ptr<Filter> clone() const override { return std::make_unique<TimestampsFilter>(*this); }
  std::string toString() const override;
  FilterCode filterCell(const CellRef& cell) override;
  // Keyscope's SeekHint has no timestamp, so the hint to "the next wanted
  // version of this column" is not expressible: nullopt then (the scanner skips
  // one cell, as with kSkip). When no wanted timestamp is left below the cell,
  // the hint is the next column, as HBase's createLastOnRowCol.
  std::optional<SeekHint> getNextCellHint(const CellRef& cell) override;

 private:
  std::set<int64_t> m_timestamps;
  bool m_canHint;
  int64_t m_minTimestamp;
};

}  // namespace keyscope::filter
