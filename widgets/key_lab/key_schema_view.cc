// KeySchemaView (see key_schema_view.h). GUI thread only; the core calls made
// here are pure functions that take microseconds, so they run synchronously.
#include "key_lab/key_schema_view.h"

#include <QComboBox>
#include <QEvent>
#include <QFontDatabase>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSplitter>
#include <QStyle>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

#include "key_lab/classic_designs.h"
#include "key_lab/lab_colors.h"
#include "keyscope/key_advisor.h"
#include "keyscope/key_json.h"
#include "keyscope/key_order.h"

namespace keyscope {

namespace {

enum ComponentColumn { kColName, kColType, kColOrder, kColEncoding, kColSize, kColOffset, kColCount };
enum AdviceColumn { kAdvSeverity, kAdvCode, kAdvComponent, kAdvMessage, kAdvCount };

QString qs(const std::string& s) { return QString::fromStdString(s); }

// Core errors give a 1-based column into the UTF-8 text; QLineEdit positions
// count UTF-16 code units.
int utf8ColumnToCursor(const QString& text, int column) {
  const QByteArray utf8 = text.toUtf8();
  const qsizetype bytes = std::clamp<qsizetype>(column - 1, 0, utf8.size());
  return static_cast<int>(QString::fromUtf8(utf8.left(bytes)).size());
}

QTableWidgetItem* readOnlyItem(const QString& text) {
  auto* item = new QTableWidgetItem(text);
  item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
  return item;
}

// A byte string for people: hex, grouped for long values.
QString hexForDisplay(const Bytes& bytes) {
  return bytes.empty() ? QStringLiteral("(empty)") : qs(toHex(bytes));
}

}  // namespace

KeySchemaView::KeySchemaView(QWidget* parent) : QWidget(parent) {
  m_schemaEdit = new QLineEdit(this);
  m_schemaEdit->setObjectName(QStringLiteral("schemaEdit"));
  m_schemaEdit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  m_schemaEdit->setPlaceholderText(tr("name:type [asc|desc|hbase] | …   e.g. metric:utf8 | ts:i64"));
  m_schemaEdit->setClearButtonEnabled(true);

  m_designs = new QComboBox(this);
  m_designs->setObjectName(QStringLiteral("designCombo"));
  m_designs->addItem(tr("Load a classic design…"));
  for (const ClassicDesign& design : classicDesigns()) {
    m_designs->addItem(QString::fromUtf8(design.title), QString::fromUtf8(design.schema));
  }
  m_designs->setSizeAdjustPolicy(QComboBox::AdjustToContents);

  m_errorLabel = new QLabel(this);
  m_errorLabel->setObjectName(QStringLiteral("schemaError"));
  m_errorLabel->setWordWrap(true);
  m_errorLabel->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse);
  m_errorLabel->hide();

  m_components = new QTableWidget(0, kColCount, this);
  m_components->setObjectName(QStringLiteral("componentTable"));
  m_components->setHorizontalHeaderLabels(
      {tr("Name"), tr("Type"), tr("Order"), tr("Encoding"), tr("Size"), tr("Byte offset")});
  m_components->horizontalHeader()->setStretchLastSection(true);
  m_components->verticalHeader()->hide();
  m_components->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_components->setEditTriggers(QAbstractItemView::NoEditTriggers);

  m_verdictLabel = new QLabel(this);
  m_verdictLabel->setObjectName(QStringLiteral("verdictLabel"));
  m_verdictLabel->setWordWrap(true);
  m_verdictLabel->setTextFormat(Qt::RichText);
  m_verdictLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_verdictLabel->setAlignment(Qt::AlignTop | Qt::AlignLeft);

  // A table rather than a tree: QTableView wraps long messages to the
  // column's width when asked to size its rows.
  m_advice = new QTableWidget(0, kAdvCount, this);
  m_advice->setObjectName(QStringLiteral("adviceList"));
  m_advice->setHorizontalHeaderLabels({tr("Severity"), tr("Code"), tr("Component"), tr("Message")});
  m_advice->verticalHeader()->hide();
  m_advice->setWordWrap(true);
  m_advice->setShowGrid(false);
  m_advice->setAlternatingRowColors(true);
  m_advice->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_advice->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_advice->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
  m_advice->horizontalHeader()->setStretchLastSection(true);
  // Wrapped messages need their row heights redone whenever the message
  // column changes width (and it does on every resize: it stretches).
  m_advice->viewport()->installEventFilter(this);
  connect(m_advice->horizontalHeader(), &QHeaderView::sectionResized, m_advice,
          [this] { fitAdviceRows(); });

  m_noAdvice = new QLabel(tr("No warnings: the advisor knows nothing against this design."), this);
  m_noAdvice->setObjectName(QStringLiteral("noAdviceLabel"));
  m_noAdvice->setWordWrap(true);
  m_noAdvice->hide();

  // Layout: schema line on top, then components | (verdict over advice).
  auto* schemaRow = new QHBoxLayout;
  auto* schemaCaption = new QLabel(tr("&Schema:"), this);
  schemaCaption->setBuddy(m_schemaEdit);
  schemaRow->addWidget(schemaCaption);
  schemaRow->addWidget(m_schemaEdit, 1);
  schemaRow->addWidget(m_designs);

  auto* componentsBox = new QGroupBox(tr("Components"), this);
  auto* componentsLayout = new QVBoxLayout(componentsBox);
  componentsLayout->addWidget(m_components);

  auto* verdictBox = new QGroupBox(tr("Byte order"), this);
  auto* verdictLayout = new QVBoxLayout(verdictBox);
  verdictLayout->addWidget(m_verdictLabel);

  auto* adviceBox = new QGroupBox(tr("Advisor"), this);
  auto* adviceLayout = new QVBoxLayout(adviceBox);
  adviceLayout->addWidget(m_noAdvice);
  adviceLayout->addWidget(m_advice, 1);

  auto* right = new QWidget(this);
  auto* rightLayout = new QVBoxLayout(right);
  rightLayout->setContentsMargins(0, 0, 0, 0);
  rightLayout->addWidget(verdictBox);
  rightLayout->addWidget(adviceBox, 1);

  auto* split = new QSplitter(Qt::Horizontal, this);
  split->setObjectName(QStringLiteral("schemaSplitter"));
  split->addWidget(componentsBox);
  split->addWidget(right);
  split->setStretchFactor(0, 1);
  split->setStretchFactor(1, 1);
  split->setChildrenCollapsible(false);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(schemaRow);
  layout->addWidget(m_errorLabel);
  layout->addWidget(split, 1);

  connect(m_schemaEdit, &QLineEdit::textChanged, this, &KeySchemaView::reparse);
  // Moving the caret while the user types would fight the typing, so it jumps
  // to the error only on Return or when the error's column link is clicked.
  connect(m_schemaEdit, &QLineEdit::returnPressed, this, &KeySchemaView::moveCaretToError);
  connect(m_errorLabel, &QLabel::linkActivated, this, [this] {
    moveCaretToError();
    m_schemaEdit->setFocus();
  });
  connect(m_designs, &QComboBox::activated, this, &KeySchemaView::loadDesign);

  applyColors();
  reparse();
}

void KeySchemaView::setSchemaText(const QString& text) {
  m_schemaEdit->setText(text);  // reparse() runs through textChanged
  if (m_schema) m_schemaEdit->setCursorPosition(static_cast<int>(text.size()));
  moveCaretToError();
}

QString KeySchemaView::schemaText() const { return m_schemaEdit->text(); }

QString KeySchemaView::errorText() const {
  return m_errorLabel->isHidden() ? QString() : m_errorLabel->property("plainText").toString();
}

QString KeySchemaView::verdictText() const {
  return m_verdictLabel->property("plainText").toString();
}

QAbstractItemModel* KeySchemaView::componentModel() const { return m_components->model(); }

QAbstractItemModel* KeySchemaView::adviceModel() const { return m_advice->model(); }

void KeySchemaView::loadDesign(int comboIndex) {
  const size_t i = static_cast<size_t>(comboIndex - 1);
  if (comboIndex <= 0 || i >= classicDesigns().size()) return;
  const ClassicDesign& design = classicDesigns()[i];
  setSchemaText(QString::fromUtf8(design.schema));
  emit exampleTupleSuggested(QString::fromUtf8(design.exampleTuple));
}

void KeySchemaView::reparse() {
  const QString text = m_schemaEdit->text();
  // The combo names the design while the text is exactly one.
  const int designIndex = m_designs->findData(text.trimmed());
  m_designs->setCurrentIndex(designIndex > 0 ? designIndex : 0);

  m_errorColumn.reset();
  m_schema.reset();
  if (text.trimmed().isEmpty()) {
    m_errorLabel->hide();
    m_errorLabel->setProperty("plainText", QString());
  } else {
    Result<KeySchema> parsed = KeySchema::parse(text.toStdString());
    if (parsed) {
      m_schema = std::move(parsed).value();
      m_errorLabel->hide();
      m_errorLabel->setProperty("plainText", QString());
    } else {
      const QString message = qs(parsed.status().message());
      // The core reports "column N: reason"; the column is only in the text.
      static const QRegularExpression kColumn(QStringLiteral("column (\\d+)"));
      const QRegularExpressionMatch match = kColumn.match(message);
      QString html = message.toHtmlEscaped();
      if (match.hasMatch()) {
        m_errorColumn = match.captured(1).toInt();
        // Inline colour: QLabel draws rich-text links in the application's
        // link colour, whatever the label's own palette says.
        html.replace(match.capturedStart(), match.capturedLength(),
                     QStringLiteral("<a href=\"#column\" style=\"color:%1\">%2</a>")
                         .arg(badTextColor(isDarkPalette(palette())).name(), match.captured(0)));
      }
      m_errorLabel->setProperty("plainText", message);
      m_errorLabel->setText(html);
      m_errorLabel->setToolTip(tr("Press Return in the schema, or click the column, to go there"));
      m_errorLabel->show();
    }
  }
  showComponents();
  showVerdict();
  showAdvice();
  emit schemaChanged();
}

void KeySchemaView::moveCaretToError() {
  if (!m_errorColumn) return;
  m_schemaEdit->setCursorPosition(utf8ColumnToCursor(m_schemaEdit->text(), *m_errorColumn));
}

void KeySchemaView::showComponents() {
  m_components->setRowCount(0);
  if (!m_schema) return;
  const bool dark = isDarkPalette(palette());
  m_components->setRowCount(static_cast<int>(m_schema->size()));
  size_t offset = 0;
  bool offsetKnown = true;  // false once a variable-length component precedes
  for (size_t i = 0; i < m_schema->size(); ++i) {
    const KeyComponent& c = (*m_schema)[i];
    const int row = static_cast<int>(i);
    auto* name = readOnlyItem(qs(c.name));
    name->setData(Qt::DecorationRole, componentBackground(i, dark));  // matches the bytes view
    m_components->setItem(row, kColName, name);
    auto* type = readOnlyItem(qs(m_schema->typeText(i)));
    if (c.isDerived()) {
      type->setText(type->text() + tr(" (derived)"));
      type->setToolTip(tr("Computed from other components when a key is encoded"));
    }
    m_components->setItem(row, kColType, type);
    m_components->setItem(
        row, kColOrder, readOnlyItem(c.order == SortOrder::kAscending ? tr("asc") : tr("desc")));
    m_components->setItem(row, kColEncoding,
                          readOnlyItem(c.encoding == Encoding::kSorted ? tr("sorted")
                                                                       : tr("hbase (Bytes.toBytes)")));
    const std::optional<size_t> size = c.fixedSize();
    m_components->setItem(row, kColSize,
                          readOnlyItem(!size       ? tr("variable")
                                       : *size == 1 ? tr("1 byte")
                                                    : tr("%1 bytes").arg(*size)));
    auto* offsetItem = readOnlyItem(offsetKnown ? QString::number(offset) : tr("after %1").arg(qs((*m_schema)[i - 1].name)));
    if (!offsetKnown) offsetItem->setToolTip(tr("Follows a variable-length component"));
    m_components->setItem(row, kColOffset, offsetItem);
    if (size) {
      offset += *size;
    } else {
      offsetKnown = false;
    }
  }
  m_components->resizeColumnsToContents();
}

void KeySchemaView::showVerdict() {
  const bool dark = isDarkPalette(palette());
  if (!m_schema) {
    m_preservesOrder = true;
    m_verdictLabel->setPalette(palette());
    m_verdictLabel->setText(m_schemaEdit->text().trimmed().isEmpty()
                                ? tr("Type a schema above, or load a classic design.")
                                : tr("The schema does not parse yet."));
    m_verdictLabel->setProperty("plainText", QString());
    return;
  }
  const ByteOrderReport report = checkByteOrder(*m_schema);
  m_preservesOrder = report.preservesOrder;
  QPalette pal = palette();
  pal.setColor(QPalette::WindowText, report.preservesOrder ? goodTextColor(dark) : badTextColor(dark));
  m_verdictLabel->setPalette(pal);

  if (report.preservesOrder) {
    const QString text = tr("✓ byte order = value order");
    m_verdictLabel->setText(QStringLiteral("<b>%1</b><br>%2")
                                .arg(text.toHtmlEscaped(),
                                     tr("Keys sort by bytes exactly as their tuples sort by value.")
                                         .toHtmlEscaped()));
    m_verdictLabel->setProperty("plainText", text);
    return;
  }

  const QString headline = tr("✗ byte order ≠ value order");
  QString html = QStringLiteral("<b>%1</b>").arg(headline.toHtmlEscaped());
  QString plain = headline;
  for (const OrderBreak& b : report.breaks) {
    const KeyComponent& c = (*m_schema)[b.component];
    const QString smaller = qs(valueToJson(c, b.smaller));
    const QString larger = qs(valueToJson(c, b.larger));
    const QString type =
        qs(c.typeText()) + (c.encoding == Encoding::kHBaseBytes ? QStringLiteral(" hbase") : QString());
    const QString line1 = tr("Component '%1' (%2): %3").arg(qs(c.name), type, qs(b.explanation));
    const QString line2 = tr("%1 < %2 by value, yet its bytes %3 sort after %4")
                              .arg(smaller, larger, hexForDisplay(b.smallerBytes),
                                   hexForDisplay(b.largerBytes));
    plain += QLatin1Char('\n') + line1 + QLatin1Char('\n') + line2;
    html += QStringLiteral("<p style=\"margin-top:4px\">%1<br>%2<br><tt>&nbsp;&nbsp;%3 &nbsp;(%4)"
                           "<br>&gt; %5 &nbsp;(%6)</tt></p>")
                .arg(line1.toHtmlEscaped(),
                     tr("%1 < %2 by value, yet in bytes:").arg(smaller, larger).toHtmlEscaped(),
                     hexForDisplay(b.smallerBytes), smaller.toHtmlEscaped(),
                     hexForDisplay(b.largerBytes), larger.toHtmlEscaped());
  }
  m_verdictLabel->setText(html);
  m_verdictLabel->setProperty("plainText", plain);
}

void KeySchemaView::showAdvice() {
  m_advice->setRowCount(0);
  m_noAdvice->hide();
  if (!m_schema) return;
  const QIcon warningIcon = style()->standardIcon(QStyle::SP_MessageBoxWarning);
  const QIcon infoIcon = style()->standardIcon(QStyle::SP_MessageBoxInformation);
  for (const Advice& advice : adviseKeyDesign(*m_schema)) {
    const int row = m_advice->rowCount();
    m_advice->insertRow(row);
    const bool warning = advice.severity == AdviceSeverity::kWarning;
    auto* severity = readOnlyItem(warning ? tr("warning") : tr("info"));
    severity->setIcon(warning ? warningIcon : infoIcon);
    m_advice->setItem(row, kAdvSeverity, severity);
    m_advice->setItem(row, kAdvCode, readOnlyItem(qs(advice.code)));
    const bool named = advice.component && *advice.component < m_schema->size();
    m_advice->setItem(row, kAdvComponent,
                      readOnlyItem(named ? qs((*m_schema)[*advice.component].name) : QString()));
    m_advice->setItem(row, kAdvMessage, readOnlyItem(qs(advice.message)));
  }
  for (int column = 0; column < kAdvMessage; ++column) m_advice->resizeColumnToContents(column);
  fitAdviceRows();
  m_noAdvice->setVisible(m_advice->rowCount() == 0);
}

void KeySchemaView::applyColors() {
  const bool dark = isDarkPalette(palette());
  QPalette pal = palette();
  pal.setColor(QPalette::WindowText, badTextColor(dark));
  pal.setColor(QPalette::Link, badTextColor(dark));
  m_errorLabel->setPalette(pal);
}

void KeySchemaView::fitAdviceRows() {
  // Rows as tall as their wrapped message, plus air between messages.
  constexpr int kRowPadding = 6;
  m_advice->resizeRowsToContents();
  for (int row = 0; row < m_advice->rowCount(); ++row) {
    m_advice->setRowHeight(row, m_advice->rowHeight(row) + kRowPadding);
  }
}

bool KeySchemaView::eventFilter(QObject* watched, QEvent* event) {
  if (watched == m_advice->viewport() && event->type() == QEvent::Resize) fitAdviceRows();
  return QWidget::eventFilter(watched, event);
}

void KeySchemaView::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::PaletteChange && m_verdictLabel != nullptr) {
    applyColors();
    showComponents();
    showVerdict();
  }
}

}  // namespace keyscope
