// InspectorHexModel: the key lab's hex dump (KeyHexModel) with the bytes
// after a decode error marked as the undecoded tail (a hatched red
// background and "not decoded" in the tooltip), so a key that does not fit
// its schema shows at a glance which bytes nothing accounts for.
//
// GUI thread only, like every QAbstractItemModel.
#pragma once

#include <QString>

#include <optional>

#include "key_lab/key_hex_model.h"

namespace keyscope {

class InspectorHexModel : public KeyHexModel {
  Q_OBJECT

 public:
  // Role: bool, the byte lies after the one where decoding stopped.
  static constexpr int UndecodedRole = ErrorRole + 1;

  explicit InspectorHexModel(QObject* parent = nullptr);

  // As KeyHexModel::setKey; remembers the error offset for the tail.
  void setInspectedKey(Bytes key, std::vector<std::pair<size_t, size_t>> spans,
                       std::optional<size_t> errorOffset, QStringList componentNames);
  void setDark(bool dark);

  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

 private:
  bool isUndecoded(const QModelIndex& index) const;

  std::optional<size_t> m_errorOffset;
  bool m_dark = false;
};

// The undecoded tail's brush, for the hex dump and the legend.
QBrush undecodedBrush(bool dark);

}  // namespace keyscope
