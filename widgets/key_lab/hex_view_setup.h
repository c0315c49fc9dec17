// setUpHexView: gives a QTableView over a KeyHexModel (or a model with its
// columns) the look of a hex dump: a fixed font, fixed-width cells (16 hex
// bytes, a gap, 16 ASCII characters), offsets down the side, and a width
// that fits all of it. The key lab and the key inspector both show keys so.
//
// GUI thread only.
#pragma once

class QFont;
class QTableView;

namespace keyscope {

void setUpHexView(QTableView* view, const QFont& fixed);

}  // namespace keyscope
