// Filters that select columns by qualifier: ColumnPrefixFilter,
// MultipleColumnPrefixFilter, ColumnRangeFilter, ColumnCountGetFilter,
// ColumnPaginationFilter (after HBase 2's classes of the same names).
//
// Where HBase answers NEXT_ROW past the wanted columns, HBase's store scanner
// skips the rest of that family in the row; other families still come.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "keyscope/filter.h"

namespace keyscope::filter {

// Includes cells whose qualifier starts with the prefix; seeks to the prefix
// from below and answers kNextRow past it.
class ColumnPrefixFilter final : public Filter {
 public:
  explicit ColumnPrefixFilter(Bytes prefix) : m_prefix(std::move(prefix)) {}
  const Bytes& prefix() const { return m_prefix; }

  std::unique_ptr<Filter> clone() const override { return std::make_unique<ColumnPrefixFilter>(m_prefix); }
  std::string toString() const override;
  FilterCode filterCell(const CellRef& cell) override;
  std::optional<SeekHint> getNextCellHint(const CellRef& cell) override;

 private:
  Bytes m_prefix;
};

// Includes cells whose qualifier starts with the largest prefix <= the
// qualifier (HBase's rule: with overlapping prefixes "a" and "ab", qualifier
// "ac" is not included). REQUIRES: distinct prefixes.
class MultipleColumnPrefixFilter final : public Filter {
 public:
  explicit MultipleColumnPrefixFilter(std::set<Bytes> prefixes) : m_prefixes(std::move(prefixes)) {}
  const std::set<Bytes>& prefixes() const { return m_prefixes; }

  std::unique_ptr<Filter> clone() const override {
    return std::make_unique<MultipleColumnPrefixFilter>(m_prefixes);
  }
  std::string toString() const override;
  FilterCode filterCell(const CellRef& cell) override;
  std::optional<SeekHint> getNextCellHint(const CellRef& cell) override;

 private:
  std::set<Bytes> m_prefixes;  // std::string orders as unsigned bytes, like Bytes.compareTo
  Bytes m_hint;
};

// Includes qualifiers in [min, max] with each end inclusive or not; an absent
// end is unbounded.
class ColumnRangeFilter final : public Filter {
 public:
  ColumnRangeFilter(std::optional<Bytes> minColumn, bool minInclusive, std::optional<Bytes> maxColumn,
                    bool maxInclusive)
      : m_min(std::move(minColumn)), m_minInclusive(minInclusive), m_max(std::move(maxColumn)),
        m_maxInclusive(maxInclusive) {}
  const std::optional<Bytes>& minColumn() const { return m_min; }
  bool minInclusive() const { return m_minInclusive; }
  const std::optional<Bytes>& maxColumn() const { return m_max; }
  bool maxInclusive() const { return m_maxInclusive; }

  std::unique_ptr<Filter> clone() const override { return std::make_unique<ColumnRangeFilter>(*this); }
  std::string toString() const override;
  FilterCode filterCell(const CellRef& cell) override;
  std::optional<SeekHint> getNextCellHint(const CellRef& cell) override;

 private:
  std::optional<Bytes> m_min;
  bool m_minInclusive;
  std::optional<Bytes> m_max;
  bool m_maxInclusive;
};

// Includes the first `limit` columns (one version each) of a row. Once a row has
// more columns, filterAllRemaining() turns true and the scan ends: the filter is
// meant for gets. REQUIRES: limit >= 0.
class ColumnCountGetFilter final : public Filter {
 public:
  explicit ColumnCountGetFilter(int32_t limit) : m_limit(limit) {}
  int32_t limit() const { return m_limit; }

  std::unique_ptr<Filter> clone() const override { return std::make_unique<ColumnCountGetFilter>(m_limit); }
  std::string toString() const override;
  void reset() override { m_count = 0; }
  bool filterAllRemaining() override { return m_count > m_limit; }
  bool filterRowKey(BytesView /*row*/) override { return filterAllRemaining(); }
  FilterCode filterCell(const CellRef& cell) override;

 private:
  int32_t m_limit;
  int64_t m_count = 0;
};

// Per row, includes `limit` columns (one version each) starting at column number
// `offset`, or starting at the first qualifier >= `columnOffset`.
// REQUIRES: limit >= 0, offset >= 0.
class ColumnPaginationFilter final : public Filter {
 public:
  ColumnPaginationFilter(int32_t limit, int32_t offset) : m_limit(limit), m_offset(offset) {}
  ColumnPaginationFilter(int32_t limit, Bytes columnOffset)
      : m_limit(limit), m_columnOffset(std::move(columnOffset)) {}
  int32_t limit() const { return m_limit; }
  int32_t offset() const { return m_offset; }
  const std::optional<Bytes>& columnOffset() const { return m_columnOffset; }

  std::unique_ptr<Filter> clone() const override;
  std::string toString() const override;
  void reset() override { m_count = 0; }
  FilterCode filterCell(const CellRef& cell) override;
  std::optional<SeekHint> getNextCellHint(const CellRef& cell) override;

 private:
  int32_t m_limit;
  int32_t m_offset = -1;
  std::optional<Bytes> m_columnOffset;
  int64_t m_count = 0;  // 64-bit: offset + limit cannot overflow (Java's int sum could)
};

}  // namespace keyscope::filter
