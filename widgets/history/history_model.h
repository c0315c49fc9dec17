// HistoryModel: the versions of a cell history as a table, one row per
// version in the engine's order (family markers, then each column, newest
// first): column, timestamp, its date-time or "logical", type, value (in the
// column's display format), what the get makes of it ("returned", "masked by
// DeleteColumn @ 5", "beyond VERSIONS", "expired (TTL)") and whether the
// real get returned it.
//
// GUI thread only, like every model. It holds a laid-out history (a value
// computed on the job runner) and never reads the engine.
#pragma once

#include <QAbstractTableModel>

#include <memory>

#include "browser/value_format.h"
#include "history/history_layout.h"

namespace keyscope {

class HistoryModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { kColumn, kTimestamp, kTime, kType, kValue, kFate, kReturnedByGet, kColumnCount };
  enum Role {
    FateRole = Qt::UserRole + 1,  // int: VersionFate
    TimestampRole,                // qint64
  };

  using QAbstractTableModel::QAbstractTableModel;

  // Shows `layout` (nullptr: nothing).
  void setLayout(std::shared_ptr<const HistoryLayout> layout);
  const HistoryLayout* layout() const { return m_layout.get(); }
  void setValueFormat(ValueFormat format);
  ValueFormat valueFormat() const { return m_format; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  QVariant display(const HistoryVersion& version, int column) const;

  std::shared_ptr<const HistoryLayout> m_layout;
  ValueFormat m_format = ValueFormat::kEscaped;
};

}  // namespace keyscope
