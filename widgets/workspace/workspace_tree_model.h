// WorkspaceTreeModel: the workspace as a two-column tree (name, details):
//
//   table                      3 families · 4 regions · 12.3 MiB
//     Families
//       d                      VERSIONS 1 · TTL forever · ZSTD · bloom ROW · 64 KiB blocks
//     Regions (4)
//       region 12              server 2 · [ "" , "m" ) · 1.2 MiB stored, 3.4 MiB raw · ...
//
// Built whole from a WorkspaceOutline (a value computed off the GUI
// thread); rebuilding it is cheap (one item per table, family and region).
//
// GUI thread only.
#pragma once

#include <QStandardItemModel>

#include "keyscope/options.h"
#include "keyscope/workspace.h"
#include "workspace/workspace_outline.h"

namespace keyscope {

class WorkspaceTreeModel : public QStandardItemModel {
  Q_OBJECT

 public:
  enum class ItemKind { kTable, kFamilyGroup, kFamily, kRegionGroup, kRegion };
  enum Role {
    KindRole = Qt::UserRole + 1,  // int: ItemKind
    TableNameRole,                // QString: the table the item belongs to
  };

  explicit WorkspaceTreeModel(QObject* parent = nullptr);

  void setOutline(const WorkspaceOutline& outline);
  void clearOutline();

  // The table item named `table`; invalid when there is none.
  QModelIndex tableIndex(const QString& table) const;

  // "VERSIONS 1 · TTL forever · ZSTD · bloom ROW · 64 KiB blocks", with
  // MIN_VERSIONS and KEEP_DELETED_CELLS when they are not the defaults.
  static QString familySummary(const FamilyOptions& family);
  // "server 2 · [\x00, m) · 1.2 MiB stored, 3.4 MiB raw · 12,345 cells · 2 files",
  // led by "1 damaged store file (keyscope-cli check) · " when one is.
  static QString regionSummary(const RegionInfo& region);
  static QString damagedText(uint32_t files);
  // A row range bound for display: escaped, cut at 32 characters.
  static QString rowBound(BytesView row, bool isStart);

 private:
  void addTable(const TableOutline& table);
};

}  // namespace keyscope
