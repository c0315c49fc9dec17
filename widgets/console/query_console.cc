// QueryConsole (see query_console.h). GUI thread only.
#include "console/query_console.h"

#include <QFontDatabase>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <variant>

#include "console/query_form.h"
#include "console/query_result_model.h"
#include "console/read_report_text.h"
#include "console/shell_line_edit.h"

namespace keyscope {

namespace {

// Red that reads on the palette's window colour, light or dark.
QColor errorColour(const QWidget* widget) {
  return widget->palette().color(QPalette::Window).lightness() < 128 ? QColor(0xff, 0x80, 0x80)
                                                                    : QColor(0xb0, 0x00, 0x20);
}

struct TableList {
  QStringList tables;
  QHash<QString, QStringList> families;
};

}  // namespace

QueryConsole::QueryConsole(JobRunner* runner, QSettings* settings, QWidget* parent)
    : QWidget(parent),
      m_runner(runner),
      m_queryChannel(runner->newChannel(JobPriority::kBackground)),
      m_tablesChannel(runner->newChannel()) {
  m_form = new QueryForm(this);
  m_line = new ShellLineEdit(settings, this);
  m_runButton = new QPushButton(tr("&Run"), this);
  m_runButton->setToolTip(tr("Run the line (Enter)"));
  m_toFormButton = new QPushButton(tr("To &form"), this);
  m_toFormButton->setToolTip(tr("Read the line into the form without running it"));
  m_cancelButton = new QPushButton(tr("Cancel"), this);
  m_exportButton = new QPushButton(tr("&Export results…"), this);
  m_exportButton->setToolTip(tr("Export every row of the line's scan to CSV"));

  const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  m_error = new QLabel(this);
  m_error->setFont(fixed);
  m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_error->setWordWrap(false);
  m_note = new QLabel(this);
  m_note->setWordWrap(true);
  m_status = new QLabel(this);
  m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

  m_model = new QueryResultModel(this);
  m_grid = new QTableView(this);
  m_grid->setModel(m_model);
  m_grid->setAlternatingRowColors(true);
  m_grid->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_grid->verticalHeader()->setDefaultSectionSize(m_grid->fontMetrics().height() + 6);
  m_grid->horizontalHeader()->setStretchLastSection(true);
  m_grid->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  m_grid->setColumnWidth(QueryResultModel::kRow, 320);
  m_grid->setColumnWidth(QueryResultModel::kColumn, 160);
  m_grid->setColumnWidth(QueryResultModel::kTimestamp, 130);
  m_grid->setColumnWidth(QueryResultModel::kType, 90);
  m_text = new QPlainTextEdit(this);
  m_text->setReadOnly(true);
  m_text->setFont(fixed);
  m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
  m_results = new QStackedWidget(this);
  m_results->addWidget(m_grid);
  m_results->addWidget(m_text);

  auto* reportBox = new QGroupBox(tr("Read report"), this);
  m_report = new QLabel(reportBox);
  m_report->setWordWrap(true);
  m_report->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  m_report->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_report->setText(tr("Run a get or a scan to see what it read."));
  auto* reportLayout = new QVBoxLayout(reportBox);
  reportLayout->addWidget(m_report);
  reportLayout->addStretch(1);

  auto* splitter = new QSplitter(Qt::Horizontal, this);
  splitter->setObjectName(QStringLiteral("consoleSplitter"));
  splitter->addWidget(m_results);
  splitter->addWidget(reportBox);
  splitter->setStretchFactor(0, 3);
  splitter->setStretchFactor(1, 1);
  splitter->setChildrenCollapsible(false);

  auto* lineRow = new QHBoxLayout;
  lineRow->addWidget(m_line, 1);
  lineRow->addWidget(m_runButton);
  lineRow->addWidget(m_toFormButton);
  lineRow->addWidget(m_cancelButton);
  lineRow->addWidget(m_exportButton);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(8, 8, 8, 8);
  layout->addWidget(m_form);
  layout->addLayout(lineRow);
  layout->addWidget(m_error);
  layout->addWidget(m_note);
  layout->addWidget(m_status);
  layout->addWidget(splitter, 1);

  connect(m_form, &QueryForm::changed, this, &QueryConsole::onFormChanged);
  connect(m_line, &QLineEdit::returnPressed, this, &QueryConsole::runCurrentLine);
  connect(m_line, &QLineEdit::textEdited, this, [this] { clearError(); });
  connect(m_runButton, &QPushButton::clicked, this, &QueryConsole::runCurrentLine);
  connect(m_toFormButton, &QPushButton::clicked, this, &QueryConsole::lineToForm);
  connect(m_cancelButton, &QPushButton::clicked, this, &QueryConsole::cancel);
  connect(m_exportButton, &QPushButton::clicked, this, &QueryConsole::exportResults);
  clearError();
  m_note->hide();
  setRunning(false);
}

QueryConsole::~QueryConsole() {
  m_runner->cancel(m_queryChannel);
  m_runner->cancel(m_tablesChannel);
}

void QueryConsole::setWorkspace(Workspace* ws) {
  m_runner->cancel(m_queryChannel);
  m_runner->cancel(m_tablesChannel);
  if (m_exportDialog) m_exportDialog->workspaceClosing();
  m_ws = ws;
  // Jobs still running hold the old session until they return; the Session
  // waits for them before the workspace closes.
  m_shell = ws ? std::make_shared<ConsoleShell>(*ws) : nullptr;
  m_model->clear();
  m_text->clear();
  m_report->setText(tr("Run a get or a scan to see what it read."));
  m_status->setText(ws ? QString() : tr("No workspace open."));
  if (m_running) {
    setRunning(false);
    emit queryFinished();
  }
  loadTables();
}

void QueryConsole::setTable(const QString& table) {
  if (table.isEmpty()) return;
  const QString line = m_line->text().trimmed();
  if (line.isEmpty() || line == m_formLine.trimmed()) m_form->setTable(table);
}

void QueryConsole::loadTables() {
  if (!m_ws) {
    m_loadingTables = false;
    m_form->setTables({}, {});
    m_line->setCompletionSources({});
    return;
  }
  m_loadingTables = true;
  const Workspace* ws = m_ws;
  m_runner->submit(
      m_tablesChannel, this,
      [ws](JobControl&) {
        TableList list;
        for (const std::string& name : ws->listTables()) {
          const QString table = QString::fromStdString(name);
          list.tables.push_back(table);
          if (Result<TableOptions> options = ws->describeTable(name)) {
            QStringList families;
            for (const FamilyOptions& f : options->families) families.push_back(QString::fromStdString(f.name));
            list.families.insert(table, families);
          }
        }
        return list;
      },
      [this](TableList list) {
        m_loadingTables = false;
        m_form->setTables(list.tables, list.families);
        m_line->setCompletionSources({list.tables, list.families});
      });
}

void QueryConsole::onFormChanged() {
  QString problem;
  const std::optional<QuerySpec> spec = m_form->spec(&problem);
  if (!spec) {
    m_note->setText(problem);
    m_note->show();
    return;
  }
  m_note->hide();
  m_formLine = QString::fromStdString(queryLine(*spec));
  m_line->setText(m_formLine);
  clearError();
}

bool QueryConsole::lineToForm() {
  const QString text = m_line->text();
  const ConsoleLine parsed = parseConsoleLine(text.toStdString());
  if (!parsed.status.isOk()) {
    showParseError(parsed, text);
    return false;
  }
  clearError();
  if (parsed.spec) {
    m_form->setSpec(*parsed.spec);
    m_formLine = text;
    m_note->hide();
    return true;
  }
  m_note->setText(parsed.isSingleRead()
                      ? tr("The form cannot show %1; the line runs as written.")
                            .arg(QString::fromStdString(parsed.formCannotHold))
                      : tr("Not a get or a scan: the line runs as written."));
  m_note->show();
  return false;
}

bool QueryConsole::runLine(const QString& line) {
  m_line->setText(line);
  return runCurrentLine();
}

bool QueryConsole::runCurrentLine() {
  const QString text = m_line->text();
  m_line->addToHistory(text);
  const ConsoleLine parsed = parseConsoleLine(text.toStdString());
  if (!parsed.status.isOk()) {
    showParseError(parsed, text);
    return false;
  }
  lineToForm();
  run(parsed, text);
  return true;
}

void QueryConsole::run(const ConsoleLine& parsed, const QString& /*text*/) {
  if (!m_ws) {
    m_status->setText(tr("No workspace open."));
    return;
  }
  m_model->clear();
  m_text->clear();
  m_clock.start();
  if (parsed.isSingleRead()) {
    m_results->setCurrentWidget(m_grid);
    m_report->setText(tr("Reading…"));
    const Workspace* ws = m_ws;
    const shell::Command command = parsed.commands.front();
    const bool scan = std::holds_alternative<shell::ScanCommand>(command);
    m_status->setText(scan ? tr("Scanning…") : tr("Reading the row…"));
    m_runner->submitStreaming<ResultBatch>(
        m_queryChannel, this,
        [ws, command](JobControl& control, JobStream<ResultBatch>& stream) {
          if (const auto* s = std::get_if<shell::ScanCommand>(&command))
            return runScanJob(*ws, *s, control, stream);
          return runGetJob(*ws, std::get<shell::GetCommand>(command), stream);
        },
        [this](ResultBatch batch) { onBatch(std::move(batch)); },
        [this](QueryOutcome outcome) { onFinished(std::move(outcome)); });
  } else {
    m_results->setCurrentWidget(m_text);
    m_report->setText(tr("No read report: not a get or a scan."));
    m_status->setText(tr("Running…"));
    std::shared_ptr<ConsoleShell> shell = m_shell;
    m_runner->submit(
        m_queryChannel, this,
        [shell, commands = parsed.commands, names = parsed.names](JobControl& control) {
          return runShellJob(*shell, commands, names, control);
        },
        [this](QueryOutcome outcome) { onFinished(std::move(outcome)); });
  }
  setRunning(true);
}

void QueryConsole::onBatch(ResultBatch batch) {
  m_model->append(std::move(batch));
  if (!m_running) return;  // cancelled while the grid took the batch
  m_status->setText(tr("Scanning… %L1 rows, %L2 cells so far")
                        .arg(m_model->rowKeys())
                        .arg(m_model->rowCount()));
}

void QueryConsole::onFinished(QueryOutcome outcome) {
  setRunning(false);
  const double ms = static_cast<double>(m_clock.nsecsElapsed()) / 1e6;
  QPalette palette = m_status->palette();
  palette.setColor(QPalette::WindowText, outcome.status.isOk() ? this->palette().color(QPalette::WindowText)
                                                                : errorColour(this));
  m_status->setPalette(palette);
  if (outcome.cells) {
    m_report->setText(readReportText(outcome.report));
    if (!outcome.status.isOk()) {
      m_status->setText(tr("ERROR: %1").arg(QString::fromStdString(outcome.status.message())));
    } else {
      QString text = tr("%L1 rows, %L2 cells in %3 ms")
                         .arg(outcome.rows)
                         .arg(outcome.cellsReturned)
                         .arg(ms, 0, 'f', 1);
      if (outcome.truncated)
        text += tr(" — the grid shows the first %L1 cells and the scan stopped there; "
                   "Export results… writes every row.")
                    .arg(kMaxCellsShown);
      m_status->setText(text);
    }
  } else {
    m_text->setPlainText(outcome.text);
    m_status->setText(outcome.status.isOk()
                          ? tr("Done in %1 ms").arg(ms, 0, 'f', 1)
                          : tr("ERROR: %1").arg(QString::fromStdString(outcome.status.message())));
  }
  if (outcome.changedWorkspace) {
    loadTables();
    emit workspaceChanged();
  }
  emit queryFinished();
}

void QueryConsole::cancel() {
  if (!m_running) return;
  m_runner->cancel(m_queryChannel);
  setRunning(false);
  m_status->setText(tr("Cancelled after %L1 rows (%L2 cells shown)")
                        .arg(m_model->rowKeys())
                        .arg(m_model->rowCount()));
  m_report->setText(tr("Cancelled: no read report."));
  emit queryFinished();
}

void QueryConsole::setRunning(bool running) {
  m_running = running;
  m_cancelButton->setEnabled(running);
  m_runButton->setEnabled(!running);
}

void QueryConsole::showParseError(const ConsoleLine& parsed, const QString& text) {
  QString message = QString::fromStdString(parsed.status.message());
  if (parsed.errorColumn > 0) {
    const int at = std::min(parsed.errorColumn - 1, static_cast<int>(text.size()));
    message += QLatin1Char('\n') + text + QLatin1Char('\n') + QString(at, QLatin1Char(' ')) +
               QLatin1Char('^');
    m_line->setSelection(at, text.size() > at ? 1 : 0);
  }
  QPalette palette = m_error->palette();
  palette.setColor(QPalette::WindowText, errorColour(this));
  m_error->setPalette(palette);
  m_error->setText(message);
  m_error->show();
}

void QueryConsole::clearError() {
  m_error->clear();
  m_error->hide();
}

QString QueryConsole::outputText() const { return m_text->toPlainText(); }
QString QueryConsole::reportText() const { return m_results->currentWidget() == m_grid ? m_report->text() : QString(); }
QString QueryConsole::statusText() const { return m_status->text(); }
QString QueryConsole::errorText() const { return m_error->text(); }
QString QueryConsole::noteText() const { return m_note->isHidden() ? QString() : m_note->text(); }
bool QueryConsole::showingCells() const { return m_results->currentWidget() == m_grid; }

std::optional<ExportSource> QueryConsole::exportSource() const {
  const ConsoleLine parsed = parseConsoleLine(m_line->text().toStdString());
  if (!parsed.isSingleRead()) return std::nullopt;
  const auto* scan = std::get_if<shell::ScanCommand>(&parsed.commands.front());
  if (!scan) return std::nullopt;
  ExportSource source;
  source.table = QString::fromStdString(scan->table);
  source.scan = scan->options;
  source.description = tr("the query %1").arg(m_line->text());
  return source;
}

void QueryConsole::exportResults() {
  if (!m_ws) return;
  const std::optional<ExportSource> source = exportSource();
  if (!source) {
    m_note->setText(tr("Export results… exports a scan: write one in the line (a get's row can be "
                       "exported as a scan with STARTROW and STOPROW both set to it)."));
    m_note->show();
    return;
  }
  if (m_exportDialog) m_exportDialog->close();
  m_exportDialog = new ExportDialog(m_runner, m_ws, *source, this);
  m_exportDialog->setAttribute(Qt::WA_DeleteOnClose);
  m_exportDialog->show();
}

}  // namespace keyscope
