// VersionsDelegate: draws a data browser cell as usual, plus a small badge
// at its right edge with the number of versions the cell has when it has
// more than one ("3", "100+"), and draws values that do not read as their
// column's format in the placeholder colour (the tooltip says why).
//
// GUI thread only.
#pragma once

#include <QStyledItemDelegate>

namespace keyscope {

class VersionsDelegate : public QStyledItemDelegate {
  Q_OBJECT

 public:
  using QStyledItemDelegate::QStyledItemDelegate;

  // The badge's text for a count of versions; empty when there is no badge.
  static QString badgeText(int versions);

  void paint(QPainter* painter, const QStyleOptionViewItem& option,
             const QModelIndex& index) const override;
  QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

 protected:
  void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override;
};

}  // namespace keyscope
