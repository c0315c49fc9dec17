// RegionsView (see regions_view.h). GUI thread only.
#include "regions/regions_view.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <functional>

#include "browser/row_key_input.h"
#include "regions/region_actions.h"
#include "regions/region_lineage.h"
#include "regions/region_table_model.h"

namespace keyscope {

namespace {

// What an action hands back: its message, and the region to select after.
struct ActionOutcome {
  QString message;
  std::optional<int64_t> select;
};

QString clockText(int64_t millis) {
  return QDateTime::fromMSecsSinceEpoch(millis, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

QString escaped(const Bytes& key) { return QString::fromStdString(toStringBinary(key)); }

}  // namespace

RegionsView::RegionsView(JobRunner* runner, QWidget* parent)
    : QWidget(parent), m_runner(runner), m_loadChannel(runner->newChannel()), m_actionChannel(runner->newChannel()) {
  buildUi();
  m_liveTimer = new QTimer(this);
  m_liveTimer->setInterval(kLiveIntervalMs);
  connect(m_liveTimer, &QTimer::timeout, this, [this] {
    if (isVisible()) refresh();
  });
  clearTable();
}

RegionsView::~RegionsView() {
  m_runner->cancel(m_loadChannel);
  m_runner->cancel(m_actionChannel);
}

void RegionsView::buildUi() {
  m_window = new QComboBox(this);
  m_window->addItem(tr("Everything"), 0);
  m_window->addItem(tr("Last minute"), 60);
  m_window->addItem(tr("Last N seconds"), -1);
  m_window->setToolTip(tr("The time the load colours and rates cover, on the workspace clock"));
  m_seconds = new QSpinBox(this);
  m_seconds->setRange(1, 86400);
  m_seconds->setValue(10);
  m_seconds->setSuffix(tr(" s"));
  m_measure = new QComboBox(this);
  m_measure->addItem(tr("Operations"), static_cast<int>(RegionLoadMeasure::kOperations));
  m_measure->addItem(tr("Reads"), static_cast<int>(RegionLoadMeasure::kReads));
  m_measure->addItem(tr("Writes"), static_cast<int>(RegionLoadMeasure::kWrites));
  m_sizing = new QComboBox(this);
  m_sizing->addItem(tr("Size by data"), static_cast<int>(RegionSizing::kStoredBytes));
  m_sizing->addItem(tr("Size by key range"), static_cast<int>(RegionSizing::kKeyRange));
  m_colouring = new QComboBox(this);
  m_colouring->addItem(tr("Colour by load"), static_cast<int>(RegionColouring::kLoad));
  m_colouring->addItem(tr("Colour by server"), static_cast<int>(RegionColouring::kServer));
  m_grouping = new QComboBox(this);
  m_grouping->addItem(tr("Key order"), static_cast<int>(RegionGrouping::kKeyOrder));
  m_grouping->addItem(tr("Group by server"), static_cast<int>(RegionGrouping::kByServer));
  m_live = new QCheckBox(tr("Live"), this);
  m_live->setToolTip(tr("Read the regions again every two seconds while this tab is shown"));
  m_refresh = new QPushButton(tr("Refresh"), this);
  m_saveImage = new QPushButton(tr("Save image…"), this);
  m_exportCsv = new QPushButton(tr("Export CSV…"), this);

  auto* display = new QHBoxLayout;
  display->addWidget(new QLabel(tr("Load over:"), this));
  display->addWidget(m_window);
  display->addWidget(m_seconds);
  display->addWidget(m_measure);
  display->addSpacing(8);
  display->addWidget(m_sizing);
  display->addWidget(m_colouring);
  display->addWidget(m_grouping);
  display->addStretch(1);

  m_split = new QPushButton(tr("Split"), this);
  m_split->setToolTip(tr("Split the selected region at the row typed, or at its mid key when none is"));
  m_keyKind = new QComboBox(this);
  m_keyKind->addItem(tr("escaped"), static_cast<int>(RowKeyInputKind::kEscaped));
  m_keyKind->addItem(tr("hex"), static_cast<int>(RowKeyInputKind::kHex));
  m_keyKind->addItem(tr("components"), static_cast<int>(RowKeyInputKind::kComponents));
  m_splitRow = new QLineEdit(this);
  m_splitRow->setPlaceholderText(tr("split row (empty: the mid key)"));
  m_splitRow->setMinimumWidth(120);
  m_merge = new QPushButton(tr("Merge"), this);
  m_merge->setToolTip(tr("Merge the selected region with the next one, or two selected adjacent regions"));
  m_balance = new QPushButton(tr("Balance"), this);
  m_balance->setToolTip(tr("Run the balancer now (as the shell's balancer: nothing moves while it is switched off)"));
  m_servers = new QSpinBox(this);
  m_servers->setRange(1, 1000);
  m_servers->setPrefix(tr("Servers: "));
  m_applyServers = new QPushButton(tr("Apply"), this);
  m_applyServers->setToolTip(tr("Set the number of simulated region servers (rebalances)"));
  m_balancer = new QCheckBox(tr("Balancer on"), this);

  auto* actions = new QHBoxLayout;
  actions->addWidget(m_split);
  actions->addWidget(m_keyKind);
  actions->addWidget(m_splitRow, 1);
  actions->addWidget(m_merge);
  actions->addSpacing(8);
  actions->addWidget(m_balance);
  actions->addWidget(m_servers);
  actions->addWidget(m_applyServers);
  actions->addWidget(m_balancer);

  m_bar = new RegionBar(this);
  m_bar->setMinimumHeight(170);

  m_model = new RegionTableModel(this);
  m_proxy = new QSortFilterProxyModel(this);
  m_proxy->setSourceModel(m_model);
  m_proxy->setSortRole(RegionTableModel::kSortRole);
  m_tableView = new QTableView(this);
  m_tableView->setObjectName(QStringLiteral("regionTable"));
  m_tableView->setModel(m_proxy);
  m_tableView->setSortingEnabled(true);
  m_tableView->sortByColumn(RegionTableModel::kStart, Qt::AscendingOrder);
  m_tableView->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_tableView->setSelectionMode(QAbstractItemView::ExtendedSelection);
  m_tableView->verticalHeader()->setVisible(false);
  m_tableView->verticalHeader()->setDefaultSectionSize(m_tableView->fontMetrics().height() + 6);
  m_tableView->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  m_tableView->horizontalHeader()->setStretchLastSection(true);
  m_tableView->setWordWrap(false);
  m_tableView->setTextElideMode(Qt::ElideMiddle);

  m_details = new QLabel(this);
  m_details->setObjectName(QStringLiteral("regionDetails"));
  m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_details->setWordWrap(true);
  m_details->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  m_details->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  m_lineage = new QTreeWidget(this);
  m_lineage->setObjectName(QStringLiteral("regionLineage"));
  m_lineage->setHeaderLabels({tr("Region"), tr("Origin"), tr("Created"), tr("Retired"), tr("Split row / range")});
  m_lineage->setRootIsDecorated(true);
  m_lineage->setUniformRowHeights(true);
  m_lineage->setToolTip(tr("Split lineage: the region's ancestors back to the table's creation, and its "
                           "descendants. Double-click a region to follow its own lineage."));
  auto* lineageTitle = new QLabel(tr("<b>Split lineage</b>"), this);

  auto* side = new QWidget(this);
  auto* sideLayout = new QVBoxLayout(side);
  sideLayout->setContentsMargins(0, 0, 0, 0);
  sideLayout->addWidget(m_details);
  sideLayout->addWidget(lineageTitle);
  sideLayout->addWidget(m_lineage, 1);

  auto* splitter = new QSplitter(Qt::Horizontal, this);
  splitter->addWidget(m_tableView);
  splitter->addWidget(side);
  splitter->setStretchFactor(0, 3);
  splitter->setStretchFactor(1, 2);
  splitter->setChildrenCollapsible(false);

  m_status = new QLabel(this);
  m_status->setObjectName(QStringLiteral("regionsStatus"));
  m_status->setWordWrap(true);
  m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(display);
  layout->addLayout(actions);
  layout->addWidget(m_bar);
  layout->addWidget(splitter, 1);
  // The status line shares its row with the view's tools, so the control
  // rows above stay narrow enough for a laptop screen beside the dock.
  auto* bottom = new QHBoxLayout;
  bottom->addWidget(m_status, 1);
  bottom->addWidget(m_live);
  bottom->addWidget(m_refresh);
  bottom->addWidget(m_saveImage);
  bottom->addWidget(m_exportCsv);
  layout->addLayout(bottom);

  connect(m_window, &QComboBox::currentIndexChanged, this, [this] {
    updateControls();
    refresh();
  });
  connect(m_seconds, &QSpinBox::valueChanged, this, [this] { refresh(); });
  connect(m_measure, &QComboBox::currentIndexChanged, this,
          [this] { m_bar->setLoadMeasure(static_cast<RegionLoadMeasure>(m_measure->currentData().toInt())); });
  connect(m_sizing, &QComboBox::currentIndexChanged, this,
          [this] { m_bar->setSizing(static_cast<RegionSizing>(m_sizing->currentData().toInt())); });
  connect(m_colouring, &QComboBox::currentIndexChanged, this,
          [this] { m_bar->setColouring(static_cast<RegionColouring>(m_colouring->currentData().toInt())); });
  connect(m_grouping, &QComboBox::currentIndexChanged, this,
          [this] { m_bar->setGrouping(static_cast<RegionGrouping>(m_grouping->currentData().toInt())); });
  connect(m_live, &QCheckBox::toggled, this, &RegionsView::setLive);
  connect(m_refresh, &QPushButton::clicked, this, &RegionsView::refresh);
  connect(m_saveImage, &QPushButton::clicked, this, &RegionsView::chooseImageFile);
  connect(m_exportCsv, &QPushButton::clicked, this, &RegionsView::chooseCsvFile);
  connect(m_bar, &RegionBar::regionSelected, this, [this](int64_t id) { selectRegion(id); });
  connect(m_tableView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
          &RegionsView::onTableSelectionChanged);
  connect(m_lineage, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* item) {
    const int64_t id = item->data(0, Qt::UserRole).toLongLong();
    if (m_model->rowOf(id) >= 0) selectRegion(id);
  });

  connect(m_split, &QPushButton::clicked, this, [this] {
    if (!m_selected) return;
    const QString at = m_splitRow->text().trimmed().isEmpty() ? tr("at its mid key")
                                                              : tr("at '%1'").arg(m_splitRow->text().trimmed());
    if (confirm(tr("Split Region"), tr("Split region %1 of %2 %3?\n\nIts store files are rewritten into two "
                                       "daughter regions.").arg(*m_selected).arg(m_table, at)))
      splitSelected(m_splitRow->text());
  });
  connect(m_merge, &QPushButton::clicked, this, [this] {
    if (confirm(tr("Merge Regions"),
                tr("Merge the selected region of %1 with its neighbour?\n\nBoth are flushed and their store files "
                   "move to one new region.").arg(m_table)))
      mergeSelected();
  });
  connect(m_balance, &QPushButton::clicked, this, &RegionsView::balance);
  connect(m_applyServers, &QPushButton::clicked, this, [this] { applyServerCount(m_servers->value()); });
  connect(m_balancer, &QCheckBox::clicked, this, &RegionsView::applyBalancerEnabled);
}

void RegionsView::setWorkspace(Workspace* ws) {
  m_runner->cancel(m_loadChannel);
  m_runner->cancel(m_actionChannel);
  m_acting = false;
  setLoading(false);
  m_ws = ws;
  clearTable();
}

void RegionsView::showTable(const TableOptions& table) {
  m_runner->cancel(m_loadChannel);
  setLoading(false);
  m_table = QString::fromStdString(table.name);
  m_selected.reset();
  m_selectBusiest = true;
  m_snapshot = RegionSnapshot{};
  m_bar->clear();
  m_model->setRegions({}, std::nullopt);
  m_lineage->clear();
  m_details->clear();
  updateControls();
  m_stale = true;
  if (isVisible()) refresh();
}

void RegionsView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (m_stale) refresh();
}

void RegionsView::clearTable() {
  m_runner->cancel(m_loadChannel);
  m_stale = false;
  setLoading(false);
  m_table.clear();
  m_selected.reset();
  m_snapshot = RegionSnapshot{};
  m_bar->clear();
  m_model->setRegions({}, std::nullopt);
  m_lineage->clear();
  m_details->clear();
  setStatus(m_ws ? tr("Select a table to see its regions.") : tr("No workspace is open."));
  updateControls();
}

RegionWindowChoice RegionsView::windowChoice() const {
  RegionWindowChoice choice;
  const int seconds = m_window->currentData().toInt();
  if (seconds == 0) return choice;
  choice.kind = RegionWindowChoice::Kind::kLastSeconds;
  choice.seconds = seconds > 0 ? seconds : m_seconds->value();
  return choice;
}

void RegionsView::setWindow(RegionWindowChoice choice) {
  const QSignalBlocker blockWindow(m_window);
  const QSignalBlocker blockSeconds(m_seconds);
  if (choice.kind == RegionWindowChoice::Kind::kEverything) {
    m_window->setCurrentIndex(0);
  } else if (choice.seconds == 60) {
    m_window->setCurrentIndex(1);
  } else {
    m_window->setCurrentIndex(2);
    m_seconds->setValue(static_cast<int>(choice.seconds));
  }
  updateControls();
  refresh();
}

void RegionsView::refresh() {
  if (!m_ws || m_table.isEmpty()) return;
  m_stale = false;
  if (m_loading) {
    m_refreshAgain = true;
    return;
  }
  setLoading(true);
  const Workspace* ws = m_ws;
  const QString table = m_table;
  const RegionWindowChoice choice = windowChoice();
  m_runner->submit(
      m_loadChannel, this, [ws, table, choice](JobControl&) { return computeRegionSnapshot(*ws, table, choice); },
      [this](RegionSnapshot snapshot) { onSnapshot(std::move(snapshot)); });
}

void RegionsView::onSnapshot(RegionSnapshot snapshot) {
  setLoading(false);
  if (snapshot.table != m_table) return;
  m_snapshot = std::move(snapshot);
  // A snapshot begun before the last action finished is followed by another:
  // the action's message and selection wait for that one.
  const bool followedByAnother = m_refreshAgain;
  if (!m_snapshot.error.isEmpty()) {
    setStatus(tr("Cannot read the regions of %1: %2").arg(m_table, m_snapshot.error), true);
  } else {
    const QString window =
        m_snapshot.window.toMillis == TimeWindow{}.toMillis
            ? tr("over the table's whole life")
            : tr("from %1 to %2 (UTC, workspace clock)")
                  .arg(clockText(m_snapshot.window.fromMillis), clockText(m_snapshot.window.toMillis - 1));
    // An action's message stays, before the summary of what it left.
    const QString summary =
        tr("%1: %n region(s) on %2 servers; load %3.", nullptr, static_cast<int>(m_snapshot.regions.size()))
            .arg(m_table)
            .arg(m_snapshot.servers)
            .arg(window);
    if (!m_acting) setStatus(m_actionMessage.isEmpty() ? summary : m_actionMessage + QLatin1Char(' ') + summary);
    if (!followedByAnother) m_actionMessage.clear();
  }
  {
    const QSignalBlocker blockServers(m_servers);
    const QSignalBlocker blockBalancer(m_balancer);
    if (m_snapshot.servers > 0) m_servers->setValue(m_snapshot.servers);
    m_balancer->setChecked(m_snapshot.balancerEnabled);
  }
  if (m_selectAfterRefresh && !followedByAnother) {
    m_selected = m_selectAfterRefresh;
    m_selectAfterRefresh.reset();
  }
  m_syncing = true;
  m_bar->setRegions(m_snapshot.regions, m_snapshot.schema);
  m_model->setRegions(m_snapshot.regions, m_snapshot.schema);
  m_syncing = false;
  if (m_selected && m_model->rowOf(*m_selected) < 0) m_selected.reset();
  // A table just shown opens on its busiest region, so the details and the
  // lineage say something at once.
  if (m_selectBusiest && !m_selected && !m_snapshot.regions.empty()) {
    const auto busiest = std::max_element(
        m_snapshot.regions.begin(), m_snapshot.regions.end(), [](const RegionLoad& a, const RegionLoad& b) {
          return a.total.reads + a.total.writes < b.total.reads + b.total.writes;
        });
    m_selected = busiest->regionId;
  }
  m_selectBusiest = false;
  selectRegion(m_selected);
  updateControls();
  if (m_refreshAgain) {
    m_refreshAgain = false;
    refresh();
  }
}

void RegionsView::selectRegion(std::optional<int64_t> regionId) {
  if (regionId && m_model->rowOf(*regionId) < 0) regionId.reset();
  m_selected = regionId;
  m_bar->selectRegion(regionId);
  syncTableSelection();
  showDetails();
  fillLineage();
  updateControls();
}

void RegionsView::syncTableSelection() {
  m_syncing = true;
  QItemSelectionModel* selection = m_tableView->selectionModel();
  const int row = m_selected ? m_model->rowOf(*m_selected) : -1;
  if (row < 0) {
    selection->clearSelection();
  } else {
    const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
    // Keep a two-row selection (to merge) that holds the region.
    if (!selection->isRowSelected(index.row(), {}) || selection->selectedRows().size() > 2) {
      selection->select(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    }
    selection->setCurrentIndex(index, QItemSelectionModel::NoUpdate);
    m_tableView->scrollTo(index);
  }
  m_syncing = false;
}

void RegionsView::onTableSelectionChanged() {
  if (m_syncing) return;
  const QModelIndex current = m_tableView->selectionModel()->currentIndex();
  std::optional<int64_t> id;
  if (current.isValid() && m_tableView->selectionModel()->isRowSelected(current.row(), {}))
    id = current.data(RegionTableModel::kRegionIdRole).toLongLong();
  else if (const QModelIndexList rows = m_tableView->selectionModel()->selectedRows(); !rows.isEmpty())
    id = rows.front().data(RegionTableModel::kRegionIdRole).toLongLong();
  m_selected = id;
  m_bar->selectRegion(id);
  showDetails();
  fillLineage();
  updateControls();
}

std::vector<int64_t> RegionsView::selectedRegions() const {
  std::vector<int> rows;
  for (const QModelIndex& index : m_tableView->selectionModel()->selectedRows())
    rows.push_back(m_proxy->mapToSource(index).row());
  std::sort(rows.begin(), rows.end());  // source rows are in key order
  std::vector<int64_t> ids;
  for (int row : rows) ids.push_back(m_model->regions()[static_cast<size_t>(row)].regionId);
  return ids;
}

void RegionsView::showDetails() {
  if (!m_selected) {
    m_details->setText(m_snapshot.regions.empty() ? QString()
                                                  : tr("Select a region in the bar or the table to see its "
                                                       "details and split lineage."));
    return;
  }
  m_details->setText(m_bar->regionText(*m_selected));
}

void RegionsView::fillLineage() {
  m_lineage->clear();
  if (!m_selected) return;
  const RegionLineage lineage = regionLineage(m_snapshot.history, *m_selected);
  const std::optional<KeySchema>& schema = m_snapshot.schema;
  std::function<void(QTreeWidgetItem*, size_t)> add = [&](QTreeWidgetItem* parent, size_t index) {
    const LineageNode& node = lineage.nodes[index];
    const RegionHistoryEntry& e = node.entry;
    auto* item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(m_lineage);
    item->setData(0, Qt::UserRole, QVariant::fromValue<qint64>(e.regionId));
    item->setText(0, tr("region %1").arg(e.regionId));
    item->setText(1, QString::fromUtf8(regionOriginName(e.origin)));
    item->setText(2, clockText(e.createdMillis));
    item->setText(3, e.retiredMillis ? clockText(*e.retiredMillis) : tr("live"));
    QString where;
    if (e.origin == RegionOrigin::kSizeSplit || e.origin == RegionOrigin::kManualSplit)
      where = tr("split at %1").arg(RegionBar::keyText(e.splitRow, schema));
    else
      where = tr("[%1, %2)")
                  .arg(e.startRow.empty() ? tr("start") : RegionBar::keyText(e.startRow, schema),
                       e.endRow.empty() ? tr("end") : RegionBar::keyText(e.endRow, schema));
    item->setText(4, where);
    item->setToolTip(4, tr("rows [%1, %2), split row '%3'")
                            .arg(escaped(e.startRow), e.endRow.empty() ? tr("end") : escaped(e.endRow),
                                 escaped(e.splitRow)));
    if (node.subject) {
      QFont font = item->font(0);
      font.setBold(true);
      for (int c = 0; c < m_lineage->columnCount(); ++c) item->setFont(c, font);
    }
    for (size_t child : node.children) add(item, child);
  };
  for (size_t root : lineage.roots) add(nullptr, root);
  m_lineage->expandAll();
  for (int c = 0; c < 4; ++c) m_lineage->resizeColumnToContents(c);
}

void RegionsView::updateControls() {
  const bool table = m_ws && !m_table.isEmpty();
  m_seconds->setVisible(m_window->currentData().toInt() < 0);
  m_refresh->setEnabled(table);
  m_saveImage->setEnabled(!m_snapshot.regions.empty());
  m_exportCsv->setEnabled(!m_snapshot.regions.empty());
  const bool idle = table && !m_acting;
  m_split->setEnabled(idle && m_selected.has_value());
  m_merge->setEnabled(idle && m_selected.has_value() && m_snapshot.regions.size() > 1);
  m_balance->setEnabled(m_ws && !m_acting);
  m_applyServers->setEnabled(m_ws && !m_acting);
  m_servers->setEnabled(m_ws != nullptr);
  m_balancer->setEnabled(m_ws && !m_acting);
  m_keyKind->setItemData(2, m_snapshot.schema ? QVariant() : QVariant(0), Qt::UserRole - 1);
}

bool RegionsView::confirm(const QString& title, const QString& text) {
  return QMessageBox::question(this, title, text, QMessageBox::Ok | QMessageBox::Cancel, QMessageBox::Ok) ==
         QMessageBox::Ok;
}

template <typename Work>
void RegionsView::runAction(const QString& what, Work work) {
  if (!m_ws) {
    setStatus(tr("%1: no workspace is open.").arg(what), true);
    emit actionFinished(false, m_status->text());
    return;
  }
  m_acting = true;
  setLoading(m_loading);
  updateControls();
  setStatus(tr("%1…").arg(what));
  Workspace* ws = m_ws;
  m_runner->submit(
      m_actionChannel, this, [ws, work](JobControl&) -> Result<ActionOutcome> { return work(*ws); },
      [this, what](Result<ActionOutcome> outcome) {
        m_acting = false;
        setLoading(m_loading);
        if (!outcome) {
          setStatus(tr("%1 failed: %2").arg(what, QString::fromStdString(outcome.status().message())), true);
          updateControls();
          emit actionFinished(false, m_status->text());
          return;
        }
        setStatus(outcome->message);
        m_actionMessage = outcome->message;
        m_selectAfterRefresh = outcome->select;
        updateControls();
        emit workspaceChanged();
        refresh();
        emit actionFinished(true, outcome->message);
      });
}

void RegionsView::splitSelected(const QString& rowText) {
  if (!m_selected) {
    setStatus(tr("Split: select a region first."), true);
    emit actionFinished(false, m_status->text());
    return;
  }
  std::optional<Bytes> row;
  if (!rowText.trimmed().isEmpty()) {
    const auto kind = static_cast<RowKeyInputKind>(m_keyKind->currentData().toInt());
    Result<Bytes> parsed = parseRowKeyInput(rowText.trimmed(), kind, m_snapshot.schema);
    if (!parsed) {
      setStatus(tr("Split: the split row is not valid: %1").arg(QString::fromStdString(parsed.status().message())),
                true);
      emit actionFinished(false, m_status->text());
      return;
    }
    row = std::move(parsed).value();
  }
  const std::string table = m_table.toStdString();
  const int64_t region = *m_selected;
  runAction(tr("Splitting region %1").arg(region), [table, region, row](Workspace& ws) -> Result<ActionOutcome> {
    Result<std::vector<int64_t>> daughters = splitTableRegion(ws, table, region, row);
    if (!daughters) return daughters.status();
    if (daughters->empty())
      return Status::invalidArgument("region " + std::to_string(region) +
                                     " cannot split: it holds one row or none, so it has no mid key");
    QStringList ids;
    for (int64_t id : *daughters) ids.push_back(QString::number(id));
    return ActionOutcome{tr("Split region %1 into regions %2.").arg(region).arg(ids.join(tr(" and "))),
                         daughters->front()};
  });
}

void RegionsView::mergeSelected() {
  const std::vector<int64_t> chosen = selectedRegions();
  if (chosen.size() > 2) {
    setStatus(tr("Merge: select one region (to merge with the next) or two adjacent regions, not %1.")
                  .arg(chosen.size()),
              true);
    emit actionFinished(false, m_status->text());
    return;
  }
  std::optional<int64_t> first = chosen.empty() ? m_selected : std::optional<int64_t>(chosen.front());
  if (!first) {
    setStatus(tr("Merge: select a region first."), true);
    emit actionFinished(false, m_status->text());
    return;
  }
  std::optional<int64_t> second = chosen.size() == 2 ? std::optional<int64_t>(chosen.back()) : std::nullopt;
  const std::string table = m_table.toStdString();
  const int64_t a = *first;
  runAction(tr("Merging regions"), [table, a, second](Workspace& ws) -> Result<ActionOutcome> {
    int64_t b = 0;
    if (second) {
      b = *second;
    } else {
      Result<int64_t> next = nextRegion(ws, table, a);
      if (!next) return next.status();
      b = *next;
    }
    Result<int64_t> merged = mergeTableRegions(ws, table, a, b);
    if (!merged) return merged.status();
    return ActionOutcome{tr("Merged regions %1 and %2 into region %3.").arg(a).arg(b).arg(*merged), *merged};
  });
}

void RegionsView::balance() {
  const std::optional<int64_t> keep = m_selected;
  runAction(tr("Balancing"), [keep](Workspace& ws) -> Result<ActionOutcome> {
    Result<BalanceOutcome> outcome = runBalancer(ws);
    if (!outcome) return outcome.status();
    if (!outcome->ran)
      return ActionOutcome{tr("The balancer is switched off: nothing moved (switch it on to balance)."), keep};
    return ActionOutcome{tr("The balancer moved %n region(s).", nullptr, static_cast<int>(outcome->moved)), keep};
  });
}

void RegionsView::applyServerCount(int servers) {
  const std::optional<int64_t> keep = m_selected;
  runAction(tr("Setting the servers"), [servers, keep](Workspace& ws) -> Result<ActionOutcome> {
    if (Status s = ws.setServerCount(servers); !s) return s;
    return ActionOutcome{tr("%n simulated server(s); the regions were rebalanced.", nullptr, servers), keep};
  });
}

void RegionsView::applyBalancerEnabled(bool enabled) {
  const std::optional<int64_t> keep = m_selected;
  runAction(enabled ? tr("Switching the balancer on") : tr("Switching the balancer off"),
            [enabled, keep](Workspace& ws) -> Result<ActionOutcome> {
              if (Status s = ws.setBalancerEnabled(enabled); !s) return s;
              return ActionOutcome{enabled ? tr("The balancer is on.") : tr("The balancer is off."), keep};
            });
}

void RegionsView::setLive(bool live) {
  {
    const QSignalBlocker block(m_live);
    m_live->setChecked(live);
  }
  if (live) {
    m_liveTimer->start();
    refresh();
  } else {
    m_liveTimer->stop();
  }
}

bool RegionsView::isLive() const { return m_liveTimer->isActive(); }

void RegionsView::setLoading(bool loading) {
  const bool before = isLoading();
  m_loading = loading;
  if (before != isLoading()) emit loadingChanged(isLoading());
}

void RegionsView::setStatus(const QString& text, bool error) {
  m_status->setText(text);
  m_status->setStyleSheet(error ? QStringLiteral("color: #d03030;") : QString());
}

QString RegionsView::statusText() const { return m_status->text(); }

QString RegionsView::detailsText() const { return m_details->text(); }

Status RegionsView::saveImage(const QString& path) {
  if (m_snapshot.regions.empty()) return Status::invalidArgument("no regions to save");
  const bool pdf = QFileInfo(path).suffix().compare(QStringLiteral("pdf"), Qt::CaseInsensitive) == 0;
  const bool saved = pdf ? m_bar->savePdf(path) : m_bar->savePng(path);
  if (!saved) return Status::ioError("cannot write " + path.toStdString());
  return Status::ok();
}

Status RegionsView::exportCsv(const QString& path) const {
  if (m_snapshot.regions.empty()) return Status::invalidArgument("no regions to export");
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
    return Status::ioError("cannot write " + path.toStdString() + ": " + file.errorString().toStdString());
  const std::string csv = regionLoadCsv(m_snapshot.regions);
  if (file.write(csv.data(), static_cast<qint64>(csv.size())) != static_cast<qint64>(csv.size()))
    return Status::ioError("cannot write " + path.toStdString() + ": " + file.errorString().toStdString());
  return Status::ok();
}

void RegionsView::chooseImageFile() {
  const QString path = QFileDialog::getSaveFileName(this, tr("Save Region Bar"), m_table + QStringLiteral("-regions.png"),
                                                    tr("PNG image (*.png);;PDF document (*.pdf)"));
  if (path.isEmpty()) return;
  const Status status = saveImage(path);
  setStatus(status ? tr("Saved %1").arg(path) : QString::fromStdString(status.message()), !status);
}

void RegionsView::chooseCsvFile() {
  const QString path = QFileDialog::getSaveFileName(this, tr("Export Region Numbers"),
                                                    m_table + QStringLiteral("-regions.csv"), tr("CSV (*.csv)"));
  if (path.isEmpty()) return;
  const Status status = exportCsv(path);
  setStatus(status ? tr("Exported %1").arg(path) : QString::fromStdString(status.message()), !status);
}

}  // namespace keyscope
