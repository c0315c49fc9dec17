// StorageChart: stacked bars of a storage report's parts.
#include "storage/storage_chart.h"

#include <QVBoxLayout>

#include <qcustomplot.h>

#include "key_lab/lab_colors.h"

namespace keyscope {

StorageChart::StorageChart(QWidget* parent) : QWidget(parent) {
  m_plot = new QCustomPlot(this);
  m_plot->setObjectName(QStringLiteral("storagePlot"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(m_plot);
  setMinimumHeight(220);

  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  ticker->addTick(kHBaseBar, tr("HBase KeyValues\n(raw)"));
  ticker->addTick(kStoredBar, tr("Keyscope\nstored"));
  ticker->addTick(kRawBar, tr("Keyscope\nraw"));
  m_plot->yAxis->setTicker(ticker);
  m_plot->yAxis->setRange(0.4, 3.6);
  m_plot->yAxis->setSubTicks(false);
  m_plot->yAxis->setTickLength(0, 4);
  m_plot->yAxis->grid()->setVisible(false);
  m_plot->xAxis->setLabel(tr("bytes"));
  m_plot->xAxis->setNumberFormat(QStringLiteral("gbc"));
  m_plot->legend->setVisible(true);
  m_plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
  m_plot->legend->setWrap(5);
  // The legend under the bars, so long part names never squeeze them.
  auto* legendRect = new QCPLayoutGrid;
  m_plot->plotLayout()->addElement(1, 0, legendRect);
  legendRect->addElement(0, 0, m_plot->legend);
  legendRect->setMargins(QMargins(0, 0, 0, 4));
  m_plot->plotLayout()->setRowStretchFactor(1, 0.001);
  applyPalette();
}

void StorageChart::applyPalette() {
  const QColor text = palette().color(QPalette::WindowText);
  const QColor window = palette().color(QPalette::Window);
  m_plot->setBackground(window);
  for (QCPAxis* axis : {m_plot->xAxis, m_plot->yAxis}) {
    axis->setBasePen(QPen(text));
    axis->setTickPen(QPen(text));
    axis->setSubTickPen(QPen(text));
    axis->setTickLabelColor(text);
    axis->setLabelColor(text);
  }
  QColor grid = text;
  grid.setAlpha(isDarkPalette(palette()) ? 60 : 40);
  m_plot->xAxis->grid()->setPen(QPen(grid, 1, Qt::DotLine));
  m_plot->legend->setBrush(window);
  m_plot->legend->setBorderPen(Qt::NoPen);
  m_plot->legend->setTextColor(text);
}

void StorageChart::clear() {
  m_plot->clearPlottables();
  m_parts.clear();
  m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void StorageChart::setRows(const QVector<StorageRow>& rows) {
  m_plot->clearPlottables();
  m_parts.clear();
  double longest = 0;
  QCPBars* below = nullptr;
  for (const StorageRow& row : rows) {
    auto* bars = new QCPBars(m_plot->yAxis, m_plot->xAxis);
    bars->setName(row.name);
    bars->setWidth(0.6);
    bars->setBrush(row.colour);
    bars->setPen(QPen(row.colour.darker(130)));
    bars->addData(kHBaseBar, static_cast<double>(row.hbase));
    bars->addData(kStoredBar, static_cast<double>(row.stored));
    bars->addData(kRawBar, static_cast<double>(row.raw));
    if (below != nullptr) bars->moveAbove(below);
    below = bars;
    m_parts.push_back(bars);
  }
  for (Bar bar : {kHBaseBar, kStoredBar, kRawBar}) longest = std::max(longest, barTotal(bar));
  m_plot->xAxis->setRange(0, longest > 0 ? longest * 1.05 : 1);
  m_plot->replot(QCustomPlot::rpQueuedReplot);
}

int StorageChart::partCount() const { return static_cast<int>(m_parts.size()); }

double StorageChart::barTotal(Bar bar) const {
  double sum = 0;
  for (QCPBars* part : m_parts) {
    auto it = part->data()->findBegin(bar, false);
    if (it != part->data()->constEnd() && it->key == static_cast<double>(bar)) sum += it->value;
  }
  return sum;
}

bool StorageChart::savePng(const QString& path) { return m_plot->savePng(path); }
bool StorageChart::savePdf(const QString& path) { return m_plot->savePdf(path); }

}  // namespace keyscope
