// QueryResultModel: the console's results grid, one line per cell: row,
// family:qualifier, timestamp, type, value (formatted on the worker). Cells
// are appended batch by batch while a scan streams; the console stops a scan
// at kMaxCellsShown, so the model stays bounded.
//
// Thread rules: GUI thread only.
#pragma once

#include <QAbstractTableModel>

#include "console/query_jobs.h"

namespace keyscope {

class QueryResultModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { kRow, kColumn, kTimestamp, kType, kValue, kColumnCount };

  explicit QueryResultModel(QObject* parent = nullptr);

  void clear();
  void append(ResultBatch batch);
  const ResultCell& cell(int line) const { return m_cells[static_cast<size_t>(line)]; }
  // Distinct row keys among the cells shown (consecutive cells of one row count once).
  qint64 rowKeys() const { return m_rowKeys; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  std::vector<ResultCell> m_cells;
  qint64 m_rowKeys = 0;
};

}  // namespace keyscope
