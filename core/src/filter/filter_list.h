// FilterList: HBase 2's MUST_PASS_ALL (FilterListWithAND) and MUST_PASS_ONE
// (FilterListWithOR) lists, with their return-code merging:
//
// - AND takes the largest step any member asks for
//   (INCLUDE < SKIP < INCLUDE_AND_NEXT_COL < NEXT_COL < INCLUDE_AND_SEEK_NEXT_ROW
//    < NEXT_ROW < SEEK_NEXT_USING_HINT, with HBase's merge table), stops offering
//   the cell to later members once the merged code is no longer an INCLUDE*
//   (HBASE-20565), and seeks to the largest hint.
// - OR takes the smallest step; a member that answered NEXT_COL, NEXT_ROW or
//   SEEK_NEXT_USING_HINT is not asked again about cells that answer still covers
//   (HBASE-17678, HBASE-18368); it seeks to the smallest hint and only when
//   every live member has one.
// - transformCell applies the members that included the cell, in order.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "keyscope/filter.h"

namespace keyscope::filter {

class FilterList final : public Filter {
 public:
  enum class Operator { kMustPassAll, kMustPassOne };

  FilterList(Operator op, std::vector<std::unique_ptr<Filter>> filters);
  Operator op() const { return m_op; }
  const std::vector<std::unique_ptr<Filter>>& filters() const { return m_filters; }

  std::unique_ptr<Filter> clone() const override;
  // "(A AND B AND C)"; a one-member list prints as its member.
  std::string toString() const override;
  void reset() override;
  bool filterAllRemaining() override;
  bool filterRowKey(BytesView row) override;
  FilterCode filterCell(const CellRef& cell) override;
  std::optional<SeekHint> getNextCellHint(const CellRef& cell) override;
  void transformCell(Cell& cell) const override;
  bool hasFilterRow() const override;
  void filterRowCells(std::vector<Cell>& cells) override;
  bool filterRow() override;
  void setReversed(bool reversed) override {
    Filter::setReversed(reversed);
    for (auto& f : m_filters) f->setReversed(reversed);
  }

 private:
  FilterCode filterCellAnd(const CellRef& cell);
  FilterCode filterCellOr(const CellRef& cell);
  std::optional<FilterCode> codeFromPrevious(size_t i, const CellRef& cell);

  Operator m_op;
  std::vector<std::unique_ptr<Filter>> m_filters;
  std::vector<char> m_includedCell;      // per member: its last answer was an INCLUDE* (OR)
  std::vector<size_t> m_seekHintFilters;  // AND: members that answered SEEK_NEXT_USING_HINT
  std::vector<std::optional<FilterCode>> m_prevCode;  // OR: per member, its last answer
  std::vector<std::optional<Cell>> m_prevCell;        // OR: the cell it answered, unless INCLUDE/SKIP
};

}  // namespace keyscope::filter
