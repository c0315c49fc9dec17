// Tests of the hotspot heatmap's drawing and view: known grids in, what is
// drawn checked (cell values in the QCPColorMap, boundary lines, key axis
// labels with their prefix hierarchy, the colour scale modes, zoom history,
// a click pinning its cell); then the Hotspots view over real workspaces
// written by the workload simulator (a monotonic run is diagnosed by its
// lead component, a salted one is not; the drill-through's scan returns
// exactly the pinned rows).
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <qcustomplot.h>

#include <memory>

#include "async/job_runner.h"
#include "hotspots/heatmap_chart.h"
#include "hotspots/hotspots_view.h"
#include "keyscope/workload.h"
#include "test_workspace.h"

using namespace keyscope;

namespace {

constexpr int64_t kStart = 1704067200000;

std::shared_ptr<HotspotSnapshot> knownSnapshot() {
  auto s = std::make_shared<HotspotSnapshot>();
  s->table = QStringLiteral("t");
  HeatGrid& g = s->grid;
  g.window = {kStart, kStart + 3000};
  g.columnMillis = 1000;
  g.columns = 3;
  g.metric = LoadMetric::kWrites;
  const char* labels[] = {"salt=0 \u203a ts=1", "salt=0 \u203a ts=2", "salt=1 \u203a ts=1", "salt=1 \u203a ts=2"};
  for (int b = 0; b < 4; ++b) {
    HeatGridBucket bucket;
    bucket.startRow = b == 0 ? Bytes() : Bytes(1, static_cast<char>('a' + b));
    if (b < 3) bucket.endRow = Bytes(1, static_cast<char>('a' + b + 1));
    bucket.label = labels[b];
    g.buckets.push_back(bucket);
  }
  // Row-major by bucket: bucket b, column c = 10 b + c (bucket 0, column 0: empty).
  for (int b = 0; b < 4; ++b)
    for (int c = 0; c < 3; ++c) g.values.push_back(10.0 * b + c);
  g.maxValue = 32;
  s->request.axis = KeyAxis::kEqualKeyCounts;
  s->boundaries = {{Bytes("b"), kStart + 1000, kStart + 3000, true},
                   {Bytes("c"), kStart, kStart + 3000, false},
                   {Bytes("zz"), kStart, kStart + 3000, false}};  // inside the last bucket
  return s;
}

struct ChartFixture {
  ChartFixture() {
    chart.resize(900, 600);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.setSnapshot(knownSnapshot());
    chart.plot()->replot();
  }
  HeatmapChart chart;
};

QPoint cellCentre(HeatmapChart& chart, size_t bucket, size_t column) {
  const double x = (kStart + 500 + 1000.0 * static_cast<double>(column)) / 1000.0;
  return QPoint(static_cast<int>(chart.plot()->xAxis->coordToPixel(x)),
                static_cast<int>(chart.plot()->yAxis->coordToPixel(static_cast<double>(bucket))));
}

void runWorkloadInto(Workspace& ws, const char* table, KeyDesign design) {
  WorkloadOptions options;
  options.table = table;
  options.keys.design = design;
  options.operations = 12000;
  options.rate = 400;  // 30 s of simulated time
  options.valueBytes = 60;
  options.newTable.memstoreFlushSize = 64 << 10;
  options.newTable.maxFileSize = 160 << 10;  // a few splits in 30 s
  if (design == KeyDesign::kSalted) options.newTable.preSplitRegions = 8;
  WorkloadSummary summary;
  test::check(runWorkload(ws, options, &summary), "workload");
}

}  // namespace

class TestHotspotChart : public QObject {
  Q_OBJECT

 private slots:
  void cellValuesAreTheGrid() {
    ChartFixture f;
    QCPColorMapData* data = f.chart.colorMap()->data();
    QCOMPARE(data->keySize(), 3);
    QCOMPARE(data->valueSize(), 4);
    for (int b = 0; b < 4; ++b)
      for (int c = 0; c < 3; ++c) QCOMPARE(data->cell(c, b), 10.0 * b + c);
    // Cell centres: one per second of the window, one per bucket.
    QCOMPARE(data->keyRange().lower, (kStart + 500) / 1000.0);
    QCOMPARE(data->keyRange().upper, (kStart + 2500) / 1000.0);
    QCOMPARE(data->valueRange().upper, 3.0);
  }

  void boundaryLinesStartAtTheirSplit() {
    ChartFixture f;
    QCOMPARE(f.chart.boundaryLineCount(), 3);
    int lines = 0;
    for (int i = 0; i < f.chart.plot()->itemCount(); ++i) {
      auto* line = qobject_cast<QCPItemLine*>(f.chart.plot()->item(i));
      if (!line) continue;
      ++lines;
      if (line->start->coords().y() == 0.5) QCOMPARE(line->start->coords().x(), (kStart + 1000) / 1000.0);
    }
    QCOMPARE(lines, 3);
    // A new snapshot without boundaries removes them.
    auto empty = knownSnapshot();
    empty->boundaries.clear();
    f.chart.setSnapshot(empty);
    QCOMPARE(f.chart.boundaryLineCount(), 0);
  }

  void keyAxisLabelsShowThePrefixHierarchy() {
    ChartFixture f;
    QCOMPARE(f.chart.keyAxisLabels(),
             (QStringList{QStringLiteral("salt=0 \u203a ts=1"), QStringLiteral("\u203a ts=2"),
                          QStringLiteral("salt=1 \u203a ts=1"), QStringLiteral("\u203a ts=2")}));
    QVERIFY(f.chart.plot()->yAxis->rangeReversed());  // the first key at the top
  }

  void colourScaleModes() {
    ChartFixture f;
    QCOMPARE(f.chart.colorMap()->dataRange().upper, 32.0);
    QCOMPARE(f.chart.colorMap()->dataScaleType(), QCPAxis::stLinear);
    QVERIFY(f.chart.colorScale()->visible());

    f.chart.setScaleMode(HeatScaleMode::kAbsolute);
    f.chart.setHotValue(12);
    QCOMPARE(f.chart.colorMap()->dataRange(), QCPRange(0, 12));
    const QCPAxis* scaleAxis = f.chart.colorScale()->axis();
    QVERIFY(scaleAxis != nullptr);
    QVERIFY(scaleAxis->label().contains(QStringLiteral("hot at 12")));

    f.chart.setScaleMode(HeatScaleMode::kLogarithmic);
    QCOMPARE(f.chart.colorMap()->dataScaleType(), QCPAxis::stLogarithmic);
    QCOMPARE(f.chart.colorMap()->dataRange(), QCPRange(1, 32));
    QCOMPARE(f.chart.colorMap()->data()->cell(0, 0), 1.0);  // the empty cell sits at the floor
    QCOMPARE(f.chart.colorMap()->data()->cell(2, 3), 32.0);

    f.chart.setScaleMode(HeatScaleMode::kRelative);
    QCOMPARE(f.chart.colorMap()->data()->cell(0, 0), 0.0);
    QCOMPARE(f.chart.colorMap()->dataScaleType(), QCPAxis::stLinear);
  }

  void brightnessLiftsFaintCells() {
    ChartFixture f;
    const QCPRange unit(0, 1);
    const QColor normal = QColor::fromRgb(f.chart.colorMap()->gradient().color(0.2, unit));
    f.chart.setBrightness(2);
    const QColor bright = QColor::fromRgb(f.chart.colorMap()->gradient().color(0.2, unit));
    QVERIFY2(bright.lightness() > normal.lightness(), qPrintable(bright.name() + " vs " + normal.name()));
    QCOMPARE(f.chart.colorMap()->data()->cell(1, 1), 11.0);  // the numbers stay
  }

  void zoomBackAndReset() {
    ChartFixture f;
    const QCPRange full = f.chart.plot()->xAxis->range();
    QVERIFY(!f.chart.canZoomBack());
    f.chart.zoomTo((kStart + 1000) / 1000.0, (kStart + 2000) / 1000.0, 0.5, 2.5);
    QCOMPARE(f.chart.plot()->xAxis->range(), QCPRange((kStart + 1000) / 1000.0, (kStart + 2000) / 1000.0));
    f.chart.zoomTo((kStart + 1200) / 1000.0, (kStart + 1800) / 1000.0, 1, 2);
    QVERIFY(f.chart.zoomBack());
    QCOMPARE(f.chart.plot()->yAxis->range(), QCPRange(0.5, 2.5));
    f.chart.resetZoom();
    QCOMPARE(f.chart.plot()->xAxis->range(), full);
    QVERIFY(!f.chart.zoomBack());
    // A live refresh of the same table keeps a zoom, another table resets it.
    f.chart.zoomTo((kStart + 1000) / 1000.0, (kStart + 2000) / 1000.0, 0.5, 2.5);
    f.chart.setSnapshot(knownSnapshot());
    QCOMPARE(f.chart.plot()->yAxis->range(), QCPRange(0.5, 2.5));
    auto other = knownSnapshot();
    other->table = QStringLiteral("u");
    f.chart.setSnapshot(other);
    QCOMPARE(f.chart.plot()->xAxis->range(), full);
  }

  void clickPinsTheCellAndBrushCoversAnArea() {
    ChartFixture f;
    QSignalSpy pinned(&f.chart, &HeatmapChart::pinned);
    const QPoint at = cellCentre(f.chart, 2, 1);
    QCOMPARE(f.chart.cellAt(at).value(), std::pair(size_t{2}, size_t{1}));
    QTest::mouseClick(f.chart.plot(), Qt::LeftButton, Qt::NoModifier, at);
    QCOMPARE(pinned.count(), 1);
    const GridArea area = f.chart.pinnedArea().value();
    QCOMPARE(area.firstBucket, size_t{2});
    QCOMPARE(area.lastColumn, size_t{1});
    QVERIFY(pinned.at(0).at(1).toString().contains(QStringLiteral("salt=1 \u203a ts=1")));
    QVERIFY(pinned.at(0).at(1).toString().contains(QStringLiteral("writes: 21")));
    // A brush from the centre of (1, 0) to the centre of (3, 2) covers buckets 1-3, columns 0-2.
    const std::optional<GridArea> brushed = f.chart.areaAt(QRectF(cellCentre(f.chart, 1, 0), cellCentre(f.chart, 3, 2)));
    QVERIFY(brushed.has_value());
    QCOMPARE(brushed->firstBucket, size_t{1});
    QCOMPARE(brushed->lastBucket, size_t{3});
    QCOMPARE(brushed->firstColumn, size_t{0});
    QCOMPARE(brushed->lastColumn, size_t{2});
    QTest::keyClick(&f.chart, Qt::Key_Escape);
    QVERIFY(!f.chart.pinnedArea().has_value());
  }

  void viewDiagnosesAMonotonicKeyAndDrillsIntoItsRows() {
    QTemporaryDir dir;
    auto ws = test::openWorkspace(dir.filePath(QStringLiteral("w.ksw")));
    runWorkloadInto(*ws, "mono", KeyDesign::kMonotonic);
    JobRunner runner;
    HotspotsView view(&runner);
    view.resize(1200, 800);
    view.show();
    view.setWorkspace(ws.get());
    view.showTable(ws->describeTable("mono").value());
    QTRY_VERIFY_WITH_TIMEOUT(!view.isLoading() && view.chart()->snapshot() != nullptr, 30000);
    const HotspotSnapshot& s = *view.chart()->snapshot();
    QVERIFY2(s.error.isEmpty(), qPrintable(s.error));
    QVERIFY(!s.noLoad);
    QCOMPARE(s.grid.columns, 30u);  // the window fits the run: 30 one-second columns
    QVERIFY(!s.diagnostics.empty());
    QCOMPARE(s.diagnostics[0].kind, HotspotDiagnostic::Kind::kMonotonicDiagonal);
    QCOMPARE(s.diagnostics[0].component, QStringLiteral("ts"));
    QVERIFY(view.chart()->boundaryLineCount() >= 1);  // the run split

    // Pin the hottest cell of column 10 and open its rows.
    size_t hot = 0;
    for (size_t b = 0; b < s.grid.buckets.size(); ++b)
      if (s.grid.at(b, 10) > s.grid.at(hot, 10)) hot = b;
    view.chart()->pin({hot, hot, 10, 10});
    const Result<DrillThrough> drill = view.pinnedDrillThrough();
    QVERIFY(drill.isOk());
    QSignalSpy spy(&view, &HotspotsView::drillThroughRequested);
    auto* show = view.findChild<QPushButton*>(QString(), Qt::FindChildrenRecursively);
    for (QPushButton* b : view.findChildren<QPushButton*>())
      if (b->text() == QStringLiteral("Show these rows")) show = b;
    QVERIFY(show->isEnabled());
    show->click();
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toString(), QStringLiteral("mono"));
    const ScanOptions scan = spy.at(0).at(1).value<ScanOptions>();
    QCOMPARE(scan.timeRange, drill.value().scan.timeRange);
    QVERIFY(spy.at(0).at(2).toString().startsWith(QStringLiteral("scan 'mono', {STARTROW => ")));
    // The scan's rows are the bucket's, written in that second.
    Result<std::unique_ptr<Scanner>> scanner = ws->scan("mono", scan);
    QVERIFY(scanner.isOk());
    RowResult row;
    int rows = 0;
    while (scanner.value()->next(&row)) {
      ++rows;
      QVERIFY(row.row >= s.grid.buckets[hot].startRow);
      QVERIFY(s.grid.buckets[hot].endRow.empty() || row.row < s.grid.buckets[hot].endRow);
      for (const Cell& cell : row.cells) {
        QVERIFY(cell.timestamp >= scan.timeRange.min);
        QVERIFY(cell.timestamp < scan.timeRange.max);
      }
    }
    QVERIFY(scanner.value()->status().isOk());
    QVERIFY(rows > 0);
    view.setWorkspace(nullptr);
  }

  void viewFindsNoHotspotInASaltedKeyAndFoldsItsSalt() {
    QTemporaryDir dir;
    auto ws = test::openWorkspace(dir.filePath(QStringLiteral("w.ksw")));
    runWorkloadInto(*ws, "salted", KeyDesign::kSalted);
    JobRunner runner;
    HotspotsView view(&runner);
    view.resize(1200, 800);
    view.setWorkspace(ws.get());
    view.showTable(ws->describeTable("salted").value());
    // Hidden, the view computes nothing (a click in the tree costs no query
    // for a tab nobody looks at); shown, it computes the table's grid.
    QVERIFY(!view.isLoading());
    QTest::qWait(50);
    QVERIFY(view.chart()->snapshot() == nullptr);
    view.show();
    QVERIFY(view.isLoading());
    QTRY_VERIFY_WITH_TIMEOUT(!view.isLoading() && view.chart()->snapshot() != nullptr, 30000);
    QVERIFY2(view.chart()->snapshot()->diagnostics.empty(), qPrintable(view.diagnosticsText()));
    QVERIFY(view.chart()->boundaryLineCount() >= 7);  // the pre-split boundaries, from the start

    view.setFoldSalt(true);
    QTRY_VERIFY_WITH_TIMEOUT(!view.isLoading() && view.chart()->snapshot()->request.foldSalt, 30000);
    const HotspotSnapshot& folded = *view.chart()->snapshot();
    QVERIFY2(folded.error.isEmpty(), qPrintable(folded.error));
    QVERIFY(!folded.grid.buckets.front().keyRange);
    QCOMPARE(view.chart()->boundaryLineCount(), 0);  // boundaries are key ranges: none on a folded axis
    QVERIFY(!QString::fromStdString(folded.grid.buckets.front().label).contains(QStringLiteral("salt=")));
    view.chart()->pin({0, 0, 0, 0});
    QVERIFY(!view.pinnedDrillThrough().isOk());  // a folded bucket is many key ranges
    view.setWorkspace(nullptr);
  }

  void viewSaysWhatIsWrong() {
    QTemporaryDir dir;
    auto ws = test::openWorkspace(dir.filePath(QStringLiteral("w.ksw")));
    test::fillNumberedTable(*ws, 10, 5);
    JobRunner runner;
    HotspotsView view(&runner);
    view.setWorkspace(ws.get());
    view.show();
    TableOptions missing;
    missing.name = "nope";
    view.showTable(missing);
    QTRY_VERIFY_WITH_TIMEOUT(!view.isLoading() && view.statusText().contains(QStringLiteral("nope")), 30000);
    QVERIFY(view.statusText().startsWith(QStringLiteral("No heatmap for nope")));
    view.setWorkspace(nullptr);
  }
};

QTEST_MAIN(TestHotspotChart)
#include "tst_hotspot_chart.moc"
