// Colours of the cell history: one per fate of a version (returned, masked,
// beyond VERSIONS, expired, outside the range) and one for delete markers,
// the same in the plot and the table. Each reads on the window and base
// colours of light and of dark palettes.
//
// Pure functions; GUI thread (QPalette is not shared across threads).
#pragma once

#include <QColor>

#include "history/history_layout.h"
#include "key_lab/lab_colors.h"

namespace keyscope {

QColor fateColor(VersionFate fate, bool dark);
// The translucent fill of a marker's mask span.
QColor maskFill(bool dark);

}  // namespace keyscope
