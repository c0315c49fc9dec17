// KeyBytesView (see key_bytes_view.h). GUI thread only; the core calls made
// here are pure functions that take microseconds, so they run synchronously.
#include "key_lab/key_bytes_view.h"

#include <QEvent>
#include <QFontDatabase>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cctype>

#include "key_lab/hex_view_setup.h"
#include "key_lab/key_hex_model.h"
#include "key_lab/lab_colors.h"
#include "keyscope/key_codec.h"
#include "keyscope/key_json.h"

namespace keyscope {

namespace {

enum DecodedColumn { kColName, kColType, kColValue, kColSpan, kColBytes, kColCount };

QString qs(const std::string& s) { return QString::fromStdString(s); }

QTableWidgetItem* readOnlyItem(const QString& text) {
  auto* item = new QTableWidgetItem(text);
  item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
  return item;
}

QString spanText(size_t begin, size_t end) { return QStringLiteral("[%1, %2)").arg(begin).arg(end); }

}  // namespace

KeyBytesView::KeyBytesView(QWidget* parent) : QWidget(parent) {
  const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);

  m_tupleEdit = new QLineEdit(this);
  m_tupleEdit->setObjectName(QStringLiteral("tupleEdit"));
  m_tupleEdit->setFont(fixed);
  m_tupleEdit->setPlaceholderText(tr(R"(a JSON array, one value per component: ["cpu.load", 1700000000000])"));
  m_tupleEdit->setClearButtonEnabled(true);

  m_hexEdit = new QLineEdit(this);
  m_hexEdit->setObjectName(QStringLiteral("hexEdit"));
  m_hexEdit->setFont(fixed);
  m_hexEdit->setPlaceholderText(tr("the row key in hex: 6370752e6c6f616400018000018bcfe56800"));
  m_hexEdit->setClearButtonEnabled(true);

  m_status = new QLabel(this);
  m_status->setObjectName(QStringLiteral("keyStatus"));
  m_status->setWordWrap(true);
  m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

  // The hex dump: fixed-width cells, so the view is as wide as 16 bytes.
  m_hexModel = new KeyHexModel(this);
  m_hexView = new QTableView(this);
  m_hexView->setObjectName(QStringLiteral("hexView"));
  m_hexView->setModel(m_hexModel);
  setUpHexView(m_hexView, fixed);

  m_decoded = new QTableWidget(0, kColCount, this);
  m_decoded->setObjectName(QStringLiteral("decodedTable"));
  m_decoded->setHorizontalHeaderLabels(
      {tr("Component"), tr("Type"), tr("Value (JSON)"), tr("Byte span"), tr("Bytes")});
  m_decoded->horizontalHeader()->setStretchLastSection(true);
  m_decoded->verticalHeader()->hide();
  m_decoded->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_decoded->setEditTriggers(QAbstractItemView::NoEditTriggers);

  // Layout: the two inputs with their errors, the decode status, then the
  // hex dump beside the decoded components.
  auto* inputs = new QGridLayout;
  auto* tupleCaption = new QLabel(tr("&Tuple (JSON):"), this);
  tupleCaption->setBuddy(m_tupleEdit);
  auto* hexCaption = new QLabel(tr("&Key (hex):"), this);
  hexCaption->setBuddy(m_hexEdit);
  inputs->addWidget(tupleCaption, 0, 0);
  inputs->addWidget(m_tupleEdit, 0, 1);
  inputs->addWidget(hexCaption, 1, 0);
  inputs->addWidget(m_hexEdit, 1, 1);
  inputs->addWidget(m_status, 2, 0, 1, 2);
  inputs->setColumnStretch(1, 1);

  auto* bytesBox = new QGroupBox(tr("Key bytes"), this);
  auto* bytesLayout = new QVBoxLayout(bytesBox);
  bytesLayout->addWidget(m_hexView);
  auto* decodedBox = new QGroupBox(tr("Decoded components"), this);
  auto* decodedLayout = new QVBoxLayout(decodedBox);
  decodedLayout->addWidget(m_decoded);

  auto* panes = new QHBoxLayout;
  panes->addWidget(bytesBox);
  panes->addWidget(decodedBox, 1);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(inputs);
  layout->addLayout(panes, 1);

  // textEdited fires only for the user's edits, so updating the other field
  // with setText() does not echo back.
  connect(m_tupleEdit, &QLineEdit::textEdited, this, &KeyBytesView::encodeFromTuple);
  connect(m_hexEdit, &QLineEdit::textEdited, this, &KeyBytesView::decodeFromHex);

  applyColors();
  setSchema(std::nullopt);
}

void KeyBytesView::setSchema(const std::optional<KeySchema>& schema) {
  m_schema = schema;
  m_tupleEdit->setEnabled(m_schema.has_value());
  m_hexEdit->setEnabled(m_schema.has_value());
  if (!m_schema) {
    m_tupleError.clear();
    m_hexError.clear();
    showKey();
    return;
  }
  if (m_lastEdited == Direction::kEncode) {
    encodeFromTuple();
  } else {
    decodeFromHex();
  }
}

void KeyBytesView::setTupleJson(const QString& json) {
  m_tupleEdit->setText(json);
  encodeFromTuple();
}

void KeyBytesView::setKeyHex(const QString& hex) {
  m_hexEdit->setText(hex);
  decodeFromHex();
}

QString KeyBytesView::tupleJson() const { return m_tupleEdit->text(); }
QString KeyBytesView::keyHex() const { return m_hexEdit->text(); }
QString KeyBytesView::tupleErrorText() const { return m_tupleError; }
QString KeyBytesView::hexErrorText() const { return m_hexError; }
QString KeyBytesView::decodeErrorText() const { return m_decodeError; }
QAbstractItemModel* KeyBytesView::decodedModel() const { return m_decoded->model(); }

void KeyBytesView::encodeFromTuple() {
  m_lastEdited = Direction::kEncode;
  if (!m_schema) return;
  const QString text = m_tupleEdit->text().trimmed();
  m_tupleError.clear();
  m_hexError.clear();
  if (text.isEmpty()) {
    m_haveKey = false;
    m_hexEdit->clear();
    showKey();
    return;
  }
  Result<KeyTuple> tuple = tupleFromJson(*m_schema, text.toStdString());
  if (!tuple) {
    inputFailed(&m_tupleError, tr("Tuple not encoded: %1").arg(qs(tuple.status().message())));
    return;
  }
  Result<Bytes> key = encodeKey(*m_schema, *tuple);
  if (!key) {
    inputFailed(&m_tupleError, tr("Tuple not encoded: %1").arg(qs(key.status().message())));
    return;
  }
  m_key = std::move(key).value();
  m_haveKey = true;
  m_hexEdit->setText(qs(toHex(m_key)));
  showKey();
}

void KeyBytesView::decodeFromHex() {
  m_lastEdited = Direction::kDecode;
  if (!m_schema) return;
  const QString text = m_hexEdit->text();
  m_tupleError.clear();
  m_hexError.clear();
  if (text.trimmed().isEmpty()) {
    m_haveKey = false;
    m_tupleEdit->clear();
    showKey();
    return;
  }
  size_t errorAt = 0;
  const std::string utf8 = text.toStdString();
  std::optional<Bytes> bytes = fromHex(utf8, &errorAt);
  if (!bytes) {
    const bool oddCount = errorAt >= utf8.size() || std::isxdigit(static_cast<unsigned char>(utf8[errorAt]));
    inputFailed(&m_hexError, oddCount ? tr("Key not hex: an odd number of hex digits")
                                      : tr("Key not hex: '%1' at character %2 is not a hex digit")
                                            .arg(QString::fromUtf8(&utf8[errorAt], 1))
                                            .arg(errorAt + 1));
    return;
  }
  m_key = std::move(*bytes);
  m_haveKey = true;
  // Whatever decodes goes to the tuple field: on a decode error, the leading
  // components (a prefix tuple, which encodes to the key's decodable start).
  const DecodedKey decoded = decodeKey(*m_schema, m_key);
  m_tupleEdit->setText(qs(tupleToJson(*m_schema, decoded.values)));
  showKey();
}

void KeyBytesView::inputFailed(QString* error, const QString& text) {
  *error = text;
  m_haveKey = false;
  // The other field is this one's output: it must not keep a stale answer.
  (error == &m_tupleError ? m_hexEdit : m_tupleEdit)->clear();
  showKey();
}

void KeyBytesView::showKey() {
  m_decoded->setRowCount(0);
  m_decodeError.clear();
  m_decodeErrorOffset.reset();
  const bool dark = isDarkPalette(palette());
  QPalette pal = palette();
  if (!m_schema || !m_haveKey) {
    m_hexModel->setKey({}, {}, std::nullopt, {});
    const QString inputError = !m_tupleError.isEmpty() ? m_tupleError : m_hexError;
    if (!inputError.isEmpty()) {
      pal.setColor(QPalette::WindowText, badTextColor(dark));
      m_status->setText(tr("✗ %1").arg(inputError));
    } else {
      m_status->setText(m_schema ? tr("Type a tuple to encode, or a key in hex to decode.")
                                 : tr("No schema: fix or enter one above."));
    }
    m_status->setPalette(pal);
    return;
  }
  const DecodedKey decoded = decodeKey(*m_schema, m_key);
  QStringList names;
  for (const KeyComponent& c : m_schema->components()) names << qs(c.name);
  if (decoded.error) {
    m_decodeErrorOffset = decoded.error->offset;
    m_decodeError = qs(decoded.error->toString(*m_schema));
  }
  m_hexModel->setKey(m_key, decoded.spans, m_decodeErrorOffset, names);

  const size_t rows = decoded.values.size() + (decoded.error ? 1 : 0);
  m_decoded->setRowCount(static_cast<int>(std::min(rows, m_schema->size())));
  for (size_t i = 0; i < decoded.values.size() && i < m_schema->size(); ++i) {
    const KeyComponent& c = (*m_schema)[i];
    const int row = static_cast<int>(i);
    auto* name = readOnlyItem(qs(c.name));
    name->setData(Qt::DecorationRole, componentBackground(i, dark));
    m_decoded->setItem(row, kColName, name);
    m_decoded->setItem(row, kColType, readOnlyItem(qs(c.typeText())));
    m_decoded->setItem(row, kColValue, readOnlyItem(qs(valueToJson(c, decoded.values[i]))));
    if (i < decoded.spans.size()) {
      const auto [begin, end] = decoded.spans[i];
      m_decoded->setItem(row, kColSpan, readOnlyItem(spanText(begin, end)));
      if (begin <= end && end <= m_key.size()) {
        auto* bytes = readOnlyItem(qs(toHex(BytesView(m_key).substr(begin, end - begin))));
        bytes->setToolTip(bytes->text());
        m_decoded->setItem(row, kColBytes, bytes);
      }
    }
  }
  // The component decoding stopped in, when it is not among the decoded ones.
  if (decoded.error && decoded.error->component >= decoded.values.size() &&
      decoded.error->component < m_schema->size()) {
    const KeyComponent& c = (*m_schema)[decoded.error->component];
    const int row = static_cast<int>(decoded.values.size());
    const QBrush red(badTextColor(dark));
    const QString items[kColCount] = {qs(c.name), qs(c.typeText()), tr("✗ %1").arg(qs(decoded.error->reason)),
                                      tr("from %1").arg(decoded.error->offset), QString()};
    for (int column = 0; column < kColCount; ++column) {
      auto* item = readOnlyItem(items[column]);
      item->setForeground(red);
      m_decoded->setItem(row, column, item);
    }
  }
  m_decoded->resizeColumnsToContents();

  if (decoded.error) {
    QString text = tr("✗ Does not decode: %1").arg(m_decodeError);
    if (m_lastEdited == Direction::kEncode && decoded.error->offset >= m_key.size()) {
      text = tr("A scan prefix: the tuple leaves out trailing components, so decoding stops at "
                "the end of the key (%1)")
                 .arg(m_decodeError);
    }
    pal.setColor(QPalette::WindowText, badTextColor(dark));
    m_status->setText(text);
    const QModelIndex at = m_hexModel->hexIndex(decoded.error->offset);
    if (at.isValid()) m_hexView->scrollTo(at);
  } else {
    pal.setColor(QPalette::WindowText, goodTextColor(dark));
    m_status->setText(tr("✓ Decodes: %1 components from %2 bytes")
                                .arg(decoded.values.size())
                                .arg(m_key.size()));
  }
  m_status->setPalette(pal);
}

void KeyBytesView::applyColors() {
  const bool dark = isDarkPalette(palette());
  m_hexModel->setDarkPalette(dark);
}

void KeyBytesView::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::PaletteChange && m_hexModel != nullptr) {
    applyColors();
    showKey();
  }
}

}  // namespace keyscope
