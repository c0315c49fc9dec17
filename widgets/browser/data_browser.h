// DataBrowser: the data browser view. A table's rows × family:qualifier
// columns (CellTableModel, loaded page by page as the user scrolls), with
//   - a key box: type a row key (\xNN escapes, hex, or a JSON tuple of the
//     table's key schema components) and go there;
//   - prefix and [start, stop) range filters, read the same way;
//   - a header menu choosing each column's display format, remembered per
//     workspace, table and column (ColumnFormatStore);
//   - a badge with each cell's number of versions (VersionsDelegate);
//   - Copy (Ctrl+C) of the selection as CSV with a header row;
//   - a status line ("≥ 256 rows (about 1,200)", loading, errors) with a
//     Stop button; the estimate comes from region statistics (row_estimate.h)
//     read on the job runner;
//   - "View as of": the table read with TTLs judged at a chosen date-time
//     (ReadOptions::now), data and engine clock untouched;
//   - double-click on a cell, or its context menu, asks for its history.
//
// Thread rules: GUI thread only. Every scan runs on the job runner through
// the model; nothing here blocks on the engine.
#pragma once

#include <QString>
#include <QWidget>

#include <optional>

#include "browser/row_estimate.h"
#include "browser/row_key_input.h"
#include "browser/value_format.h"
#include "keyscope/key_schema.h"
#include "keyscope/options.h"
#include "keyscope/workspace.h"

class QCheckBox;
class QComboBox;
class QDateTimeEdit;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;

namespace keyscope {

// A cell (or a whole family of a row) whose history is asked for.
struct CellHistoryTarget {
  std::string table;
  Bytes row;
  std::string family;
  std::optional<Bytes> qualifier;  // nullopt: every column of the family
  ValueFormat format = ValueFormat::kEscaped;  // the column's display format
};

class CellTableModel;
class ColumnFormatStore;
class JobRunner;

class DataBrowser : public QWidget {
  Q_OBJECT

 public:
  // `runner` and `formats` are not owned and must outlive the browser.
  DataBrowser(JobRunner* runner, ColumnFormatStore* formats, QWidget* parent = nullptr);

  // The workspace tables are read from, and the name its column formats are
  // kept under (its path). nullptr detaches: loads stop, the view empties.
  // REQUIRES: `ws` stays open until the next setWorkspace().
  void setWorkspace(const Workspace* ws, const QString& workspaceKey);
  // Shows the table from its first row, with no filter.
  void showTable(const TableOptions& table);
  void clearTable();
  QString tableName() const;

  // What the key box and the filters read their text as.
  void setKeyInputKind(RowKeyInputKind kind);
  RowKeyInputKind keyInputKind() const;

  // Goes to the first row at or after the key typed (as the key box does):
  // selects it when it is loaded, else reloads starting at it. False, with
  // the reason in the status line, when the text does not parse.
  bool goToKey(const QString& text);
  // Shows only rows with `prefix` in [start, stop) (each text in the key
  // input kind; empty: no bound). False when a text does not parse.
  bool applyFilter(const QString& prefix, const QString& start, const QString& stop);
  void clearFilter();

  // The selection as CSV (selection_csv.h), also put on the clipboard.
  QString copySelection();
  // Changes a column's display format as the header menu does (and stores it).
  void setColumnFormat(int column, ValueFormat format);

  // "View as of": reads the table with TTLs judged at `nowMillis` (nullopt:
  // the engine's clock), reloading the view with the same filter.
  void setAsOf(std::optional<int64_t> nowMillis);
  std::optional<int64_t> asOf() const { return m_asOf; }
  // About how many rows the view's range holds; nullopt while unknown or
  // when it cannot be estimated honestly (row_estimate.h).
  std::optional<uint64_t> rowEstimate() const;
  bool isEstimating() const { return m_estimating; }
  // Asks for the history of the cell at `index` (a family:qualifier column);
  // `wholeFamily`: of every column of its family. False for key columns.
  bool requestCellHistory(const QModelIndex& index, bool wholeFamily = false);

 signals:
  // The rows' context menu "Inspect Row Key": the key of the row clicked.
  void inspectRowKeyRequested(const QByteArray& key);

 public:

  // The scan that reads what the view shows: its table's rows within the
  // prefix and range filter, the latest version of each column. For
  // export; the view itself pages.
  ScanOptions currentScan() const;
  // A short description of the view for the export dialog ("web_visits,
  // prefix user1").
  QString currentViewDescription() const;

  CellTableModel* model() const { return m_model; }
  QTableView* view() const { return m_view; }
  QString statusText() const;
  // Why the last key or filter did not parse, or a note on where the key
  // box went; empty when there is nothing to say.
  QString inputErrorText() const;

 signals:
  // Double-click on a cell, or "Show Cell History" / "Show Family History".
  void cellHistoryRequested(const keyscope::CellHistoryTarget& target);
  // setAsOf() or the "View as of" control changed the view's clock.
  void asOfChanged();

 signals:
  // "Export view…": export currentScan() of tableName() as CSV.
  void exportViewRequested();

 private:
  void buildUi();
  void updateStatus();
  void updatePlaceholders();
  void showHeaderMenu(const QPoint& at);
  void reload(const Bytes& start, const Bytes& stop, const Bytes& prefix);
  void showInputError(const QString& what, const Status& status);
  // The line right of the row count: input errors in red, notes plain.
  void showInputNote(const QString& text, bool isError);
  Result<Bytes> readKeyField(const QLineEdit* field) const;
  void requestEstimate();
  void onAsOfControlChanged();
  void sizeColumns(int first, int last);

  JobRunner* m_runner;
  int m_estimateChannel = 0;
  ColumnFormatStore* m_formats;
  CellTableModel* m_model = nullptr;
  const Workspace* m_ws = nullptr;
  QString m_workspaceKey;
  std::optional<TableOptions> m_table;
  std::optional<KeySchema> m_schema;
  QString m_schemaError;  // the table's key schema does not parse

  QComboBox* m_kind = nullptr;
  QLineEdit* m_keyEdit = nullptr;
  QPushButton* m_goButton = nullptr;
  QLineEdit* m_prefixEdit = nullptr;
  QLineEdit* m_startEdit = nullptr;
  QLineEdit* m_stopEdit = nullptr;
  QPushButton* m_filterButton = nullptr;
  QPushButton* m_clearButton = nullptr;
  QTableView* m_view = nullptr;
  QLabel* m_status = nullptr;
  QLabel* m_inputError = nullptr;
  QPushButton* m_stopButton = nullptr;
  QPushButton* m_exportButton = nullptr;
  std::optional<int64_t> m_asOf;
  std::optional<RangeCells> m_rangeCells;  // of the current query; nullopt: not read yet
  bool m_estimating = false;
  QCheckBox* m_asOfCheck = nullptr;
  QDateTimeEdit* m_asOfEdit = nullptr;
  bool m_columnsSized = false;  // the first page of the view came and sized the columns
};

}  // namespace keyscope
