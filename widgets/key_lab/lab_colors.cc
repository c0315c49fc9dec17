// Colours of the key lab (see lab_colors.h). GUI thread.
#include "key_lab/lab_colors.h"

#include <array>

namespace keyscope {

bool isDarkPalette(const QPalette& palette) {
  return palette.color(QPalette::Base).lightness() < 128;
}

QColor componentBackground(size_t index, bool dark) {
  // Hues far apart for neighbours (components next to each other must differ
  // most); red (0/360) is left to errors.
  static constexpr std::array<int, 8> kHues = {210, 40, 130, 280, 180, 60, 320, 95};
  const int hue = kHues[index % kHues.size()];
  // Light: pastel under the palette's dark text. Dark: deep tone under light text.
  return dark ? QColor::fromHsl(hue, 120, 72) : QColor::fromHsl(hue, 180, 212);
}

QColor errorBackground(bool dark) { return dark ? QColor(0xc6, 0x28, 0x28) : QColor(0xe5, 0x39, 0x35); }

QColor errorForeground(bool /*dark*/) { return QColor(Qt::white); }

QColor badTextColor(bool dark) { return dark ? QColor(0xff, 0x7b, 0x72) : QColor(0xb0, 0x00, 0x20); }

QColor goodTextColor(bool dark) { return dark ? QColor(0x6c, 0xd9, 0x8a) : QColor(0x1b, 0x7a, 0x3a); }

}  // namespace keyscope
