// StorageView: the Storage tab (storage_view.h).
#include "storage/storage_view.h"

#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSizePolicy>
#include <QTableView>
#include <QVBoxLayout>

#include "storage/storage_chart.h"
#include "storage/storage_rows.h"
#include "storage/storage_table_model.h"

namespace keyscope {

namespace {

QString bytesText(uint64_t bytes) { return QLocale().toString(static_cast<qulonglong>(bytes)); }

// "-31%" with a true minus sign.
QString change(uint64_t before, uint64_t after) {
  QString text = QString::fromStdString(percentChange(before, after));
  if (text.startsWith(QLatin1Char('-'))) text.replace(0, 1, QStringLiteral("−"));
  return text;
}

QLabel* wrappingLabel(QWidget* parent, const QString& name) {
  auto* label = new QLabel(parent);
  label->setObjectName(name);
  label->setWordWrap(true);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  // Long sentences wrap instead of widening the window.
  label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  return label;
}

}  // namespace

StorageView::StorageView(JobRunner* runner, QWidget* parent)
    : QWidget(parent), m_runner(runner), m_channel(runner->newChannel(JobPriority::kBackground)) {
  buildUi();
  clearTable();
}

StorageView::~StorageView() { m_runner->cancel(m_channel); }

void StorageView::buildUi() {
  m_scope = new QComboBox(this);
  m_scope->setObjectName(QStringLiteral("storageScope"));
  m_scope->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  m_scope->setMinimumContentsLength(16);
  m_refresh = new QPushButton(tr("&Refresh"), this);
  m_cancel = new QPushButton(tr("Cancel"), this);
  m_progress = new QProgressBar(this);
  m_progress->setMaximumWidth(160);
  m_progress->setTextVisible(false);
  m_saveImage = new QPushButton(tr("Save Image…"), this);
  m_exportCsv = new QPushButton(tr("Export CSV…"), this);
  auto* controls = new QHBoxLayout;
  controls->addWidget(new QLabel(tr("Scope:"), this));
  controls->addWidget(m_scope);
  controls->addWidget(m_refresh);
  controls->addWidget(m_cancel);
  controls->addWidget(m_progress);
  controls->addStretch(1);
  controls->addWidget(m_saveImage);
  controls->addWidget(m_exportCsv);

  m_overhead = wrappingLabel(this, QStringLiteral("storageOverhead"));
  QFont bigger = m_overhead->font();
  bigger.setPointSizeF(bigger.pointSizeF() * 1.15);
  m_overhead->setFont(bigger);
  m_chart = new StorageChart(this);
  m_whatIfs = wrappingLabel(this, QStringLiteral("storageWhatIfs"));
  m_whatIfs->setTextFormat(Qt::RichText);
  m_model = new StorageTableModel(this);
  m_tableView = new QTableView(this);
  m_tableView->setObjectName(QStringLiteral("storageTable"));
  m_tableView->setModel(m_model);
  m_tableView->verticalHeader()->hide();
  m_tableView->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
  m_tableView->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_tableView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  m_tableView->horizontalHeader()->setStretchLastSection(true);
  m_status = wrappingLabel(this, QStringLiteral("storageStatus"));

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(controls);
  layout->addWidget(m_overhead);
  layout->addWidget(m_chart, 3);
  layout->addWidget(m_whatIfs);
  layout->addWidget(m_tableView, 2);
  layout->addWidget(m_status);

  connect(m_refresh, &QPushButton::clicked, this, &StorageView::refresh);
  connect(m_cancel, &QPushButton::clicked, this, &StorageView::cancel);
  connect(m_saveImage, &QPushButton::clicked, this, &StorageView::chooseImageFile);
  connect(m_exportCsv, &QPushButton::clicked, this, &StorageView::chooseCsvFile);
  connect(m_scope, &QComboBox::currentIndexChanged, this, [this] { showScope(); });
}

void StorageView::setWorkspace(const Workspace* ws) {
  m_runner->cancel(m_channel);
  m_ws = ws;
  clearTable();
}

void StorageView::showTable(const TableOptions& table) {
  const QString name = QString::fromStdString(table.name);
  if (name == m_table && (m_report || m_loading || m_stale)) return;
  m_runner->cancel(m_channel);
  m_table = name;
  m_report.reset();
  setLoading(false);
  fillScopes();
  showScope();
  m_stale = true;
  setStatus(tr("%1: the report is read when this tab is shown.").arg(m_table));
  if (isVisible()) refresh();
}

void StorageView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (m_stale) refresh();
}

void StorageView::clearTable() {
  m_runner->cancel(m_channel);
  m_table.clear();
  m_stale = false;
  m_report.reset();
  setLoading(false);
  fillScopes();
  showScope();
  setStatus(tr("Select a table in the workspace tree to see where its bytes go."));
}

void StorageView::refresh() {
  if (m_ws == nullptr || m_table.isEmpty()) return;
  m_stale = false;
  setLoading(true);
  m_progress->setRange(0, 0);
  setStatus(tr("Reading the store files of %1…").arg(m_table));
  const Workspace* ws = m_ws;
  const std::string table = m_table.toStdString();
  m_runner->submit(
      m_channel, this,
      [ws, table](JobControl& control) {
        StorageReportOptions options;
        options.maxCells = kMaxCells;
        options.cancel = control.cancelToken();
        options.progress = [&control](uint64_t done, uint64_t total) {
          control.reportProgress({static_cast<qint64>(done), static_cast<qint64>(total), {}});
        };
        Result<StorageReport> report = ws->storageReport(table, options);
        std::pair<std::shared_ptr<const StorageReport>, QString> out;
        if (report) out.first = std::make_shared<const StorageReport>(std::move(report).value());
        else out.second = QString::fromStdString(report.status().message());
        return out;
      },
      [this](std::pair<std::shared_ptr<const StorageReport>, QString> out) {
        onReport(std::move(out.first), out.second);
      },
      [this](const JobProgress& progress) {
        if (progress.total <= 0) return;
        m_progress->setRange(0, static_cast<int>(std::min<qint64>(progress.total, 1'000'000'000)));
        m_progress->setValue(static_cast<int>(std::min(progress.done, progress.total)));
      });
}

void StorageView::cancel() {
  if (!m_loading) return;
  m_runner->cancel(m_channel);
  setLoading(false);
  setStatus(tr("Cancelled: no report for %1. Refresh to read it again.").arg(m_table));
}

void StorageView::onReport(std::shared_ptr<const StorageReport> report, const QString& error) {
  setLoading(false);
  if (!report) {
    m_report.reset();
    fillScopes();
    showScope();
    setStatus(tr("No storage report for %1: %2").arg(m_table, error), true);
    return;
  }
  m_report = std::move(report);
  fillScopes();
  showScope();
}

void StorageView::fillScopes() {
  const QSignalBlocker block(m_scope);
  const QVariant previous = m_scope->currentData();
  m_scope->clear();
  if (!m_report) return;
  m_scope->addItem(tr("Whole table"), QStringList{QString(), QStringLiteral("0")});
  for (const StorageSlice& f : m_report->families)
    m_scope->addItem(tr("Family %1").arg(QString::fromStdString(f.family)),
                     QStringList{QString::fromStdString(f.family), QStringLiteral("0")});
  if (m_report->regions.size() > 1) {
    for (const StorageSlice& r : m_report->regions)
      m_scope->addItem(tr("Region %1").arg(r.regionId), QStringList{QString(), QString::number(r.regionId)});
  }
  const int again = m_scope->findData(previous);
  m_scope->setCurrentIndex(again >= 0 ? again : 0);
}

void StorageView::setScope(const QString& family, int64_t regionId) {
  const int index = m_scope->findData(QStringList{family, QString::number(regionId)});
  if (index >= 0) m_scope->setCurrentIndex(index);
}

StorageSlice StorageView::currentSlice() const {
  if (!m_report) return {};
  const QStringList scope = m_scope->currentData().toStringList();
  if (scope.size() != 2) return m_report->total;
  return m_report->scope(scope[0].toStdString(), scope[1].toLongLong());
}

QString StorageView::overheadText() const { return m_overhead->text(); }

QStringList StorageView::whatIfLines() const {
  QStringList lines;
  if (!m_report) return lines;
  const StorageSlice slice = currentSlice();
  if (slice.cells == 0) return lines;
  std::vector<std::string> families;
  for (const StorageSlice& f : m_report->families) {
    if (slice.family.empty() || f.family == slice.family) families.push_back(f.family);
  }
  for (const StorageWhatIf& w : storageWhatIfs(slice, families)) {
    lines << tr("%1: %2 as HBase KeyValues (%3 → %4 bytes), %5 here (%6 → %7): %8.")
                 .arg(QString::fromStdString(w.change), change(w.hbaseBefore, w.hbaseAfter),
                      bytesText(w.hbaseBefore), bytesText(w.hbaseAfter), change(w.keyscopeBefore, w.keyscopeAfter),
                      bytesText(w.keyscopeBefore), bytesText(w.keyscopeAfter), QString::fromStdString(w.explanation));
  }
  return lines;
}

QString StorageView::statusText() const { return m_status->text(); }

void StorageView::showScope() {
  if (!m_report) {
    m_model->setRows({});
    m_chart->clear();
    m_overhead->clear();
    m_whatIfs->clear();
    m_saveImage->setEnabled(false);
    m_exportCsv->setEnabled(false);
    return;
  }
  const StorageSlice slice = currentSlice();
  const QVector<StorageRow> rows = storageRows(*m_report, slice);
  m_model->setRows(rows);
  m_chart->setRows(rows);
  m_overhead->setText(QString::fromStdString(overheadSentence(slice)));
  QString html;
  for (const QString& line : whatIfLines()) html += QStringLiteral("<li>%1</li>").arg(line.toHtmlEscaped());
  m_whatIfs->setText(html.isEmpty() ? QString()
                                    : tr("<b>What if</b> (the same cells, before compression):<ul style=\"margin:0\">%1</ul>").arg(html));
  m_saveImage->setEnabled(true);
  m_exportCsv->setEnabled(true);

  QStringList notes;
  notes << tr("%1: %2 cells in %3 store file(s), %4 raw bytes, %5 stored.")
               .arg(m_table, QLocale().toString(static_cast<qulonglong>(slice.cells)))
               .arg(slice.storeFiles)
               .arg(bytesText(slice.rawBytes), bytesText(slice.storedBytes));
  if (m_report->sampled)
    notes << tr("Sampled: %1 of the cells read (every k-th block), the parts scaled to the files' real sizes.")
                 .arg(QLocale().toString(static_cast<qulonglong>(m_report->cellsRead)));
  if (slice.memstoreBytes > 0)
    notes << tr("About %1 bytes are still in memstores, not yet in store files: flush the table to count them.")
                 .arg(bytesText(slice.memstoreBytes));
  notes << tr("Stored parts (≈) are attributed by how well each part's bytes compress alone; the total is exact.");
  setStatus(notes.join(QLatin1Char(' ')));
}

void StorageView::setLoading(bool loading) {
  const bool changed = loading != m_loading;
  m_loading = loading;
  m_progress->setVisible(loading);
  m_cancel->setVisible(loading);
  m_refresh->setEnabled(!loading && m_ws != nullptr && !m_table.isEmpty());
  if (changed) emit loadingChanged(loading);
}

void StorageView::setStatus(const QString& text, bool error) {
  m_status->setText(text);
  m_status->setStyleSheet(error ? QStringLiteral("color: #d04040;") : QString());
}

Status StorageView::saveImage(const QString& path) {
  if (!m_report) return Status::invalidArgument("no storage report to save");
  const bool pdf = QFileInfo(path).suffix().compare(QStringLiteral("pdf"), Qt::CaseInsensitive) == 0;
  const bool saved = pdf ? m_chart->savePdf(path) : m_chart->savePng(path);
  if (!saved) return Status::ioError("cannot write " + path.toStdString());
  return Status::ok();
}

Status StorageView::exportCsv(const QString& path) const {
  if (!m_report) return Status::invalidArgument("no storage report to export");
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
    return Status::ioError("cannot write " + path.toStdString() + ": " + file.errorString().toStdString());
  const std::string csv = storageCsv(m_model->rows());
  if (file.write(csv.data(), static_cast<qint64>(csv.size())) != static_cast<qint64>(csv.size()))
    return Status::ioError("cannot write " + path.toStdString() + ": " + file.errorString().toStdString());
  return Status::ok();
}

void StorageView::chooseImageFile() {
  const QString path = QFileDialog::getSaveFileName(this, tr("Save Storage Chart"), m_table + QStringLiteral("-storage.png"),
                                                    tr("PNG image (*.png);;PDF document (*.pdf)"));
  if (path.isEmpty()) return;
  const Status status = saveImage(path);
  setStatus(status ? tr("Saved %1").arg(path) : QString::fromStdString(status.message()), !status);
}

void StorageView::chooseCsvFile() {
  const QString path = QFileDialog::getSaveFileName(this, tr("Export Storage Numbers"),
                                                    m_table + QStringLiteral("-storage.csv"), tr("CSV (*.csv)"));
  if (path.isEmpty()) return;
  const Status status = exportCsv(path);
  setStatus(status ? tr("Exported %1").arg(path) : QString::fromStdString(status.message()), !status);
}

}  // namespace keyscope
