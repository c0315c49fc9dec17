// QueryResultModel (see query_result_model.h). GUI thread only.
#include "console/query_result_model.h"

#include <QFontDatabase>

#include "browser/value_format.h"

namespace keyscope {

QueryResultModel::QueryResultModel(QObject* parent) : QAbstractTableModel(parent) {}

void QueryResultModel::clear() {
  if (m_cells.empty()) return;
  beginResetModel();
  m_cells.clear();
  m_cells.shrink_to_fit();
  m_rowKeys = 0;
  endResetModel();
}

void QueryResultModel::append(ResultBatch batch) {
  if (batch.empty()) return;
  const int first = static_cast<int>(m_cells.size());
  beginInsertRows({}, first, first + static_cast<int>(batch.size()) - 1);
  for (ResultCell& cell : batch) {
    if (m_cells.empty() || m_cells.back().row != cell.row) ++m_rowKeys;
    m_cells.push_back(std::move(cell));
  }
  endInsertRows();
}

int QueryResultModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_cells.size());
}

int QueryResultModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumnCount;
}

QVariant QueryResultModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
    return {};
  const ResultCell& c = m_cells[static_cast<size_t>(index.row())];
  switch (role) {
    case Qt::DisplayRole:
      switch (index.column()) {
        case kRow: return c.row;
        case kColumn: return c.column;
        case kTimestamp: return c.timestamp;
        case kType: return c.type;
        case kValue: return c.value;
        default: return {};
      }
    case Qt::ToolTipRole:
      if (index.column() == kTimestamp) return formatEpochMillis(c.timestamp);
      if (index.column() == kValue || index.column() == kRow) return data(index, Qt::DisplayRole);
      return {};
    case Qt::TextAlignmentRole:
      if (index.column() == kTimestamp) return QVariant(Qt::AlignRight | Qt::AlignVCenter);
      return {};
    case Qt::FontRole:
      if (index.column() == kRow || index.column() == kValue)
        return QFontDatabase::systemFont(QFontDatabase::FixedFont);
      return {};
    default:
      return {};
  }
}

QVariant QueryResultModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (role != Qt::DisplayRole) return {};
  if (orientation == Qt::Vertical) return section + 1;
  switch (section) {
    case kRow: return tr("Row");
    case kColumn: return tr("Column");
    case kTimestamp: return tr("Timestamp");
    case kType: return tr("Type");
    case kValue: return tr("Value");
    default: return {};
  }
}

}  // namespace keyscope
