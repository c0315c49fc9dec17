// KeyHexModel (see key_hex_model.h). GUI thread only.
#include "key_lab/key_hex_model.h"

#include <QBrush>
#include <QFontDatabase>

#include "key_lab/lab_colors.h"

namespace keyscope {

KeyHexModel::KeyHexModel(QObject* parent) : QAbstractTableModel(parent) {}

void KeyHexModel::setKey(Bytes key, std::vector<std::pair<size_t, size_t>> spans,
                         std::optional<size_t> errorOffset, QStringList componentNames) {
  // Keys are short (tens of bytes): a reset is cheaper to reason about than
  // computing row insertions and removals.
  beginResetModel();
  m_key = std::move(key);
  m_spans = std::move(spans);
  m_errorOffset = errorOffset;
  m_componentNames = std::move(componentNames);
  endResetModel();
}

void KeyHexModel::setDarkPalette(bool dark) {
  if (dark == m_dark) return;
  m_dark = dark;
  if (rowCount() > 0) {
    emit dataChanged(index(0, 0), index(rowCount() - 1, kColumnCount - 1),
                     {Qt::BackgroundRole, Qt::ForegroundRole});
  }
}

bool KeyHexModel::hasEndMarker() const {
  return m_errorOffset.has_value() && *m_errorOffset >= m_key.size();
}

size_t KeyHexModel::cellCount() const { return m_key.size() + (hasEndMarker() ? 1 : 0); }

QModelIndex KeyHexModel::hexIndex(size_t offset) const {
  if (offset >= cellCount()) return {};
  return index(static_cast<int>(offset / kBytesPerRow), static_cast<int>(offset % kBytesPerRow));
}

int KeyHexModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid()) return 0;
  return static_cast<int>((cellCount() + kBytesPerRow - 1) / kBytesPerRow);
}

int KeyHexModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumnCount;
}

std::optional<size_t> KeyHexModel::offsetAt(const QModelIndex& index) const {
  if (!index.isValid() || index.column() == kGapColumn) return std::nullopt;
  const int column =
      index.column() < kGapColumn ? index.column() : index.column() - kFirstAsciiColumn;
  const size_t offset = static_cast<size_t>(index.row() * kBytesPerRow + column);
  if (offset >= cellCount()) return std::nullopt;
  return offset;
}

int KeyHexModel::componentAt(size_t offset) const {
  for (size_t i = 0; i < m_spans.size(); ++i) {
    if (offset >= m_spans[i].first && offset < m_spans[i].second) return static_cast<int>(i);
  }
  return -1;
}

QVariant KeyHexModel::data(const QModelIndex& index, int role) const {
  const std::optional<size_t> offset = offsetAt(index);
  if (!offset) return {};
  const bool isAscii = index.column() > kGapColumn;
  const bool isEnd = *offset >= m_key.size();
  const bool isError = m_errorOffset.has_value() && *m_errorOffset == *offset;
  const int component = isEnd ? -1 : componentAt(*offset);

  switch (role) {
    case Qt::DisplayRole: {
      if (isEnd) return isAscii ? QStringLiteral("·") : QStringLiteral("··");
      const uint byte = byteAt(m_key, *offset);
      if (isAscii) {
        return byte >= 0x20 && byte < 0x7f ? QString(QChar(byte)) : QStringLiteral(".");
      }
      return QStringLiteral("%1").arg(byte, 2, 16, QLatin1Char('0'));
    }
    case Qt::BackgroundRole:
      if (isError) return QBrush(errorBackground(m_dark));
      if (component >= 0) return QBrush(componentBackground(static_cast<size_t>(component), m_dark));
      return {};
    case Qt::ForegroundRole:
      if (isError) return QBrush(errorForeground(m_dark));
      return {};
    case Qt::TextAlignmentRole:
      return QVariant::fromValue(Qt::AlignCenter);
    case Qt::FontRole:
      return QFontDatabase::systemFont(QFontDatabase::FixedFont);
    case Qt::ToolTipRole: {
      if (isEnd) return tr("End of key: decoding needed more bytes here");
      QString tip = tr("Byte %1 (0x%2)")
                        .arg(*offset)
                        .arg(uint{byteAt(m_key, *offset)}, 2, 16, QLatin1Char('0'));
      if (component >= 0 && component < m_componentNames.size()) {
        tip += tr(", component '%1'").arg(m_componentNames[component]);
      }
      if (isError) tip += tr(", decoding stopped here");
      return tip;
    }
    case ByteOffsetRole:
      return static_cast<int>(*offset);
    case ComponentRole:
      return component;
    case ErrorRole:
      return isError;
    default:
      return {};
  }
}

QVariant KeyHexModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, orientation, role);
  if (orientation == Qt::Vertical) {
    return QStringLiteral("%1").arg(section * kBytesPerRow, 4, 16, QLatin1Char('0'));
  }
  if (section < kGapColumn) return QString::number(section, 16);
  return QString();
}

Qt::ItemFlags KeyHexModel::flags(const QModelIndex& index) const {
  if (!offsetAt(index)) return Qt::NoItemFlags;
  return Qt::ItemIsEnabled | Qt::ItemIsSelectable;
}

}  // namespace keyscope
