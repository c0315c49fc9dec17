// HistoryPlot: the cell history's timeline, a QCustomPlot that only renders
// a HistoryLayout computed elsewhere (layoutHistory on the job runner):
//   - one lane per column (and one for family markers), bottom to top;
//   - puts as circles coloured by what the get makes of them (filled when
//     the real get returned them), delete markers as crosses just above
//     their lane;
//   - each marker's mask: a shaded band up to its timestamp (DeleteColumn in
//     its lane, DeleteFamily across every lane) or a connector at its exact
//     timestamp (Delete in its lane, DeleteFamilyVersion across every lane);
//   - the broken time axis: one linear segment per cluster of timestamps,
//     each gap marked with a break (a dotted line and "//" on the axis),
//     ticks labelled as integers or as UTC date-times;
//   - the get's TIMERANGE shaded, and the TTL cutoff as a dashed line.
//
// GUI thread only.
#pragma once

#include <qcustomplot.h>

#include "history/history_layout.h"

namespace keyscope {

class HistoryPlot : public QCustomPlot {
  Q_OBJECT

 public:
  // Why 400: a band or connector per marker; beyond this many markers the
  // plot draws the first 400 (the table lists them all).
  static constexpr int kMaxMaskItems = 400;

  explicit HistoryPlot(QWidget* parent = nullptr);

  // Draws `layout` (nullptr: an empty plot) under `get`'s time range.
  void render(const HistoryLayout* layout, const TimeRange& range);

  // What was drawn, for tests.
  int pointCount() const { return m_points; }
  int breakCount() const { return m_breaks; }
  int maskItemCount() const { return m_maskItems; }

 private:
  void clearAll();
  QCPGraph* addPoints(const QString& name, const QColor& color, QCPScatterStyle::ScatterShape shape,
                      bool filled);

  int m_points = 0;
  int m_breaks = 0;
  int m_maskItems = 0;
};

}  // namespace keyscope
