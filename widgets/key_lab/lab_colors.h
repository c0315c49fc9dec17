// Colours of the key lab: one background per key component (so a component's
// bytes, its row in the decoded table and its row in the schema table match),
// and the red/green of verdicts and errors.
//
// Every colour is chosen for the palette it is drawn on: pastel backgrounds
// under dark text on light palettes, deep backgrounds under light text on
// dark ones. Pure functions; GUI thread (QPalette is not shared across threads).
#pragma once

#include <QColor>
#include <QPalette>

#include <cstddef>

namespace keyscope {

// True when the palette draws light text on a dark base.
bool isDarkPalette(const QPalette& palette);

// Background of component `index`'s bytes. Eight hues, none of them red (red
// means error), repeating for wider schemas.
QColor componentBackground(size_t index, bool dark);

// Background and text of the byte where decoding stopped.
QColor errorBackground(bool dark);
QColor errorForeground(bool dark);

// Text colours for an error / a good verdict drawn on the window background.
QColor badTextColor(bool dark);
QColor goodTextColor(bool dark);

}  // namespace keyscope
