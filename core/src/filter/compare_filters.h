// HBase's CompareFilter and the four filters that compare one part of a cell
// through a ByteComparator: RowFilter, FamilyFilter, QualifierFilter, ValueFilter.
//
// The order of operands is HBase's: the comparator's value is compared against
// the cell's bytes (comparator.compareTo(cellBytes)), and CompareFilter.compare
// turns that into "filter out" exactly as HBase does, so RowFilter (<, 'binary:r5')
// keeps the rows below r5.
#pragma once

#include <memory>
#include <string>

#include "filter/comparator.h"
#include "keyscope/compare_op.h"
#include "keyscope/filter.h"

namespace keyscope::filter {

// CompareFilter.compare(op, comparator.compareTo(bytes)) with CompareFilter's
// NO_OP rule: true when `bytes` is to be filtered out.
bool compareFilterOut(CompareOp op, const ByteComparator& comparator, BytesView bytes);

class CompareFilter : public Filter {
 public:
  CompareFilter(CompareOp op, ByteComparator comparator) : m_op(op), m_comparator(std::move(comparator)) {}
  CompareOp op() const { return m_op; }
  const ByteComparator& comparator() const { return m_comparator; }

 protected:
  bool filtersOut(BytesView bytes) const { return compareFilterOut(m_op, m_comparator, bytes); }
  // "Name (op, 'type:value')".
  std::string describe(const char* name) const;

 private:
  CompareOp m_op;
  ByteComparator m_comparator;
};

// Drops rows whose key fails the comparison, in filterRowKey.
class RowFilter final : public CompareFilter {
 public:
  using CompareFilter::CompareFilter;
  std::unique_ptr<Filter> clone() const override;
  std::string toString() const override { return describe("RowFilter"); }
  void reset() override { m_filterOutRow = false; }
  bool filterRowKey(BytesView row) override;
  FilterCode filterCell(const CellRef& cell) override;
  bool filterRow() override { return m_filterOutRow; }

 private:
  bool m_filterOutRow = false;
};

// A cell of a failing family answers kNextRow (HBase 2: the rest of that
// family's cells in the row are skipped, other families still come).
class FamilyFilter final : public CompareFilter {
 public:
  using CompareFilter::CompareFilter;
  std::unique_ptr<Filter> clone() const override;
  std::string toString() const override { return describe("FamilyFilter"); }
  FilterCode filterCell(const CellRef& cell) override;
};

// A cell whose qualifier fails the comparison is skipped.
class QualifierFilter final : public CompareFilter {
 public:
  using CompareFilter::CompareFilter;
  std::unique_ptr<Filter> clone() const override;
  std::string toString() const override { return describe("QualifierFilter"); }
  FilterCode filterCell(const CellRef& cell) override;
};

// A cell whose value fails the comparison is skipped.
class ValueFilter final : public CompareFilter {
 public:
  using CompareFilter::CompareFilter;
  std::unique_ptr<Filter> clone() const override;
  std::string toString() const override { return describe("ValueFilter"); }
  FilterCode filterCell(const CellRef& cell) override;
};

}  // namespace keyscope::filter
