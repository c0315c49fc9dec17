// KeyComponentModel: the components of the inspected key, one row per
// component of the table's key schema:
//
//   COLUMN     SHOWS
//   Component  its name, with the colour its bytes have in the hex dump
//   Type       as written in the schema: "i64", "salt(8, ts)"
//   Value      the decoded value as JSON; editable when the key decodes
//   Bytes      its byte span and the bytes in hex
//
// A component after the point where decoding stopped shows the error (its
// row) or "not decoded" (those after it).
//
// Editing a value re-encodes the key: the edited value with every other
// decoded value (derived ones, such as a salt, recomputed). The model then
// shows the new key and emits keyEdited; an invalid value changes nothing
// and emits editFailed with what is wrong and in which component.
//
// Holds plain values; encodeKey/decodeKey are pure core functions taking
// microseconds on a key, so they run here. GUI thread only.
#pragma once

#include <QAbstractTableModel>
#include <QByteArray>
#include <QString>

#include <optional>

#include "keyscope/bytes.h"
#include "keyscope/key_codec.h"
#include "keyscope/key_schema.h"
#include "keyscope/status.h"

namespace keyscope {

class KeyComponentModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { kColName, kColType, kColValue, kColBytes, kColCount };

  explicit KeyComponentModel(QObject* parent = nullptr);

  // Decodes `key` by `schema` (no schema: no rows) and shows it.
  void setKey(const std::optional<KeySchema>& schema, Bytes key);
  void setDark(bool dark);

  const Bytes& key() const { return m_key; }
  const DecodedKey& decoded() const { return m_decoded; }
  // Values can be edited: there is a schema and the key decodes completely.
  bool isEditable() const;

  // The key with component `row`'s value read from `text`: JSON as in a
  // tuple (key_json.h), or for string components also the bare text. The
  // error names the component and says why.
  Result<Bytes> keyWithValue(int row, const QString& text) const;
  // The reason the last edit was refused; empty after a good one or a new key.
  QString editError() const { return m_editError; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

 signals:
  // The key after a good edit (the model shows it already).
  void keyEdited(const QByteArray& key);
  // An edit was refused; nothing changed.
  void editFailed(const QString& message);

 private:
  enum class RowState { kDecoded, kFailed, kNotDecoded };
  RowState rowState(int row) const;
  // A cell of this model (checkIndex would warn on the invalid ones views ask about).
  bool isValidIndex(const QModelIndex& index) const {
    return index.isValid() && index.model() == this && index.row() < rowCount() &&
           index.column() < columnCount();
  }

  std::optional<KeySchema> m_schema;
  Bytes m_key;
  DecodedKey m_decoded;
  QString m_editError;
  bool m_dark = false;
};

}  // namespace keyscope
