// KeyHexModel: a row key as a classic hex dump, 16 bytes per row, for a
// QTableView. Columns 0..15 are the bytes in hex, column 16 is an empty gap,
// columns 17..32 the same bytes as ASCII ('.' for unprintable ones).
//
// Each byte cell carries the index of the decoded component whose span holds
// it (ComponentRole) and that component's background colour; the byte where
// decoding stopped is marked (ErrorRole) and drawn in red. When decoding
// stopped at the very end of the key (it needed more bytes), one extra cell
// after the last byte stands for the missing bytes and carries the error.
//
// Holds plain values (a copy of the key and its spans); GUI thread only, like
// every QAbstractItemModel.
#pragma once

#include <QAbstractTableModel>
#include <QStringList>

#include <optional>
#include <utility>
#include <vector>

#include "keyscope/bytes.h"

namespace keyscope {

class KeyHexModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  static constexpr int kBytesPerRow = 16;
  static constexpr int kGapColumn = kBytesPerRow;           // 16
  static constexpr int kFirstAsciiColumn = kBytesPerRow + 1;  // 17
  static constexpr int kColumnCount = 2 * kBytesPerRow + 1;   // 33

  enum Role {
    ByteOffsetRole = Qt::UserRole + 1,  // int: offset of the byte in the key
    ComponentRole,                      // int: component whose span holds the byte, -1 if none
    ErrorRole,                          // bool: decoding stopped at this byte
  };

  explicit KeyHexModel(QObject* parent = nullptr);

  // Replaces the key. `spans[i]` is component i's [begin, end) byte span, as in
  // DecodedKey::spans; `errorOffset` is where decoding stopped, if it did.
  // `componentNames` name the components in tooltips.
  void setKey(Bytes key, std::vector<std::pair<size_t, size_t>> spans,
              std::optional<size_t> errorOffset, QStringList componentNames);
  // Chooses colours for a dark or a light palette.
  void setDarkPalette(bool dark);

  const Bytes& key() const { return m_key; }

  // The cell showing byte `offset` in hex (or the end marker when offset ==
  // key size and there is one); invalid when there is no such cell.
  QModelIndex hexIndex(size_t offset) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;

 private:
  // Byte offset shown by a cell, or nullopt for the gap and cells past the end.
  std::optional<size_t> offsetAt(const QModelIndex& index) const;
  size_t cellCount() const;  // bytes, plus the end marker when there is one
  int componentAt(size_t offset) const;
  bool hasEndMarker() const;

  Bytes m_key;
  std::vector<std::pair<size_t, size_t>> m_spans;
  std::optional<size_t> m_errorOffset;
  QStringList m_componentNames;
  bool m_dark = false;
};

}  // namespace keyscope
