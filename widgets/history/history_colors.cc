// History colours (see history_colors.h).
#include "history/history_colors.h"

namespace keyscope {

QColor fateColor(VersionFate fate, bool dark) {
  switch (fate) {
    case VersionFate::kReturned:
      return dark ? QColor(0x5f, 0xd0, 0x7a) : QColor(0x1e, 0x8a, 0x3c);
    case VersionFate::kMasked:
      return dark ? QColor(0xb0, 0xb0, 0xb0) : QColor(0x70, 0x70, 0x70);
    case VersionFate::kBeyondVersions:
      return dark ? QColor(0xf0, 0xa8, 0x40) : QColor(0xc0, 0x6a, 0x00);
    case VersionFate::kExpired:
      return dark ? QColor(0xc8, 0x9a, 0xe8) : QColor(0x80, 0x40, 0xb0);
    case VersionFate::kOutsideRange:
    case VersionFate::kOverwritten:
      return dark ? QColor(0x70, 0xa8, 0xe8) : QColor(0x30, 0x60, 0xb0);
    case VersionFate::kMarker:
      return dark ? QColor(0xff, 0x70, 0x70) : QColor(0xc8, 0x1e, 0x1e);
  }
  return {};
}

QColor maskFill(bool dark) {
  return dark ? QColor(0xff, 0x70, 0x70, 60) : QColor(0xc8, 0x1e, 0x1e, 40);
}

}  // namespace keyscope
