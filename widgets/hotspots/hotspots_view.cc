// HotspotsView (see hotspots_view.h). GUI thread only.
#include "hotspots/hotspots_view.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <cmath>

#include "hotspots/heat_grid_csv.h"
#include "key_lab/lab_colors.h"

namespace keyscope {

namespace {

// The default grid: 500 time columns (the 1,000 x 500 heatmap at
// most) and 200 key buckets, enough to see a diagonal and a hot key and
// few enough that each bucket's label can be read when zoomed.
constexpr uint32_t kTimeColumns = 500;
constexpr uint32_t kDefaultBuckets = 200;

// Brightness slider: -100 ... 100 maps to 1/4 ... 4 (a power of two each 50).
double brightnessOf(int slider) { return std::pow(2.0, slider / 50.0); }

}  // namespace

HotspotsView::HotspotsView(JobRunner* runner, QWidget* parent)
    : QWidget(parent), m_runner(runner), m_channel(runner->newChannel()) {
  buildUi();
  m_liveTimer = new QTimer(this);
  m_liveTimer->setInterval(kLiveIntervalMs);
  connect(m_liveTimer, &QTimer::timeout, this, [this] {
    if (isVisible()) refresh();
  });
  updateControls();
}

HotspotsView::~HotspotsView() { m_runner->cancel(m_channel); }

void HotspotsView::buildUi() {
  m_metric = new QComboBox(this);
  m_metric->setObjectName(QStringLiteral("hotspotMetric"));
  const std::pair<LoadMetric, QString> metrics[] = {
      {LoadMetric::kOperations, tr("Operations")}, {LoadMetric::kWrites, tr("Writes")},
      {LoadMetric::kReads, tr("Reads")},           {LoadMetric::kCellsWritten, tr("Cells written")},
      {LoadMetric::kCellsRead, tr("Cells read")},  {LoadMetric::kBytesWritten, tr("Bytes written")},
      {LoadMetric::kBytesRead, tr("Bytes read")},
  };
  for (const auto& [metric, text] : metrics) m_metric->addItem(text, static_cast<int>(metric));

  m_axis = new QComboBox(this);
  m_axis->setObjectName(QStringLiteral("hotspotAxis"));
  m_axis->addItem(tr("Equal key counts"), static_cast<int>(KeyAxis::kEqualKeyCounts));
  m_axis->addItem(tr("Regions"), static_cast<int>(KeyAxis::kRegions));
  m_axis->addItem(tr("Key component"), static_cast<int>(KeyAxis::kSchemaComponent));
  m_axis->setToolTip(tr("What the key axis is cut by: buckets of equally many stored keys, the regions, "
                        "or the values of one component of the key schema"));
  m_component = new QComboBox(this);
  m_component->setObjectName(QStringLiteral("hotspotComponent"));
  m_component->setToolTip(tr("The key-schema component whose values make the key buckets"));
  m_fold = new QToolButton(this);
  m_fold->setObjectName(QStringLiteral("hotspotFold"));
  m_fold->setText(tr("Fold the salt"));
  m_fold->setCheckable(true);
  m_fold->setToolTip(tr("Order keys by what follows the salt (or hash): the fronts inside every salt bucket line up"));
  m_buckets = new QComboBox(this);
  m_buckets->setObjectName(QStringLiteral("hotspotBuckets"));
  for (int n : {50, 100, 200, 500, 1000}) m_buckets->addItem(QLocale().toString(n), n);
  m_buckets->setCurrentIndex(m_buckets->findData(static_cast<int>(kDefaultBuckets)));
  m_buckets->setToolTip(tr("Key buckets (rows of the heatmap)"));
  m_live = new QCheckBox(tr("Live"), this);
  m_live->setObjectName(QStringLiteral("hotspotLive"));
  m_live->setToolTip(tr("Refresh every %1 s while a workload runs").arg(kLiveIntervalMs / 1000));
  m_refresh = new QPushButton(tr("Refresh"), this);

  m_scale = new QComboBox(this);
  m_scale->setObjectName(QStringLiteral("hotspotScale"));
  m_scale->addItem(tr("Relative"), static_cast<int>(HeatScaleMode::kRelative));
  m_scale->addItem(tr("Absolute"), static_cast<int>(HeatScaleMode::kAbsolute));
  m_scale->addItem(tr("Logarithmic"), static_cast<int>(HeatScaleMode::kLogarithmic));
  m_scale->setToolTip(tr("Relative: the hottest cell is brightest. Absolute: cells at the hot value or above "
                         "are brightest. Logarithmic: faint load shows beside heavy load"));
  m_hot = new QDoubleSpinBox(this);
  m_hot->setObjectName(QStringLiteral("hotspotHotValue"));
  m_hot->setRange(0.001, 1e15);
  m_hot->setDecimals(0);
  m_hot->setValue(100);
  m_hot->setToolTip(tr("The absolute scale's hot value: load per cell drawn brightest"));
  m_brightness = new QSlider(Qt::Horizontal, this);
  m_brightness->setObjectName(QStringLiteral("hotspotBrightness"));
  m_brightness->setRange(-100, 100);
  m_brightness->setValue(0);
  m_brightness->setFixedWidth(110);
  m_brightness->setToolTip(tr("Brightness of faint cells"));
  m_back = new QPushButton(tr("Back"), this);
  m_back->setToolTip(tr("Undo the last zoom (Backspace)"));
  m_reset = new QPushButton(tr("Reset"), this);
  m_reset->setToolTip(tr("Show the whole grid"));
  m_saveImage = new QPushButton(tr("Save image…"), this);
  m_exportCsv = new QPushButton(tr("Export CSV…"), this);

  auto* controls = new QHBoxLayout;
  controls->addWidget(new QLabel(tr("Metric:"), this));
  controls->addWidget(m_metric);
  controls->addSpacing(8);
  controls->addWidget(new QLabel(tr("Key axis:"), this));
  controls->addWidget(m_axis);
  controls->addWidget(m_component);
  controls->addWidget(m_fold);
  controls->addWidget(new QLabel(tr("Buckets:"), this));
  controls->addWidget(m_buckets);
  controls->addStretch(1);
  controls->addWidget(m_live);
  controls->addWidget(m_refresh);

  auto* display = new QHBoxLayout;
  display->addWidget(new QLabel(tr("Colour scale:"), this));
  display->addWidget(m_scale);
  display->addWidget(m_hot);
  display->addSpacing(8);
  display->addWidget(new QLabel(tr("Brightness:"), this));
  display->addWidget(m_brightness);
  display->addSpacing(8);
  display->addWidget(m_back);
  display->addWidget(m_reset);
  // The hint takes what room is left and is cut first when the window is
  // narrow (its text stays in the tooltip), so it never sets the width.
  auto* hint = new QLabel(tr("wheel or drag: zoom · click: pin · Shift+drag: select rows"), this);
  hint->setToolTip(hint->text());
  hint->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  hint->setMinimumWidth(0);
  display->addWidget(hint, 1);
  display->addWidget(m_saveImage);
  display->addWidget(m_exportCsv);

  m_diagnostics = new QLabel(this);
  m_diagnostics->setObjectName(QStringLiteral("hotspotDiagnostics"));
  m_diagnostics->setWordWrap(true);
  m_diagnostics->setTextFormat(Qt::RichText);
  m_diagnostics->setTextInteractionFlags(Qt::TextSelectableByMouse);

  m_chart = new HeatmapChart(this);
  m_chart->setMinimumHeight(240);

  m_pinnedText = new QLabel(tr("Click a cell to pin its numbers, or Shift+drag over an area."), this);
  m_pinnedText->setObjectName(QStringLiteral("hotspotPinned"));
  m_pinnedText->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_pinnedText->setWordWrap(true);
  m_showRows = new QPushButton(tr("Show these rows"), this);
  m_showRows->setToolTip(tr("Open the rows and time of the pinned cells in the data browser"));
  m_copyScan = new QPushButton(tr("Copy scan"), this);
  m_copyScan->setToolTip(tr("Copy the shell's scan over the pinned cells"));
  auto* pinButtons = new QVBoxLayout;
  pinButtons->addWidget(m_showRows);
  pinButtons->addWidget(m_copyScan);
  pinButtons->addStretch(1);
  auto* pinRow = new QHBoxLayout;
  pinRow->addWidget(m_pinnedText, 1);
  pinRow->addLayout(pinButtons);

  m_status = new QLabel(this);
  m_status->setObjectName(QStringLiteral("hotspotStatus"));
  m_status->setWordWrap(true);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(8, 8, 8, 8);
  layout->addLayout(controls);
  layout->addLayout(display);
  layout->addWidget(m_diagnostics);
  layout->addWidget(m_chart, 1);
  layout->addLayout(pinRow);
  layout->addWidget(m_status);

  auto changed = [this] {
    updateControls();
    refresh();
  };
  connect(m_metric, &QComboBox::currentIndexChanged, this, changed);
  connect(m_axis, &QComboBox::currentIndexChanged, this, [this, changed] {
    if (static_cast<KeyAxis>(m_axis->currentData().toInt()) == KeyAxis::kRegions) m_fold->setChecked(false);
    changed();
  });
  connect(m_component, &QComboBox::currentIndexChanged, this, changed);
  connect(m_buckets, &QComboBox::currentIndexChanged, this, changed);
  connect(m_fold, &QToolButton::toggled, this, [this, changed](bool on) {
    // Folding needs a key axis by keys; one click is enough from the regions axis too.
    if (on && static_cast<KeyAxis>(m_axis->currentData().toInt()) == KeyAxis::kRegions) {
      const QSignalBlocker block(m_axis);
      m_axis->setCurrentIndex(m_axis->findData(static_cast<int>(KeyAxis::kEqualKeyCounts)));
    }
    changed();
  });
  connect(m_refresh, &QPushButton::clicked, this, &HotspotsView::refresh);
  connect(m_live, &QCheckBox::toggled, this, &HotspotsView::setLive);
  connect(m_scale, &QComboBox::currentIndexChanged, this, [this] {
    m_chart->setScaleMode(static_cast<HeatScaleMode>(m_scale->currentData().toInt()));
    updateControls();
  });
  connect(m_hot, &QDoubleSpinBox::valueChanged, m_chart, &HeatmapChart::setHotValue);
  connect(m_brightness, &QSlider::valueChanged, this, [this](int v) { m_chart->setBrightness(brightnessOf(v)); });
  connect(m_back, &QPushButton::clicked, m_chart, &HeatmapChart::zoomBack);
  connect(m_reset, &QPushButton::clicked, m_chart, &HeatmapChart::resetZoom);
  connect(m_chart, &HeatmapChart::zoomChanged, this, &HotspotsView::updateControls);
  connect(m_chart, &HeatmapChart::pinned, this, &HotspotsView::onPinned);
  connect(m_chart, &HeatmapChart::unpinned, this, &HotspotsView::onUnpinned);
  connect(m_showRows, &QPushButton::clicked, this, &HotspotsView::requestDrillThrough);
  connect(m_copyScan, &QPushButton::clicked, this, &HotspotsView::copyScan);
  connect(m_saveImage, &QPushButton::clicked, this, &HotspotsView::chooseImageFile);
  connect(m_exportCsv, &QPushButton::clicked, this, &HotspotsView::chooseCsvFile);
}

void HotspotsView::setWorkspace(const Workspace* ws) {
  m_runner->cancel(m_channel);
  setLoading(false);
  m_ws = ws;
  clearTable();
}

void HotspotsView::showTable(const TableOptions& table) {
  m_runner->cancel(m_channel);
  setLoading(false);
  m_table = QString::fromStdString(table.name);
  m_schema = KeySchema::parseStored(table.keySchema);
  {
    const QSignalBlocker blockComponent(m_component);
    const QSignalBlocker blockFold(m_fold);
    const QSignalBlocker blockAxis(m_axis);
    m_component->clear();
    if (m_schema)
      for (const KeyComponent& c : m_schema->components()) m_component->addItem(QString::fromStdString(c.name));
    m_fold->setChecked(false);
    if (!m_schema && static_cast<KeyAxis>(m_axis->currentData().toInt()) == KeyAxis::kSchemaComponent)
      m_axis->setCurrentIndex(m_axis->findData(static_cast<int>(KeyAxis::kEqualKeyCounts)));
  }
  m_chart->clear();
  onUnpinned();
  updateControls();
  m_stale = true;
  if (isVisible()) refresh();
}

void HotspotsView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (m_stale) refresh();
}

void HotspotsView::clearTable() {
  m_runner->cancel(m_channel);
  m_stale = false;
  setLoading(false);
  m_table.clear();
  m_schema.reset();
  m_component->clear();
  m_chart->clear();
  m_diagnostics->clear();
  onUnpinned();
  setStatus(m_ws ? tr("Select a table to see where its load falls.") : tr("No workspace is open."));
  updateControls();
}

HeatGridRequest HotspotsView::request() const {
  HeatGridRequest r;
  r.timeColumns = kTimeColumns;
  r.keyBuckets = static_cast<uint32_t>(m_buckets->currentData().toInt());
  r.axis = static_cast<KeyAxis>(m_axis->currentData().toInt());
  r.metric = static_cast<LoadMetric>(m_metric->currentData().toInt());
  r.component = m_component->currentText().toStdString();
  r.foldSalt = m_fold->isChecked() && m_fold->isEnabled();
  return r;
}

void HotspotsView::refresh() {
  if (!m_ws || m_table.isEmpty()) return;
  m_stale = false;
  if (m_loading) {
    m_refreshAgain = true;  // after the grid under way: a grid is never cut short by a tick
    return;
  }
  setLoading(true);
  setStatus(tr("Computing the heatmap of %1…").arg(m_table));
  const Workspace* ws = m_ws;
  const QString table = m_table;
  const HeatGridRequest request = this->request();
  m_runner->submit(
      m_channel, this,
      [ws, table, request](JobControl& control) {
        return computeHotspotSnapshot(*ws, table, request, control.cancelToken());
      },
      [this](HotspotSnapshot snapshot) { onSnapshot(std::move(snapshot)); });
}

void HotspotsView::onSnapshot(HotspotSnapshot snapshot) {
  setLoading(false);
  if (snapshot.table != m_table) return;
  if (!snapshot.error.isEmpty()) {
    setStatus(tr("No heatmap for %1: %2").arg(m_table, snapshot.error), true);
  } else {
    const HeatGrid& grid = snapshot.grid;
    setStatus(snapshot.noLoad
                  ? tr("%1 has no %2 recorded yet: run a workload (keyscope-cli workload) or read and write it, "
                       "then Refresh or turn on Live.")
                        .arg(m_table, QString::fromLatin1(loadMetricName(grid.metric)))
                  : tr("%1: %2 key buckets × %3 time columns of %4 s; hottest cell %5 %6.")
                        .arg(m_table)
                        .arg(grid.buckets.size())
                        .arg(grid.columns)
                        .arg(QLocale().toString(static_cast<double>(grid.columnMillis) / 1000.0))
                        .arg(QLocale().toString(grid.maxValue, 'g', 6))
                        .arg(QString::fromLatin1(loadMetricName(grid.metric))));
    m_chart->setSnapshot(std::make_shared<const HotspotSnapshot>(std::move(snapshot)));
  }
  updateDiagnostics();
  updateControls();
  if (m_refreshAgain) {
    m_refreshAgain = false;
    refresh();
  }
}

void HotspotsView::updateDiagnostics() {
  const HotspotSnapshot* snapshot = m_chart->snapshot();
  if (!snapshot || snapshot->noLoad) {
    m_diagnostics->clear();
    m_diagnostics->setVisible(false);
    return;
  }
  const bool dark = isDarkPalette(palette());
  QString html;
  for (const HotspotDiagnostic& d : snapshot->diagnostics) {
    const QColor color = d.severity == HotspotDiagnostic::Severity::kWarning ? badTextColor(dark)
                                                                              : palette().color(QPalette::WindowText);
    html += QStringLiteral("<p style='margin:2px 0'><b style='color:%1'>%2%3.</b> %4</p>")
                .arg(color.name(),
                     d.severity == HotspotDiagnostic::Severity::kWarning ? QStringLiteral("\u26a0 ") : QString(),
                     d.title.toHtmlEscaped(), d.text.toHtmlEscaped());
  }
  if (html.isEmpty())
    html = QStringLiteral("<p style='margin:2px 0'><b style='color:%1'>No hotspot.</b> %2</p>")
               .arg(goodTextColor(dark).name(),
                    tr("The load is spread over the key space: no monotonic key, hot row or hot range.").toHtmlEscaped());
  m_diagnostics->setText(html);
  m_diagnostics->setVisible(true);
}

QString HotspotsView::diagnosticsText() const {
  const HotspotSnapshot* snapshot = m_chart->snapshot();
  if (!snapshot) return {};
  QStringList lines;
  for (const HotspotDiagnostic& d : snapshot->diagnostics) lines << d.title + QStringLiteral(". ") + d.text;
  return lines.join(QLatin1Char('\n'));
}

void HotspotsView::updateControls() {
  const bool table = m_ws && !m_table.isEmpty();
  const KeyAxis axis = static_cast<KeyAxis>(m_axis->currentData().toInt());
  const bool saltFirst = m_schema && m_schema->size() >= 2 &&
                         ((*m_schema)[0].type == ComponentType::kSalt || (*m_schema)[0].type == ComponentType::kMd5);
  for (QWidget* w : std::initializer_list<QWidget*>{m_metric, m_axis, m_buckets, m_refresh}) w->setEnabled(table);
  m_component->setVisible(axis == KeyAxis::kSchemaComponent);
  m_component->setEnabled(table && m_schema.has_value());
  m_buckets->setEnabled(table && axis != KeyAxis::kRegions);
  m_fold->setEnabled(table && saltFirst);
  m_fold->setToolTip(saltFirst ? tr("Order keys by what follows '%1': the fronts inside every salt bucket line up")
                                     .arg(QString::fromStdString((*m_schema)[0].name))
                               : tr("Fold the salt: for key schemas that start with a salt or hash component"));
  m_hot->setEnabled(static_cast<HeatScaleMode>(m_scale->currentData().toInt()) == HeatScaleMode::kAbsolute);
  const bool grid = m_chart->snapshot() != nullptr;
  m_back->setEnabled(grid && m_chart->canZoomBack());
  m_reset->setEnabled(grid);
  m_saveImage->setEnabled(grid);
  m_exportCsv->setEnabled(grid);
  const bool pinned = grid && m_chart->pinnedArea().has_value();
  m_showRows->setEnabled(pinned && pinnedDrillThrough().isOk());
  m_copyScan->setEnabled(m_showRows->isEnabled());
}

void HotspotsView::setMetric(LoadMetric metric) { m_metric->setCurrentIndex(m_metric->findData(static_cast<int>(metric))); }

void HotspotsView::setKeyAxis(KeyAxis axis, const QString& component) {
  if (!component.isEmpty()) {
    const QSignalBlocker block(m_component);
    m_component->setCurrentIndex(m_component->findText(component));
  }
  m_axis->setCurrentIndex(m_axis->findData(static_cast<int>(axis)));
}

void HotspotsView::setFoldSalt(bool fold) { m_fold->setChecked(fold); }

void HotspotsView::setKeyBuckets(uint32_t buckets) {
  int index = m_buckets->findData(static_cast<int>(buckets));
  if (index < 0) {
    m_buckets->addItem(QLocale().toString(buckets), static_cast<int>(buckets));
    index = m_buckets->count() - 1;
  }
  m_buckets->setCurrentIndex(index);
}

void HotspotsView::setLive(bool live) {
  if (m_live->isChecked() != live) m_live->setChecked(live);  // re-enters through toggled
  if (live) {
    m_liveTimer->start();
    refresh();
  } else {
    m_liveTimer->stop();
  }
}

bool HotspotsView::isLive() const { return m_liveTimer->isActive(); }

QString HotspotsView::statusText() const { return m_status->text(); }

void HotspotsView::setStatus(const QString& text, bool error) {
  m_status->setText(text);
  m_status->setStyleSheet(error ? QStringLiteral("color: %1").arg(badTextColor(isDarkPalette(palette())).name())
                                : QString());
}

void HotspotsView::setLoading(bool loading) {
  if (m_loading == loading) return;
  m_loading = loading;
  emit loadingChanged(loading);
}

Result<DrillThrough> HotspotsView::pinnedDrillThrough() const {
  const HotspotSnapshot* snapshot = m_chart->snapshot();
  if (!snapshot || !m_chart->pinnedArea()) return Status::invalidArgument("no cell is pinned");
  return drillThrough(snapshot->table, snapshot->grid, *m_chart->pinnedArea());
}

void HotspotsView::onPinned(const GridArea&, const QString& description) {
  const Result<DrillThrough> drill = pinnedDrillThrough();
  QString text = description;
  if (drill)
    text += tr("\n%1").arg(drill.value().shellLine);
  else
    text += tr("\n(%1)").arg(QString::fromStdString(drill.status().message()));
  m_pinnedText->setText(text);
  updateControls();
}

void HotspotsView::onUnpinned() {
  m_pinnedText->setText(tr("Click a cell to pin its numbers, or Shift+drag over an area to select its rows."));
  updateControls();
}

void HotspotsView::requestDrillThrough() {
  const Result<DrillThrough> drill = pinnedDrillThrough();
  if (!drill) {
    setStatus(QString::fromStdString(drill.status().message()), true);
    return;
  }
  emit drillThroughRequested(drill.value().table, drill.value().scan, drill.value().shellLine);
}

void HotspotsView::copyScan() {
  const Result<DrillThrough> drill = pinnedDrillThrough();
  if (!drill) return;
  QApplication::clipboard()->setText(drill.value().shellLine);
  setStatus(tr("Copied: %1").arg(drill.value().shellLine));
}

Status HotspotsView::saveImage(const QString& path) {
  if (!m_chart->snapshot()) return Status::invalidArgument("no heatmap to save");
  const bool pdf = QFileInfo(path).suffix().compare(QStringLiteral("pdf"), Qt::CaseInsensitive) == 0;
  const bool saved = pdf ? m_chart->savePdf(path) : m_chart->savePng(path);
  if (!saved) return Status::ioError("cannot write " + path.toStdString());
  return Status::ok();
}

Status HotspotsView::exportCsv(const QString& path) const {
  const HotspotSnapshot* snapshot = m_chart->snapshot();
  if (!snapshot) return Status::invalidArgument("no heatmap to export");
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
    return Status::ioError("cannot write " + path.toStdString() + ": " + file.errorString().toStdString());
  const std::string csv = heatGridCsv(snapshot->grid);
  if (file.write(csv.data(), static_cast<qint64>(csv.size())) != static_cast<qint64>(csv.size()))
    return Status::ioError("cannot write " + path.toStdString() + ": " + file.errorString().toStdString());
  return Status::ok();
}

void HotspotsView::chooseImageFile() {
  const QString path = QFileDialog::getSaveFileName(this, tr("Save Heatmap"), m_table + QStringLiteral("-hotspots.png"),
                                                    tr("PNG image (*.png);;PDF document (*.pdf)"));
  if (path.isEmpty()) return;
  const Status status = saveImage(path);
  setStatus(status ? tr("Saved %1").arg(path) : QString::fromStdString(status.message()), !status);
}

void HotspotsView::chooseCsvFile() {
  const QString path = QFileDialog::getSaveFileName(this, tr("Export Heatmap Numbers"),
                                                    m_table + QStringLiteral("-hotspots.csv"), tr("CSV (*.csv)"));
  if (path.isEmpty()) return;
  const Status status = exportCsv(path);
  setStatus(status ? tr("Exported %1").arg(path) : QString::fromStdString(status.message()), !status);
}

}  // namespace keyscope
