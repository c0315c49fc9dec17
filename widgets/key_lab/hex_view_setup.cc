#include "key_lab/hex_view_setup.h"

#include <QFontMetrics>
#include <QHeaderView>
#include <QScrollBar>
#include <QTableView>

#include "key_lab/key_hex_model.h"

namespace keyscope {

void setUpHexView(QTableView* view, const QFont& fixed) {
  view->setShowGrid(false);
  view->setFont(fixed);
  view->setSelectionMode(QAbstractItemView::ContiguousSelection);
  view->horizontalHeader()->setFont(fixed);
  view->verticalHeader()->setFont(fixed);
  view->horizontalHeader()->setMinimumSectionSize(4);
  view->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  const QFontMetrics fm(fixed);
  view->verticalHeader()->setDefaultSectionSize(fm.height() + 6);
  view->verticalHeader()->setMinimumWidth(fm.horizontalAdvance(QStringLiteral("0000")) + 14);
  const int hexWidth = fm.horizontalAdvance(QStringLiteral("ff")) + 10;
  const int asciiWidth = fm.horizontalAdvance(QLatin1Char('W')) + 4;
  int total = 0;
  for (int column = 0; column < KeyHexModel::kColumnCount; ++column) {
    const int width = column < KeyHexModel::kGapColumn    ? hexWidth
                      : column == KeyHexModel::kGapColumn ? fm.horizontalAdvance(QLatin1Char(' ')) * 2
                                                          : asciiWidth;
    view->horizontalHeader()->resizeSection(column, width);
    total += width;
  }
  view->setMinimumWidth(total + view->verticalHeader()->minimumWidth() +
                        view->verticalScrollBar()->sizeHint().width() + 2 * view->frameWidth() + 4);
  view->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Expanding);
}

}  // namespace keyscope
