// DataBrowser (see data_browser.h). GUI thread only.
#include "browser/data_browser.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDateTimeEdit>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QStandardItemModel>
#include <QTableView>
#include <QTimeZone>
#include <QVBoxLayout>

#include <algorithm>

#include "async/job_runner.h"
#include "browser/browse_query.h"
#include "browser/cell_table_model.h"
#include "browser/column_format_store.h"
#include "browser/selection_csv.h"
#include "browser/versions_delegate.h"
#include "common/counted_text.h"
#include "key_lab/lab_colors.h"
#include "keyscope/byte_format.h"

namespace keyscope {

namespace {

// Columns are sized to their header and the rows on screen when they
// appear, within these bounds: a long key or value is elided (its tooltip
// has it all), and the user resizes what matters.
constexpr int kMinColumnWidth = 48;
constexpr int kMaxColumnWidth = 360;
// Columns past this many in one go keep the default width: measuring is
// per cell on screen, and OpenTSDB-style rows bring thousands of columns.
constexpr int kMaxColumnsSized = 64;
constexpr int kDefaultColumnWidth = 120;

}  // namespace

DataBrowser::DataBrowser(JobRunner* runner, ColumnFormatStore* formats, QWidget* parent)
    : QWidget(parent),
      m_runner(runner),
      m_estimateChannel(runner->newChannel()),
      m_formats(formats),
      m_model(new CellTableModel(runner, this)) {
  buildUi();
  connect(m_model, &CellTableModel::pagingStateChanged, this, &DataBrowser::updateStatus);
  connect(m_model, &CellTableModel::loadingChanged, this, &DataBrowser::updateStatus);
  // The first page sizes every column; later pages size the columns they bring.
  connect(m_model, &CellTableModel::rowsInserted, this, [this] {
    if (m_columnsSized) return;
    m_columnsSized = true;
    sizeColumns(0, m_model->columnCount() - 1);
  });
  connect(m_model, &CellTableModel::columnsInserted, this,
          [this](const QModelIndex&, int first, int last) {
            if (m_columnsSized) sizeColumns(first, last);
          });
  updateStatus();
}

void DataBrowser::buildUi() {
  m_kind = new QComboBox(this);
  m_kind->setObjectName(QStringLiteral("keyKind"));
  m_kind->addItem(tr("Text (\\xNN)"), static_cast<int>(RowKeyInputKind::kEscaped));
  m_kind->addItem(tr("Hex"), static_cast<int>(RowKeyInputKind::kHex));
  m_kind->addItem(tr("Components (JSON)"), static_cast<int>(RowKeyInputKind::kComponents));
  m_kind->setToolTip(tr("How the key box and the filters read what you type"));

  m_keyEdit = new QLineEdit(this);
  m_keyEdit->setObjectName(QStringLiteral("keyEdit"));
  m_keyEdit->setClearButtonEnabled(true);
  m_goButton = new QPushButton(tr("Go to key"), this);
  m_goButton->setToolTip(tr("Show the first row at or after this key"));

  m_prefixEdit = new QLineEdit(this);
  m_prefixEdit->setObjectName(QStringLiteral("prefixEdit"));
  m_startEdit = new QLineEdit(this);
  m_startEdit->setObjectName(QStringLiteral("startEdit"));
  m_stopEdit = new QLineEdit(this);
  m_stopEdit->setObjectName(QStringLiteral("stopEdit"));
  for (QLineEdit* edit : {m_prefixEdit, m_startEdit, m_stopEdit}) edit->setClearButtonEnabled(true);
  m_prefixEdit->setPlaceholderText(tr("row prefix"));
  m_startEdit->setPlaceholderText(tr("start row (inclusive)"));
  m_stopEdit->setPlaceholderText(tr("stop row (exclusive)"));
  m_filterButton = new QPushButton(tr("Filter"), this);
  m_filterButton->setToolTip(tr("Show only rows with the prefix in [start, stop)"));
  m_clearButton = new QPushButton(tr("Clear"), this);
  m_clearButton->setToolTip(tr("Show every row again"));

  auto* bar = new QGridLayout;
  bar->addWidget(new QLabel(tr("Key:"), this), 0, 0);
  bar->addWidget(m_kind, 0, 1);
  bar->addWidget(m_keyEdit, 0, 2, 1, 3);
  bar->addWidget(m_goButton, 0, 5);
  bar->addWidget(new QLabel(tr("Filter:"), this), 1, 0);
  bar->addWidget(m_prefixEdit, 1, 1, 1, 2);
  bar->addWidget(m_startEdit, 1, 3);
  bar->addWidget(m_stopEdit, 1, 4);
  auto* filterButtons = new QHBoxLayout;
  filterButtons->addWidget(m_filterButton);
  filterButtons->addWidget(m_clearButton);
  bar->addLayout(filterButtons, 1, 5);
  // "View as of": off reads by the engine's clock; on judges TTLs at the
  // date-time chosen (UTC), so rows whose cells expire by then vanish.
  m_asOfCheck = new QCheckBox(tr("View as of"), this);
  m_asOfCheck->setObjectName(QStringLiteral("asOfCheck"));
  m_asOfCheck->setToolTip(
      tr("Read the table as it will be once TTLs expire at this date-time (UTC). "
         "Changes no data and not the engine's clock."));
  m_asOfEdit = new QDateTimeEdit(this);
  m_asOfEdit->setObjectName(QStringLiteral("asOfEdit"));
  m_asOfEdit->setTimeSpec(Qt::UTC);
  m_asOfEdit->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'"));
  m_asOfEdit->setCalendarPopup(true);
  m_asOfEdit->setDateTime(QDateTime::currentDateTimeUtc());
  m_asOfEdit->setEnabled(false);
  bar->addWidget(m_asOfCheck, 0, 6);
  bar->addWidget(m_asOfEdit, 1, 6);
  bar->setColumnStretch(2, 1);
  bar->setColumnStretch(3, 1);
  bar->setColumnStretch(4, 1);

  m_view = new QTableView(this);
  m_view->setObjectName(QStringLiteral("browserView"));
  m_view->setModel(m_model);
  m_view->setItemDelegate(new VersionsDelegate(m_view));
  m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
  m_view->setWordWrap(false);
  m_view->setTextElideMode(Qt::ElideRight);
  m_view->setAlternatingRowColors(true);
  m_view->horizontalHeader()->setDefaultSectionSize(kDefaultColumnWidth);
  m_view->horizontalHeader()->setTextElideMode(Qt::ElideRight);
  m_view->horizontalHeader()->setHighlightSections(false);
  m_view->horizontalHeader()->setContextMenuPolicy(Qt::CustomContextMenu);
  m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 8);
  m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);

  // The history of the cell under the menu (a right-click makes it current).
  auto* cellHistory = new QAction(tr("Show Cell History"), m_view);
  cellHistory->setObjectName(QStringLiteral("showCellHistoryAction"));
  connect(cellHistory, &QAction::triggered, this,
          [this] { requestCellHistory(m_view->currentIndex()); });
  m_view->addAction(cellHistory);
  auto* familyHistory = new QAction(tr("Show Family History (every column of the row)"), m_view);
  familyHistory->setObjectName(QStringLiteral("showFamilyHistoryAction"));
  connect(familyHistory, &QAction::triggered, this,
          [this] { requestCellHistory(m_view->currentIndex(), /*wholeFamily=*/true); });
  m_view->addAction(familyHistory);
  connect(m_view, &QTableView::doubleClicked, this,
          [this](const QModelIndex& index) { requestCellHistory(index); });

  auto* copy = new QAction(tr("Copy as CSV"), m_view);
  copy->setShortcut(QKeySequence::Copy);
  copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  m_view->addAction(copy);
  m_view->setContextMenuPolicy(Qt::ActionsContextMenu);
  // "Inspect Row Key": the row under the menu (a right-click makes it current).
  auto* inspect = new QAction(tr("Inspect Row Key"), m_view);
  inspect->setObjectName(QStringLiteral("inspectRowKeyAction"));
  connect(inspect, &QAction::triggered, this, [this] {
    const QModelIndex current = m_view->currentIndex();
    if (current.isValid() && current.row() < m_model->rowCount())
      emit inspectRowKeyRequested(QByteArray::fromStdString(m_model->rowKey(current.row())));
  });
  m_view->addAction(inspect);

  m_status = new QLabel(this);
  m_status->setObjectName(QStringLiteral("browserStatus"));
  m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_inputError = new QLabel(this);
  m_inputError->setObjectName(QStringLiteral("inputError"));
  m_inputError->setWordWrap(false);
  m_stopButton = new QPushButton(tr("Stop"), this);
  m_stopButton->setToolTip(tr("Stop loading rows"));
  auto* statusLine = new QHBoxLayout;
  statusLine->addWidget(m_status);
  statusLine->addWidget(m_inputError, 1);
  statusLine->addWidget(m_stopButton);
  m_exportButton = new QPushButton(tr("Export View…"), this);
  m_exportButton->setObjectName(QStringLiteral("exportViewButton"));
  m_exportButton->setToolTip(tr("Write the rows of this view (its filter applied) to a CSV file"));
  statusLine->addWidget(m_exportButton);
  connect(m_exportButton, &QPushButton::clicked, this, &DataBrowser::exportViewRequested);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 2);
  layout->addLayout(bar);
  layout->addWidget(m_view, 1);
  layout->addLayout(statusLine);

  connect(m_kind, &QComboBox::currentIndexChanged, this, &DataBrowser::updatePlaceholders);
  connect(m_goButton, &QPushButton::clicked, this, [this] { goToKey(m_keyEdit->text()); });
  connect(m_keyEdit, &QLineEdit::returnPressed, this, [this] { goToKey(m_keyEdit->text()); });
  const auto filter = [this] {
    applyFilter(m_prefixEdit->text(), m_startEdit->text(), m_stopEdit->text());
  };
  connect(m_filterButton, &QPushButton::clicked, this, filter);
  for (QLineEdit* edit : {m_prefixEdit, m_startEdit, m_stopEdit}) {
    connect(edit, &QLineEdit::returnPressed, this, filter);
  }
  connect(m_clearButton, &QPushButton::clicked, this, &DataBrowser::clearFilter);
  connect(m_asOfCheck, &QCheckBox::toggled, this, &DataBrowser::onAsOfControlChanged);
  connect(m_asOfEdit, &QDateTimeEdit::editingFinished, this, &DataBrowser::onAsOfControlChanged);
  connect(m_stopButton, &QPushButton::clicked, this, [this] {
    // Keeps what is loaded; scrolling on fetches again.
    m_model->stopLoading();
  });
  connect(copy, &QAction::triggered, this, &DataBrowser::copySelection);
  connect(m_view->horizontalHeader(), &QHeaderView::customContextMenuRequested, this,
          &DataBrowser::showHeaderMenu);
  updatePlaceholders();
}

void DataBrowser::setWorkspace(const Workspace* ws, const QString& workspaceKey) {
  m_runner->cancel(m_estimateChannel);
  m_estimating = false;
  m_rangeCells.reset();
  m_model->setWorkspace(ws);
  m_ws = ws;
  m_workspaceKey = workspaceKey;
  m_table.reset();
  m_schema.reset();
  updateStatus();
}

void DataBrowser::showTable(const TableOptions& table) {
  m_table = table;
  m_schema.reset();
  m_schemaError.clear();
  if (!table.keySchema.empty()) {
    Result<KeySchema> schema = KeySchema::parse(table.keySchema);
    if (schema) {
      m_schema = std::move(schema).value();
    } else {
      m_schemaError = QString::fromStdString(schema.status().message());
    }
  }
  for (QLineEdit* edit : {m_keyEdit, m_prefixEdit, m_startEdit, m_stopEdit}) edit->clear();
  // Components need a schema to encode them.
  if (auto* kinds = qobject_cast<QStandardItemModel*>(m_kind->model())) {
    kinds->item(m_kind->findData(static_cast<int>(RowKeyInputKind::kComponents)))
        ->setEnabled(m_schema.has_value());
  }
  if (!m_schema && keyInputKind() == RowKeyInputKind::kComponents)
    setKeyInputKind(RowKeyInputKind::kEscaped);
  m_inputError->clear();
  m_model->setColumnFormats(m_formats->formats(m_workspaceKey, QString::fromStdString(table.name)));
  reload({}, {}, {});
}

void DataBrowser::clearTable() {
  m_table.reset();
  m_schema.reset();
  m_model->clear();
  updateStatus();
}

QString DataBrowser::tableName() const {
  return m_table ? QString::fromStdString(m_table->name) : QString();
}

void DataBrowser::setKeyInputKind(RowKeyInputKind kind) {
  m_kind->setCurrentIndex(m_kind->findData(static_cast<int>(kind)));
}

RowKeyInputKind DataBrowser::keyInputKind() const {
  return static_cast<RowKeyInputKind>(m_kind->currentData().toInt());
}

void DataBrowser::updatePlaceholders() {
  m_keyEdit->setPlaceholderText(rowKeyPlaceholder(keyInputKind()));
  m_inputError->clear();
}

Result<Bytes> DataBrowser::readKeyField(const QLineEdit* field) const {
  return parseRowKeyInput(field->text(), keyInputKind(), m_schema);
}

void DataBrowser::showInputError(const QString& what, const Status& status) {
  showInputNote(QStringLiteral("%1: %2").arg(what, QString::fromStdString(status.message())),
                /*isError=*/true);
}

void DataBrowser::showInputNote(const QString& text, bool isError) {
  m_inputError->setText(text);
  QPalette palette = m_inputError->palette();
  palette.setColor(QPalette::WindowText, isError ? badTextColor(isDarkPalette(this->palette()))
                                                 : this->palette().color(QPalette::WindowText));
  m_inputError->setPalette(palette);
}

bool DataBrowser::goToKey(const QString& text) {
  if (!m_table) return false;
  Result<Bytes> key = parseRowKeyInput(text, keyInputKind(), m_schema);
  if (!key) {
    showInputError(tr("Key"), key.status());
    return false;
  }
  m_inputError->clear();
  // Loaded rows are exactly the rows of [range start, last loaded key]: a
  // key inside is found there, any other is a new start.
  const RowRange range = effectiveRange(m_model->query());
  const int rows = m_model->rowCount();
  const bool covered =
      key.value() >= range.start &&
      (m_model->isComplete() || (rows > 0 && key.value() <= m_model->rowKey(rows - 1)));
  if (covered) {
    const int row = m_model->firstRowAtOrAfter(key.value());
    if (row < 0) {
      showInputNote(tr("No row at or after this key in the rows shown."), /*isError=*/false);
      return true;
    }
    const QModelIndex index = m_model->index(row, 0);
    m_view->setCurrentIndex(index);
    m_view->scrollTo(index, QAbstractItemView::PositionAtTop);
    return true;
  }
  if (const std::optional<QString> start =
          formatRowKeyInput(key.value(), keyInputKind(), m_schema)) {
    m_startEdit->setText(*start);
  }
  const BrowseQuery& query = m_model->query();
  reload(key.value(), query.stopRow, query.prefix);
  return true;
}

bool DataBrowser::applyFilter(const QString& prefix, const QString& start, const QString& stop) {
  if (!m_table) return false;
  m_prefixEdit->setText(prefix);
  m_startEdit->setText(start);
  m_stopEdit->setText(stop);
  const Result<Bytes> prefixBytes = readKeyField(m_prefixEdit);
  if (!prefixBytes) {
    showInputError(tr("Prefix"), prefixBytes.status());
    return false;
  }
  const Result<Bytes> startBytes = readKeyField(m_startEdit);
  if (!startBytes) {
    showInputError(tr("Start row"), startBytes.status());
    return false;
  }
  const Result<Bytes> stopBytes = readKeyField(m_stopEdit);
  if (!stopBytes) {
    showInputError(tr("Stop row"), stopBytes.status());
    return false;
  }
  m_inputError->clear();
  reload(startBytes.value(), stopBytes.value(), prefixBytes.value());
  return true;
}

void DataBrowser::clearFilter() {
  if (!m_table) return;
  for (QLineEdit* edit : {m_prefixEdit, m_startEdit, m_stopEdit}) edit->clear();
  m_inputError->clear();
  reload({}, {}, {});
}

void DataBrowser::reload(const Bytes& start, const Bytes& stop, const Bytes& prefix) {
  if (!m_table) return;
  BrowseQuery query;
  query.table = m_table->name;
  query.startRow = start;
  query.stopRow = stop;
  query.prefix = prefix;
  query.keySchema = m_schema;
  query.now = m_asOf;
  m_columnsSized = false;
  m_model->setQuery(std::move(query));
  requestEstimate();
  updateStatus();
}

void DataBrowser::requestEstimate() {
  m_rangeCells.reset();
  if (!m_ws || !m_table) return;
  const Workspace* ws = m_ws;
  const RowRange range = effectiveRange(m_model->query());
  m_estimating = true;
  m_runner->submit(
      m_estimateChannel, this,
      [ws, table = m_table->name, range](JobControl&) -> Result<RangeCells> {
        Result<std::vector<RegionInfo>> regions = ws->regions(table);
        if (!regions) return regions.status();
        return cellsInRange(regions.value(), range);
      },
      [this](Result<RangeCells> cells) {
        m_estimating = false;
        if (cells) m_rangeCells = cells.value();  // no statistics: no estimate, nothing to say
        updateStatus();
      });
}

std::optional<uint64_t> DataBrowser::rowEstimate() const {
  if (!m_rangeCells) return std::nullopt;
  return estimateRows(*m_rangeCells, m_model->cellsRead(),
                      static_cast<uint64_t>(m_model->rowCount()), m_model->versionsCapped());
}

void DataBrowser::setAsOf(std::optional<int64_t> nowMillis) {
  {
    const QSignalBlocker blockCheck(m_asOfCheck);
    const QSignalBlocker blockEdit(m_asOfEdit);
    m_asOfCheck->setChecked(nowMillis.has_value());
    m_asOfEdit->setEnabled(nowMillis.has_value());
    if (nowMillis) m_asOfEdit->setDateTime(QDateTime::fromMSecsSinceEpoch(*nowMillis, QTimeZone::utc()));
  }
  if (nowMillis == m_asOf) return;
  m_asOf = nowMillis;
  if (m_table) {
    const BrowseQuery& query = m_model->query();
    reload(query.startRow, query.stopRow, query.prefix);
  }
  updateStatus();
  emit asOfChanged();
}

void DataBrowser::onAsOfControlChanged() {
  m_asOfEdit->setEnabled(m_asOfCheck->isChecked());
  setAsOf(m_asOfCheck->isChecked() ? std::optional<int64_t>(m_asOfEdit->dateTime().toMSecsSinceEpoch())
                                   : std::nullopt);
}

bool DataBrowser::requestCellHistory(const QModelIndex& index, bool wholeFamily) {
  if (!m_table || !index.isValid() || index.model() != m_model) return false;
  const auto column = m_model->cellColumn(index.column());
  if (!column) return false;
  CellHistoryTarget target;
  target.table = m_table->name;
  target.row = m_model->rowKey(index.row());
  target.family = column->first;
  if (!wholeFamily) target.qualifier = column->second;
  target.format = m_model->columnFormat(index.column());
  emit cellHistoryRequested(target);
  return true;
}

void DataBrowser::sizeColumns(int first, int last) {
  // QTableView measures only the rows on screen, so this costs a screenful.
  for (int column = first; column <= last && column < first + kMaxColumnsSized; ++column) {
    m_view->resizeColumnToContents(column);
    m_view->setColumnWidth(
        column, std::clamp(m_view->columnWidth(column), kMinColumnWidth, kMaxColumnWidth));
  }
}

QString DataBrowser::copySelection() {
  const QString csv = selectionAsCsv(*m_model, m_view->selectionModel()->selectedIndexes());
  if (!csv.isEmpty()) QApplication::clipboard()->setText(csv);
  return csv;
}

void DataBrowser::setColumnFormat(int column, ValueFormat format) {
  const QString name = m_model->columnName(column);
  if (name.isEmpty() || !m_table) return;
  m_model->setColumnFormat(name, format);
  m_formats->setFormat(m_workspaceKey, QString::fromStdString(m_table->name), name, format,
                       m_model->defaultColumnFormat(column));
}

void DataBrowser::showHeaderMenu(const QPoint& at) {
  const int column = m_view->horizontalHeader()->logicalIndexAt(at);
  if (column < 0) return;
  QMenu menu(this);
  const QString name = m_model->columnName(column);
  const bool component = m_model->columnKind(column) == CellTableModel::ColumnKind::kComponent;
  {
    menu.addSection(tr("Show %1 as").arg(name));
    auto* group = new QActionGroup(&menu);
    const ValueFormat current = m_model->columnFormat(column);
    for (ValueFormat format : kValueFormats) {
      // A key component's text is its value as the key schema decodes it.
      QString label = valueFormatLabel(format);
      if (component && format == ValueFormat::kEscaped) label = tr("Decoded by the key schema");
      if (component && format == ValueFormat::kHex) label = tr("Hex (the component's key bytes)");
      if (component && format == m_model->defaultColumnFormat(column)) label += tr(" (default)");
      QAction* action = menu.addAction(label);
      action->setCheckable(true);
      action->setChecked(format == current);
      group->addAction(action);
      connect(action, &QAction::triggered, this,
              [this, column, format] { setColumnFormat(column, format); });
    }
  }
  menu.addSeparator();
  menu.addAction(tr("Fit column to contents"), this,
                 [this, column] { m_view->resizeColumnToContents(column); });
  menu.exec(m_view->horizontalHeader()->mapToGlobal(at));
}

ScanOptions DataBrowser::currentScan() const {
  ScanOptions scan;
  const RowRange range = effectiveRange(m_model->query());
  scan.startRow = range.start;
  scan.stopRow = range.stop;
  if (range.isEmpty) scan.limit = 0;  // the prefix and the range exclude each other
  scan.maxVersions = 1;  // the view shows each column's latest value
  scan.now = m_model->query().now;  // "View as of"
  return scan;
}

QString DataBrowser::currentViewDescription() const {
  if (!m_table) return {};
  QStringList parts{tr("Data browser view of %1").arg(tableName())};
  const auto shown = [](const Bytes& key) {
    return QString::fromStdString(formatBytes(key, ByteFormat::kEscaped));
  };
  const BrowseQuery& query = m_model->query();
  if (!query.prefix.empty()) parts << tr("prefix %1").arg(shown(query.prefix));
  if (!query.startRow.empty()) parts << tr("from %1").arg(shown(query.startRow));
  if (!query.stopRow.empty()) parts << tr("before %1").arg(shown(query.stopRow));
  return parts.join(QStringLiteral(", "));
}

QString DataBrowser::statusText() const {
  return m_status->text();
}

QString DataBrowser::inputErrorText() const {
  return m_inputError->text();
}

void DataBrowser::updateStatus() {
  const bool loading = m_model->isLoading();
  m_stopButton->setVisible(loading);
  const bool haveTable = m_table.has_value();
  for (QWidget* w :
       std::initializer_list<QWidget*>{m_kind, m_keyEdit, m_goButton, m_prefixEdit, m_startEdit,
                                       m_stopEdit, m_filterButton, m_clearButton, m_exportButton}) {
    w->setEnabled(haveTable);
  }
  if (!haveTable) {
    m_status->setText(m_ws ? tr("Select a table to browse its rows.") : tr("No workspace open."));
    return;
  }
  QStringList parts;
  parts << QStringLiteral("<b>%1</b>").arg(QString::fromStdString(m_table->name).toHtmlEscaped());
  QString rows = m_model->rowCountText();
  if (!m_model->isComplete()) {
    if (const std::optional<uint64_t> estimate = rowEstimate()) {
      rows += tr(" (about %1)").arg(QLocale().toString(static_cast<qulonglong>(*estimate)));
    }
  }
  parts << rows;
  if (m_asOf) {
    parts << tr("as of %1").arg(QDateTime::fromMSecsSinceEpoch(*m_asOf, QTimeZone::utc())
                                     .toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'")));
  }
  const int cellColumns = m_model->columnCount() - m_model->firstCellColumn();
  if (cellColumns > 0) parts << countedText(cellColumns, tr("column"), tr("columns"));
  if (loading) parts << tr("loading…");
  if (m_model->budgetReached()) {
    parts << tr("stopped after %1 MiB of rows: go to a key or filter to see further")
                 .arg(m_model->loadedByteBudget() >> 20);
  }
  if (!m_schemaError.isEmpty())
    parts << tr("key schema does not parse: %1").arg(m_schemaError.toHtmlEscaped());
  QString text = parts.join(QStringLiteral(" · "));
  if (!m_model->errorText().isEmpty()) {
    text += QStringLiteral(" · <span style=\"color:%1\">%2</span>")
                .arg(badTextColor(isDarkPalette(palette())).name(),
                     m_model->errorText().toHtmlEscaped());
  }
  m_status->setText(text);
}

}  // namespace keyscope
