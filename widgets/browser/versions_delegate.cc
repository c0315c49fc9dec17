// VersionsDelegate (see versions_delegate.h). GUI thread only.
#include "browser/versions_delegate.h"

#include <QApplication>
#include <QPainter>

#include "browser/browse_query.h"
#include "browser/cell_table_model.h"

namespace keyscope {

namespace {

constexpr int kBadgePadding = 4;  // px inside the badge, left and right
constexpr int kBadgeMargin = 3;   // px between the badge and the cell's edges

QFont badgeFont(const QFont& base) {
  QFont font = base;
  font.setPointSizeF(base.pointSizeF() * 0.8);
  font.setBold(true);
  return font;
}

int badgeWidth(const QFont& base, const QString& text) {
  return QFontMetrics(badgeFont(base)).horizontalAdvance(text) + 2 * kBadgePadding;
}

}  // namespace

QString VersionsDelegate::badgeText(int versions) {
  if (versions <= 1) return {};
  if (versions >= kVersionsCounted) return QStringLiteral("%1+").arg(kVersionsCounted);
  return QString::number(versions);
}

void VersionsDelegate::initStyleOption(QStyleOptionViewItem* option,
                                       const QModelIndex& index) const {
  QStyledItemDelegate::initStyleOption(option, index);
  const QVariant fits = index.data(CellTableModel::FitsFormatRole);
  if (fits.isValid() && !fits.toBool()) {
    option->palette.setColor(QPalette::Text, option->palette.color(QPalette::PlaceholderText));
    option->font.setItalic(true);
  }
}

void VersionsDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                             const QModelIndex& index) const {
  const QString badge = badgeText(index.data(CellTableModel::VersionsRole).toInt());
  if (badge.isEmpty()) {
    QStyledItemDelegate::paint(painter, option, index);
    return;
  }
  const int width = badgeWidth(option.font, badge);
  QStyleOptionViewItem cell = option;
  initStyleOption(&cell, index);
  const QWidget* widget = option.widget;
  QStyle* style = widget ? widget->style() : QApplication::style();
  // The background, selection and focus over the whole cell, then the text
  // in what the badge leaves of it (elided there).
  const QString text = cell.text;
  cell.text.clear();
  style->drawControl(QStyle::CE_ItemViewItem, &cell, painter, widget);
  cell.text = text;
  cell.rect.setRight(option.rect.right() - width - 2 * kBadgeMargin);
  cell.state &= ~QStyle::State_HasFocus;
  style->drawControl(QStyle::CE_ItemViewItem, &cell, painter, widget);

  const QRect box(option.rect.right() - kBadgeMargin - width + 1, option.rect.top() + kBadgeMargin,
                  width, option.rect.height() - 2 * kBadgeMargin);
  const bool selected = option.state.testFlag(QStyle::State_Selected);
  const QPalette& palette = option.palette;
  painter->save();
  painter->setRenderHint(QPainter::Antialiasing);
  painter->setPen(Qt::NoPen);
  painter->setBrush(selected ? palette.color(QPalette::HighlightedText)
                             : palette.color(QPalette::Highlight));
  painter->drawRoundedRect(box, box.height() / 2.0, box.height() / 2.0);
  painter->setPen(selected ? palette.color(QPalette::Highlight)
                           : palette.color(QPalette::HighlightedText));
  painter->setFont(badgeFont(option.font));
  painter->drawText(box, Qt::AlignCenter, badge);
  painter->restore();
}

QSize VersionsDelegate::sizeHint(const QStyleOptionViewItem& option,
                                 const QModelIndex& index) const {
  QSize size = QStyledItemDelegate::sizeHint(option, index);
  const QString badge = badgeText(index.data(CellTableModel::VersionsRole).toInt());
  if (!badge.isEmpty()) size.rwidth() += badgeWidth(option.font, badge) + 2 * kBadgeMargin;
  return size;
}

}  // namespace keyscope
