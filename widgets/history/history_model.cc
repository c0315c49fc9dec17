// HistoryModel (see history_model.h). GUI thread only.
#include "history/history_model.h"

#include <QBrush>
#include <QGuiApplication>
#include <QPalette>

#include <utility>

#include "history/history_colors.h"
#include "keyscope/byte_format.h"

namespace keyscope {

void HistoryModel::setLayout(std::shared_ptr<const HistoryLayout> layout) {
  beginResetModel();
  m_layout = std::move(layout);
  endResetModel();
}

void HistoryModel::setValueFormat(ValueFormat format) {
  m_format = format;
  if (rowCount() > 0) emit dataChanged(index(0, kValue), index(rowCount() - 1, kValue));
}

int HistoryModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() || !m_layout) return 0;
  return static_cast<int>(m_layout->versions.size());
}

int HistoryModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumnCount;
}

QVariant HistoryModel::display(const HistoryVersion& version, int column) const {
  const bool marker = version.type != CellType::kPut;
  switch (column) {
    case kColumn:
      return isFamilyDeleteType(version.type)
                 ? tr("(whole family)")
                 : QString::fromStdString(toStringBinary(version.qualifier));
    case kTimestamp:
      return QString::number(version.timestamp);
    case kTime:
      return version.timestamp >= kEpochLikeMillis ? timestampLabel(version.timestamp)
                                                    : tr("logical");
    case kType:
      return QString::fromLatin1(cellTypeName(version.type));
    case kValue:
      return marker ? QString() : formatValue(version.value, m_format).text;
    case kFate:
      return fateText(*m_layout, version);
    case kReturnedByGet:
      if (marker) return QString();
      return version.returnedByGet ? tr("yes") : tr("no");
    default:
      return {};
  }
}

QVariant HistoryModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
    return {};
  const HistoryVersion& version = m_layout->versions[static_cast<size_t>(index.row())];
  switch (role) {
    case Qt::DisplayRole:
      return display(version, index.column());
    case Qt::ToolTipRole:
      if (index.column() == kValue && version.type == CellType::kPut) {
        const FormattedValue shown = formatValue(version.value, m_format);
        QString tip = tr("%1 bytes").arg(version.value.size());
        if (!shown.fits()) tip += tr("\nShown as escaped text: %1").arg(shown.problem);
        return tip;
      }
      if (index.column() == kTime) return formatEpochMillis(version.timestamp);
      return display(version, index.column());
    case Qt::ForegroundRole:
      if (index.column() == kFate || index.column() == kType) {
        return QBrush(fateColor(version.fate, isDarkPalette(QGuiApplication::palette())));
      }
      return {};
    case Qt::TextAlignmentRole:
      if (index.column() == kTimestamp) return static_cast<int>(Qt::AlignRight | Qt::AlignVCenter);
      return {};
    case FateRole:
      return static_cast<int>(version.fate);
    case TimestampRole:
      return static_cast<qint64>(version.timestamp);
    default:
      return {};
  }
}

QVariant HistoryModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case kColumn:
      return tr("Column");
    case kTimestamp:
      return tr("Timestamp");
    case kTime:
      return tr("Time (UTC)");
    case kType:
      return tr("Type");
    case kValue:
      return tr("Value");
    case kFate:
      return tr("A get with these options");
    case kReturnedByGet:
      return tr("Returned by the get");
    default:
      return {};
  }
}

}  // namespace keyscope
