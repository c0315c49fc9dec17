// Tests of the Regions view: RegionBar fed known region lists (segment
// widths by stored bytes and by key range, load colours, server grouping and
// labels, hover text decoded by a key schema), the region table model and its
// sorting, the lineage of a split and a merge, and, on real workspaces,
// selection sync and split/merge/balance from the view against the shell's.
#include <QAbstractItemModelTester>
#include <QItemSelectionModel>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <qcustomplot.h>

#include "async/job_runner.h"
#include "browser/row_key_input.h"
#include "keyscope/shell.h"
#include "keyscope/shell_command.h"
#include "regions/region_bar.h"
#include "regions/region_lineage.h"
#include "regions/region_table_model.h"
#include "regions/regions_view.h"
#include "test_workspace.h"

using namespace keyscope;

namespace {

RegionLoad region(int64_t id, std::string start, std::string end, int32_t server, uint64_t stored,
                  double writesPerSecond = 0) {
  RegionLoad r;
  r.regionId = id;
  r.startRow = std::move(start);
  r.endRow = std::move(end);
  r.server = server;
  r.storedBytes = stored;
  r.rawBytes = stored * 2;
  r.cells = stored / 10;
  r.storeFiles = 1;
  r.writesPerSecond = writesPerSecond;
  r.window.writes = static_cast<uint64_t>(writesPerSecond * 10);  // a 10 s window
  return r;
}

double width(const RegionSegment& s) { return s.right - s.left; }

// Runs a shell line against `ws`; fails the test on an error.
void runShell(Workspace& ws, const std::string& line) {
  shell::ShellSession session(ws);
  for (const shell::Statement& statement : shell::parseShell(line)) {
    QVERIFY2(statement.status.isOk(), statement.status.toString().c_str());
    Result<shell::CommandResult> result = session.execute(*statement.command);
    QVERIFY2(result.isOk(), result.status().toString().c_str());
  }
}

struct RegionShape {
  int64_t id;
  Bytes start, end;
  int32_t server;
  bool operator==(const RegionShape&) const = default;
};
std::vector<RegionShape> shapes(const Workspace& ws) {
  std::vector<RegionShape> out;
  // The Result is kept: a range-for over regions("t").value() would bind to
  // a member of a temporary that is gone when the loop starts.
  const Result<std::vector<RegionInfo>> regions = ws.regions("t");
  for (const RegionInfo& r : regions.value()) out.push_back({r.id, r.startRow, r.endRow, r.server});
  return out;
}

}  // namespace

class TestRegionBar : public QObject {
  Q_OBJECT

 private slots:
  void widthsFollowStoredBytes() {
    RegionBar bar;
    // Given out of key order: the bar draws them in key order.
    bar.setRegions({region(2, "g", "p", 0, 200), region(1, "", "g", 1, 100), region(3, "p", "", 2, 700)});
    QCOMPARE(bar.segments().size(), size_t(3));
    QCOMPARE(bar.segments()[0].regionId, int64_t(1));
    QCOMPARE(bar.segments()[2].regionId, int64_t(3));
    QVERIFY(qAbs(width(bar.segments()[0]) - 0.1) < 1e-9);
    QVERIFY(qAbs(width(bar.segments()[1]) - 0.2) < 1e-9);
    QVERIFY(qAbs(width(bar.segments()[2]) - 0.7) < 1e-9);
    QCOMPARE(bar.segments().back().right, 1.0);
    // One rectangle item per region, plus the selection frame.
    QCOMPARE(bar.plot()->itemCount(), 4);
  }

  void widthsFollowKeyRange() {
    RegionBar bar;
    bar.setSizing(RegionSizing::kKeyRange);
    // Boundaries share the prefix "k": the byte after it places them.
    bar.setRegions({region(1, "", "k\x40", 0, 1), region(2, "k\x40", "k\x80", 0, 999999), region(3, "k\x80", "", 0, 1)});
    QVERIFY(qAbs(width(bar.segments()[0]) - 0.25) < 1e-9);
    QVERIFY(qAbs(width(bar.segments()[1]) - 0.25) < 1e-9);
    QVERIFY(qAbs(width(bar.segments()[2]) - 0.5) < 1e-9);
  }

  void emptyRegionsKeepAMinimumWidth() {
    RegionBar bar;
    bar.setRegions({region(1, "", "b", 0, 0), region(2, "b", "", 0, 1000)});
    QVERIFY(qAbs(width(bar.segments()[0]) - RegionBar::kMinimumShare) < 1e-9);
    QVERIFY(qAbs(width(bar.segments()[1]) - (1 - RegionBar::kMinimumShare)) < 1e-9);
  }

  void coloursFollowLoadOnTheScale() {
    RegionBar bar;
    bar.setLoadMeasure(RegionLoadMeasure::kWrites);
    bar.setRegions({region(1, "", "b", 0, 10, 0), region(2, "b", "c", 0, 10, 5), region(3, "c", "", 0, 10, 10)});
    QCOMPARE(bar.loadScaleMaximum(), 100.0);  // writes in the window
    QCOMPARE(bar.colorScale()->dataRange().upper, 100.0);
    QVERIFY(bar.colorScale()->visible());
    QCPColorGradient gradient = bar.colorScale()->gradient();
    for (const RegionSegment& s : bar.segments())
      QCOMPARE(s.colour, QColor::fromRgba(gradient.color(s.load, QCPRange(0, 100))));
    QCOMPARE(bar.segments()[1].load, 50.0);
    QCOMPARE(bar.segments()[2].colour, QColor::fromRgba(gradient.color(100, QCPRange(0, 100))));
    QVERIFY(bar.segments()[0].colour != bar.segments()[2].colour);
    // A shared scale (two bars side by side): 100 of 200 is the middle colour.
    bar.setLoadScaleMaximum(200);
    QCOMPARE(bar.segments()[2].colour, QColor::fromRgba(gradient.color(100, QCPRange(0, 200))));
    QCOMPARE(bar.segments()[2].colour, bar.loadColour(100));
    // Reads: none recorded, so every segment has the idle colour.
    bar.setLoadScaleMaximum(std::nullopt);
    bar.setLoadMeasure(RegionLoadMeasure::kReads);
    for (const RegionSegment& s : bar.segments()) QCOMPARE(s.colour, bar.loadColour(0));
  }

  void serverGroupingAndColours() {
    RegionBar bar;
    bar.setRegions({region(1, "", "b", 2, 10), region(2, "b", "c", 0, 10), region(3, "c", "d", 1, 10),
                    region(4, "d", "", 0, 10)});
    bar.setGrouping(RegionGrouping::kByServer);
    std::vector<int64_t> order;
    for (const RegionSegment& s : bar.segments()) order.push_back(s.regionId);
    QCOMPARE(order, (std::vector<int64_t>{2, 4, 3, 1}));  // server 0 (key order), 1, 2
    const QStringList labels = bar.serverLabels();
    QCOMPARE(labels.size(), 3);
    QCOMPARE(labels.at(0), QStringLiteral("server 0\n2 regions"));
    QCOMPARE(labels.at(1), QStringLiteral("server 1\n1 region"));
    QCOMPARE(labels.at(2), QStringLiteral("server 2\n1 region"));
    auto ticker = qSharedPointerCast<QCPAxisTickerText>(bar.plot()->xAxis->ticker());
    QVERIFY(ticker != nullptr);  // the bar's axis names its servers with a text ticker
    QCOMPARE(ticker->ticks().size(), 3);
    QCOMPARE(ticker->ticks().value(0.25), QStringLiteral("server 0\n2 regions"));

    bar.setColouring(RegionColouring::kServer);
    QVERIFY(!bar.colorScale()->visible());
    QVERIFY(bar.plot()->legend->visible());
    QCOMPARE(bar.plot()->plotLayout()->element(0, 1), static_cast<QCPLayoutElement*>(bar.plot()->legend));
    QCOMPARE(bar.plot()->graphCount(), 3);  // one legend entry per server
    QCOMPARE(bar.segments()[0].colour, RegionBar::serverColour(0));
    QCOMPARE(bar.segments()[3].colour, RegionBar::serverColour(2));
    QVERIFY(RegionBar::serverColour(0) != RegionBar::serverColour(1));
    QVERIFY(RegionBar::serverColour(1) != RegionBar::serverColour(2));

    bar.setGrouping(RegionGrouping::kKeyOrder);
    QVERIFY(bar.serverLabels().isEmpty());
    QCOMPARE(bar.segments()[0].regionId, int64_t(1));
  }

  void hoverAndClick() {
    RegionBar bar;
    bar.resize(800, 160);
    bar.setRegions({region(1, "", std::string("m\x01", 2), 3, 100), region(2, std::string("m\x01", 2), "", 1, 100)});
    bar.plot()->replot();
    const QString text = bar.regionText(2);
    QVERIFY2(text.contains(QStringLiteral("Region 2 on server 1")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("'m\\x01'")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("the end of the table")), qPrintable(text));

    QSignalSpy selected(&bar, &RegionBar::regionSelected);
    const QRect area = bar.plot()->axisRect()->rect();
    const QPoint rightHalf(area.left() + area.width() * 3 / 4, area.center().y());
    QCOMPARE(bar.regionAt(rightHalf), std::optional<int64_t>(2));
    QTest::mouseClick(bar.plot(), Qt::LeftButton, {}, rightHalf);
    QCOMPARE(selected.count(), 1);
    QCOMPARE(selected.at(0).at(0).value<int64_t>(), int64_t(2));
    QCOMPARE(bar.selectedRegion(), std::optional<int64_t>(2));
  }

  void keysDecodeByTheSchema() {
    const KeySchema schema = KeySchema::parse("metric:utf8 | n:u32").value();
    const Bytes key = encodeKey(schema, {std::string("cpu"), uint64_t(7)}).value();
    QCOMPARE(RegionBar::keyText(key, schema), QStringLiteral("metric=\"cpu\" \u203a n=7"));
    // A boundary that is a prefix decodes as far as it goes.
    const Bytes prefix = encodeKey(schema, {std::string("mem")}).value();
    QVERIFY(RegionBar::keyText(prefix, schema).startsWith(QStringLiteral("metric=\"mem\"")));
    QCOMPARE(RegionBar::keyText(Bytes("a\x02", 2), std::nullopt), QStringLiteral("a\\x02"));
  }

  void tableModelAndSorting() {
    RegionTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(RegionTableModel::kSortRole);
    QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRegions({region(1, "", "b", 2, 300, 1), region(2, "b", "c", 0, 100, 9), region(3, "c", "", 1, 200, 4)},
                     std::nullopt);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.columnCount(), int(RegionTableModel::kColumnCount));
    QCOMPARE(model.index(0, RegionTableModel::kStart).data().toString(), QStringLiteral("(start)"));
    QCOMPARE(model.index(2, RegionTableModel::kEnd).data().toString(), QStringLiteral("(end)"));
    QCOMPARE(model.index(1, RegionTableModel::kServer).data().toString(), QStringLiteral("0"));
    QCOMPARE(model.headerData(RegionTableModel::kWritesPerSecond, Qt::Horizontal).toString(), QStringLiteral("Writes/s"));

    auto order = [&] {
      std::vector<qint64> ids;
      for (int row = 0; row < proxy.rowCount(); ++row)
        ids.push_back(proxy.index(row, 0).data(RegionTableModel::kRegionIdRole).toLongLong());
      return ids;
    };
    proxy.sort(RegionTableModel::kStored, Qt::DescendingOrder);
    QCOMPARE(order(), (std::vector<qint64>{1, 3, 2}));
    proxy.sort(RegionTableModel::kWritesPerSecond, Qt::DescendingOrder);
    QCOMPARE(order(), (std::vector<qint64>{2, 3, 1}));
    // The empty end sorts after every key, the empty start before.
    proxy.sort(RegionTableModel::kEnd, Qt::AscendingOrder);
    QCOMPARE(order(), (std::vector<qint64>{1, 2, 3}));
    proxy.sort(RegionTableModel::kStart, Qt::DescendingOrder);
    QCOMPARE(order(), (std::vector<qint64>{3, 2, 1}));
    QCOMPARE(model.rowOf(3), 2);
    QCOMPARE(model.rowOf(99), -1);
  }

  void lineageOfASplitAndAMerge() {
    // 1 splits into 2 and 3; 3 splits into 4 and 5; 4 and 5 merge into 6.
    auto entry = [](int64_t id, std::vector<int64_t> parents, RegionOrigin origin, int64_t at) {
      RegionHistoryEntry e;
      e.regionId = id;
      e.parents = std::move(parents);
      e.origin = origin;
      e.createdMillis = at;
      return e;
    };
    const std::vector<RegionHistoryEntry> history{
        entry(1, {}, RegionOrigin::kCreate, 0),          entry(2, {1}, RegionOrigin::kManualSplit, 10),
        entry(3, {1}, RegionOrigin::kManualSplit, 10),   entry(4, {3}, RegionOrigin::kSizeSplit, 20),
        entry(5, {3}, RegionOrigin::kSizeSplit, 20),     entry(6, {4, 5}, RegionOrigin::kMerge, 30)};
    const RegionLineage of6 = regionLineage(history, 6);
    std::vector<int64_t> ids;
    for (const LineageNode& n : of6.nodes) ids.push_back(n.entry.regionId);
    QCOMPARE(ids, (std::vector<int64_t>{1, 3, 4, 5, 6}));  // not 2: neither ancestor nor descendant
    QCOMPARE(of6.roots.size(), size_t(1));
    QCOMPARE(of6.nodes[of6.roots[0]].entry.regionId, int64_t(1));
    QVERIFY(of6.nodes.back().subject);
    // 6 hangs under both its parents.
    QCOMPARE(of6.nodes[2].children, std::vector<size_t>{4});
    QCOMPARE(of6.nodes[3].children, std::vector<size_t>{4});
    const RegionLineage of3 = regionLineage(history, 3);
    QCOMPARE(of3.nodes.size(), size_t(5));  // 1 above; 4, 5 and 6 below
    QVERIFY(regionLineage(history, 42).nodes.empty());
  }

  // Split, merge and balance from the view change the workspace as the
  // shell's commands do; the bar and the table follow; the lineage shows them.
  void actionsMatchTheShell() {
    QTemporaryDir dir;
    auto viewWs = test::openWorkspace(dir.filePath(QStringLiteral("view.ksw")));
    auto shellWs = test::openWorkspace(dir.filePath(QStringLiteral("shell.ksw")));
    for (Workspace* ws : {viewWs.get(), shellWs.get()}) test::fillNumberedTable(*ws, 3000, 0);

    JobRunner runner;
    RegionsView view(&runner);
    view.show();  // a hidden view reads its table only when shown
    view.resize(1200, 800);
    view.setWorkspace(viewWs.get());
    view.showTable(viewWs->describeTable("t").value());
    QTRY_VERIFY_WITH_TIMEOUT(!view.isLoading() && view.model()->rowCount() == 1, 30000);
    QAbstractItemModelTester tester(view.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    const int64_t first = view.snapshot().regions.front().regionId;
    QCOMPARE(view.selectedRegion(), std::optional<int64_t>(first));  // the busiest, the only one
    QVERIFY(view.detailsText().contains(QStringLiteral("Region %1").arg(first)));

    QSignalSpy changed(&view, &RegionsView::workspaceChanged);
    QSignalSpy finished(&view, &RegionsView::actionFinished);
    // A bad row is refused before anything runs, saying why.
    view.keyKindBox()->setCurrentIndex(view.keyKindBox()->findData(int(RowKeyInputKind::kHex)));
    view.splitSelected(QStringLiteral("zz"));
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.at(0).at(0).toBool(), false);
    QVERIFY2(view.statusText().contains(QStringLiteral("split row")), qPrintable(view.statusText()));
    QCOMPARE(changed.count(), 0);

    view.keyKindBox()->setCurrentIndex(view.keyKindBox()->findData(int(RowKeyInputKind::kEscaped)));
    view.splitSelected(QStringLiteral("row01000"));
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 2, 30000);
    QVERIFY2(finished.at(1).at(0).toBool(), qPrintable(view.statusText()));
    runShell(*shellWs, "split 't', 'row01000'");
    QCOMPARE(shapes(*viewWs), shapes(*shellWs));
    QCOMPARE(changed.count(), 1);
    QTRY_VERIFY_WITH_TIMEOUT(!view.isLoading() && view.model()->rowCount() == 2, 30000);
    QCOMPARE(view.bar()->segments().size(), size_t(2));

    // The first daughter is selected; its lineage is the table's first
    // region with the daughter under it, split at row01000.
    const std::vector<RegionInfo> daughters = viewWs->regions("t").value();
    QCOMPARE(view.selectedRegion(), std::optional<int64_t>(daughters.front().id));
    QCOMPARE(view.lineageTree()->topLevelItemCount(), 1);
    QTreeWidgetItem* root = view.lineageTree()->topLevelItem(0);
    QCOMPARE(root->text(0), QStringLiteral("region %1").arg(first));
    QCOMPARE(root->text(1), QStringLiteral("create"));
    QCOMPARE(root->childCount(), 1);
    QCOMPARE(root->child(0)->text(1), QStringLiteral("manual split"));
    QVERIFY2(root->child(0)->text(4).contains(QStringLiteral("row01000")), qPrintable(root->child(0)->text(4)));

    // Selection sync: the bar's click selects the table's row, and back.
    const int64_t second = daughters.back().id;
    emit view.bar()->regionSelected(second);
    QCOMPARE(view.selectedRegion(), std::optional<int64_t>(second));
    QModelIndexList rows = view.table()->selectionModel()->selectedRows();
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows[0].data(RegionTableModel::kRegionIdRole).toLongLong(), second);
    const QModelIndex firstRow = view.proxy()->mapFromSource(view.model()->index(view.model()->rowOf(daughters.front().id), 0));
    view.table()->selectionModel()->setCurrentIndex(firstRow, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    QCOMPARE(view.selectedRegion(), std::optional<int64_t>(daughters.front().id));
    QCOMPARE(view.bar()->selectedRegion(), std::optional<int64_t>(daughters.front().id));

    // Merge with the next region, as merge_region does.
    view.mergeSelected();
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 3, 30000);
    QVERIFY2(finished.at(2).at(0).toBool(), qPrintable(view.statusText()));
    runShell(*shellWs, "merge_region '" + std::to_string(daughters.front().id) + "', '" + std::to_string(second) + "'");
    QCOMPARE(shapes(*viewWs), shapes(*shellWs));
    QTRY_VERIFY_WITH_TIMEOUT(!view.isLoading() && view.model()->rowCount() == 1, 30000);
    const int64_t merged = viewWs->regions("t").value().front().id;
    QCOMPARE(view.selectedRegion(), std::optional<int64_t>(merged));
    // The merged region hangs under both daughters, which hang under the first region.
    root = view.lineageTree()->topLevelItem(0);
    QCOMPARE(root->childCount(), 2);
    const QTreeWidgetItem* firstDaughter = root->child(0);
    const QTreeWidgetItem* secondDaughter = root->child(1);
    QVERIFY(firstDaughter != nullptr && secondDaughter != nullptr);
    const QTreeWidgetItem* firstChild = firstDaughter->child(0);
    const QTreeWidgetItem* secondChild = secondDaughter->child(0);
    QVERIFY(firstChild != nullptr && secondChild != nullptr);
    QCOMPARE(firstChild->text(0), QStringLiteral("region %1").arg(merged));
    QCOMPARE(secondChild->text(1), QStringLiteral("merge"));

    // Servers and the balancer, as set_servers and balancer.
    view.applyServerCount(3);
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 4, 30000);
    runShell(*shellWs, "set_servers 3");
    QCOMPARE(viewWs->serverCount(), 3);
    view.balance();
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 5, 30000);
    runShell(*shellWs, "balancer");
    QCOMPARE(shapes(*viewWs), shapes(*shellWs));
    view.applyBalancerEnabled(false);
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 6, 30000);
    QVERIFY(!viewWs->balancerEnabled());
    view.balance();
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 7, 30000);
    // The message stays once the refresh that follows has settled.
    QTRY_VERIFY_WITH_TIMEOUT(!view.isLoading(), 30000);
    QVERIFY2(view.statusText().contains(QStringLiteral("switched off")), qPrintable(view.statusText()));

    // Merging the table's only region with a next one fails plainly.
    view.selectRegion(merged);
    view.mergeSelected();
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 8, 30000);
    QCOMPARE(finished.at(7).at(0).toBool(), false);
    QVERIFY2(view.statusText().contains(QStringLiteral("last region")), qPrintable(view.statusText()));

    // The numbers export.
    const QString csv = dir.filePath(QStringLiteral("regions.csv"));
    QVERIFY(view.exportCsv(csv).isOk());
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.readLine().startsWith("region,start_row,end_row,server"));
    QVERIFY(view.saveImage(dir.filePath(QStringLiteral("bar.png"))).isOk());

    view.setWorkspace(nullptr);
    runner.waitForDone();
  }

  // An action that finishes while a refresh is still reading keeps its
  // message for the refresh queued after it. (Its selection waits the same
  // way; balance keeps the current one, so only the message is checked.)
  void anActionOutlivesARefreshInFlight() {
    QTemporaryDir dir;
    auto ws = test::openWorkspace(dir.filePath(QStringLiteral("w.ksw")));
    test::fillNumberedTable(*ws, 3000, 0);
    QVERIFY(ws->setBalancerEnabled(false).isOk());

    JobRunner runner;
    RegionsView view(&runner);
    view.show();
    view.setWorkspace(ws.get());
    view.showTable(ws->describeTable("t").value());
    QTRY_VERIFY_WITH_TIMEOUT(!view.isLoading() && view.model()->rowCount() == 1, 30000);
    QSignalSpy finished(&view, &RegionsView::actionFinished);
    // Either may finish first; both orders must leave the same settled view.
    for (int round = 1; round <= 20; ++round) {
      view.refresh();
      view.balance();
      QTRY_VERIFY_WITH_TIMEOUT(finished.count() == round, 30000);
      QTRY_VERIFY_WITH_TIMEOUT(!view.isLoading(), 30000);
      QVERIFY2(view.statusText().startsWith(QStringLiteral("The balancer is switched off")),
               qPrintable(QStringLiteral("round %1: %2").arg(round).arg(view.statusText())));
    }
    view.setWorkspace(nullptr);
    runner.waitForDone();
  }
};

QTEST_MAIN(TestRegionBar)
#include "tst_region_bar.moc"
