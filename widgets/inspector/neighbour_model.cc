// NeighbourModel (see neighbour_model.h). GUI thread only.
#include "inspector/neighbour_model.h"

#include <QByteArray>
#include <QFont>
#include <QFontDatabase>
#include <QPalette>

#include <string>

#include "keyscope/key_json.h"

namespace keyscope {

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

QString byteText(BytesView key, size_t offset) {
  if (offset >= key.size()) return QStringLiteral("end");
  return QStringLiteral("0x%1").arg(uint{byteAt(key, offset)}, 2, 16, QLatin1Char('0'));
}

}  // namespace

NeighbourModel::NeighbourModel(QObject* parent) : QAbstractTableModel(parent) {}

void NeighbourModel::setSchema(const std::optional<KeySchema>& schema) {
  beginResetModel();
  m_schema = schema;
  m_entries.clear();
  m_neighbours = {};
  m_keyRow = -1;
  endResetModel();
}

void NeighbourModel::clear() {
  beginResetModel();
  m_entries.clear();
  m_neighbours = {};
  m_keyRow = -1;
  endResetModel();
}

void NeighbourModel::setNeighbours(const KeyNeighbours& neighbours) {
  beginResetModel();
  m_neighbours = neighbours;
  m_entries.clear();
  auto add = [this, &neighbours](const Bytes& key, int position) {
    Entry entry;
    entry.key = key;
    entry.position = position;
    if (m_schema) entry.decoded = decodeKey(*m_schema, key);
    entry.difference = position == 0 ? std::nullopt : firstDifference(key, neighbours.key);
    m_entries.push_back(std::move(entry));
  };
  const int before = static_cast<int>(neighbours.before.size());
  for (int i = 0; i < before; ++i) add(neighbours.before[static_cast<size_t>(i)], i - before);
  m_keyRow = static_cast<int>(m_entries.size());
  add(neighbours.key, 0);
  for (size_t i = 0; i < neighbours.after.size(); ++i)
    add(neighbours.after[i], static_cast<int>(i) + 1);
  endResetModel();
}

std::optional<Bytes> NeighbourModel::rowKey(int row) const {
  if (row < 0 || row >= rowCount()) return std::nullopt;
  return m_entries[static_cast<size_t>(row)].key;
}

int NeighbourModel::componentCount() const {
  return m_schema ? static_cast<int>(m_schema->size()) : 0;
}

int NeighbourModel::differenceColumn() const { return kFirstComponentColumn + componentCount(); }

int NeighbourModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_entries.size());
}

int NeighbourModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : differenceColumn() + 1;
}

QString NeighbourModel::positionText(const Entry& entry, int row) const {
  if (entry.position == 0)
    return m_neighbours.present ? tr("key: present") : tr("key: would sort here");
  // U+2212 minus: lines up with "+" in a proportional font.
  QString text = entry.position < 0 ? QStringLiteral("\u2212%1").arg(-entry.position)
                                    : QStringLiteral("+%1").arg(entry.position);
  if (row == 0 && m_neighbours.atStart) text += tr(" (first row)");
  if (row == rowCount() - 1 && m_neighbours.atEnd) text += tr(" (last row)");
  return text;
}

QString NeighbourModel::componentText(const Entry& entry, size_t component) const {
  if (component < entry.decoded.values.size())
    return qs(valueToJson((*m_schema)[component], entry.decoded.values[component]));
  if (entry.decoded.error && entry.decoded.error->component == component) return tr("✗");
  return {};
}

QString NeighbourModel::differenceText(const Entry& entry) const {
  if (entry.position == 0 || !entry.difference) return {};
  const size_t at = *entry.difference;
  const BytesView key = m_neighbours.key;
  // The component that byte belongs to in this row.
  QString where;
  if (m_schema) {
    for (size_t i = 0; i < entry.decoded.spans.size(); ++i) {
      const auto [begin, end] = entry.decoded.spans[i];
      if (at >= begin && at < end) where = tr(" in %1").arg(qs((*m_schema)[i].name));
    }
  }
  if (at >= entry.key.size()) return tr("byte %1: the row ends (a prefix of the key)").arg(at);
  if (at >= key.size()) return tr("byte %1%2: the key ends (a prefix of the row)").arg(at).arg(where);
  return tr("byte %1%2: %3 vs %4").arg(at).arg(where, byteText(entry.key, at), byteText(key, at));
}

QVariant NeighbourModel::data(const QModelIndex& index, int role) const {
  if (!isValidIndex(index))
    return {};
  const Entry& entry = m_entries[static_cast<size_t>(index.row())];
  const int column = index.column();
  const bool isKey = entry.position == 0;
  switch (role) {
    case Qt::DisplayRole:
      if (column == kColPosition) return positionText(entry, index.row());
      if (column == kColRowKey) return qs(toStringBinary(entry.key));
      if (column == differenceColumn()) return differenceText(entry);
      return componentText(entry, static_cast<size_t>(column - kFirstComponentColumn));
    case Qt::ToolTipRole:
      if (column == kColRowKey) return tr("%1\nhex: %2").arg(qs(toStringBinary(entry.key)), qs(toHex(entry.key)));
      if (column > kColRowKey && column < differenceColumn() && entry.decoded.error &&
          entry.decoded.error->component == static_cast<size_t>(column - kFirstComponentColumn))
        return qs(entry.decoded.error->toString(*m_schema));
      if (column == differenceColumn() && !isKey)
        return tr("The first byte where this row's key differs from the inspected key: "
                  "this row's byte vs the key's. Click to inspect this row.");
      if (!isKey) return tr("Click to inspect this row");
      return {};
    case Qt::FontRole: {
      QFont font;
      if (column == kColRowKey || (column > kColRowKey && column < differenceColumn()))
        font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
      if (isKey) {
        font.setBold(true);
        font.setItalic(!m_neighbours.present);
      }
      return font;
    }
    case Qt::BackgroundRole:
      if (isKey) return QPalette().brush(QPalette::Active, QPalette::Highlight);
      return {};
    case Qt::ForegroundRole:
      if (isKey) return QPalette().brush(QPalette::Active, QPalette::HighlightedText);
      return {};
    case RowKeyRole:
      return QByteArray::fromStdString(entry.key);
    case IsKeyRole:
      return isKey;
    case DifferenceRole:
      return entry.difference ? static_cast<int>(*entry.difference) : -1;
    default:
      return {};
  }
}

QVariant NeighbourModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
    return QAbstractTableModel::headerData(section, orientation, role);
  if (section == kColPosition) return tr("Position");
  if (section == kColRowKey) return tr("Row key");
  if (section == differenceColumn()) return tr("First difference");
  if (section > kColRowKey && section < differenceColumn())
    return qs((*m_schema)[static_cast<size_t>(section - kFirstComponentColumn)].name);
  return {};
}

Qt::ItemFlags NeighbourModel::flags(const QModelIndex& index) const {
  if (!isValidIndex(index))
    return Qt::NoItemFlags;
  return Qt::ItemIsEnabled | Qt::ItemIsSelectable;
}

}  // namespace keyscope
