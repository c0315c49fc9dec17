// RegionTableModel (see region_table_model.h). GUI thread only.
#include "regions/region_table_model.h"

#include <QByteArray>
#include <QLocale>

#include "regions/region_bar.h"

namespace keyscope {

namespace {

QString sortableKey(const Bytes& key, bool isEnd) {
  // '1' + hex sorts by the key's bytes (a QByteArray would be compared as
  // text); the empty end ('2') after every key.
  if (isEnd && key.empty()) return QStringLiteral("2");
  return QLatin1Char('1') + QString::fromLatin1(QByteArray(key.data(), static_cast<qsizetype>(key.size())).toHex());
}

QString rate(double perSecond) { return QLocale().toString(perSecond, 'f', 1); }

}  // namespace

RegionTableModel::RegionTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void RegionTableModel::setRegions(std::vector<RegionLoad> regions, std::optional<KeySchema> schema) {
  beginResetModel();
  m_regions = std::move(regions);
  m_schema = std::move(schema);
  endResetModel();
}

int RegionTableModel::rowOf(int64_t regionId) const {
  for (size_t i = 0; i < m_regions.size(); ++i)
    if (m_regions[i].regionId == regionId) return static_cast<int>(i);
  return -1;
}

int RegionTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_regions.size());
}

int RegionTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : kColumnCount; }

QVariant RegionTableModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const RegionLoad& r = m_regions[static_cast<size_t>(index.row())];
  const QLocale locale;
  if (role == kRegionIdRole) return QVariant::fromValue<qint64>(r.regionId);
  if (role == Qt::TextAlignmentRole) {
    const bool text = index.column() == kStart || index.column() == kEnd;
    return QVariant::fromValue(text ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter);
  }
  if (role == Qt::ToolTipRole) {
    if (index.column() == kStart)
      return r.startRow.empty() ? tr("the start of the table") : QString::fromStdString(toStringBinary(r.startRow));
    if (index.column() == kEnd)
      return r.endRow.empty() ? tr("the end of the table") : QString::fromStdString(toStringBinary(r.endRow));
    return {};
  }
  if (role == kSortRole) {
    switch (index.column()) {
      case kRegion: return QVariant::fromValue<qint64>(r.regionId);
      case kStart: return sortableKey(r.startRow, false);
      case kEnd: return sortableKey(r.endRow, true);
      case kServer: return r.server;
      case kRaw: return QVariant::fromValue<qulonglong>(r.rawBytes);
      case kStored: return QVariant::fromValue<qulonglong>(r.storedBytes);
      case kStoreFiles: return r.storeFiles;
      case kCells: return QVariant::fromValue<qulonglong>(r.cells);
      case kReadsPerSecond: return r.readsPerSecond;
      case kWritesPerSecond: return r.writesPerSecond;
      default: return {};
    }
  }
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case kRegion: return QString::number(r.regionId);
    case kStart: return r.startRow.empty() ? tr("(start)") : RegionBar::keyText(r.startRow, m_schema);
    case kEnd: return r.endRow.empty() ? tr("(end)") : RegionBar::keyText(r.endRow, m_schema);
    case kServer: return QString::number(r.server);
    case kRaw: return locale.formattedDataSize(static_cast<qint64>(r.rawBytes));
    case kStored: return locale.formattedDataSize(static_cast<qint64>(r.storedBytes));
    case kStoreFiles: return locale.toString(r.storeFiles);
    case kCells: return locale.toString(static_cast<qulonglong>(r.cells));
    case kReadsPerSecond: return rate(r.readsPerSecond);
    case kWritesPerSecond: return rate(r.writesPerSecond);
    default: return {};
  }
}

QVariant RegionTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, orientation, role);
  switch (section) {
    case kRegion: return tr("Region");
    case kStart: return tr("Start");
    case kEnd: return tr("End");
    case kServer: return tr("Server");
    case kRaw: return tr("Raw");
    case kStored: return tr("Stored");
    case kStoreFiles: return tr("Files");
    case kCells: return tr("Cells");
    case kReadsPerSecond: return tr("Reads/s");
    case kWritesPerSecond: return tr("Writes/s");
    default: return {};
  }
}

}  // namespace keyscope
