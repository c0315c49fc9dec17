// Filters that decide on a row or its cells by the value of one column:
// SingleColumnValueFilter, SingleColumnValueExcludeFilter, DependentColumnFilter
// (after HBase 2's classes of the same names). All three have a filterRow step.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "filter/comparator.h"
#include "keyscope/compare_op.h"
#include "keyscope/filter.h"

namespace keyscope::filter {

// An optional value test: the value passes when `value op comparator` holds.
struct ColumnTest {
  CompareOp op;
  ByteComparator comparator;
};

// Keeps a row when its (family, qualifier) cell passes `value op comparator`.
// latestVersionOnly (default true): only the newest offered version decides.
// filterIfMissing (default false): a row without the column is dropped.
class SingleColumnValueFilter : public Filter {
 public:
  SingleColumnValueFilter(std::string family, Bytes qualifier, CompareOp op, ByteComparator comparator,
                          bool filterIfMissing = false, bool latestVersionOnly = true)
      : m_family(std::move(family)), m_qualifier(std::move(qualifier)), m_op(op),
        m_comparator(std::move(comparator)), m_filterIfMissing(filterIfMissing),
        m_latestVersionOnly(latestVersionOnly) {}

  const std::string& family() const { return m_family; }
  const Bytes& qualifier() const { return m_qualifier; }
  CompareOp op() const { return m_op; }
  const ByteComparator& comparator() const { return m_comparator; }
  bool filterIfMissing() const { return m_filterIfMissing; }
  bool latestVersionOnly() const { return m_latestVersionOnly; }

  std::unique_ptr<Filter> clone() const override;
  std::string toString() const override { return describe("SingleColumnValueFilter"); }
  void reset() override {
    m_foundColumn = false;
    m_matchedColumn = false;
  }
  FilterCode filterCell(const CellRef& cell) override;
  bool hasFilterRow() const override { return true; }
  bool filterRow() override { return m_foundColumn ? !m_matchedColumn : m_filterIfMissing; }

 protected:
  std::string describe(const char* name) const;

 private:
  std::string m_family;
  Bytes m_qualifier;
  CompareOp m_op;
  ByteComparator m_comparator;
  bool m_filterIfMissing;
  bool m_latestVersionOnly;
  bool m_foundColumn = false;
  bool m_matchedColumn = false;
};

// SingleColumnValueFilter that also removes the tested column from the rows it keeps.
class SingleColumnValueExcludeFilter final : public SingleColumnValueFilter {
 public:
  using SingleColumnValueFilter::SingleColumnValueFilter;
  std::unique_ptr<Filter> clone() const override;
  std::string toString() const override { return describe("SingleColumnValueExcludeFilter"); }
  void filterRowCells(std::vector<Cell>& cells) override;
};

// Keeps only the cells whose timestamp equals that of a cell of the dependent
// column (family, qualifier) in the same row; with a test, only dependent cells
// that pass it count. dropDependentColumn leaves the dependent column out.
class DependentColumnFilter final : public Filter {
 public:
  DependentColumnFilter(std::string family, Bytes qualifier, bool dropDependentColumn,
                        std::optional<ColumnTest> test)
      : m_family(std::move(family)), m_qualifier(std::move(qualifier)),
        m_dropDependentColumn(dropDependentColumn), m_test(std::move(test)) {}

  const std::string& family() const { return m_family; }
  const Bytes& qualifier() const { return m_qualifier; }
  bool dropDependentColumn() const { return m_dropDependentColumn; }
  const std::optional<ColumnTest>& test() const { return m_test; }

  std::unique_ptr<Filter> clone() const override;
  std::string toString() const override;
  void reset() override { m_stamps.clear(); }
  FilterCode filterCell(const CellRef& cell) override;
  bool hasFilterRow() const override { return true; }
  void filterRowCells(std::vector<Cell>& cells) override;
  bool filterRow() override { return false; }

 private:
  std::string m_family;
  Bytes m_qualifier;
  bool m_dropDependentColumn;
  std::optional<ColumnTest> m_test;
  std::set<int64_t> m_stamps;
};

}  // namespace keyscope::filter
