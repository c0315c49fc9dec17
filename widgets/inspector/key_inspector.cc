// KeyInspector (see key_inspector.h). GUI thread only; workspace reads go
// through the job runner.
#include "inspector/key_inspector.h"

#include <QComboBox>
#include <QEvent>
#include <QFontDatabase>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>
#include <QTextDocumentFragment>
#include <QVBoxLayout>

#include <string>
#include <utility>

#include "inspector/inspector_hex_model.h"
#include "inspector/key_component_model.h"
#include "inspector/key_neighbours.h"
#include "inspector/neighbour_model.h"
#include "inspector/schema_checks.h"
#include "key_lab/hex_view_setup.h"
#include "key_lab/lab_colors.h"
#include "keyscope/key_codec.h"

namespace keyscope {

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

constexpr int kMaxNeighbourColumnWidth = 220;

QString htmlColor(const QColor& color) { return color.name(QColor::HexRgb); }

// A rich-text label that wraps and can be selected for copying.
QLabel* textLabel(const QString& objectName, QWidget* parent) {
  auto* label = new QLabel(parent);
  label->setObjectName(objectName);
  label->setWordWrap(true);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  return label;
}

void setTextColor(QLabel* label, const std::optional<QColor>& color) {
  QPalette pal = label->parentWidget() ? label->parentWidget()->palette() : label->palette();
  if (color) pal.setColor(QPalette::WindowText, *color);
  label->setPalette(pal);
}

}  // namespace

KeyInspector::KeyInspector(JobRunner* runner, QWidget* parent)
    : QWidget(parent), m_runner(runner), m_channel(runner->newChannel()) {
  buildUi();
  applyColors();
  setTable(std::nullopt);
}

void KeyInspector::buildUi() {
  const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);

  // The key box, as the data browser's.
  m_kind = new QComboBox(this);
  m_kind->setObjectName(QStringLiteral("inspectorKeyKind"));
  m_kind->addItem(tr("Text (\\xNN)"), static_cast<int>(RowKeyInputKind::kEscaped));
  m_kind->addItem(tr("Hex"), static_cast<int>(RowKeyInputKind::kHex));
  m_kind->addItem(tr("Components (JSON)"), static_cast<int>(RowKeyInputKind::kComponents));
  m_kind->setToolTip(tr("How the key box reads what you type"));
  m_keyEdit = new QLineEdit(this);
  m_keyEdit->setObjectName(QStringLiteral("inspectorKeyEdit"));
  m_keyEdit->setFont(fixed);
  m_keyEdit->setClearButtonEnabled(true);
  m_keyEdit->setPlaceholderText(rowKeyPlaceholder(RowKeyInputKind::kEscaped));
  m_inspectButton = new QPushButton(tr("Inspect"), this);
  m_inspectButton->setToolTip(tr("Inspect this key (empty: the table's first row)"));
  m_tableLabel = new QLabel(this);
  m_tableLabel->setObjectName(QStringLiteral("inspectorTable"));
  m_inputError = textLabel(QStringLiteral("inspectorInputError"), this);

  auto* bar = new QGridLayout;
  bar->addWidget(m_tableLabel, 0, 0);
  bar->addWidget(m_kind, 0, 1);
  bar->addWidget(m_keyEdit, 0, 2);
  bar->addWidget(m_inspectButton, 0, 3);
  bar->addWidget(m_inputError, 1, 0, 1, 4);
  bar->setColumnStretch(2, 1);

  // The hex dump: fixed-width cells, as wide as 16 bytes (as the key lab's).
  m_hexModel = new InspectorHexModel(this);
  m_hexView = new QTableView(this);
  m_hexView->setObjectName(QStringLiteral("inspectorHexView"));
  m_hexView->setModel(m_hexModel);
  setUpHexView(m_hexView, fixed);
  m_legend = textLabel(QStringLiteral("inspectorLegend"), this);
  m_legend->setTextFormat(Qt::RichText);
  m_decodeStatus = textLabel(QStringLiteral("inspectorDecodeStatus"), this);

  auto* bytesBox = new QGroupBox(tr("Key bytes"), this);
  auto* bytesLayout = new QVBoxLayout(bytesBox);
  bytesLayout->addWidget(m_hexView, 1);
  bytesLayout->addWidget(m_legend);
  bytesLayout->addWidget(m_decodeStatus);
  bytesBox->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Preferred);

  // The components, editable.
  m_componentModel = new KeyComponentModel(this);
  m_componentView = new QTableView(this);
  m_componentView->setObjectName(QStringLiteral("inspectorComponents"));
  m_componentView->setModel(m_componentModel);
  m_componentView->verticalHeader()->hide();
  m_componentView->horizontalHeader()->setStretchLastSection(true);
  m_componentView->setSelectionBehavior(QAbstractItemView::SelectItems);
  m_componentView->setSelectionMode(QAbstractItemView::SingleSelection);
  m_componentView->setEditTriggers(QAbstractItemView::DoubleClicked |
                                   QAbstractItemView::EditKeyPressed |
                                   QAbstractItemView::AnyKeyPressed);
  m_componentView->setWordWrap(false);
  m_editError = textLabel(QStringLiteral("inspectorEditError"), this);
  auto* componentsBox = new QGroupBox(tr("Components"), this);
  auto* componentsLayout = new QVBoxLayout(componentsBox);
  componentsLayout->addWidget(m_componentView, 1);
  componentsLayout->addWidget(m_editError);

  auto* top = new QWidget(this);
  auto* topLayout = new QHBoxLayout(top);
  topLayout->setContentsMargins(0, 0, 0, 0);
  topLayout->addWidget(bytesBox);
  topLayout->addWidget(componentsBox, 1);

  // The neighbours, and the schema checks beside them.
  m_neighbourModel = new NeighbourModel(this);
  m_neighbourView = new QTableView(this);
  m_neighbourView->setObjectName(QStringLiteral("inspectorNeighbours"));
  m_neighbourView->setModel(m_neighbourModel);
  m_neighbourView->verticalHeader()->hide();
  m_neighbourView->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  m_neighbourView->verticalHeader()->setDefaultSectionSize(m_neighbourView->fontMetrics().height() + 8);
  m_neighbourView->horizontalHeader()->setStretchLastSection(true);
  m_neighbourView->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_neighbourView->setSelectionMode(QAbstractItemView::SingleSelection);
  m_neighbourView->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_neighbourView->setWordWrap(false);
  m_neighbourView->setTextElideMode(Qt::ElideRight);
  m_neighbourStatus = textLabel(QStringLiteral("inspectorNeighbourStatus"), this);
  auto* neighboursBox = new QGroupBox(tr("Neighbours in sort order"), this);
  auto* neighboursLayout = new QVBoxLayout(neighboursBox);
  neighboursLayout->addWidget(m_neighbourView, 1);
  neighboursLayout->addWidget(m_neighbourStatus);

  m_checks = textLabel(QStringLiteral("inspectorChecks"), this);
  m_checks->setTextFormat(Qt::RichText);
  m_checks->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  auto* checksScroll = new QScrollArea(this);
  checksScroll->setWidget(m_checks);
  checksScroll->setWidgetResizable(true);
  checksScroll->setFrameShape(QFrame::NoFrame);
  auto* checksBox = new QGroupBox(tr("Schema checks"), this);
  auto* checksLayout = new QVBoxLayout(checksBox);
  checksLayout->addWidget(checksScroll);
  checksBox->setMinimumWidth(240);  // its sentences wrap; narrower, each word is a line

  auto* bottom = new QSplitter(Qt::Horizontal, this);
  bottom->setObjectName(QStringLiteral("inspectorBottomSplitter"));
  bottom->addWidget(neighboursBox);
  bottom->addWidget(checksBox);
  bottom->setStretchFactor(0, 3);
  bottom->setStretchFactor(1, 1);
  bottom->setChildrenCollapsible(false);

  auto* split = new QSplitter(Qt::Vertical, this);
  split->setObjectName(QStringLiteral("inspectorSplitter"));
  split->addWidget(top);
  split->addWidget(bottom);
  // The bytes and components of a key take a few lines; the neighbours, eleven.
  split->setStretchFactor(0, 1);
  split->setStretchFactor(1, 2);
  split->setChildrenCollapsible(false);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(bar);
  layout->addWidget(split, 1);

  connect(m_keyEdit, &QLineEdit::returnPressed, this, &KeyInspector::onKeyBoxEntered);
  connect(m_inspectButton, &QPushButton::clicked, this, &KeyInspector::onKeyBoxEntered);
  connect(m_kind, &QComboBox::currentIndexChanged, this, [this] {
    m_keyEdit->setPlaceholderText(rowKeyPlaceholder(keyInputKind()));
    // The key shown is rewritten in the new kind when that kind can show it
    // (components cannot show a key that does not decode: the text stays).
    if (!m_key) return;
    if (std::optional<QString> text = formatRowKeyInput(*m_key, keyInputKind(), m_schema))
      m_keyEdit->setText(*text);
  });
  connect(m_neighbourView, &QTableView::clicked, this, &KeyInspector::onNeighbourClicked);
  connect(m_componentModel, &KeyComponentModel::keyEdited, this, &KeyInspector::onComponentEdited);
  connect(m_componentModel, &KeyComponentModel::editFailed, this, &KeyInspector::onEditFailed);
}

void KeyInspector::setWorkspace(const Workspace* ws) {
  m_runner->cancel(m_channel);
  setLoading(false);
  // Another workspace's key means nothing here; a key typed before the
  // first workspace opened (a screenshot's) is kept for its first table.
  if (m_ws != nullptr) m_keyEdit->clear();
  m_ws = ws;
  m_table.reset();
  m_schema.reset();
  m_schemaError.clear();
  m_key.reset();
  m_neighbourModel->setSchema(std::nullopt);
  showKey();
  showChecks();
}

void KeyInspector::setTable(const std::optional<TableOptions>& table) {
  m_runner->cancel(m_channel);
  setLoading(false);
  // Another table's key means nothing here: start from this table's first
  // row. A key typed before any table was chosen, one the last table
  // refused, or the same table shown again keeps its text, read for this one.
  const bool sameTable = !m_table || (table && table->name == m_table->name) || !m_key;
  m_table = table;
  m_schema.reset();
  m_schemaError.clear();
  if (m_table && !m_table->keySchema.empty()) {
    Result<KeySchema> schema = KeySchema::parse(m_table->keySchema);
    if (schema) {
      m_schema = std::move(schema).value();
    } else {
      m_schemaError = qs(schema.status().message());
    }
  }
  m_tableLabel->setText(m_table ? tr("Key in <b>%1</b>:").arg(qs(m_table->name).toHtmlEscaped())
                                : tr("Key:"));
  m_neighbourModel->setSchema(m_schema);
  m_key.reset();
  showChecks();
  if (!sameTable) m_keyEdit->clear();
  if (!m_table) {
    showKey();
    return;
  }
  inspectText(m_keyEdit->text());
}

QString KeyInspector::tableName() const { return m_table ? qs(m_table->name) : QString(); }

void KeyInspector::setKeyInputKind(RowKeyInputKind kind) {
  const int index = m_kind->findData(static_cast<int>(kind));
  if (index >= 0) m_kind->setCurrentIndex(index);
}

RowKeyInputKind KeyInspector::keyInputKind() const {
  return static_cast<RowKeyInputKind>(m_kind->currentData().toInt());
}

void KeyInspector::onKeyBoxEntered() { inspectText(m_keyEdit->text()); }

bool KeyInspector::inspectText(const QString& text) {
  if (m_keyEdit->text() != text) m_keyEdit->setText(text);
  showInputError({});
  if (!m_table) {
    m_neighbourStatus->setText(tr("Select a table in the workspace tree."));
    return true;  // kept for when a table is chosen
  }
  if (text.trimmed().isEmpty()) {
    loadFirstRow();
    return true;
  }
  Result<Bytes> key = parseRowKeyInput(text, keyInputKind(), m_schema);
  if (!key) {
    // What is shown stays as it was: the box's text is not a key.
    showInputError(tr("✗ Key not read: %1").arg(qs(key.status().message())));
    return false;
  }
  m_key = std::move(key).value();
  showKey();
  return true;
}

void KeyInspector::inspectKey(const Bytes& key) {
  showInputError({});
  m_key = key;
  setKeyBoxText(key);
  showKey();
}

void KeyInspector::setKeyBoxText(const Bytes& key) {
  std::optional<QString> text = formatRowKeyInput(key, keyInputKind(), m_schema);
  if (!text) {
    // Only components can fail (the key does not decode): escaped text always works.
    const QSignalBlocker blocker(m_kind);
    setKeyInputKind(RowKeyInputKind::kEscaped);
    m_keyEdit->setPlaceholderText(rowKeyPlaceholder(RowKeyInputKind::kEscaped));
    text = formatRowKeyInput(key, RowKeyInputKind::kEscaped);
  }
  m_keyEdit->setText(text.value_or(QString()));
}

void KeyInspector::showKey() {
  showBytes();
  if (m_key) {
    m_componentModel->setKey(m_schema, *m_key);
  } else {
    m_componentModel->setKey(std::nullopt, {});
  }
  m_componentView->resizeColumnsToContents();
  showEditHint();
  if (m_key) {
    loadNeighbours();
  } else {
    m_neighbourModel->clear();
  }
}

void KeyInspector::showBytes() {
  if (!m_key) {
    m_hexModel->setInspectedKey({}, {}, std::nullopt, {});
    m_legend->clear();
    m_decodeStatus->clear();
    return;
  }
  const Bytes& key = *m_key;
  DecodedKey decoded;
  QStringList names;
  if (m_schema) {
    decoded = decodeKey(*m_schema, key);
    for (const KeyComponent& c : m_schema->components()) names << qs(c.name);
  }
  std::optional<size_t> errorOffset;
  if (decoded.error) errorOffset = decoded.error->offset;
  m_hexModel->setInspectedKey(key, decoded.spans, errorOffset, names);
  showLegend(errorOffset);

  std::optional<QColor> color;
  if (!m_schema) {
    m_decodeStatus->setText(tr("%n byte(s); no key schema to decode them by.", nullptr,
                               static_cast<int>(key.size())));
  } else if (decoded.error) {
    QString text = tr("✗ Does not decode: %1.").arg(qs(decoded.error->toString(*m_schema)));
    if (decoded.error->offset < key.size()) {
      text += tr(" Bytes %1 to %2 are not decoded.").arg(decoded.error->offset).arg(key.size() - 1);
    } else {
      text += tr(" The key ends before its last component (a prefix of a full key).");
    }
    m_decodeStatus->setText(text);
    color = badTextColor(m_dark);
    const QModelIndex at = m_hexModel->hexIndex(decoded.error->offset);
    if (at.isValid()) m_hexView->scrollTo(at);
  } else {
    m_decodeStatus->setText(tr("✓ Decodes: %1 components from %n byte(s).", nullptr,
                               static_cast<int>(key.size()))
                                .arg(decoded.values.size()));
    color = goodTextColor(m_dark);
  }
  setTextColor(m_decodeStatus, color);
}

void KeyInspector::showLegend(const std::optional<size_t>& errorOffset) {
  if (!m_schema) {
    m_legend->setText(tr("No components: the table has no key schema."));
    return;
  }
  const QString text = htmlColor(palette().color(QPalette::Text));
  QStringList chips;
  for (size_t i = 0; i < m_schema->size(); ++i) {
    chips << QStringLiteral("<span style=\"background-color:%1; color:%2\">&nbsp;%3&nbsp;</span>")
                 .arg(htmlColor(componentBackground(i, m_dark)), text,
                      qs((*m_schema)[i].name).toHtmlEscaped());
  }
  if (errorOffset) {
    chips << QStringLiteral("<span style=\"background-color:%1; color:%2\">&nbsp;%3&nbsp;</span>")
                 .arg(htmlColor(errorBackground(m_dark)), htmlColor(errorForeground(m_dark)),
                      tr("decoding stopped"));
    if (m_key && *errorOffset + 1 < m_key->size())
      chips << tr("<span style=\"color:%1\">▨ hatched: undecoded tail</span>")
                   .arg(htmlColor(badTextColor(m_dark)));
  }
  m_legend->setText(tr("Components: %1").arg(chips.join(QLatin1Char(' '))));
}

void KeyInspector::showChecks() {
  QList<SchemaCheckLine> lines;
  if (m_table && m_schema) {
    lines = schemaCheckLines(*m_schema);
  } else if (m_table) {
    lines.push_back(missingSchemaLine(qs(m_table->name), qs(m_table->keySchema), m_schemaError));
  }
  QStringList html;
  for (const SchemaCheckLine& line : lines) {
    QString mark;
    QColor color = palette().color(QPalette::WindowText);
    switch (line.kind) {
      case SchemaCheckLine::Kind::kGood:
        mark = QStringLiteral("✓");
        color = goodTextColor(m_dark);
        break;
      case SchemaCheckLine::Kind::kWarning:
        mark = QStringLiteral("⚠");
        color = badTextColor(m_dark);
        break;
      case SchemaCheckLine::Kind::kInfo:
        mark = QStringLiteral("ℹ");
        break;
    }
    html << QStringLiteral("<p style=\"margin-bottom:6px\"><span style=\"color:%1\">%2</span> %3</p>")
                .arg(htmlColor(color), mark, line.text.toHtmlEscaped());
  }
  if (m_schema) {
    html.prepend(tr("<p>Schema: <code>%1</code></p>").arg(qs(m_schema->toString()).toHtmlEscaped()));
  }
  m_checks->setText(html.join(QString()));
}

void KeyInspector::loadNeighbours() {
  if (m_ws == nullptr || !m_table || !m_key) return;
  setLoading(true);
  m_neighbourStatus->setText(tr("Reading the rows around the key…"));
  setTextColor(m_neighbourStatus, std::nullopt);
  const Workspace* ws = m_ws;
  m_runner->submit(
      m_channel, this,
      [ws, table = m_table->name, key = *m_key](JobControl& control) {
        return readKeyNeighbours(*ws, table, key, kNeighboursPerSide, control.cancelToken());
      },
      [this](Result<KeyNeighbours> result) {
        setLoading(false);
        if (!result) {
          m_neighbourModel->clear();
          m_neighbourStatus->setText(
              tr("✗ The neighbours could not be read: %1").arg(qs(result.status().message())));
          setTextColor(m_neighbourStatus, badTextColor(m_dark));
          return;
        }
        const KeyNeighbours& n = result.value();
        m_neighbourModel->setNeighbours(n);
        m_neighbourView->resizeColumnsToContents();
        // Long keys are elided (their tooltip has them whole): the components stay in view.
        for (int column = 0; column < m_neighbourModel->columnCount(); ++column) {
          if (m_neighbourView->columnWidth(column) > kMaxNeighbourColumnWidth)
            m_neighbourView->setColumnWidth(column, kMaxNeighbourColumnWidth);
        }
        QString text = n.present ? tr("The key is a row of the table.")
                                 : tr("No row has this key; it would sort where shown.");
        text += QLatin1Char(' ');
        if (n.before.empty()) {
          text += tr("Nothing sorts before it: it is at the table's start. ");
        } else {
          text += n.atStart ? tr("%n row(s) before it (from the table's first row)", nullptr,
                                 static_cast<int>(n.before.size()))
                            : tr("%n row(s) before it", nullptr, static_cast<int>(n.before.size()));
          text += QStringLiteral(", ");
        }
        if (n.after.empty()) {
          text += n.before.empty() ? tr(" Nothing sorts after it either.")
                                   : tr("nothing after it: it is at the table's end.");
        } else {
          text += n.atEnd ? tr("%n row(s) after it (to the table's last row).", nullptr,
                               static_cast<int>(n.after.size()))
                          : tr("%n row(s) after it.", nullptr, static_cast<int>(n.after.size()));
        }
        m_neighbourStatus->setText(text + tr(" Click a row to inspect it."));
        setTextColor(m_neighbourStatus, std::nullopt);
      });
}

void KeyInspector::loadFirstRow() {
  if (m_ws == nullptr || !m_table) return;
  setLoading(true);
  m_neighbourStatus->setText(tr("Reading the table's first row…"));
  setTextColor(m_neighbourStatus, std::nullopt);
  const Workspace* ws = m_ws;
  m_runner->submit(
      m_channel, this,
      [ws, table = m_table->name](JobControl& control) {
        return readFirstRowKey(*ws, table, control.cancelToken());
      },
      [this](Result<std::optional<Bytes>> result) {
        setLoading(false);
        if (!result) {
          m_neighbourStatus->setText(
              tr("✗ The first row could not be read: %1").arg(qs(result.status().message())));
          setTextColor(m_neighbourStatus, badTextColor(m_dark));
          return;
        }
        if (!result.value()) {
          m_key.reset();
          showKey();
          m_neighbourStatus->setText(
              tr("The table is empty: type a key to see how it decodes."));
          return;
        }
        inspectKey(*result.value());
      });
}

void KeyInspector::setLoading(bool loading) {
  if (loading == m_loading) return;
  m_loading = loading;
  emit loadingChanged(loading);
}

void KeyInspector::showInputError(const QString& text) {
  m_inputError->setText(text);
  m_inputError->setVisible(!text.isEmpty());
  setTextColor(m_inputError, badTextColor(m_dark));
}

void KeyInspector::onNeighbourClicked(const QModelIndex& index) {
  if (!index.isValid() || index.row() == m_neighbourModel->keyRow()) return;
  const std::optional<Bytes> key = m_neighbourModel->rowKey(index.row());
  if (key) inspectKey(*key);
}

void KeyInspector::onComponentEdited(const QByteArray& key) {
  // The component model shows the new key already; the rest follows.
  showInputError({});
  m_key = key.toStdString();
  setKeyBoxText(*m_key);
  showBytes();
  showEditHint();
  loadNeighbours();
}

void KeyInspector::showEditHint() {
  m_editError->setText(m_componentModel->isEditable()
                           ? tr("Double-click a value to change it: the key is re-encoded.")
                           : QString());
  setTextColor(m_editError, std::nullopt);
}

void KeyInspector::onEditFailed(const QString& message) {
  m_editError->setText(tr("✗ Not changed: %1").arg(message));
  setTextColor(m_editError, badTextColor(m_dark));
}

QString KeyInspector::inputErrorText() const { return m_inputError->text(); }
QString KeyInspector::decodeErrorText() const {
  return m_decodeStatus->text().startsWith(QStringLiteral("✗")) ? m_decodeStatus->text() : QString();
}
QString KeyInspector::editErrorText() const {
  return m_editError->text().startsWith(QStringLiteral("✗")) ? m_editError->text() : QString();
}
QString KeyInspector::neighbourStatusText() const { return m_neighbourStatus->text(); }
QString KeyInspector::checksText() const {
  return QTextDocumentFragment::fromHtml(m_checks->text()).toPlainText();
}
QString KeyInspector::legendText() const {
  return QTextDocumentFragment::fromHtml(m_legend->text()).toPlainText();
}

void KeyInspector::applyColors() {
  m_dark = isDarkPalette(palette());
  m_hexModel->setDark(m_dark);
  m_componentModel->setDark(m_dark);
}

void KeyInspector::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::PaletteChange && m_hexModel != nullptr) {
    applyColors();
    showChecks();
    showBytes();
  }
}

}  // namespace keyscope
