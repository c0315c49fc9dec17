// StorageTableModel: the Storage tab's numbers, one row per part (row key,
// family name, …, page index, bloom filters, block headers, compression
// dictionaries) and a total row; columns Keyscope raw, Keyscope stored, share
// of the stored bytes, compressibility, HBase KeyValue.
//
// Thread rules: GUI thread only; it holds rows computed elsewhere.
#pragma once

#include <QAbstractTableModel>
#include <QVector>

#include "storage/storage_rows.h"

namespace keyscope {

class StorageTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { kPart, kRaw, kStored, kShare, kCompressibility, kHBase, kColumnCount };

  explicit StorageTableModel(QObject* parent = nullptr);

  void setRows(QVector<StorageRow> rows);
  const QVector<StorageRow>& rows() const { return m_rows; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  QVector<StorageRow> m_rows;  // the total row is computed, not stored
  uint64_t m_rawTotal = 0, m_storedTotal = 0, m_hbaseTotal = 0;
};

}  // namespace keyscope
