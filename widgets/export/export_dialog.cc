// ExportDialog (see export_dialog.h). GUI thread only; the engine is read on
// the job runner (the table's description, the preview, the export).
#include "export/export_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDesktopServices>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTimer>
#include <QUrl>
#include <QVBoxLayout>

#include <memory>

#include "common/counted_text.h"
#include "key_lab/lab_colors.h"
#include "keyscope/key_schema.h"

namespace keyscope {

namespace {

// QSettings keys: the choices last used, for every export.
constexpr char kLayoutKey[] = "export/layout";
constexpr char kBytesKey[] = "export/bytes";
constexpr char kDecodeKeyKey[] = "export/decodeKey";
constexpr char kDelimiterKey[] = "export/delimiter";
constexpr char kQuoteKey[] = "export/quote";
constexpr char kLineEndingKey[] = "export/lineEnding";
constexpr char kHeaderKey[] = "export/header";
constexpr char kDirectoryKey[] = "export/directory";

// The preview reads this many rows: enough to see the shape of the lines,
// few enough to come back at once on any table.
constexpr int kPreviewRows = 6;
constexpr int kPreviewLineChars = 240;
// Typing in the form restarts the preview after this pause, not per key.
constexpr int kPreviewDelayMs = 150;

// What the table-description job brings back.
struct TableFacts {
  Status status;
  TableOptions table;
  qint64 estimatedCells = 0;  // 0: unknown
};

// The stored cells give an estimate only for a scan of the whole table:
// under a range, filter or limit the share read is unknown.
bool canEstimate(const ScanOptions& scan) {
  return scan.startRow.empty() && scan.stopRow.empty() && !scan.filter && scan.limit < 0 &&
         scan.columns.empty();
}

QString delimiterName(char delimiter) {
  switch (delimiter) {
    case ',': return QObject::tr("Comma ( , )");
    case ';': return QObject::tr("Semicolon ( ; )");
    case '\t': return QObject::tr("Tab");
    case '|': return QObject::tr("Pipe ( | )");
    default: return QStringLiteral("'%1'").arg(QLatin1Char(delimiter));
  }
}

// The preview shows the file's lines as they will be, with tabs and the
// line breaks inside quoted fields made visible (⇥, ↵); the line ending
// itself is named in the preview's title.
QString previewLines(const std::string& csv, const CsvDialect& dialect) {
  QString text = QString::fromUtf8(csv.data(), static_cast<qsizetype>(csv.size()));
  QStringList lines = text.split(QString::fromStdString(dialect.lineEnding));
  if (!lines.isEmpty() && lines.last().isEmpty()) lines.removeLast();
  for (QString& line : lines) {
    line.replace(QLatin1Char('\t'), QStringLiteral("⇥"));
    line.replace(QStringLiteral("\r\n"), QStringLiteral("↵"));
    line.replace(QLatin1Char('\r'), QStringLiteral("↵"));
    line.replace(QLatin1Char('\n'), QStringLiteral("↵"));
    if (line.size() > kPreviewLineChars) line = line.left(kPreviewLineChars) + QStringLiteral("…");
  }
  return lines.join(QLatin1Char('\n'));
}

}  // namespace

ExportDialog::ExportDialog(JobRunner* runner, const Workspace* ws, ExportSource source,
                           QWidget* parent, QSettings* settings)
    : QDialog(parent),
      m_runner(runner),
      m_ws(ws),
      m_source(std::move(source)),
      m_settings(settings != nullptr ? settings : new QSettings(this)),
      m_tableChannel(runner->newChannel()),
      m_previewChannel(runner->newChannel()),
      m_exportChannel(runner->newChannel(JobPriority::kBackground)) {
  setWindowTitle(tr("Export %1 as CSV").arg(m_source.table));
  setObjectName(QStringLiteral("exportDialog"));
  buildUi();
  restoreChoices();
  onChoicesChanged();
  loadTable();
}

ExportDialog::~ExportDialog() {
  if (m_userCancel) m_userCancel->cancel();
  m_runner->cancel(m_tableChannel);
  m_runner->cancel(m_previewChannel);
  m_runner->cancel(m_exportChannel);
}

void ExportDialog::buildUi() {
  m_sourceLabel = new QLabel(this);
  m_sourceLabel->setObjectName(QStringLiteral("exportSource"));
  m_sourceLabel->setWordWrap(true);
  m_sourceLabel->setTextFormat(Qt::RichText);

  m_layout = new QComboBox(this);
  m_layout->setObjectName(QStringLiteral("exportLayout"));
  m_layout->addItem(tr("Long: one line per cell (row, family, qualifier, timestamp, type, value)"),
                    static_cast<int>(CsvLayout::kLong));
  m_layout->addItem(tr("Wide: one line per row, a column per family:qualifier"),
                    static_cast<int>(CsvLayout::kWide));
  m_layout->addItem(tr("Auto (long)"), static_cast<int>(CsvLayout::kAuto));
  m_layout->setToolTip(tr("Long keeps every version, timestamp and delete marker; "
                          "wide holds the latest value of each column"));

  m_bytes = new QComboBox(this);
  m_bytes->setObjectName(QStringLiteral("exportBytes"));
  m_bytes->addItem(tr("Escaped text (\\xNN for other bytes)"), static_cast<int>(ByteFormat::kEscaped));
  m_bytes->addItem(tr("Hex"), static_cast<int>(ByteFormat::kHex));
  m_bytes->addItem(tr("Base64"), static_cast<int>(ByteFormat::kBase64));
  m_bytes->addItem(tr("Raw bytes (UTF-8 only if the data is)"), static_cast<int>(ByteFormat::kRaw));
  m_bytes->setToolTip(tr("How row keys, qualifiers and values are written; every one reads back exactly"));

  m_decodeKey = new QCheckBox(tr("Add a column per key schema component (row.NAME)"), this);
  m_decodeKey->setObjectName(QStringLiteral("exportDecodeKey"));

  m_delimiter = new QComboBox(this);
  m_delimiter->setObjectName(QStringLiteral("exportDelimiter"));
  for (char c : {',', ';', '\t', '|'}) m_delimiter->addItem(delimiterName(c), QString(QLatin1Char(c)));

  m_quote = new QComboBox(this);
  m_quote->setObjectName(QStringLiteral("exportQuote"));
  m_quote->addItem(tr("Double quote ( \" )"), QStringLiteral("\""));
  m_quote->addItem(tr("Single quote ( ' )"), QStringLiteral("'"));
  m_quote->addItem(tr("None (a field holding the delimiter or a line break fails)"), QString());

  m_lineEnding = new QComboBox(this);
  m_lineEnding->setObjectName(QStringLiteral("exportLineEnding"));
  m_lineEnding->addItem(tr("CRLF (RFC 4180, Windows)"), QStringLiteral("\r\n"));
  m_lineEnding->addItem(tr("LF (Unix)"), QStringLiteral("\n"));

  m_header = new QCheckBox(tr("First line names the columns"), this);
  m_header->setObjectName(QStringLiteral("exportHeader"));

  m_file = new QLineEdit(this);
  m_file->setObjectName(QStringLiteral("exportFile"));
  m_file->setClearButtonEnabled(true);
  m_browse = new QPushButton(tr("Browse…"), this);
  auto* fileRow = new QHBoxLayout;
  fileRow->addWidget(m_file, 1);
  fileRow->addWidget(m_browse);

  auto* form = new QFormLayout;
  form->addRow(tr("Layout:"), m_layout);
  form->addRow(tr("Bytes as:"), m_bytes);
  form->addRow(tr("Key:"), m_decodeKey);
  form->addRow(tr("Delimiter:"), m_delimiter);
  form->addRow(tr("Quote:"), m_quote);
  form->addRow(tr("Line endings:"), m_lineEnding);
  form->addRow(tr("Header:"), m_header);
  form->addRow(tr("File:"), fileRow);

  m_problem = new QLabel(this);
  m_problem->setObjectName(QStringLiteral("exportProblem"));
  m_problem->setWordWrap(true);
  m_problem->setVisible(false);

  m_preview = new QPlainTextEdit(this);
  m_preview->setObjectName(QStringLiteral("exportPreview"));
  m_preview->setReadOnly(true);
  m_preview->setLineWrapMode(QPlainTextEdit::NoWrap);
  m_preview->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  m_preview->setMinimumHeight(m_preview->fontMetrics().lineSpacing() * (kPreviewRows + 3));
  m_previewBox = new QGroupBox(this);
  auto* previewBox = m_previewBox;
  auto* previewLayout = new QVBoxLayout(previewBox);
  previewLayout->addWidget(m_preview);

  m_progress = new QProgressBar(this);
  m_progress->setObjectName(QStringLiteral("exportProgress"));
  m_progress->setVisible(false);
  m_status = new QLabel(this);
  m_status->setObjectName(QStringLiteral("exportStatus"));
  m_status->setWordWrap(true);
  m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

  m_showInFolder = new QPushButton(tr("Show in Folder"), this);
  m_showInFolder->setVisible(false);
  m_exportButton = new QPushButton(tr("Export"), this);
  m_exportButton->setDefault(true);
  m_cancelButton = new QPushButton(tr("Cancel Export"), this);
  m_cancelButton->setEnabled(false);
  m_closeButton = new QPushButton(tr("Close"), this);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(m_showInFolder);
  buttons->addStretch(1);
  buttons->addWidget(m_exportButton);
  buttons->addWidget(m_cancelButton);
  buttons->addWidget(m_closeButton);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(m_sourceLabel);
  layout->addLayout(form);
  layout->addWidget(m_problem);
  layout->addWidget(previewBox, 1);
  layout->addWidget(m_progress);
  layout->addWidget(m_status);
  layout->addLayout(buttons);

  m_previewTimer = new QTimer(this);
  m_previewTimer->setSingleShot(true);
  m_previewTimer->setInterval(kPreviewDelayMs);
  connect(m_previewTimer, &QTimer::timeout, this, &ExportDialog::runPreview);

  for (QComboBox* combo : {m_layout, m_bytes, m_delimiter, m_quote, m_lineEnding}) {
    connect(combo, &QComboBox::currentIndexChanged, this, &ExportDialog::onChoicesChanged);
  }
  for (QCheckBox* check : {m_decodeKey, m_header}) {
    connect(check, &QCheckBox::toggled, this, &ExportDialog::onChoicesChanged);
  }
  connect(m_file, &QLineEdit::textChanged, this, &ExportDialog::updateValidity);
  connect(m_browse, &QPushButton::clicked, this, &ExportDialog::chooseFile);
  connect(m_exportButton, &QPushButton::clicked, this, [this] { startExport(); });
  connect(m_cancelButton, &QPushButton::clicked, this, &ExportDialog::cancelExport);
  connect(m_closeButton, &QPushButton::clicked, this, &ExportDialog::reject);
  connect(m_showInFolder, &QPushButton::clicked, this, &ExportDialog::showInFolder);
  resize(760, 620);
}

void ExportDialog::restoreChoices() {
  const auto select = [](QComboBox* combo, const QVariant& value) {
    const int index = combo->findData(value);
    if (index >= 0) combo->setCurrentIndex(index);
  };
  const QSignalBlocker b1(m_layout), b2(m_bytes), b3(m_delimiter), b4(m_quote), b5(m_lineEnding),
      b6(m_decodeKey), b7(m_header);
  select(m_layout, m_settings->value(kLayoutKey, static_cast<int>(CsvLayout::kLong)));
  select(m_bytes, m_settings->value(kBytesKey, static_cast<int>(ByteFormat::kEscaped)));
  select(m_delimiter, m_settings->value(kDelimiterKey, QStringLiteral(",")));
  select(m_quote, m_settings->value(kQuoteKey, QStringLiteral("\"")));
  select(m_lineEnding, m_settings->value(kLineEndingKey, QStringLiteral("\r\n")));
  m_decodeKey->setChecked(m_settings->value(kDecodeKeyKey, false).toBool());
  m_header->setChecked(m_settings->value(kHeaderKey, true).toBool());

  QString directory = m_settings->value(kDirectoryKey).toString();
  if (directory.isEmpty() || !QFileInfo(directory).isDir())
    directory = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
  if (directory.isEmpty()) directory = QDir::homePath();
  // A table name is a safe file name (letters, digits, '_', '-', '.').
  const QString extension = choices().dialect.delimiter == '\t' ? QStringLiteral(".tsv") : QStringLiteral(".csv");
  m_file->setText(QDir(directory).filePath(m_source.table + extension));
}

void ExportDialog::saveChoices() const {
  m_settings->setValue(kLayoutKey, m_layout->currentData());
  m_settings->setValue(kBytesKey, m_bytes->currentData());
  m_settings->setValue(kDelimiterKey, m_delimiter->currentData());
  m_settings->setValue(kQuoteKey, m_quote->currentData());
  m_settings->setValue(kLineEndingKey, m_lineEnding->currentData());
  m_settings->setValue(kDecodeKeyKey, m_decodeKey->isChecked());
  m_settings->setValue(kHeaderKey, m_header->isChecked());
  const QFileInfo file(filePath());
  if (!filePath().isEmpty()) m_settings->setValue(kDirectoryKey, file.absolutePath());
}

ExportChoices ExportDialog::choices() const {
  ExportChoices choices;
  choices.layout = static_cast<CsvLayout>(m_layout->currentData().toInt());
  choices.bytes = static_cast<ByteFormat>(m_bytes->currentData().toInt());
  choices.decodeKey = m_decodeKey->isChecked();
  choices.dialect.delimiter = m_delimiter->currentData().toString().toLatin1().at(0);
  const QString quote = m_quote->currentData().toString();
  choices.dialect.quote = quote.isEmpty() ? std::nullopt : std::optional<char>(quote.toLatin1().at(0));
  choices.dialect.lineEnding = m_lineEnding->currentData().toString().toStdString();
  choices.header = m_header->isChecked();
  return choices;
}

void ExportDialog::setChoices(const ExportChoices& choices) {
  const auto select = [](QComboBox* combo, const QVariant& value) {
    const int index = combo->findData(value);
    if (index >= 0) combo->setCurrentIndex(index);
  };
  select(m_layout, static_cast<int>(choices.layout));
  select(m_bytes, static_cast<int>(choices.bytes));
  select(m_delimiter, QString(QLatin1Char(choices.dialect.delimiter)));
  select(m_quote, choices.dialect.quote ? QString(QLatin1Char(*choices.dialect.quote)) : QString());
  select(m_lineEnding, QString::fromStdString(choices.dialect.lineEnding));
  m_decodeKey->setChecked(choices.decodeKey);
  m_header->setChecked(choices.header);
  onChoicesChanged();
}

QString ExportDialog::filePath() const {
  return m_file->text().trimmed();
}

void ExportDialog::setFilePath(const QString& path) {
  m_file->setText(path);
}

CsvExportOptions ExportDialog::exportOptions() const {
  const ExportChoices chosen = choices();
  CsvExportOptions options;
  options.scan = m_source.scan;
  options.layout = chosen.layout;
  options.bytes = chosen.bytes;
  options.dialect = chosen.dialect;
  options.header = chosen.header;
  options.decodeKey = chosen.decodeKey && m_table && !m_table->keySchema.empty();
  return options;
}

void ExportDialog::loadTable() {
  m_sourceLabel->setText(QStringLiteral("<b>%1</b>").arg(m_source.description.isEmpty()
                                                              ? tr("Table %1").arg(m_source.table).toHtmlEscaped()
                                                              : m_source.description.toHtmlEscaped()));
  if (m_ws == nullptr) {
    showStatus(tr("No workspace open."), /*isError=*/true);
    updateValidity();
    return;
  }
  m_loadingTable = true;
  const Workspace* ws = m_ws;
  const std::string table = m_source.table.toStdString();
  const bool estimate = canEstimate(m_source.scan);
  m_runner->submit(
      m_tableChannel, this,
      [ws, table, estimate](JobControl&) {
        TableFacts facts;
        Result<TableOptions> options = ws->describeTable(table);
        if (!options) {
          facts.status = options.status();
          return facts;
        }
        facts.table = std::move(options).value();
        if (estimate) {
          // Region statistics are kept by the engine: no scan, no count.
          if (Result<std::vector<RegionInfo>> regions = ws->regions(table)) {
            for (const RegionInfo& region : regions.value())
              facts.estimatedCells += static_cast<qint64>(region.cells);
          }
        }
        return facts;
      },
      [this](TableFacts facts) {
        m_loadingTable = false;
        if (!facts.status.isOk()) {
          showStatus(tr("Cannot read table %1: %2")
                         .arg(m_source.table, QString::fromStdString(facts.status.message())),
                     /*isError=*/true);
          updateValidity();
          return;
        }
        m_table = std::move(facts.table);
        m_estimatedCells = facts.estimatedCells;
        const bool hasSchema = !m_table->keySchema.empty();
        m_decodeKey->setEnabled(hasSchema);
        m_decodeKey->setToolTip(hasSchema ? tr("Key schema: %1").arg(QString::fromStdString(m_table->keySchema))
                                          : tr("Table %1 has no key schema").arg(m_source.table));
        onChoicesChanged();
      });
  m_decodeKey->setEnabled(false);
  updateValidity();
}

void ExportDialog::onChoicesChanged() {
  m_previewBox->setTitle(tr("Preview of the first %1 rows (each line ends in %2)")
                             .arg(kPreviewRows)
                             .arg(choices().dialect.lineEnding == "\r\n" ? QStringLiteral("CRLF")
                                                                          : QStringLiteral("LF")));
  updateValidity();
  schedulePreview();
}

QString ExportDialog::problem() const {
  if (m_ws == nullptr) return tr("No workspace is open.");
  if (!m_table) return m_loadingTable ? tr("Reading the table…") : tr("The table cannot be read.");
  const ExportChoices chosen = choices();
  const ScanOptions& scan = m_source.scan;
  if (chosen.layout == CsvLayout::kWide) {
    if (scan.raw) {
      return tr("The wide layout holds one value per column, so it cannot show the delete markers "
                "and deleted cells of a RAW read. Choose the long layout.");
    }
    if (scan.maxVersions != 1) {
      return tr("The wide layout holds the latest value of each column, but this read asks for "
                "VERSIONS %1. Choose the long layout (a line per version), or read VERSIONS 1.")
          .arg(scan.maxVersions);
    }
  }
  if (Status dialect = validateDialect(chosen.dialect); !dialect.isOk())
    return tr("Delimiter and quote: %1").arg(QString::fromStdString(dialect.message()));
  if (filePath().isEmpty()) return tr("Choose a file to write.");
  const QFileInfo file(filePath());
  if (file.isDir()) return tr("%1 is a folder: choose a file name.").arg(filePath());
  return {};
}

void ExportDialog::updateValidity() {
  const QString why = problem();
  // "Reading the table…" is a moment, not a problem worth red text.
  const bool show = !why.isEmpty() && !m_loadingTable;
  m_problem->setVisible(show);
  if (show) {
    m_problem->setText(why);
    QPalette palette = m_problem->palette();
    palette.setColor(QPalette::WindowText, badTextColor(isDarkPalette(this->palette())));
    m_problem->setPalette(palette);
  }
  m_exportButton->setEnabled(why.isEmpty() && !m_exporting);
}

void ExportDialog::schedulePreview() {
  if (m_ws == nullptr || !m_table) return;
  m_previewTimer->start();
}

void ExportDialog::runPreview() {
  if (m_ws == nullptr || !m_table) return;
  const QString why = problem();
  // A file name is not needed to preview.
  if (!why.isEmpty() && why != tr("Choose a file to write.") && !why.endsWith(tr("is a folder: choose a file name."))) {
    m_preview->setPlainText(tr("(no preview: %1)").arg(why));
    m_runner->cancel(m_previewChannel);
    m_previewing = false;
    emit previewUpdated();
    return;
  }
  m_previewing = true;
  const Workspace* ws = m_ws;
  const std::string table = m_source.table.toStdString();
  const CsvExportOptions options = exportOptions();
  m_runner->submit(
      m_previewChannel, this,
      [ws, table, options](JobControl&) { return previewExport(*ws, table, options, kPreviewRows); },
      [this, dialect = options.dialect](Result<std::string> csv) {
        m_previewing = false;
        if (csv) {
          const QString lines = previewLines(csv.value(), dialect);
          m_preview->setPlainText(lines.isEmpty() ? tr("(nothing to export: the source has no rows)") : lines);
        } else {
          m_preview->setPlainText(tr("(no preview: %1)").arg(QString::fromStdString(csv.status().message())));
        }
        emit previewUpdated();
      });
}

QString ExportDialog::previewText() const {
  return m_preview->toPlainText();
}

QString ExportDialog::statusText() const {
  return m_status->text();
}

bool ExportDialog::isIdle() const {
  return !m_loadingTable && !m_previewing && !m_exporting && !m_previewTimer->isActive();
}

void ExportDialog::chooseFile() {
  const bool tab = choices().dialect.delimiter == '\t';
  const QString filter = tab ? tr("Tab-separated values (*.tsv *.txt);;All files (*)")
                             : tr("CSV files (*.csv);;All files (*)");
  const QString path = QFileDialog::getSaveFileName(this, tr("Export to"), filePath(), filter);
  if (!path.isEmpty()) m_file->setText(path);
}

void ExportDialog::showStatus(const QString& text, bool isError) {
  m_status->setText(text);
  QPalette palette = m_status->palette();
  palette.setColor(QPalette::WindowText, isError ? badTextColor(isDarkPalette(this->palette()))
                                                 : this->palette().color(QPalette::WindowText));
  m_status->setPalette(palette);
}

bool ExportDialog::startExport() {
  if (m_exporting) return false;
  const QString why = problem();
  if (!why.isEmpty()) {
    showStatus(why, /*isError=*/true);
    return false;
  }
  saveChoices();
  m_exportPath = QFileInfo(filePath()).absoluteFilePath();
  m_userCancel = std::make_shared<CancelToken>();
  m_commit = std::make_shared<ExportCommit>();
  m_showInFolder->setVisible(false);
  setExporting(true);
  const qint64 estimate = m_estimatedCells;
  m_progress->setRange(0, estimate > 0 ? 100 : 0);
  m_progress->setValue(0);
  showStatus(tr("Exporting to %1…").arg(QDir::toNativeSeparators(m_exportPath)), /*isError=*/false);

  const Workspace* ws = m_ws;
  const std::string table = m_source.table.toStdString();
  m_runner->submit(
      m_exportChannel, this,
      [ws, table, options = exportOptions(), path = m_exportPath, cancel = m_userCancel, commit = m_commit,
       estimate](JobControl& control) {
        return runExport(*ws, table, options, path, *cancel, *commit, estimate, control);
      },
      [this](ExportOutcome outcome) { onExportDone(std::move(outcome)); },
      [this](const JobProgress& progress) { onExportProgress(progress); });
  return true;
}

void ExportDialog::onExportProgress(const JobProgress& progress) {
  if (!m_exporting) return;
  const qint64 rows = progress.text.toLongLong();
  QString text = tr("Exporting to %1: %2, %3")
                     .arg(QDir::toNativeSeparators(m_exportPath), countedText(rows, tr("row"), tr("rows")),
                          countedText(progress.done, tr("cell"), tr("cells")));
  // The estimate counts stored cells (all versions, markers), so a read
  // can pass it: then the bar says only that work goes on.
  if (progress.total > 0 && progress.done <= progress.total) {
    const int percent = static_cast<int>(std::min<qint64>(99, progress.done * 100 / progress.total));
    m_progress->setRange(0, 100);
    m_progress->setValue(percent);
    text += tr(" (about %1%)").arg(percent);
  } else {
    m_progress->setRange(0, 0);
  }
  if (m_userCancel && m_userCancel->cancelled()) text = tr("Cancelling…");
  showStatus(text, /*isError=*/false);
}

void ExportDialog::onExportDone(ExportOutcome outcome) {
  setExporting(false);
  m_userCancel.reset();
  const QString path = QDir::toNativeSeparators(outcome.path);
  const bool ok = outcome.status.isOk();
  if (ok) {
    const CsvExportReport& report = outcome.report;
    const CsvExportOptions options = exportOptions();
    qint64 keyColumns = 1;
    if (options.decodeKey) {
      if (Result<KeySchema> schema = KeySchema::parse(m_table->keySchema))
        keyColumns += static_cast<qint64>(schema->size());
    }
    const qint64 columns = keyColumns + (options.layout == CsvLayout::kWide
                                             ? static_cast<qint64>(report.columns)
                                             : 5);  // family, qualifier, timestamp, type, value
    QString text = tr("Exported %1, %2, %3 to %4")
                       .arg(countedText(static_cast<qint64>(report.rows), tr("row"), tr("rows")),
                            countedText(static_cast<qint64>(report.cells), tr("cell"), tr("cells")),
                            countedText(columns, tr("column"), tr("columns")), path);
    if (report.undecodedKeys > 0) {
      text += tr(". %1 did not fit the key schema (their row.NAME fields are empty): %2")
                  .arg(countedText(static_cast<qint64>(report.undecodedKeys), tr("key"), tr("keys")),
                       QString::fromStdString(report.firstDecodeError));
    }
    showStatus(text, /*isError=*/false);
    m_showInFolder->setVisible(true);
  } else if (outcome.status.code() == Status::Code::kCancelled) {
    showStatus(tr("Export cancelled, nothing written."), /*isError=*/false);
  } else {
    showStatus(tr("Export to %1 failed: %2. Nothing was written.")
                   .arg(path, QString::fromStdString(outcome.status.message())),
               /*isError=*/true);
  }
  m_lastOutcome = std::move(outcome);
  emit exportFinished(m_lastOutcome->path, ok);
}

void ExportDialog::cancelExport() {
  if (!m_exporting || !m_userCancel) return;
  // The job stops at its next check, removes the .part and reports
  // Cancelled: the dialog says so only once the file is gone.
  m_userCancel->cancel();
  (void)m_commit->cancel();  // too late when the file is in place already: the outcome says so
  m_cancelButton->setEnabled(false);
  showStatus(tr("Cancelling…"), /*isError=*/false);
}

void ExportDialog::setExporting(bool exporting) {
  m_exporting = exporting;
  m_progress->setVisible(exporting);
  m_cancelButton->setEnabled(exporting);
  for (QWidget* w : std::initializer_list<QWidget*>{m_layout, m_bytes, m_delimiter, m_quote, m_lineEnding,
                                                    m_header, m_file, m_browse}) {
    w->setEnabled(!exporting);
  }
  m_decodeKey->setEnabled(!exporting && m_table && !m_table->keySchema.empty());
  updateValidity();
}

void ExportDialog::workspaceClosing() {
  const bool wasExporting = m_exporting;
  // An export that had already put its file in place says so; any other
  // stops and writes nothing.
  const bool nothingWritten = !wasExporting || m_commit->cancel();
  if (m_userCancel) m_userCancel->cancel();
  // The runner's cancel drops the jobs' values; the session then waits for
  // them, and the export job removes its .part before it returns.
  m_runner->cancel(m_tableChannel);
  m_runner->cancel(m_previewChannel);
  m_runner->cancel(m_exportChannel);
  m_previewTimer->stop();
  m_ws = nullptr;
  m_loadingTable = false;
  m_previewing = false;
  if (wasExporting && nothingWritten) {
    setExporting(false);
    m_userCancel.reset();
    showStatus(tr("Export cancelled, nothing written: the workspace was closed."), /*isError=*/true);
  } else if (wasExporting) {
    setExporting(false);
    m_userCancel.reset();
    showStatus(tr("Exported to %1: it was complete when the workspace closed.")
                   .arg(QDir::toNativeSeparators(m_exportPath)),
               /*isError=*/false);
    m_showInFolder->setVisible(true);
  } else {
    showStatus(tr("The workspace was closed."), /*isError=*/true);
  }
  m_preview->setPlainText(QString());
  updateValidity();
}

void ExportDialog::reject() {
  if (m_exporting) {
    const auto answer = QMessageBox::question(
        this, tr("Export running"), tr("An export to %1 is running. Cancel it?").arg(m_exportPath),
        QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
    if (answer != QMessageBox::Yes) return;
    // The job removes its .part when it sees the cancel, after we are gone.
    cancelExport();
  }
  QDialog::reject();
}

void ExportDialog::showInFolder() {
  if (!m_lastOutcome) return;
  QDesktopServices::openUrl(QUrl::fromLocalFile(QFileInfo(m_lastOutcome->path).absolutePath()));
}

}  // namespace keyscope
