// KeyBytesView: the bytes half of the key schema lab. Given a schema, the
// user types a tuple as JSON (encode: tuple → key bytes) or a key in hex
// (decode: key bytes → tuple); editing one updates the other. The key is
// shown as a hex + ASCII dump with each component's bytes in its own colour,
// the decoded components in a table, and, when the bytes do not fit the
// schema, the decode error (offset and reason) in red at that byte.
//
// Thread rules: GUI thread only. encodeKey/decodeKey/JSON are pure core
// functions that take microseconds on keys this size, so they run
// synchronously on each edit; nothing here touches a database.
#pragma once

#include <QString>
#include <QWidget>

#include <optional>

#include "keyscope/bytes.h"
#include "keyscope/key_schema.h"

class QAbstractItemModel;
class QLabel;
class QLineEdit;
class QTableView;
class QTableWidget;

namespace keyscope {

class KeyHexModel;

class KeyBytesView : public QWidget {
  Q_OBJECT

 public:
  explicit KeyBytesView(QWidget* parent = nullptr);

  // The schema keys are encoded and decoded with; nullopt when there is none
  // (the inputs are then disabled). Re-runs the direction last edited: the
  // tuple is re-encoded, or the hex re-decoded, under the new schema.
  void setSchema(const std::optional<KeySchema>& schema);

  // Set an input as if typed (and update the other one).
  void setTupleJson(const QString& json);
  void setKeyHex(const QString& hex);

  QString tupleJson() const;
  QString keyHex() const;
  const Bytes& key() const { return m_key; }

  // What the view shows, for tests and for other views.
  QString tupleErrorText() const;   // why the tuple does not encode; empty when it does
  QString hexErrorText() const;     // why the hex does not parse; empty when it does
  QString decodeErrorText() const;  // DecodeError::toString; empty when the key decodes
  std::optional<size_t> decodeErrorOffset() const { return m_decodeErrorOffset; }
  KeyHexModel* hexModel() const { return m_hexModel; }
  QAbstractItemModel* decodedModel() const;  // component, type, value (JSON), bytes

 private:
  enum class Direction { kEncode, kDecode };

  void encodeFromTuple();
  void decodeFromHex();
  // Input errors clear the key: the dump never shows bytes that are not
  // what the fields say.
  void inputFailed(QString* error, const QString& text);
  void showKey();  // m_key → hex dump, decoded table, status line
  void applyColors();
  void changeEvent(QEvent* event) override;

  QLineEdit* m_tupleEdit = nullptr;
  QLineEdit* m_hexEdit = nullptr;
  QLabel* m_status = nullptr;  // one line for every outcome, so the layout never jumps
  QTableView* m_hexView = nullptr;
  KeyHexModel* m_hexModel = nullptr;
  QTableWidget* m_decoded = nullptr;

  std::optional<KeySchema> m_schema;
  Direction m_lastEdited = Direction::kEncode;
  Bytes m_key;
  bool m_haveKey = false;  // m_key holds a key (possibly empty) worth showing
  std::optional<size_t> m_decodeErrorOffset;
  QString m_decodeError;
  QString m_tupleError;
  QString m_hexError;
};

}  // namespace keyscope
