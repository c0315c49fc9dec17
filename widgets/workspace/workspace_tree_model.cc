// WorkspaceTreeModel (see workspace_tree_model.h). GUI thread only.
#include "workspace/workspace_tree_model.h"

#include <QApplication>
#include <QLocale>
#include <QStyle>

#include "common/counted_text.h"
#include "keyscope/byte_format.h"

namespace keyscope {

namespace {

// Long keys are cut for the tree; the full range is in the tooltip.
constexpr qsizetype kMaxBoundChars = 32;

QString sizeText(uint64_t bytes) {
  return QLocale().formattedDataSize(static_cast<qint64>(bytes), 1, QLocale::DataSizeIecFormat);
}

QString compressionName(Compression compression) {
  return compression == Compression::kZstd ? QStringLiteral("ZSTD")
                                           : QStringLiteral("no compression");
}

QString bloomName(BloomType bloom) {
  switch (bloom) {
    case BloomType::kNone:
      return QStringLiteral("no bloom filter");
    case BloomType::kRow:
      return QStringLiteral("bloom ROW");
    case BloomType::kRowCol:
      return QStringLiteral("bloom ROWCOL");
  }
  return {};
}

QString ttlText(int64_t seconds) {
  if (seconds >= kTtlForever) return QStringLiteral("TTL forever");
  if (seconds % 86400 == 0) return QStringLiteral("TTL %1 d").arg(seconds / 86400);
  if (seconds % 3600 == 0) return QStringLiteral("TTL %1 h").arg(seconds / 3600);
  return QStringLiteral("TTL %1 s").arg(seconds);
}

QList<QStandardItem*> itemRow(const QString& name, const QString& details,
                              WorkspaceTreeModel::ItemKind kind, const QString& table,
                              const QString& tooltip = {}) {
  auto* nameItem = new QStandardItem(name);
  auto* detailsItem = new QStandardItem(details);
  for (QStandardItem* item : {nameItem, detailsItem}) {
    item->setEditable(false);
    item->setData(static_cast<int>(kind), WorkspaceTreeModel::KindRole);
    item->setData(table, WorkspaceTreeModel::TableNameRole);
    item->setToolTip(tooltip.isEmpty() ? details : tooltip);
  }
  return {nameItem, detailsItem};
}

// A row that holds damage gets a warning icon (its details lead with the
// damage, so a narrow column does not cut it off).
void markDamaged(const QList<QStandardItem*>& row) {
  row.first()->setIcon(QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning));
}

}  // namespace

WorkspaceTreeModel::WorkspaceTreeModel(QObject* parent) : QStandardItemModel(0, 2, parent) {
  setHorizontalHeaderLabels({tr("Name"), tr("Details")});
}

// Removes the rows only: clear() would drop the columns too, and with them
// the view's per-column settings (the name column's resize mode).
void WorkspaceTreeModel::clearOutline() {
  removeRows(0, rowCount());
}

void WorkspaceTreeModel::setOutline(const WorkspaceOutline& outline) {
  clearOutline();
  for (const TableOutline& table : outline.tables) addTable(table);
}

QModelIndex WorkspaceTreeModel::tableIndex(const QString& table) const {
  for (int row = 0; row < rowCount(); ++row) {
    const QModelIndex index = this->index(row, 0);
    if (index.data(TableNameRole).toString() == table) return index;
  }
  return {};
}

QString WorkspaceTreeModel::familySummary(const FamilyOptions& family) {
  QStringList parts;
  parts << QStringLiteral("VERSIONS %1").arg(family.maxVersions);
  if (family.minVersions > 0) parts << QStringLiteral("MIN_VERSIONS %1").arg(family.minVersions);
  parts << ttlText(family.ttlSeconds);
  if (family.keepDeletedCells == KeepDeletedCells::kTrue)
    parts << QStringLiteral("KEEP_DELETED_CELLS");
  if (family.keepDeletedCells == KeepDeletedCells::kTtl)
    parts << QStringLiteral("KEEP_DELETED_CELLS TTL");
  parts << compressionName(family.compression) << bloomName(family.bloomFilter);
  parts << QStringLiteral("%1 blocks").arg(sizeText(family.blockSize));
  return parts.join(QStringLiteral(" · "));
}

QString WorkspaceTreeModel::rowBound(BytesView row, bool isStart) {
  if (row.empty()) return isStart ? QStringLiteral("start") : QStringLiteral("end");
  QString text = QString::fromStdString(toStringBinary(row));
  if (text.size() > kMaxBoundChars) text = text.left(kMaxBoundChars - 1) + QStringLiteral("…");
  return text;
}

// Store files whose metadata does not verify: their reads fail, and
// keyscope-cli check says more and can drop them.
QString WorkspaceTreeModel::damagedText(uint32_t files) {
  return countedText(files, tr("damaged store file"), tr("damaged store files")) +
         tr(" (keyscope-cli check)");
}

QString WorkspaceTreeModel::regionSummary(const RegionInfo& region) {
  QStringList parts;
  if (region.damagedStoreFiles > 0) parts << damagedText(region.damagedStoreFiles);
  parts << QStringLiteral("server %1").arg(region.server);
  parts << QStringLiteral("[%1, %2)")
               .arg(rowBound(region.startRow, true), rowBound(region.endRow, false));
  parts << QStringLiteral("%1 stored, %2 raw")
               .arg(sizeText(region.storedBytes), sizeText(region.rawBytes));
  if (region.memstoreBytes > 0)
    parts << QStringLiteral("%1 in memstore").arg(sizeText(region.memstoreBytes));
  parts << countedText(static_cast<qint64>(region.cells), QStringLiteral("cell"),
                       QStringLiteral("cells"));
  parts << countedText(region.storeFiles, QStringLiteral("store file"),
                       QStringLiteral("store files"));
  return parts.join(QStringLiteral(" · "));
}

void WorkspaceTreeModel::addTable(const TableOutline& table) {
  const QString name = QString::fromStdString(table.options.name);
  uint64_t stored = 0;
  uint32_t damaged = 0;
  for (const RegionInfo& region : table.regions) {
    stored += region.storedBytes + region.memstoreBytes;
    damaged += region.damagedStoreFiles;
  }
  QString details;
  if (!table.error.empty()) {
    details = QString::fromStdString(table.error);
  } else {
    details = countedText(static_cast<qint64>(table.options.families.size()), tr("family"),
                          tr("families")) +
              QStringLiteral(" · ") +
              countedText(static_cast<qint64>(table.regions.size()), tr("region"), tr("regions")) +
              QStringLiteral(" · ") + sizeText(stored);
    if (damaged > 0) details = damagedText(damaged) + QStringLiteral(" · ") + details;
  }
  QString tooltip = table.options.description.empty()
                        ? details
                        : QString::fromStdString(table.options.description);
  if (damaged > 0 && !table.options.description.empty()) tooltip = damagedText(damaged) + QStringLiteral("\n") + tooltip;
  QList<QStandardItem*> tableRow = itemRow(name, details, ItemKind::kTable, name, tooltip);
  if (damaged > 0) markDamaged(tableRow);

  QList<QStandardItem*> families = itemRow(tr("Families"), QString(), ItemKind::kFamilyGroup, name);
  for (const FamilyOptions& family : table.options.families) {
    families.first()->appendRow(itemRow(QString::fromStdString(family.name), familySummary(family),
                                        ItemKind::kFamily, name));
  }
  tableRow.first()->appendRow(families);

  QList<QStandardItem*> regions = itemRow(tr("Regions (%1)").arg(table.regions.size()), QString(),
                                          ItemKind::kRegionGroup, name);
  for (const RegionInfo& region : table.regions) {
    const QString range = QStringLiteral("[%1, %2)")
                              .arg(QString::fromStdString(toStringBinary(region.startRow)),
                                   QString::fromStdString(toStringBinary(region.endRow)));
    QList<QStandardItem*> regionRow =
        itemRow(tr("region %1").arg(region.id), regionSummary(region), ItemKind::kRegion, name, range);
    if (region.damagedStoreFiles > 0) markDamaged(regionRow);
    regions.first()->appendRow(regionRow);
  }
  tableRow.first()->appendRow(regions);
  appendRow(tableRow);
}

}  // namespace keyscope
