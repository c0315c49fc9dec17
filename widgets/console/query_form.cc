// QueryForm (see query_form.h). GUI thread only.
#include "console/query_form.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QTimeZone>

#include <limits>

#include "browser/value_format.h"
#include "console/shell_completion.h"

namespace keyscope {

namespace {

constexpr int kIntMax = std::numeric_limits<int>::max();
constexpr shell::ValueFormatter kFormatters[] = {
    shell::ValueFormatter::kToStringBinary, shell::ValueFormatter::kToString,
    shell::ValueFormatter::kToLong,         shell::ValueFormatter::kToInt,
    shell::ValueFormatter::kToShort,        shell::ValueFormatter::kToDouble,
    shell::ValueFormatter::kToFloat,        shell::ValueFormatter::kToBoolean,
    shell::ValueFormatter::kToHex};

std::optional<shell::ValueFormatter> formatterNamed(const QString& name) {
  for (shell::ValueFormatter f : kFormatters) {
    if (name == QLatin1String(shell::valueFormatterName(f))) return f;
  }
  return std::nullopt;
}

// Bytes as the form shows them: toStringBinary, with ',' escaped too in
// lists (the columns field separates by commas).
QString bytesText(BytesView bytes, bool inList = false) {
  QString text = QString::fromStdString(toStringBinary(bytes));
  if (inList) text.replace(QLatin1Char(','), QStringLiteral("\\x2C"));
  return text;
}

Bytes textBytes(const QString& text) { return fromStringBinary(text.toStdString()); }

QString columnsText(const std::vector<QueryColumn>& columns) {
  QStringList parts;
  for (const QueryColumn& c : columns) {
    QString part = QString::fromStdString(c.family);
    if (c.qualifier) part += QLatin1Char(':') + bytesText(*c.qualifier, true);
    if (c.qualifier && c.formatter) part += QLatin1Char(':') + QLatin1String(shell::valueFormatterName(*c.formatter));
    parts << part;
  }
  return parts.join(QStringLiteral(", "));
}

std::optional<std::vector<QueryColumn>> readColumns(const QString& text, QString* problem) {
  std::vector<QueryColumn> columns;
  for (const QString& raw : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
    const QString part = raw.trimmed();
    if (part.isEmpty()) continue;
    QueryColumn column;
    const qsizetype colon = part.indexOf(QLatin1Char(':'));
    column.family = part.left(colon).toStdString();
    if (column.family.empty()) {
      *problem = QObject::tr("Columns: '%1' names no family").arg(part);
      return std::nullopt;
    }
    if (colon >= 0) {
      QString qualifier = part.mid(colon + 1);
      const qsizetype last = qualifier.lastIndexOf(QLatin1Char(':'));
      if (last >= 0) {
        if (auto f = formatterNamed(qualifier.mid(last + 1))) {
          column.formatter = f;
          qualifier = qualifier.left(last);
        }
      }
      column.qualifier = textBytes(qualifier);
    }
    columns.push_back(std::move(column));
  }
  return columns;
}

std::optional<int64_t> readInt64(const QString& text) {
  bool ok = false;
  const qlonglong n = text.trimmed().toLongLong(&ok);
  if (!ok || n < 0) return std::nullopt;
  return n;
}

// Milliseconds, or a UTC date "yyyy-MM-dd[ HH:mm[:ss]]".
std::optional<int64_t> readNow(const QString& text) {
  if (auto ms = readInt64(text)) return ms;
  for (const char* format : {"yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm", "yyyy-MM-dd"}) {
    QDateTime date = QDateTime::fromString(text.trimmed(), QLatin1String(format));
    if (date.isValid()) {
      date.setTimeZone(QTimeZone::utc());
      return date.toMSecsSinceEpoch();
    }
  }
  return std::nullopt;
}

QLabel* fieldLabel(const QString& text, QWidget* buddy, QWidget* parent) {
  auto* label = new QLabel(text, parent);
  label->setBuddy(buddy);
  return label;
}

}  // namespace

QueryForm::QueryForm(QWidget* parent) : QWidget(parent) {
  m_kind = new QComboBox(this);
  m_kind->addItem(QStringLiteral("scan"));
  m_kind->addItem(QStringLiteral("get"));
  m_table = new QComboBox(this);
  m_table->setEditable(true);
  m_table->setMinimumContentsLength(14);
  m_row = new QLineEdit(this);
  m_row->setPlaceholderText(tr("row key (\\xNN escapes)"));
  m_prefix = new QLineEdit(this);
  m_prefix->setPlaceholderText(tr("ROWPREFIXFILTER"));
  m_start = new QLineEdit(this);
  m_start->setPlaceholderText(tr("STARTROW"));
  m_startInclusive = new QCheckBox(tr("incl."), this);
  m_startInclusive->setToolTip(tr("The start row itself is read (HBase's default)"));
  m_startInclusive->setChecked(true);
  m_stop = new QLineEdit(this);
  m_stop->setPlaceholderText(tr("STOPROW"));
  m_stopInclusive = new QCheckBox(tr("incl."), this);
  m_stopInclusive->setToolTip(tr("The stop row itself is read (HBase reads it only when it equals the start row)"));
  m_columns = new QLineEdit(this);
  m_columns->setPlaceholderText(tr("every family; e.g. d, d:count:toLong"));
  m_addFamily = new QComboBox(this);
  m_timeMode = new QComboBox(this);
  m_timeMode->addItems({tr("all time"), QStringLiteral("TIMESTAMP"), QStringLiteral("TIMERANGE")});
  m_timeMin = new QLineEdit(this);
  m_timeMin->setPlaceholderText(tr("min (ms)"));
  m_timeMax = new QLineEdit(this);
  m_timeMax->setPlaceholderText(tr("max, exclusive"));
  m_versions = new QSpinBox(this);
  m_versions->setRange(1, kIntMax);
  m_raw = new QCheckBox(QStringLiteral("RAW"), this);
  m_raw->setToolTip(tr("Delete markers, deleted and expired cells too"));
  m_reversed = new QCheckBox(QStringLiteral("REVERSED"), this);
  m_cacheBlocks = new QCheckBox(QStringLiteral("CACHE_BLOCKS"), this);
  m_cacheBlocks->setChecked(true);
  m_cacheBlocks->setToolTip(tr("Keep the pages read in the page cache"));
  m_limit = new QSpinBox(this);
  m_limit->setObjectName(QStringLiteral("limit"));
  m_limit->setRange(0, kIntMax);
  m_limit->setSpecialValueText(tr("none"));
  m_batch = new QSpinBox(this);
  m_batch->setRange(0, kIntMax);
  m_batch->setSpecialValueText(tr("whole rows"));
  m_batch->setToolTip(tr("BATCH: cells per result; a row may span results"));
  m_maxPerFamily = new QSpinBox(this);
  m_maxPerFamily->setRange(-1, kIntMax);
  m_maxPerFamily->setSpecialValueText(tr("no cap"));
  m_maxPerFamily->setValue(-1);
  m_maxPerFamily->setToolTip(tr("Cells per row and family, after filters (setMaxResultsPerColumnFamily)"));
  m_offsetPerFamily = new QSpinBox(this);
  m_offsetPerFamily->setRange(0, kIntMax);
  m_offsetPerFamily->setToolTip(tr("Cells skipped per row and family first (setRowOffsetPerColumnFamily)"));
  m_filter = new QLineEdit(this);
  m_filter->setPlaceholderText(tr("filter language, e.g. ValueFilter (=, 'substring:error')"));
  m_addFilter = new QComboBox(this);
  m_addFilter->addItem(tr("Insert filter…"));
  m_addFilter->addItems(filterNames());
  m_now = new QLineEdit(this);
  m_now->setPlaceholderText(tr("workspace clock; or ms / yyyy-MM-dd (UTC)"));
  m_now->setToolTip(tr("Read as of this time: TTLs expire as they would then (changes nothing stored)"));
  m_nowDate = new QLabel(this);
  m_formatter = new QComboBox(this);
  for (shell::ValueFormatter f : kFormatters) m_formatter->addItem(QLatin1String(shell::valueFormatterName(f)));

  auto* grid = new QGridLayout(this);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->setHorizontalSpacing(8);
  grid->setVerticalSpacing(4);
  auto pair = [this](QWidget* a, QWidget* b) {
    auto* box = new QWidget(this);
    auto* layout = new QHBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(a, 1);
    layout->addWidget(b);
    return box;
  };
  auto triple = [this](QWidget* a, QWidget* b, QWidget* c) {
    auto* box = new QWidget(this);
    auto* layout = new QHBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(a);
    layout->addWidget(b, 1);
    layout->addWidget(c, 1);
    return box;
  };
  int r = 0;
  grid->addWidget(fieldLabel(tr("&Query"), m_kind, this), r, 0);
  grid->addWidget(pair(m_kind, m_table), r, 1);
  grid->addWidget(fieldLabel(tr("Ro&w (get)"), m_row, this), r, 2);
  grid->addWidget(m_row, r, 3);
  grid->addWidget(fieldLabel(tr("&Prefix"), m_prefix, this), r, 4);
  grid->addWidget(m_prefix, r, 5);
  ++r;
  grid->addWidget(fieldLabel(tr("&Start row"), m_start, this), r, 0);
  grid->addWidget(pair(m_start, m_startInclusive), r, 1);
  grid->addWidget(fieldLabel(tr("St&op row"), m_stop, this), r, 2);
  grid->addWidget(pair(m_stop, m_stopInclusive), r, 3);
  grid->addWidget(fieldLabel(tr("&Columns"), m_columns, this), r, 4);
  grid->addWidget(pair(m_columns, m_addFamily), r, 5);
  ++r;
  grid->addWidget(fieldLabel(tr("&Time"), m_timeMode, this), r, 0);
  grid->addWidget(triple(m_timeMode, m_timeMin, m_timeMax), r, 1);
  grid->addWidget(fieldLabel(tr("&Versions"), m_versions, this), r, 2);
  grid->addWidget(m_versions, r, 3);
  grid->addWidget(fieldLabel(tr("&Filter"), m_filter, this), r, 4);
  grid->addWidget(pair(m_filter, m_addFilter), r, 5);
  ++r;
  grid->addWidget(fieldLabel(tr("&Limit (rows)"), m_limit, this), r, 0);
  grid->addWidget(pair(m_limit, new QLabel(this)), r, 1);
  grid->addWidget(fieldLabel(tr("&Batch (cells)"), m_batch, this), r, 2);
  grid->addWidget(m_batch, r, 3);
  auto* perFamily = new QWidget(this);
  auto* perFamilyLayout = new QHBoxLayout(perFamily);
  perFamilyLayout->setContentsMargins(0, 0, 0, 0);
  perFamilyLayout->addWidget(new QLabel(tr("at most"), this));
  perFamilyLayout->addWidget(m_maxPerFamily, 1);
  perFamilyLayout->addWidget(new QLabel(tr("after skipping"), this));
  perFamilyLayout->addWidget(m_offsetPerFamily, 1);
  grid->addWidget(fieldLabel(tr("Per &family"), m_maxPerFamily, this), r, 4);
  grid->addWidget(perFamily, r, 5);
  ++r;
  grid->addWidget(fieldLabel(tr("&Now"), m_now, this), r, 0);
  grid->addWidget(pair(m_now, m_nowDate), r, 1);
  grid->addWidget(fieldLabel(tr("Fo&rmatter"), m_formatter, this), r, 2);
  grid->addWidget(m_formatter, r, 3);
  auto* flags = new QWidget(this);
  auto* flagsLayout = new QHBoxLayout(flags);
  flagsLayout->setContentsMargins(0, 0, 0, 0);
  flagsLayout->addWidget(m_raw);
  flagsLayout->addWidget(m_reversed);
  flagsLayout->addWidget(m_cacheBlocks);
  flagsLayout->addStretch(1);
  grid->addWidget(flags, r, 5);
  grid->setColumnStretch(1, 3);
  grid->setColumnStretch(3, 2);
  grid->setColumnStretch(5, 4);

  const auto emitChanged = [this] {
    updateEnabled();
    if (!m_filling) emit changed();
  };
  for (QLineEdit* edit : {m_row, m_prefix, m_start, m_stop, m_columns, m_timeMin, m_timeMax, m_filter, m_now})
    connect(edit, &QLineEdit::textChanged, this, emitChanged);
  for (QCheckBox* box : {m_startInclusive, m_stopInclusive, m_raw, m_reversed, m_cacheBlocks})
    connect(box, &QCheckBox::toggled, this, emitChanged);
  for (QSpinBox* spin : {m_versions, m_limit, m_batch, m_maxPerFamily, m_offsetPerFamily})
    connect(spin, &QSpinBox::valueChanged, this, emitChanged);
  for (QComboBox* combo : {m_kind, m_timeMode, m_formatter})
    connect(combo, &QComboBox::currentIndexChanged, this, emitChanged);
  connect(m_table, &QComboBox::currentTextChanged, this, [this, emitChanged] {
    refreshFamilies();
    emitChanged();
  });
  connect(m_addFamily, &QComboBox::activated, this, [this](int index) {
    if (index <= 0) return;
    const QString family = m_addFamily->itemText(index);
    const QString now = m_columns->text().trimmed();
    m_columns->setText(now.isEmpty() ? family : now + QStringLiteral(", ") + family);
    m_addFamily->setCurrentIndex(0);
  });
  connect(m_addFilter, &QComboBox::activated, this, [this](int index) {
    if (index <= 0) return;
    const QString filter = filterTemplate(m_addFilter->itemText(index));
    const QString now = m_filter->text().trimmed();
    m_filter->setText(now.isEmpty() ? filter : now + QStringLiteral(" AND ") + filter);
    m_addFilter->setCurrentIndex(0);
    m_filter->setFocus();
  });
  refreshFamilies();
  updateEnabled();
}

void QueryForm::setTables(const QStringList& tables, const QHash<QString, QStringList>& families) {
  const QString current = m_table->currentText();
  m_families = families;
  const bool filling = m_filling;
  m_filling = true;
  m_table->clear();
  m_table->addItems(tables);
  m_table->setCurrentText(current);
  m_filling = filling;
  refreshFamilies();
}

void QueryForm::refreshFamilies() {
  m_addFamily->clear();
  m_addFamily->addItem(tr("Add family…"));
  m_addFamily->addItems(m_families.value(m_table->currentText()));
}

void QueryForm::setTable(const QString& table) { m_table->setCurrentText(table); }
QString QueryForm::table() const { return m_table->currentText(); }

void QueryForm::updateEnabled() {
  const bool scan = m_kind->currentIndex() == 0;
  const bool prefix = !m_prefix->text().isEmpty();
  m_row->setEnabled(!scan);
  for (QWidget* w : std::initializer_list<QWidget*>{m_prefix, m_raw, m_reversed, m_limit, m_batch})
    w->setEnabled(scan);
  for (QWidget* w : std::initializer_list<QWidget*>{m_start, m_startInclusive, m_stop, m_stopInclusive})
    w->setEnabled(scan && !prefix);
  m_timeMin->setEnabled(m_timeMode->currentIndex() != 0);
  m_timeMax->setEnabled(m_timeMode->currentIndex() == 2);
  if (m_now->text().trimmed().isEmpty()) {
    m_nowDate->clear();
  } else if (auto now = readNow(m_now->text())) {
    m_nowDate->setText(formatEpochMillis(*now));
  } else {
    m_nowDate->setText(tr("not a time"));
  }
}

std::optional<QuerySpec> QueryForm::spec(QString* problem) const {
  QString ignored;
  QString& why = problem ? *problem : ignored;
  QuerySpec spec;
  spec.kind = m_kind->currentIndex() == 0 ? QueryKind::kScan : QueryKind::kGet;
  spec.table = m_table->currentText().trimmed().toStdString();
  if (spec.table.empty()) {
    why = tr("Choose a table");
    return std::nullopt;
  }
  if (spec.kind == QueryKind::kGet) {
    spec.row = textBytes(m_row->text());
  } else {
    if (!m_prefix->text().isEmpty()) {
      spec.rowPrefix = textBytes(m_prefix->text());
    } else {
      spec.startRow = textBytes(m_start->text());
      spec.stopRow = textBytes(m_stop->text());
      spec.startInclusive = m_startInclusive->isChecked();
      spec.stopInclusive = m_stopInclusive->isChecked();
    }
    spec.reversed = m_reversed->isChecked();
    spec.raw = m_raw->isChecked();
    spec.limit = m_limit->value() > 0 ? m_limit->value() : -1;
    spec.batch = m_batch->value() > 0 ? m_batch->value() : -1;
  }
  std::optional<std::vector<QueryColumn>> columns = readColumns(m_columns->text(), &why);
  if (!columns) return std::nullopt;
  spec.columns = std::move(*columns);
  if (m_timeMode->currentIndex() == 1) {
    const auto ts = readInt64(m_timeMin->text());
    if (!ts) {
      why = tr("TIMESTAMP: '%1' is not a timestamp (ms, 0 or more)").arg(m_timeMin->text());
      return std::nullopt;
    }
    spec.timestamp = *ts;
  } else if (m_timeMode->currentIndex() == 2) {
    const auto min = m_timeMin->text().trimmed().isEmpty() ? std::optional<int64_t>(0) : readInt64(m_timeMin->text());
    const auto max = m_timeMax->text().trimmed().isEmpty() ? std::optional<int64_t>(std::numeric_limits<int64_t>::max())
                                                           : readInt64(m_timeMax->text());
    if (!min || !max || *max < *min) {
      why = tr("TIMERANGE: expected min ≤ max, both ms (0 or more)");
      return std::nullopt;
    }
    spec.timeRange = {*min, *max};
  }
  spec.versions = m_versions->value();
  spec.filter = m_filter->text().trimmed().toStdString();
  spec.maxResultsPerFamily = m_maxPerFamily->value();
  spec.rowOffsetPerFamily = m_offsetPerFamily->value();
  spec.cacheBlocks = m_cacheBlocks->isChecked();
  if (!m_now->text().trimmed().isEmpty()) {
    spec.now = readNow(m_now->text());
    if (!spec.now) {
      why = tr("Now: '%1' is neither milliseconds nor a yyyy-MM-dd date").arg(m_now->text());
      return std::nullopt;
    }
  }
  spec.formatter = kFormatters[std::max(0, m_formatter->currentIndex())];
  return spec;
}

void QueryForm::setSpec(const QuerySpec& spec) {
  const bool filling = m_filling;
  m_filling = true;
  m_kind->setCurrentIndex(spec.kind == QueryKind::kScan ? 0 : 1);
  m_table->setCurrentText(QString::fromStdString(spec.table));
  m_row->setText(spec.kind == QueryKind::kGet ? bytesText(spec.row) : QString());
  m_prefix->setText(spec.rowPrefix ? bytesText(*spec.rowPrefix) : QString());
  m_start->setText(bytesText(spec.startRow));
  m_stop->setText(bytesText(spec.stopRow));
  m_startInclusive->setChecked(spec.startInclusive);
  m_stopInclusive->setChecked(spec.stopInclusive);
  m_columns->setText(columnsText(spec.columns));
  if (spec.timestamp) {
    m_timeMode->setCurrentIndex(1);
    m_timeMin->setText(QString::number(*spec.timestamp));
    m_timeMax->clear();
  } else if (!spec.timeRange.isAllTime()) {
    m_timeMode->setCurrentIndex(2);
    m_timeMin->setText(QString::number(spec.timeRange.min));
    m_timeMax->setText(QString::number(spec.timeRange.max));
  } else {
    m_timeMode->setCurrentIndex(0);
    m_timeMin->clear();
    m_timeMax->clear();
  }
  m_versions->setValue(spec.versions);
  m_raw->setChecked(spec.raw);
  m_reversed->setChecked(spec.reversed);
  m_cacheBlocks->setChecked(spec.cacheBlocks);
  m_limit->setValue(spec.limit > 0 ? static_cast<int>(std::min<int64_t>(spec.limit, kIntMax)) : 0);
  m_batch->setValue(spec.batch > 0 ? spec.batch : 0);
  m_maxPerFamily->setValue(spec.maxResultsPerFamily);
  m_offsetPerFamily->setValue(spec.rowOffsetPerFamily);
  m_filter->setText(QString::fromStdString(spec.filter));
  m_now->setText(spec.now ? QString::number(*spec.now) : QString());
  for (int i = 0; i < m_formatter->count(); ++i) {
    if (kFormatters[i] == spec.formatter) m_formatter->setCurrentIndex(i);
  }
  m_filling = filling;
  refreshFamilies();
  updateEnabled();
}

}  // namespace keyscope
