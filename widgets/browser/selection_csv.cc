// selectionAsCsv (see selection_csv.h). GUI thread.
#include "browser/selection_csv.h"

#include <QAbstractItemModel>

#include <map>
#include <set>
#include <sstream>
#include <utility>

#include "keyscope/csv.h"

namespace keyscope {

QString selectionAsCsv(const QAbstractItemModel& model, const QModelIndexList& selected) {
  if (selected.isEmpty()) return {};
  std::set<int> columns;
  std::map<std::pair<int, int>, QString> cells;  // (row, column) -> text
  std::set<int> rows;
  for (const QModelIndex& index : selected) {
    columns.insert(index.column());
    rows.insert(index.row());
    cells[{index.row(), index.column()}] = index.data(Qt::DisplayRole).toString();
  }
  CsvDialect dialect;
  dialect.lineEnding = "\n";
  std::ostringstream out;
  CsvWriter writer(out, dialect);
  for (int column : columns) {
    writer.add(model.headerData(column, Qt::Horizontal, Qt::DisplayRole).toString().toStdString());
  }
  (void)writer.endRecord();  // a std::ostringstream does not fail
  for (int row : rows) {
    for (int column : columns) {
      const auto cell = cells.find({row, column});
      writer.add(cell == cells.end() ? std::string() : cell->second.toStdString());
    }
    (void)writer.endRecord();
  }
  return QString::fromStdString(out.str());
}

}  // namespace keyscope
