// CellTableModel: a table's rows × family:qualifier columns with each
// column's latest value, loaded lazily by key cursor (Qt's Fetch More
// pattern). rowCount() is the rows loaded so far; the view calls
// canFetchMore()/fetchMore() as the user scrolls, and each fetch scans one
// page (browse_query.h) starting just after the last row key loaded, on the
// job runner. Nothing counts the table: rowCountText() says "≥ N rows" until
// a page comes back with the end of the range.
//
// Columns: the row key; with a key schema, one column per decoded component
// ("row.NAME", as CSV export names them); then every family:qualifier met so
// far, in HBase's order (family, then qualifier bytes). New columns are
// inserted where they sort as pages bring them.
//
// Memory is bounded: after loadedByteBudget() of rows the model stops
// fetching (budgetReached()); the browser then says to jump to a later key.
//
// Thread rules: GUI thread only, like every model. The only work off it is
// loadPage() on the runner, which gets a copy of the request and a pointer
// to the Workspace; setWorkspace(nullptr) (or a new query) cancels it, and
// the owner of the Workspace waits for the runner before closing it. Values
// come back whole (a RowPage) and are appended here; nothing is shared.
#pragma once

#include <QAbstractTableModel>
#include <QHash>
#include <QString>

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "async/job_runner.h"
#include "browser/browse_query.h"
#include "browser/value_format.h"
#include "keyscope/status.h"
#include "keyscope/workspace.h"

namespace keyscope {

class CellTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  // Why 64 MiB: with the GUI's own needs it keeps the process well under
  // 300 MB however far the user scrolls (some 250,000 narrow rows), and
  // nobody reads further than that by scrolling: they jump to a key.
  static constexpr size_t kDefaultLoadedByteBudget = size_t{64} << 20;

  enum Role {
    VersionsRole = Qt::UserRole + 1,  // int: versions of the cell read (kVersionsCounted at most)
    TimestampRole,                    // qint64: the latest version's timestamp
    RawBytesRole,                     // QByteArray: the cell's value or the row key, unformatted
    FitsFormatRole,                   // bool: the bytes read as the column's format
    ColumnNameRole,                   // QString (header): "row", "row.NAME", "family:qualifier"
  };

  enum class ColumnKind { kRowKey, kComponent, kCell };

  // The runner must outlive the model.
  explicit CellTableModel(JobRunner* runner, QObject* parent = nullptr);
  ~CellTableModel() override;

  // The workspace pages are read from. nullptr detaches: any load is
  // cancelled and the model emptied. REQUIRES: `ws` stays open until the
  // next setWorkspace() and until the runner has finished this model's jobs.
  void setWorkspace(const Workspace* ws);
  const Workspace* workspace() const { return m_ws; }

  // Empties the model and loads the first page of `query`.
  void setQuery(BrowseQuery query);
  const BrowseQuery& query() const { return m_query; }
  // Empties the model and forgets the query (no loading).
  void clear();
  // Cancels the page being read (it is dropped); the rows loaded stay, and
  // scrolling fetches again.
  void stopLoading();

  // Display formats by column name ("row" is the row key's); missing
  // columns show as escaped text. Repaints what changed.
  void setColumnFormats(const QHash<QString, ValueFormat>& formats);
  void setColumnFormat(const QString& columnName, ValueFormat format);
  ValueFormat columnFormat(int column) const;

  ColumnKind columnKind(int column) const;
  // A cell column's family and qualifier; nullopt for the key's columns.
  std::optional<std::pair<std::string, Bytes>> cellColumn(int column) const;
  // A key component column's display format when none is chosen: epoch
  // timestamps for a revts component and for an i64/u64 one named ts,
  // time or timestamp; decoded text for the rest.
  ValueFormat defaultColumnFormat(int column) const;
  QString columnName(int column) const;
  int columnOf(const QString& name) const;  // -1: no such column (yet)
  int firstCellColumn() const { return 1 + componentCount(); }

  // Paging state.
  bool isLoading() const { return m_loading; }
  bool isComplete() const { return m_complete; }  // the end of the range was reached
  bool budgetReached() const { return m_budgetReached; }
  QString errorText() const { return m_error; }  // why the last page failed; empty: it did not
  QString rowCountText() const;                  // "≥ 256 rows", "1,234 rows", "no rows"
  int pagesLoaded() const { return m_pages; }
  size_t loadedBytes() const { return m_loadedBytes; }
  // Cells the loaded pages read (versions included), for the row estimate,
  // and whether a column had kVersionsCounted versions or more (then the
  // cells per row are only a lower bound).
  uint64_t cellsRead() const { return m_cellsRead; }
  bool versionsCapped() const { return m_versionsCapped; }
  size_t loadedByteBudget() const { return m_byteBudget; }
  // Applies from the next page on.
  void setLoadedByteBudget(size_t bytes) { m_byteBudget = bytes; }

  // The loaded row whose key is the first at or after `key` (rows are in key
  // order); -1 when every loaded row is before it.
  int firstRowAtOrAfter(BytesView key) const;
  const Bytes& rowKey(int row) const { return m_rows[static_cast<size_t>(row)].key; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;
  bool canFetchMore(const QModelIndex& parent) const override;
  void fetchMore(const QModelIndex& parent) override;

 signals:
  void loadingChanged(bool loading);
  // The row count text, completeness, budget or error changed.
  void pagingStateChanged();

 private:
  struct Column {
    std::string family;
    Bytes qualifier;
    QString name;
    ValueFormat format = ValueFormat::kEscaped;
  };

  int componentCount() const;
  // Cancels any load and empties the model; with a query, it is the new one.
  void reset(std::optional<BrowseQuery> query);
  void requestPage();
  void appendPage(Result<RowPage> page);
  // Adds the page's new columns where they sort; returns the page's column
  // indices mapped to the model's column ids.
  std::vector<uint32_t> mergeColumns(const std::vector<PageColumn>& columns);
  const PageCell* cellAt(const PageRow& row, int column) const;
  QVariant cellData(const PageRow& row, int column, int role) const;
  QVariant keyData(const PageRow& row, int role) const;
  QVariant componentData(const PageRow& row, int component, int role) const;
  FormattedValue componentText(const PageRow& row, int component) const;
  void setLoading(bool loading);

  JobRunner* m_runner;
  JobRunner::ChannelId m_channel;
  const Workspace* m_ws = nullptr;
  BrowseQuery m_query;
  bool m_haveQuery = false;

  // Rows as pages brought them: keys ascending; each row's cells carry
  // column ids (indices into m_columns) sorted ascending.
  std::vector<PageRow> m_rows;
  std::vector<Column> m_columns;  // by id (the order met); never reordered
  std::vector<uint32_t> m_order;  // column ids in display order
  QHash<QString, uint32_t> m_idByName;
  QHash<QString, ValueFormat> m_formats;
  ValueFormat m_keyFormat = ValueFormat::kEscaped;

  bool m_loading = false;
  bool m_complete = false;
  bool m_budgetReached = false;
  QString m_error;
  int m_pages = 0;
  size_t m_loadedBytes = 0;
  uint64_t m_cellsRead = 0;
  bool m_versionsCapped = false;
  size_t m_byteBudget = kDefaultLoadedByteBudget;
};

}  // namespace keyscope
