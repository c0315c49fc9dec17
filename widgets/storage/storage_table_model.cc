// StorageTableModel: rows of a storage report's scope.
#include "storage/storage_table_model.h"

#include <QBrush>
#include <QFont>
#include <QLocale>

namespace keyscope {

StorageTableModel::StorageTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void StorageTableModel::setRows(QVector<StorageRow> rows) {
  beginResetModel();
  m_rows = std::move(rows);
  m_rawTotal = m_storedTotal = m_hbaseTotal = 0;
  for (const StorageRow& r : m_rows) {
    m_rawTotal += r.raw;
    m_storedTotal += r.stored;
    m_hbaseTotal += r.hbase;
  }
  endResetModel();
}

int StorageTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || m_rows.isEmpty() ? 0 : static_cast<int>(m_rows.size()) + 1;
}

int StorageTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : kColumnCount; }

QVariant StorageTableModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const bool total = index.row() == static_cast<int>(m_rows.size());
  const StorageRow* row = total ? nullptr : &m_rows[index.row()];
  const QLocale locale;
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case kPart: return total ? tr("total") : row->name;
      case kRaw: return locale.toString(static_cast<qulonglong>(total ? m_rawTotal : row->raw));
      case kStored: {
        const QString bytes = locale.toString(static_cast<qulonglong>(total ? m_storedTotal : row->stored));
        return !total && row->estimated ? tr("≈ %1").arg(bytes) : bytes;
      }
      case kShare: {
        const uint64_t stored = total ? m_storedTotal : row->stored;
        if (m_storedTotal == 0) return QString();
        return QStringLiteral("%1%").arg(locale.toString(100.0 * static_cast<double>(stored) / static_cast<double>(m_storedTotal), 'f', 1));
      }
      case kCompressibility:
        if (total || !row->estimated || row->raw == 0) return total || row->raw == 0 ? QString() : tr("not compressed");
        return QStringLiteral("%1%").arg(locale.toString(100.0 * row->compressibility, 'f', 0));
      case kHBase:
        if (!total && index.row() >= static_cast<int>(kStorageCategoryCount)) return tr("—");
        return locale.toString(static_cast<qulonglong>(total ? m_hbaseTotal : row->hbase));
      default: return {};
    }
  }
  if (role == Qt::EditRole) {  // numbers for sorting and tests
    switch (index.column()) {
      case kPart: return total ? tr("total") : row->name;
      case kRaw: return static_cast<qulonglong>(total ? m_rawTotal : row->raw);
      case kStored: return static_cast<qulonglong>(total ? m_storedTotal : row->stored);
      case kCompressibility: return total ? QVariant() : QVariant(row->compressibility);
      case kHBase: return static_cast<qulonglong>(total ? m_hbaseTotal : row->hbase);
      default: return {};
    }
  }
  if (role == Qt::TextAlignmentRole && index.column() != kPart)
    return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
  if (role == Qt::DecorationRole && index.column() == kPart && !total) return row->colour;
  if (role == Qt::FontRole && total) {
    QFont font;
    font.setBold(true);
    return font;
  }
  if (role == Qt::ToolTipRole && index.column() == kStored && !total && row->estimated)
    return tr("Pages are compressed as a whole: this share of the real compressed size is attributed by how well "
              "this part's bytes compress on their own (zstd, a sample of each).");
  return {};
}

QVariant StorageTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case kPart: return tr("Bytes of");
    case kRaw: return tr("Raw");
    case kStored: return tr("Stored");
    case kShare: return tr("Share stored");
    case kCompressibility: return tr("Compresses to");
    case kHBase: return tr("HBase KeyValue");
    default: return {};
  }
}

}  // namespace keyscope
