// KeyComponentModel (see key_component_model.h). GUI thread only.
#include "inspector/key_component_model.h"

#include <QBrush>
#include <QFont>
#include <QFontDatabase>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

#include <string>

#include "key_lab/lab_colors.h"
#include "keyscope/key_json.h"

namespace keyscope {

namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

// Components whose JSON value is a string: a bare word typed for them is
// taken as that string, so "alice" need not be typed as "\"alice\"".
bool takesString(const KeyComponent& c) {
  switch (c.type) {
    case ComponentType::kUtf8:
    case ComponentType::kBytes:
    case ComponentType::kFixedBytes:
    case ComponentType::kMd5:
    case ComponentType::kReverseDomain:
      return true;
    default:
      return false;
  }
}

// `text` as one JSON value, or nullopt when it is not exactly one.
std::optional<QString> oneJsonValue(const QString& text) {
  QJsonParseError error;
  const QJsonDocument doc = QJsonDocument::fromJson(
      QStringLiteral("[%1]").arg(text).toUtf8(), &error);
  if (error.error != QJsonParseError::NoError || !doc.isArray() || doc.array().size() != 1)
    return std::nullopt;
  return text.trimmed();
}

QString asJsonString(const QString& text) {
  const QByteArray array = QJsonDocument(QJsonArray{text}).toJson(QJsonDocument::Compact);
  return QString::fromUtf8(array.mid(1, array.size() - 2));  // strip [ ]
}

}  // namespace

KeyComponentModel::KeyComponentModel(QObject* parent) : QAbstractTableModel(parent) {}

void KeyComponentModel::setKey(const std::optional<KeySchema>& schema, Bytes key) {
  const int oldRows = rowCount();
  const int newRows = schema ? static_cast<int>(schema->size()) : 0;
  const bool sameShape =
      oldRows == newRows && m_schema.has_value() == schema.has_value() &&
      (!schema || m_schema->toString() == schema->toString());
  // Same schema: the rows stay, their contents change (an edit must not
  // reset the view under the editor that made it).
  if (!sameShape) beginResetModel();
  m_schema = schema;
  m_key = std::move(key);
  m_decoded = m_schema ? decodeKey(*m_schema, m_key) : DecodedKey{};
  m_editError.clear();
  if (!sameShape) {
    endResetModel();
  } else if (newRows > 0) {
    emit dataChanged(index(0, 0), index(newRows - 1, kColCount - 1));
  }
}

void KeyComponentModel::setDark(bool dark) {
  if (dark == m_dark) return;
  m_dark = dark;
  if (rowCount() > 0) emit dataChanged(index(0, 0), index(rowCount() - 1, kColCount - 1));
}

bool KeyComponentModel::isEditable() const { return m_schema.has_value() && m_decoded.ok(); }

KeyComponentModel::RowState KeyComponentModel::rowState(int row) const {
  const size_t i = static_cast<size_t>(row);
  if (i < m_decoded.values.size()) return RowState::kDecoded;
  if (m_decoded.error && m_decoded.error->component == i) return RowState::kFailed;
  return RowState::kNotDecoded;
}

Result<Bytes> KeyComponentModel::keyWithValue(int row, const QString& text) const {
  if (!m_schema || row < 0 || row >= rowCount())
    return Status::invalidArgument("no such component");
  const KeySchema& schema = *m_schema;
  const KeyComponent& edited = schema[static_cast<size_t>(row)];
  const QString where = QStringLiteral("'%1' (%2)").arg(qs(edited.name), qs(schema.typeText(static_cast<size_t>(row))));
  if (!isEditable()) {
    return Status::invalidArgument(
        tr("%1: the key does not decode completely, so its components cannot be edited; "
           "change the key in the key box")
            .arg(where)
            .toStdString());
  }
  std::optional<QString> value = oneJsonValue(text);
  if (!value && takesString(edited)) value = asJsonString(text);
  if (!value) {
    return Status::invalidArgument(
        tr("%1: %2 is not one value (numbers as 42, strings in quotes, true or false)")
            .arg(where, text.isEmpty() ? tr("an empty text") : QStringLiteral("'%1'").arg(text))
            .toStdString());
  }
  // The whole tuple as JSON with the edited element in place; derived
  // components (a salt over the edited field) are left null to be recomputed.
  QStringList elements;
  for (size_t i = 0; i < schema.size(); ++i) {
    if (static_cast<int>(i) == row) {
      elements << *value;
    } else if (schema[i].isDerived()) {
      elements << QStringLiteral("null");
    } else {
      elements << qs(valueToJson(schema[i], m_decoded.values[i]));
    }
  }
  const std::string json = QStringLiteral("[%1]").arg(elements.join(QLatin1Char(','))).toStdString();
  Result<KeyTuple> tuple = tupleFromJson(schema, json);
  if (!tuple) return tuple.status();
  return encodeKey(schema, tuple.value());
}

int KeyComponentModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() || !m_schema) return 0;
  return static_cast<int>(m_schema->size());
}

int KeyComponentModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColCount;
}

QVariant KeyComponentModel::data(const QModelIndex& index, int role) const {
  if (!isValidIndex(index))
    return {};
  const size_t i = static_cast<size_t>(index.row());
  const KeyComponent& c = (*m_schema)[i];
  const RowState state = rowState(index.row());
  switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
      switch (index.column()) {
        case kColName:
          return qs(c.name);
        case kColType:
          return qs(m_schema->typeText(i));
        case kColValue:
          if (state == RowState::kDecoded) return qs(valueToJson(c, m_decoded.values[i]));
          if (role == Qt::EditRole) return QString();
          if (state == RowState::kFailed) return tr("✗ %1").arg(qs(m_decoded.error->reason));
          return tr("— not decoded");
        case kColBytes: {
          if (state == RowState::kFailed)
            return tr("from byte %1: undecoded").arg(m_decoded.error->offset);
          if (state != RowState::kDecoded || i >= m_decoded.spans.size()) return QString();
          const auto [begin, end] = m_decoded.spans[i];
          if (begin > end || end > m_key.size()) return QString();
          return QStringLiteral("[%1, %2)  %3")
              .arg(begin)
              .arg(end)
              .arg(qs(toHex(BytesView(m_key).substr(begin, end - begin))));
        }
        default:
          return {};
      }
    case Qt::DecorationRole:
      if (index.column() == kColName) return componentBackground(i, m_dark);
      return {};
    case Qt::ForegroundRole:
      if (state == RowState::kFailed) return QBrush(badTextColor(m_dark));
      return {};
    case Qt::FontRole:
      if (index.column() == kColValue || index.column() == kColBytes)
        return QFontDatabase::systemFont(QFontDatabase::FixedFont);
      return {};
    case Qt::ToolTipRole:
      if (state == RowState::kFailed) return qs(m_decoded.error->toString(*m_schema));
      if (index.column() == kColValue && state == RowState::kDecoded) {
        return isEditable() ? tr("Double-click to edit: the key is re-encoded with the new value")
                            : tr("The key does not decode completely: edit it in the key box");
      }
      return {};
    default:
      return {};
  }
}

QVariant KeyComponentModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
    return QAbstractTableModel::headerData(section, orientation, role);
  switch (section) {
    case kColName:
      return tr("Component");
    case kColType:
      return tr("Type");
    case kColValue:
      return tr("Value (JSON)");
    case kColBytes:
      return tr("Bytes");
    default:
      return {};
  }
}

Qt::ItemFlags KeyComponentModel::flags(const QModelIndex& index) const {
  if (!isValidIndex(index))
    return Qt::NoItemFlags;
  Qt::ItemFlags flags = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
  if (index.column() == kColValue && isEditable()) flags |= Qt::ItemIsEditable;
  return flags;
}

bool KeyComponentModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  if (role != Qt::EditRole || index.column() != kColValue ||
      !isValidIndex(index))
    return false;
  const QString text = value.toString();
  if (text == data(index, Qt::EditRole).toString()) return false;  // unchanged: nothing to do
  Result<Bytes> key = keyWithValue(index.row(), text);
  if (!key) {
    m_editError = qs(key.status().message());
    emit editFailed(m_editError);
    return false;
  }
  setKey(m_schema, key.value());
  emit keyEdited(QByteArray::fromStdString(m_key));
  return true;
}

}  // namespace keyscope
