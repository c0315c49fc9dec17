// StorageChart: three stacked horizontal bars over rows computed elsewhere
// (storage_rows.h): Keyscope's bytes before compression, as stored, and the
// same cells as HBase KeyValues; one QCPBars per part, stacked in the rows'
// order, with a legend. It renders; it computes nothing.
//
// Thread rules: GUI thread only.
#pragma once

#include <QVector>
#include <QWidget>

#include "storage/storage_rows.h"

class QCustomPlot;
class QCPBars;

namespace keyscope {

class StorageChart : public QWidget {
  Q_OBJECT

 public:
  // The bars' positions on the key axis, top to bottom.
  enum Bar { kHBaseBar = 1, kStoredBar = 2, kRawBar = 3 };

  explicit StorageChart(QWidget* parent = nullptr);

  void setRows(const QVector<StorageRow>& rows);
  void clear();

  QCustomPlot* plot() const { return m_plot; }
  // The stacked parts (one QCPBars each).
  int partCount() const;
  // A bar's length: the sum of its parts.
  double barTotal(Bar bar) const;

  bool savePng(const QString& path);
  bool savePdf(const QString& path);

 private:
  void applyPalette();

  QCustomPlot* m_plot;
  QVector<QCPBars*> m_parts;
};

}  // namespace keyscope
