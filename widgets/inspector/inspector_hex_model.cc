// InspectorHexModel (see inspector_hex_model.h). GUI thread only.
#include "inspector/inspector_hex_model.h"

#include <QBrush>

#include "key_lab/lab_colors.h"

namespace keyscope {

QBrush undecodedBrush(bool dark) { return QBrush(errorBackground(dark), Qt::BDiagPattern); }

InspectorHexModel::InspectorHexModel(QObject* parent) : KeyHexModel(parent) {}

void InspectorHexModel::setInspectedKey(Bytes key, std::vector<std::pair<size_t, size_t>> spans,
                                        std::optional<size_t> errorOffset,
                                        QStringList componentNames) {
  m_errorOffset = errorOffset;  // before the reset, so views read the new tail
  setKey(std::move(key), std::move(spans), errorOffset, std::move(componentNames));
}

void InspectorHexModel::setDark(bool dark) {
  m_dark = dark;
  setDarkPalette(dark);
}

bool InspectorHexModel::isUndecoded(const QModelIndex& index) const {
  if (!m_errorOffset) return false;
  const QVariant offset = KeyHexModel::data(index, ByteOffsetRole);
  if (!offset.isValid()) return false;
  const size_t at = static_cast<size_t>(offset.toInt());
  return at > *m_errorOffset && at < key().size();
}

QVariant InspectorHexModel::data(const QModelIndex& index, int role) const {
  if (role == UndecodedRole) return isUndecoded(index);
  if ((role == Qt::BackgroundRole || role == Qt::ToolTipRole) && isUndecoded(index)) {
    if (role == Qt::BackgroundRole) return undecodedBrush(m_dark);
    return KeyHexModel::data(index, role).toString() + tr(", not decoded (after the error)");
  }
  return KeyHexModel::data(index, role);
}

}  // namespace keyscope
