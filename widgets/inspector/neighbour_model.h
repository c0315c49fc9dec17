// NeighbourModel: the rows around the inspected key in sort order (a
// KeyNeighbours value), one table row each, the key itself in the middle:
//
//   COLUMN            SHOWS
//   Position          −2, −1, "key: present" or "key: would sort here", +1, +2;
//                     "(first row)" / "(last row)" at the table's ends
//   Row key           the key as Bytes.toStringBinary text
//   one per schema    each component's decoded value as JSON ("✗" where a
//   component         key stops decoding)
//   First difference  the first byte where the row differs from the key, and
//                     the component that byte belongs to
//
// Holds plain values; GUI thread only.
#pragma once

#include <QAbstractTableModel>

#include <optional>
#include <vector>

#include "inspector/key_neighbours.h"
#include "keyscope/key_codec.h"
#include "keyscope/key_schema.h"

namespace keyscope {

class NeighbourModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  static constexpr int kColPosition = 0;
  static constexpr int kColRowKey = 1;
  static constexpr int kFirstComponentColumn = 2;

  enum Role {
    RowKeyRole = Qt::UserRole + 1,  // QByteArray: the row's key
    IsKeyRole,                      // bool: the inspected key's own row
    DifferenceRole,                 // int: first differing byte, -1 if none
  };

  explicit NeighbourModel(QObject* parent = nullptr);

  // The schema decoding the rows (its components become columns).
  void setSchema(const std::optional<KeySchema>& schema);
  void setNeighbours(const KeyNeighbours& neighbours);
  void clear();

  int keyRow() const { return m_keyRow; }  // -1 when empty
  std::optional<Bytes> rowKey(int row) const;
  const KeyNeighbours& neighbours() const { return m_neighbours; }
  int differenceColumn() const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;

 private:
  struct Entry {
    Bytes key;
    int position = 0;  // 0: the inspected key; -n before it, +n after it
    DecodedKey decoded;
    std::optional<size_t> difference;  // from the inspected key
  };

  int componentCount() const;
  // A cell of this model (checkIndex would warn on the invalid ones views ask about).
  bool isValidIndex(const QModelIndex& index) const {
    return index.isValid() && index.model() == this && index.row() < rowCount() &&
           index.column() < columnCount();
  }
  QString positionText(const Entry& entry, int row) const;
  QString differenceText(const Entry& entry) const;
  QString componentText(const Entry& entry, size_t component) const;

  std::optional<KeySchema> m_schema;
  KeyNeighbours m_neighbours;
  std::vector<Entry> m_entries;
  int m_keyRow = -1;
};

}  // namespace keyscope
