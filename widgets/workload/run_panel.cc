// RunPanel (see run_panel.h). GUI thread only.
#include "workload/run_panel.h"

#include <QFile>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QSplitter>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>

#include "hotspots/heat_grid_csv.h"
#include "hotspots/heatmap_chart.h"
#include "regions/region_bar.h"

namespace keyscope {

namespace {

Status writeFile(const QString& path, const std::string& text) {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
      file.write(text.data(), static_cast<qint64>(text.size())) != static_cast<qint64>(text.size()))
    return Status::ioError("cannot write " + path.toStdString() + ": " + file.errorString().toStdString());
  return Status::ok();
}

}  // namespace

RunPanel::RunPanel(QWidget* parent) : QWidget(parent) {
  m_title = new QLabel(this);
  m_title->setTextFormat(Qt::RichText);
  m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  m_status = new QLabel(this);
  m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  m_progress = new QProgressBar(this);
  m_progress->setMaximumWidth(160);
  m_progress->setTextVisible(false);
  m_progress->setRange(0, 1000);
  m_progress->setValue(0);

  m_heatmap = new HeatmapChart(this);
  m_heatmap->setMinimumSize(160, 150);
  m_servers = new QCustomPlot(this);
  m_servers->setMinimumSize(140, 150);
  m_servers->xAxis->setLabel(tr("seconds since the run started"));
  m_servers->yAxis->setLabel(tr("ops/s per server"));
  m_servers->legend->setVisible(true);
  // The window's colours, so that the chart reads on a dark palette too.
  const QColor text = palette().color(QPalette::WindowText);
  m_servers->setBackground(palette().color(QPalette::Window));
  for (QCPAxis* axis : {m_servers->xAxis, m_servers->yAxis}) {
    axis->setBasePen(QPen(text));
    axis->setTickPen(QPen(text));
    axis->setSubTickPen(QPen(text));
    axis->setTickLabelColor(text);
    axis->setLabelColor(text);
    axis->grid()->setPen(QPen(palette().color(QPalette::Mid), 0, Qt::DotLine));
  }
  // The legend in a row of its own above the chart, two servers a line, so
  // that it never hides a line.
  m_servers->legend->setFont(font());
  m_servers->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
  m_servers->legend->setWrap(2);
  m_servers->legend->setRowSpacing(0);
  m_servers->legend->setBorderPen(Qt::NoPen);
  m_servers->legend->setBrush(Qt::NoBrush);
  m_servers->legend->setTextColor(palette().color(QPalette::WindowText));
  m_servers->plotLayout()->insertRow(0);
  m_servers->plotLayout()->addElement(0, 0, m_servers->legend);
  m_servers->plotLayout()->setRowStretchFactor(0, 0.001);
  m_regions = new RegionBar(this);
  m_regions->setSizing(RegionSizing::kKeyRange);
  m_regions->setLoadMeasure(RegionLoadMeasure::kOperations);
  m_regions->setMaximumHeight(90);

  auto* charts = new QSplitter(Qt::Horizontal, this);
  charts->setChildrenCollapsible(false);
  charts->addWidget(m_heatmap);
  charts->addWidget(m_servers);
  charts->setStretchFactor(0, 2);
  charts->setStretchFactor(1, 1);

  auto* header = new QHBoxLayout;
  header->addWidget(m_title, 1);
  header->addWidget(m_progress);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  layout->addLayout(header);
  layout->addWidget(m_status);
  layout->addWidget(charts, 1);
  layout->addWidget(m_regions);
}

void RunPanel::setTitle(const QString& title, const QString& keySchema) {
  m_title->setText(QStringLiteral("<b style='font-size:large'>%1</b> &nbsp; <code>%2</code>")
                       .arg(title.toHtmlEscaped(), keySchema.toHtmlEscaped()));
}

void RunPanel::setProgress(const RunControl& control) {
  const QLocale locale;
  const uint64_t planned = control.plannedOperations.load();
  const uint64_t done = control.operations.load();
  m_progress->setValue(planned > 0 ? static_cast<int>(std::min<uint64_t>(1000, done * 1000 / planned)) : 0);
  m_status->setText(tr("%1 of %2 operations · %3 s simulated · %4 regions · %5 splits%6")
                        .arg(locale.toString(static_cast<qulonglong>(done)),
                             locale.toString(static_cast<qulonglong>(planned)),
                             locale.toString(static_cast<double>(control.simulatedMillis.load()) / 1000.0, 'f', 1))
                        .arg(control.regions.load())
                        .arg(control.splits.load())
                        .arg(control.pause.paused() ? tr(" · paused") : QString()));
}

void RunPanel::setStatusText(const QString& text) { m_status->setText(text); }

QString RunPanel::statusText() const { return m_status->text(); }

void RunPanel::setSnapshot(WorkloadSnapshot snapshot) {
  m_snapshot = std::move(snapshot);
  if (m_snapshot.heat) m_heatmap->setSnapshot(m_snapshot.heat);
  m_regions->setRegions(m_snapshot.regions, m_snapshot.schema);
  drawServers();
  applyTimeSpan();
}

void RunPanel::clear() {
  m_snapshot = WorkloadSnapshot();
  m_heatmap->clear();
  m_regions->clear();
  m_servers->clearGraphs();
  m_servers->replot();
  m_progress->setValue(0);
  m_status->clear();
  m_serverPeak = 0;
}

void RunPanel::drawServers() {
  const LoadSeries& series = m_snapshot.servers;
  m_servers->clearGraphs();
  m_serverPeak = 0;
  const double columnSeconds = series.columnMillis > 0 ? static_cast<double>(series.columnMillis) / 1000.0 : 1.0;
  const double x0 = static_cast<double>(series.window.fromMillis - m_snapshot.runStartMillis) / 1000.0;
  for (size_t s = 0; s < series.series.size(); ++s) {
    QCPGraph* graph = m_servers->addGraph();
    graph->setName(tr("server %1").arg(series.series[s]));
    QPen pen(RegionBar::serverColour(series.series[s]));
    pen.setWidthF(2);
    graph->setPen(pen);
    QVector<double> xs, ys;
    xs.reserve(static_cast<int>(series.columns));
    ys.reserve(static_cast<int>(series.columns));
    for (uint32_t column = 0; column < series.columns; ++column) {
      const LoadCounters& c = series.at(s, column);
      const double perSecond = static_cast<double>(c.reads + c.writes) / columnSeconds;
      xs.push_back(x0 + column * columnSeconds);
      ys.push_back(perSecond);
      m_serverPeak = std::max(m_serverPeak, perSecond);
    }
    graph->setData(xs, ys, true);
  }
}

void RunPanel::applyTimeSpan() {
  const LoadSeries& series = m_snapshot.servers;
  const double dataSeconds =
      static_cast<double>(series.columns) * static_cast<double>(series.columnMillis) / 1000.0;
  const double seconds = std::max(m_spanSeconds, std::max(dataSeconds, 1.0));
  m_servers->xAxis->setRange(0, seconds);
  const double top = std::max(m_serverMaximum.value_or(m_serverPeak), 1.0) * 1.15;
  m_servers->yAxis->setRange(0, top);
  m_servers->replot(QCustomPlot::rpQueuedReplot);
  if (m_spanSeconds > 0 && m_snapshot.heat && !m_snapshot.heat->grid.buckets.empty()) {
    const double from = static_cast<double>(m_spanStartMillis) / 1000.0;
    QCustomPlot* plot = m_heatmap->plot();
    plot->xAxis->setRange(from, from + std::max(m_spanSeconds, dataSeconds));
    plot->replot(QCustomPlot::rpQueuedReplot);
  }
}

void RunPanel::setTimeSpan(int64_t runStartMillis, double seconds) {
  m_spanStartMillis = runStartMillis;
  m_spanSeconds = seconds;
  applyTimeSpan();
}

void RunPanel::setScales(std::optional<double> heatMaximum, std::optional<double> serverMaximum,
                         std::optional<double> regionMaximum) {
  if (heatMaximum && *heatMaximum > 0) {
    m_heatmap->setScaleMode(HeatScaleMode::kAbsolute);
    m_heatmap->setHotValue(*heatMaximum);
  } else {
    m_heatmap->setScaleMode(HeatScaleMode::kRelative);
  }
  m_serverMaximum = serverMaximum;
  m_regions->setLoadScaleMaximum(regionMaximum);
  applyTimeSpan();
}

double RunPanel::heatMaximum() const { return m_snapshot.heat ? m_snapshot.heat->grid.maxValue : 0; }

double RunPanel::serverMaximum() const { return m_serverPeak; }

double RunPanel::regionMaximum() const {
  double top = 0;
  for (const RegionLoad& r : m_snapshot.regions) top = std::max(top, r.readsPerSecond + r.writesPerSecond);
  return top;
}

Status RunPanel::saveImages(const QString& base, const QString& suffix) {
  const bool pdf = suffix.compare(QStringLiteral("pdf"), Qt::CaseInsensitive) == 0;
  const QString heat = base + QStringLiteral("-heatmap.") + suffix;
  const QString servers = base + QStringLiteral("-servers.") + suffix;
  const QString regions = base + QStringLiteral("-regions.") + suffix;
  const bool ok = (pdf ? m_heatmap->savePdf(heat) : m_heatmap->savePng(heat)) &&
                  (pdf ? m_servers->savePdf(servers) : m_servers->savePng(servers)) &&
                  (pdf ? m_regions->savePdf(regions) : m_regions->savePng(regions));
  if (!ok) return Status::ioError("cannot write the charts as " + base.toStdString() + "-*." + suffix.toStdString());
  return Status::ok();
}

Status RunPanel::exportCsv(const QString& base) const {
  if (!m_snapshot.heat) return Status::invalidArgument("no run to export yet");
  Status status = writeFile(base + QStringLiteral("-heatmap.csv"), heatGridCsv(m_snapshot.heat->grid));
  if (status) status = writeFile(base + QStringLiteral("-servers.csv"),
                                 serverSeriesCsv(m_snapshot.servers, m_snapshot.runStartMillis));
  if (status) status = writeFile(base + QStringLiteral("-regions.csv"), workloadRegionsCsv(m_snapshot.regions));
  return status;
}

}  // namespace keyscope
