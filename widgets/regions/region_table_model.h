// RegionTableModel: a table's regions as hbtop's region table - region,
// start, end, server, size raw and stored, store files, cells, reads/s and
// writes/s - one row per region, in the order given (key order; a
// QSortFilterProxyModel sorts by any column through kSortRole).
//
// Keys show as RegionBar::keyText does (decoded by the table's key schema,
// or escaped); the full escaped key is the tooltip. Holds plain values that
// a job computed off the GUI thread.
//
// GUI thread only.
#pragma once

#include <QAbstractTableModel>

#include <optional>
#include <vector>

#include "keyscope/key_schema.h"
#include "keyscope/statistics.h"

namespace keyscope {

class RegionTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { kRegion, kStart, kEnd, kServer, kRaw, kStored, kStoreFiles, kCells, kReadsPerSecond,
                kWritesPerSecond, kColumnCount };
  // Numbers as numbers, keys as bytes (the empty end after every key).
  static constexpr int kSortRole = Qt::UserRole + 1;
  // The row's region id (qint64), in every column.
  static constexpr int kRegionIdRole = Qt::UserRole + 2;

  explicit RegionTableModel(QObject* parent = nullptr);

  // Replaces the rows (a reset).
  void setRegions(std::vector<RegionLoad> regions, std::optional<KeySchema> schema);
  const std::vector<RegionLoad>& regions() const { return m_regions; }
  // The row of a region, or -1.
  int rowOf(int64_t regionId) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  std::vector<RegionLoad> m_regions;
  std::optional<KeySchema> m_schema;
};

}  // namespace keyscope
