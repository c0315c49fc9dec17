// Filters that decide on whole rows by their key or by counting rows:
// PrefixFilter, InclusiveStopFilter, PageFilter (after HBase 2's classes of the
// same names).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "keyscope/filter.h"

namespace keyscope::filter {

// Keeps rows whose key starts with the prefix; ends the scan once a row key
// sorts past the prefix (forward scans).
class PrefixFilter final : public Filter {
 public:
  explicit PrefixFilter(Bytes prefix) : m_prefix(std::move(prefix)) {}
  const Bytes& prefix() const { return m_prefix; }

  std::unique_ptr<Filter> clone() const override { return std::make_unique<PrefixFilter>(m_prefix); }
  std::string toString() const override;
  void reset() override { m_filterRow = true; }
  bool filterAllRemaining() override { return m_passedPrefix; }
  bool filterRowKey(BytesView row) override;
  FilterCode filterCell(const CellRef& cell) override;
  bool filterRow() override { return m_filterRow; }

 private:
  Bytes m_prefix;
  bool m_passedPrefix = false;
  bool m_filterRow = true;
};

// Keeps rows up to and including the stop row, then ends the scan.
class InclusiveStopFilter final : public Filter {
 public:
  explicit InclusiveStopFilter(Bytes stopRow) : m_stopRow(std::move(stopRow)) {}
  const Bytes& stopRow() const { return m_stopRow; }

  std::unique_ptr<Filter> clone() const override { return std::make_unique<InclusiveStopFilter>(m_stopRow); }
  std::string toString() const override;
  bool filterAllRemaining() override { return m_done; }
  bool filterRowKey(BytesView row) override;
  FilterCode filterCell(const CellRef& cell) override;

 private:
  Bytes m_stopRow;
  bool m_done = false;
};

// Passes at most pageSize rows (counted in filterRow, i.e. rows that reached the
// end with cells), then ends the scan. REQUIRES: pageSize >= 0.
class PageFilter final : public Filter {
 public:
  explicit PageFilter(int64_t pageSize) : m_pageSize(pageSize) {}
  int64_t pageSize() const { return m_pageSize; }

  std::unique_ptr<Filter> clone() const override { return std::make_unique<PageFilter>(m_pageSize); }
  std::string toString() const override;
  bool filterAllRemaining() override { return m_rowsAccepted >= m_pageSize; }
  bool filterRowKey(BytesView /*row*/) override { return filterAllRemaining(); }
  bool hasFilterRow() const override { return true; }
  bool filterRow() override;

 private:
  int64_t m_pageSize;
  int64_t m_rowsAccepted = 0;
};

}  // namespace keyscope::filter
