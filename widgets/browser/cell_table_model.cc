// CellTableModel (see cell_table_model.h). GUI thread only; pages are read
// by loadPage() on the job runner.
#include "browser/cell_table_model.h"

#include <algorithm>
#include <iterator>
#include <tuple>
#include <utility>

#include "browser/page_loader.h"
#include "common/counted_text.h"
#include "keyscope/byte_format.h"

namespace keyscope {

namespace {

const QString kRowColumnName = QStringLiteral("row");

QByteArray toByteArray(BytesView bytes) {
  return QByteArray(bytes.data(), static_cast<qsizetype>(bytes.size()));
}

bool isNumeric(ValueFormat format) {
  return format == ValueFormat::kInteger || format == ValueFormat::kFloat;
}

QString versionsText(uint32_t versions) {
  if (versions >= static_cast<uint32_t>(kVersionsCounted)) {
    return QStringLiteral("%1 or more versions").arg(kVersionsCounted);
  }
  return countedText(versions, QStringLiteral("version"), QStringLiteral("versions"));
}

}  // namespace

CellTableModel::CellTableModel(JobRunner* runner, QObject* parent)
    : QAbstractTableModel(parent), m_runner(runner), m_channel(runner->newChannel()) {}

CellTableModel::~CellTableModel() {
  m_runner->cancel(m_channel);
}

void CellTableModel::setWorkspace(const Workspace* ws) {
  if (ws == m_ws) return;
  clear();
  m_ws = ws;
}

void CellTableModel::clear() {
  reset(std::nullopt);
}

void CellTableModel::stopLoading() {
  m_runner->cancel(m_channel);
  setLoading(false);
  emit pagingStateChanged();
}

void CellTableModel::setQuery(BrowseQuery query) {
  reset(std::move(query));
  if (m_haveQuery && m_ws) requestPage();
}

void CellTableModel::reset(std::optional<BrowseQuery> query) {
  m_runner->cancel(m_channel);
  const bool wasLoading = m_loading;
  beginResetModel();
  m_haveQuery = query.has_value();
  m_query = query ? std::move(*query) : BrowseQuery{};
  m_rows.clear();
  m_columns.clear();
  m_order.clear();
  m_idByName.clear();
  m_loading = false;
  m_complete = false;
  m_budgetReached = false;
  m_error.clear();
  m_pages = 0;
  m_loadedBytes = 0;
  m_cellsRead = 0;
  m_versionsCapped = false;
  // A view may fetch from inside endResetModel(): the state is final by now.
  endResetModel();
  if (wasLoading && !m_loading) emit loadingChanged(false);
  emit pagingStateChanged();
}

void CellTableModel::setColumnFormats(const QHash<QString, ValueFormat>& formats) {
  m_formats = formats;
  m_keyFormat = m_formats.value(kRowColumnName, ValueFormat::kEscaped);
  for (Column& column : m_columns)
    column.format = m_formats.value(column.name, ValueFormat::kEscaped);
  if (!m_rows.empty()) emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
  if (columnCount() > 0) emit headerDataChanged(Qt::Horizontal, 0, columnCount() - 1);
}

void CellTableModel::setColumnFormat(const QString& columnName, ValueFormat format) {
  QHash<QString, ValueFormat> formats = m_formats;
  formats.insert(columnName, format);
  setColumnFormats(formats);
}

ValueFormat CellTableModel::columnFormat(int column) const {
  switch (columnKind(column)) {
    case ColumnKind::kRowKey:
      return m_keyFormat;
    case ColumnKind::kComponent:
      return m_formats.value(columnName(column), defaultColumnFormat(column));
    case ColumnKind::kCell:
      return m_columns[m_order[static_cast<size_t>(column - firstCellColumn())]].format;
  }
  return ValueFormat::kEscaped;
}

ValueFormat CellTableModel::defaultColumnFormat(int column) const {
  if (column < 0 || column >= columnCount() || columnKind(column) != ColumnKind::kComponent)
    return ValueFormat::kEscaped;
  const KeyComponent& component = (*m_query.keySchema)[static_cast<size_t>(column - 1)];
  if (component.type == ComponentType::kReverseTimestamp) return ValueFormat::kEpochMillis;
  const bool wide = component.type == ComponentType::kInt64 || component.type == ComponentType::kUInt64;
  const QString name = QString::fromStdString(component.name).toLower();
  const bool timeName = name == QLatin1String("ts") || name == QLatin1String("time") ||
                        name == QLatin1String("timestamp");
  return wide && timeName ? ValueFormat::kEpochMillis : ValueFormat::kEscaped;
}

std::optional<std::pair<std::string, Bytes>> CellTableModel::cellColumn(int column) const {
  if (column < 0 || column >= columnCount() || columnKind(column) != ColumnKind::kCell)
    return std::nullopt;
  const Column& c = m_columns[m_order[static_cast<size_t>(column - firstCellColumn())]];
  return std::make_pair(c.family, c.qualifier);
}

int CellTableModel::componentCount() const {
  return m_query.keySchema ? static_cast<int>(m_query.keySchema->size()) : 0;
}

CellTableModel::ColumnKind CellTableModel::columnKind(int column) const {
  if (column == 0) return ColumnKind::kRowKey;
  return column < firstCellColumn() ? ColumnKind::kComponent : ColumnKind::kCell;
}

QString CellTableModel::columnName(int column) const {
  if (column < 0 || column >= columnCount()) return {};
  switch (columnKind(column)) {
    case ColumnKind::kRowKey:
      return kRowColumnName;
    case ColumnKind::kComponent:
      return QStringLiteral("row.") +
             QString::fromStdString((*m_query.keySchema)[static_cast<size_t>(column - 1)].name);
    case ColumnKind::kCell:
      return m_columns[m_order[static_cast<size_t>(column - firstCellColumn())]].name;
  }
  return {};
}

int CellTableModel::columnOf(const QString& name) const {
  for (int column = 0; column < columnCount(); ++column) {
    if (columnName(column) == name) return column;
  }
  return -1;
}

QString CellTableModel::rowCountText() const {
  const auto rows = static_cast<qint64>(m_rows.size());
  if (!m_complete) return tr("≥ %1").arg(countedText(rows, tr("row"), tr("rows")));
  return rows == 0 ? tr("no rows") : countedText(rows, tr("row"), tr("rows"));
}

int CellTableModel::firstRowAtOrAfter(BytesView key) const {
  const auto it =
      std::lower_bound(m_rows.begin(), m_rows.end(), key,
                       [](const PageRow& row, BytesView k) { return BytesView(row.key) < k; });
  return it == m_rows.end() ? -1 : static_cast<int>(it - m_rows.begin());
}

int CellTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int CellTableModel::columnCount(const QModelIndex& parent) const {
  if (parent.isValid() || !m_haveQuery) return 0;
  return firstCellColumn() + static_cast<int>(m_order.size());
}

bool CellTableModel::canFetchMore(const QModelIndex& parent) const {
  return !parent.isValid() && m_haveQuery && m_ws && !m_loading && !m_complete &&
         !m_budgetReached && m_error.isEmpty();
}

void CellTableModel::fetchMore(const QModelIndex& parent) {
  if (canFetchMore(parent)) requestPage();
}

void CellTableModel::requestPage() {
  PageRequest request;
  request.query = m_query;
  if (!m_rows.empty()) request.after = m_rows.back().key;
  const Workspace* ws = m_ws;
  setLoading(true);
  m_runner->submit(
      m_channel, this,
      [ws, request = std::move(request)](JobControl& job) {
        return loadPage(*ws, request, *job.cancelToken());
      },
      [this](Result<RowPage> page) { appendPage(std::move(page)); });
}

void CellTableModel::appendPage(Result<RowPage> result) {
  if (!result) {
    m_error = QString::fromStdString(result.status().toString());
    setLoading(false);
    emit pagingStateChanged();
    return;
  }
  // Views and testers fetch more from inside the insert signals: m_loading
  // stays true until the page's rows are in and every piece of state is
  // final, so such a fetch starts after this page, never from before it.
  RowPage page = std::move(result).value();
  const std::vector<uint32_t> ids = mergeColumns(page.columns);
  m_cellsRead += page.cellsRead;
  for (PageRow& row : page.rows) {
    for (PageCell& cell : row.cells) {
      cell.column = ids[cell.column];
      if (cell.versions >= static_cast<uint32_t>(kVersionsCounted)) m_versionsCapped = true;
    }
    std::sort(row.cells.begin(), row.cells.end(),
              [](const PageCell& a, const PageCell& b) { return a.column < b.column; });
    m_loadedBytes += row.bytes;
  }
  ++m_pages;
  m_complete = page.atEnd;
  m_budgetReached = !m_complete && m_loadedBytes >= m_byteBudget;
  if (!page.rows.empty()) {
    const int first = rowCount();
    beginInsertRows(QModelIndex(), first, first + static_cast<int>(page.rows.size()) - 1);
    std::move(page.rows.begin(), page.rows.end(), std::back_inserter(m_rows));
    m_loading = false;  // announced below, unless a view fetches again first
    endInsertRows();
  } else {
    m_loading = false;
  }
  if (!m_loading) emit loadingChanged(false);
  emit pagingStateChanged();
}

std::vector<uint32_t> CellTableModel::mergeColumns(const std::vector<PageColumn>& columns) {
  std::vector<uint32_t> ids;
  ids.reserve(columns.size());
  for (const PageColumn& column : columns) {
    const QString name = QString::fromStdString(column.name);
    const auto known = m_idByName.constFind(name);
    if (known != m_idByName.constEnd()) {
      ids.push_back(*known);
      continue;
    }
    const auto id = static_cast<uint32_t>(m_columns.size());
    const auto position = std::lower_bound(
        m_order.begin(), m_order.end(), column, [this](uint32_t a, const PageColumn& b) {
          const Column& c = m_columns[a];
          return std::tie(c.family, c.qualifier) < std::tie(b.family, b.qualifier);
        });
    const int at = firstCellColumn() + static_cast<int>(position - m_order.begin());
    beginInsertColumns(QModelIndex(), at, at);
    m_columns.push_back(
        {column.family, column.qualifier, name, m_formats.value(name, ValueFormat::kEscaped)});
    m_order.insert(position, id);
    m_idByName.insert(name, id);
    endInsertColumns();
    ids.push_back(id);
  }
  return ids;
}

const PageCell* CellTableModel::cellAt(const PageRow& row, int column) const {
  const uint32_t id = m_order[static_cast<size_t>(column - firstCellColumn())];
  const auto it =
      std::lower_bound(row.cells.begin(), row.cells.end(), id,
                       [](const PageCell& cell, uint32_t want) { return cell.column < want; });
  return it != row.cells.end() && it->column == id ? &*it : nullptr;
}

QVariant CellTableModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
    return {};
  const PageRow& row = m_rows[static_cast<size_t>(index.row())];
  switch (columnKind(index.column())) {
    case ColumnKind::kRowKey:
      return keyData(row, role);
    case ColumnKind::kComponent:
      return componentData(row, index.column() - 1, role);
    case ColumnKind::kCell:
      return cellData(row, index.column(), role);
  }
  return {};
}

QVariant CellTableModel::keyData(const PageRow& row, int role) const {
  switch (role) {
    case Qt::DisplayRole:
      return formatValue(row.key, m_keyFormat).text;
    case RawBytesRole:
      return toByteArray(row.key);
    case FitsFormatRole:
      return formatValue(row.key, m_keyFormat).fits();
    case Qt::ToolTipRole: {
      QString tip =
          tr("%1 bytes: %2").arg(row.key.size()).arg(QString::fromStdString(toHex(row.key)));
      if (!row.decodeError.empty()) {
        tip += tr("\nThe key does not fit the table's key schema: %1")
                   .arg(QString::fromStdString(row.decodeError));
      }
      return tip;
    }
    default:
      return {};
  }
}

FormattedValue CellTableModel::componentText(const PageRow& row, int component) const {
  const auto i = static_cast<size_t>(component);
  const QString decoded = QString::fromStdString(row.components[i]);
  const ValueFormat format = columnFormat(component + 1);
  if (format == ValueFormat::kEscaped) return {decoded, {}};
  const KeyComponent& schema = (*m_query.keySchema)[i];
  const bool integer = (schema.type >= ComponentType::kInt8 && schema.type <= ComponentType::kUInt64) ||
                       schema.type == ComponentType::kReverseTimestamp;
  const bool numeric = integer || schema.type == ComponentType::kFloat32 ||
                       schema.type == ComponentType::kFloat64;
  // A number is shown by its decoded value (its key bytes are an encoding
  // of it, not the number), save as hex.
  if (numeric && format != ValueFormat::kHex) {
    if (format != ValueFormat::kEpochMillis) return {decoded, {}};
    bool ok = false;
    const qlonglong millis = decoded.toLongLong(&ok);
    if (ok) return {formatEpochMillis(millis), {}};
    return {decoded, QStringLiteral("not an integer: an epoch timestamp is milliseconds")};
  }
  if (i >= row.componentSpans.size()) return {decoded, {}};
  const auto [begin, end] = row.componentSpans[i];
  return formatValue(BytesView(row.key).substr(begin, end - begin), format);
}

QVariant CellTableModel::componentData(const PageRow& row, int component, int role) const {
  const auto i = static_cast<size_t>(component);
  const bool decoded = i < row.components.size();
  switch (role) {
    case Qt::DisplayRole:
      return decoded ? componentText(row, component).text : QVariant();
    case FitsFormatRole:
      return decoded && componentText(row, component).fits();
    case Qt::ToolTipRole:
      if (!decoded && !row.decodeError.empty()) return QString::fromStdString(row.decodeError);
      if (decoded) {
        const FormattedValue shown = componentText(row, component);
        QString tip = QString::fromStdString(row.components[i]);
        if (!shown.fits()) tip += tr("\nShown as decoded: %1").arg(shown.problem);
        return tip;
      }
      return {};
    default:
      return {};
  }
}

QVariant CellTableModel::cellData(const PageRow& row, int column, int role) const {
  const PageCell* cell = cellAt(row, column);
  if (!cell) return {};
  const ValueFormat format = columnFormat(column);
  switch (role) {
    case Qt::DisplayRole:
      return formatValue(cell->value, format).text;
    case VersionsRole:
      return static_cast<int>(cell->versions);
    case TimestampRole:
      return static_cast<qint64>(cell->timestamp);
    case RawBytesRole:
      return toByteArray(cell->value);
    case FitsFormatRole:
      return formatValue(cell->value, format).fits();
    case Qt::TextAlignmentRole:
      if (isNumeric(format)) return static_cast<int>(Qt::AlignRight | Qt::AlignVCenter);
      return {};
    case Qt::ToolTipRole: {
      const FormattedValue shown = formatValue(cell->value, format);
      QString tip = tr("%1; the latest written at %2 (%3)")
                        .arg(versionsText(cell->versions), formatEpochMillis(cell->timestamp))
                        .arg(cell->timestamp);
      tip += tr("\n%1 bytes").arg(cell->value.size());
      if (!shown.fits()) tip += tr("\nShown as escaped text: %1").arg(shown.problem);
      return tip;
    }
    default:
      return {};
  }
}

QVariant CellTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation == Qt::Vertical) {
    if (role == Qt::DisplayRole) return section + 1;
    return {};
  }
  if (section < 0 || section >= columnCount()) return {};
  switch (role) {
    case Qt::DisplayRole:
    case ColumnNameRole:
      return columnName(section);
    case Qt::ToolTipRole: {
      switch (columnKind(section)) {
        case ColumnKind::kRowKey:
          return tr("The row key, shown as %1").arg(valueFormatLabel(m_keyFormat));
        case ColumnKind::kComponent: {
          const KeySchema& schema = *m_query.keySchema;
          const auto i = static_cast<size_t>(section - 1);
          return tr("Key schema component %1: %2")
              .arg(QString::fromStdString(schema[i].name),
                   QString::fromStdString(schema.typeText(i)));
        }
        case ColumnKind::kCell:
          return tr("%1, shown as %2")
              .arg(columnName(section), valueFormatLabel(columnFormat(section)));
      }
      return {};
    }
    default:
      return {};
  }
}

void CellTableModel::setLoading(bool loading) {
  if (loading == m_loading) return;
  m_loading = loading;
  emit loadingChanged(loading);
}

}  // namespace keyscope
