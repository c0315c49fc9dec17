// selectionAsCsv: the cells of a selection as CSV text with a header row,
// for the clipboard. Columns and rows are those the selection touches, in
// model order; a header names each column (the model's horizontal header);
// cells are the text the view shows (the column's display format), so what
// is pasted is what was seen. A cell inside the block but not selected is
// an empty field. RFC 4180 quoting by core's CsvWriter, "\n" line endings
// (what spreadsheets and editors expect from the clipboard).
//
// GUI thread (it reads a model).
#pragma once

#include <QModelIndexList>
#include <QString>

class QAbstractItemModel;

namespace keyscope {

QString selectionAsCsv(const QAbstractItemModel& model, const QModelIndexList& selected);

}  // namespace keyscope
