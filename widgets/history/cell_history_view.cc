// CellHistoryView (see cell_history_view.h). GUI thread only; reads run in
// fetchHistory() on the job runner.
#include "history/cell_history_view.h"

#include <QComboBox>
#include <QDateTime>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QTimeZone>
#include <QVBoxLayout>

#include <limits>
#include <utility>

#include "common/counted_text.h"
#include "history/history_model.h"
#include "history/history_plot.h"
#include "keyscope/byte_format.h"
#include "key_lab/lab_colors.h"

namespace keyscope {

Result<std::optional<int64_t>> parseHistoryTimestamp(const QString& text, const QString& field) {
  const QString trimmed = text.trimmed();
  if (trimmed.isEmpty()) return std::optional<int64_t>();
  bool isNumber = false;
  const qlonglong number = trimmed.toLongLong(&isNumber);
  if (isNumber) {
    if (number < 0) {
      return Status::invalidArgument(field.toStdString() + ": a timestamp is not negative");
    }
    return std::optional<int64_t>(number);
  }
  for (const char* format :
       {"yyyy-MM-dd HH:mm:ss.zzz", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm", "yyyy-MM-dd"}) {
    QDateTime time = QDateTime::fromString(trimmed, QString::fromLatin1(format));
    if (!time.isValid()) continue;
    time.setTimeZone(QTimeZone::utc());
    return std::optional<int64_t>(time.toMSecsSinceEpoch());
  }
  return Status::invalidArgument(field.toStdString() + ": '" + trimmed.toStdString() +
                                 "' is neither an integer nor a date-time like 2024-03-01 10:00");
}

CellHistoryView::CellHistoryView(JobRunner* runner, QWidget* parent)
    : QWidget(parent), m_runner(runner), m_channel(runner->newChannel()) {
  buildUi();
  updateStatus();
}

CellHistoryView::~CellHistoryView() {
  m_runner->cancel(m_channel);
}

void CellHistoryView::buildUi() {
  m_title = new QLabel(this);
  m_title->setObjectName(QStringLiteral("historyTitle"));
  m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);

  m_minEdit = new QLineEdit(this);
  m_minEdit->setObjectName(QStringLiteral("historyMin"));
  m_minEdit->setPlaceholderText(tr("min (inclusive)"));
  m_maxEdit = new QLineEdit(this);
  m_maxEdit->setObjectName(QStringLiteral("historyMax"));
  m_maxEdit->setPlaceholderText(tr("max (exclusive)"));
  m_timestampEdit = new QLineEdit(this);
  m_timestampEdit->setObjectName(QStringLiteral("historyTimestamp"));
  m_timestampEdit->setPlaceholderText(tr("exact timestamp"));
  for (QLineEdit* edit : {m_minEdit, m_maxEdit, m_timestampEdit}) {
    edit->setClearButtonEnabled(true);
    edit->setToolTip(tr("An integer, or a UTC date-time such as 2024-03-01 10:00"));
  }
  m_versions = new QSpinBox(this);
  m_versions->setObjectName(QStringLiteral("historyVersions"));
  m_versions->setRange(1, std::numeric_limits<int32_t>::max());
  m_versions->setToolTip(tr("VERSIONS asked for (a get returns at most the family's VERSIONS)"));
  m_apply = new QPushButton(tr("Apply"), this);
  m_apply->setToolTip(tr("Run the get with these options and show what it returns"));
  m_format = new QComboBox(this);
  m_format->setObjectName(QStringLiteral("historyFormat"));
  for (ValueFormat format : kValueFormats)
    m_format->addItem(valueFormatLabel(format), static_cast<int>(format));
  m_format->setToolTip(tr("How values are shown"));

  auto* controls = new QHBoxLayout;
  controls->addWidget(new QLabel(tr("TIMERANGE"), this));
  controls->addWidget(m_minEdit, 2);
  controls->addWidget(m_maxEdit, 2);
  controls->addWidget(new QLabel(tr("TIMESTAMP"), this));
  controls->addWidget(m_timestampEdit, 2);
  controls->addWidget(new QLabel(tr("VERSIONS"), this));
  controls->addWidget(m_versions);
  controls->addWidget(m_apply);
  controls->addSpacing(12);
  controls->addWidget(new QLabel(tr("Values:"), this));
  controls->addWidget(m_format, 1);

  m_status = new QLabel(this);
  m_status->setObjectName(QStringLiteral("historyStatus"));
  m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_status->setWordWrap(true);

  m_plot = new HistoryPlot(this);
  m_model = new HistoryModel(this);
  m_table = new QTableView(this);
  m_table->setObjectName(QStringLiteral("historyTable"));
  m_table->setModel(m_model);
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->setWordWrap(false);
  m_table->setAlternatingRowColors(true);
  m_table->verticalHeader()->setVisible(false);
  m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
  m_table->horizontalHeader()->setStretchLastSection(true);
  m_table->horizontalHeader()->setTextElideMode(Qt::ElideRight);

  auto* splitter = new QSplitter(Qt::Horizontal, this);
  splitter->setObjectName(QStringLiteral("historySplitter"));
  splitter->addWidget(m_plot);
  splitter->addWidget(m_table);
  splitter->setStretchFactor(0, 1);
  splitter->setStretchFactor(1, 1);
  splitter->setSizes({1, 1});  // half each: the timeline needs width to spread its segments
  splitter->setChildrenCollapsible(false);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 4, 6, 4);
  layout->addWidget(m_title);
  layout->addLayout(controls);
  layout->addWidget(splitter, 1);
  layout->addWidget(m_status);

  connect(m_apply, &QPushButton::clicked, this, &CellHistoryView::applyGetOptions);
  for (QLineEdit* edit : {m_minEdit, m_maxEdit, m_timestampEdit})
    connect(edit, &QLineEdit::returnPressed, this, &CellHistoryView::applyGetOptions);
  connect(m_format, &QComboBox::currentIndexChanged, this, [this] {
    m_model->setValueFormat(static_cast<ValueFormat>(m_format->currentData().toInt()));
  });
}

void CellHistoryView::setWorkspace(const Workspace* ws) {
  if (ws == m_ws) return;
  m_runner->cancel(m_channel);
  m_ws = ws;
  m_request.reset();
  m_result.reset();
  m_error.clear();
  m_model->setLayout(nullptr);
  m_plot->render(nullptr, {});
  m_title->clear();
  setLoading(false);
  updateStatus();
}

void CellHistoryView::showCell(const std::string& table, const Bytes& row,
                               const std::string& family, const std::optional<Bytes>& qualifier,
                               ValueFormat format) {
  HistoryRequest request;
  request.table = table;
  request.row = row;
  request.family = family;
  request.qualifier = qualifier;
  m_request = std::move(request);
  for (QLineEdit* edit : {m_minEdit, m_maxEdit, m_timestampEdit}) edit->clear();
  m_format->setCurrentIndex(m_format->findData(static_cast<int>(format)));
  const QString column = QString::fromStdString(
      qualifier ? family + ":" + toStringBinary(*qualifier) : family + ": (every column)");
  m_title->setText(tr("<b>%1</b> · row <b>%2</b> · <b>%3</b>")
                       .arg(QString::fromStdString(table).toHtmlEscaped(),
                            QString::fromStdString(toStringBinary(row)).toHtmlEscaped(),
                            column.toHtmlEscaped()));
  reload();
}

void CellHistoryView::setAsOf(std::optional<int64_t> nowMillis) {
  if (nowMillis == m_asOf) return;
  m_asOf = nowMillis;
  reload();
}

bool CellHistoryView::setGetOptions(const QString& min, const QString& max,
                                    const QString& timestamp, int versions) {
  m_minEdit->setText(min);
  m_maxEdit->setText(max);
  m_timestampEdit->setText(timestamp);
  m_versions->setValue(versions);
  return applyGetOptions();
}

bool CellHistoryView::applyGetOptions() {
  if (!m_request) return false;
  const auto min = parseHistoryTimestamp(m_minEdit->text(), tr("TIMERANGE min"));
  const auto max = parseHistoryTimestamp(m_maxEdit->text(), tr("TIMERANGE max"));
  const auto exact = parseHistoryTimestamp(m_timestampEdit->text(), tr("TIMESTAMP"));
  for (const auto* parsed : {&min, &max, &exact}) {
    if (!*parsed) {
      m_error = QString::fromStdString(parsed->status().message());
      updateStatus();
      return false;
    }
  }
  HistoryGet get;
  if (min.value()) get.timeRange.min = *min.value();
  if (max.value()) get.timeRange.max = *max.value();
  if (Status valid = validateTimeRange(get.timeRange); !valid) {
    m_error = tr("TIMERANGE: %1").arg(QString::fromStdString(valid.message()));
    updateStatus();
    return false;
  }
  get.timestamp = exact.value();
  get.maxVersions = m_versions->value();
  m_request->get = get;
  reload();
  return true;
}

void CellHistoryView::reload() {
  if (!m_request || !m_ws) return;
  m_error.clear();
  HistoryRequest request = *m_request;
  request.asOf = m_asOf;
  const Workspace* ws = m_ws;
  setLoading(true);
  updateStatus();
  m_runner->submit(
      m_channel, this,
      [ws, request = std::move(request)](JobControl& job) {
        return fetchHistory(*ws, request, *job.cancelToken());
      },
      [this](Result<HistoryResult> result) { showResult(std::move(result)); });
}

void CellHistoryView::showResult(Result<HistoryResult> result) {
  setLoading(false);
  if (!result) {
    m_error = QString::fromStdString(result.status().toString());
    m_result.reset();
    m_model->setLayout(nullptr);
    m_plot->render(nullptr, {});
    updateStatus();
    return;
  }
  m_result = std::make_shared<HistoryResult>(std::move(result).value());
  // The layout lives as long as the result that holds it.
  m_model->setLayout(std::shared_ptr<const HistoryLayout>(m_result, &m_result->layout));
  m_plot->render(&m_result->layout, m_result->input.get.effectiveRange());
  // The controls show the get as run (VERSIONS defaults to the family's).
  {
    const QSignalBlocker block(m_versions);
    m_versions->setValue(m_result->input.get.maxVersions);
  }
  m_table->resizeColumnsToContents();
  updateStatus();
}

void CellHistoryView::setLoading(bool loading) {
  if (loading == m_loading) return;
  m_loading = loading;
  emit loadingChanged(loading);
}

QString CellHistoryView::statusText() const {
  return m_status->text();
}

void CellHistoryView::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::PaletteChange && m_result) {
    m_plot->render(&m_result->layout, m_result->input.get.effectiveRange());
  }
}

void CellHistoryView::updateStatus() {
  for (QWidget* w : std::initializer_list<QWidget*>{m_minEdit, m_maxEdit, m_timestampEdit,
                                                    m_versions, m_apply}) {
    w->setEnabled(m_request.has_value() && m_ws);
  }
  QStringList parts;
  if (!m_ws) {
    parts << tr("No workspace open.");
  } else if (!m_request) {
    parts << tr("Double-click a cell in the data browser to see its versions.");
  } else if (m_loading) {
    parts << tr("reading versions…");
  } else if (m_result) {
    const HistoryLayout& layout = m_result->layout;
    int puts = 0;
    for (const HistoryVersion& v : layout.versions) puts += v.type == CellType::kPut ? 1 : 0;
    const int markers = static_cast<int>(layout.versions.size()) - puts;
    parts << countedText(puts, tr("put"), tr("puts"));
    parts << countedText(markers, tr("delete marker"), tr("delete markers"));
    QString got = tr("the get returns %1").arg(layout.returnedByGet);
    got += layout.disagreements == 0
               ? tr(" (as the semantics predict)")
               : tr(" (%1 versions differ from the prediction)").arg(layout.disagreements);
    parts << got;
    const FamilyOptions& family = m_result->input.family;
    parts << tr("family VERSIONS %1").arg(family.maxVersions);
    if (family.ttlSeconds < kTtlForever) parts << tr("TTL %1 s").arg(family.ttlSeconds);
    if (m_result->truncated) parts << tr("only the first %1 cells read").arg(kMaxHistoryCells);
  }
  if (m_asOf) parts << tr("as of %1").arg(timestampLabel(*m_asOf) + QStringLiteral(" UTC"));
  QString text = parts.join(QStringLiteral(" · ")).toHtmlEscaped();
  if (!m_error.isEmpty()) {
    text += QStringLiteral(" · <span style=\"color:%1\">%2</span>")
                .arg(badTextColor(isDarkPalette(palette())).name(), m_error.toHtmlEscaped());
  }
  m_status->setText(text);
}

}  // namespace keyscope
