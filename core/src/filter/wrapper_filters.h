// SkipFilter and WhileMatchFilter: the filter language's SKIP and WHILE, after
// HBase 2's classes. Both delegate filterCell and transformCell to the wrapped
// filter; like HBase's, neither forwards filterRowCells or getNextCellHint, and
// SkipFilter does not forward filterRowKey or filterAllRemaining either.
#pragma once

#include <memory>
#include <string>

#include "keyscope/filter.h"

namespace keyscope::filter {

// Drops the whole row as soon as the wrapped filter answers anything but
// kInclude for one of its cells.
class SkipFilter final : public Filter {
 public:
  explicit SkipFilter(std::unique_ptr<Filter> filter) : m_filter(std::move(filter)) {}
  const Filter& wrapped() const { return *m_filter; }

  std::unique_ptr<Filter> clone() const override { return std::make_unique<SkipFilter>(m_filter->clone()); }
  std::string toString() const override { return "SKIP " + m_filter->toString(); }
  void reset() override;
  bool filterRowKey(BytesView /*row*/) override { return false; }
  FilterCode filterCell(const CellRef& cell) override;
  void transformCell(Cell& cell) const override { m_filter->transformCell(cell); }
  bool hasFilterRow() const override { return true; }
  bool filterRow() override { return m_filterRow; }
  void setReversed(bool reversed) override {
    Filter::setReversed(reversed);
    m_filter->setReversed(reversed);
  }

 private:
  std::unique_ptr<Filter> m_filter;
  bool m_filterRow = false;
};

// Ends the scan at the first row key, cell or row the wrapped filter rejects
// (that row is dropped too).
class WhileMatchFilter final : public Filter {
 public:
  explicit WhileMatchFilter(std::unique_ptr<Filter> filter) : m_filter(std::move(filter)) {}
  const Filter& wrapped() const { return *m_filter; }

  std::unique_ptr<Filter> clone() const override {
    return std::make_unique<WhileMatchFilter>(m_filter->clone());
  }
  std::string toString() const override { return "WHILE " + m_filter->toString(); }
  void reset() override { m_filter->reset(); }
  void setReversed(bool reversed) override {
    Filter::setReversed(reversed);
    m_filter->setReversed(reversed);
  }
  bool filterAllRemaining() override { return m_filterAllRemaining || m_filter->filterAllRemaining(); }
  bool filterRowKey(BytesView row) override;
  FilterCode filterCell(const CellRef& cell) override;
  void transformCell(Cell& cell) const override { m_filter->transformCell(cell); }
  bool hasFilterRow() const override { return true; }
  bool filterRow() override;

 private:
  std::unique_ptr<Filter> m_filter;
  bool m_filterAllRemaining = false;
};

}  // namespace keyscope::filter
