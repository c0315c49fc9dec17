// Tests of the workload lab (widgets/workload) on real workspace files: a
// single run creates its table and the live view shows its servers and
// regions; pause, resume and stop; an A/B run of monotonic vs salted gives
// a summary in which monotonic's busiest server takes more than salted's,
// salted's typical read takes one scan per bucket, the charts get data, and
// the scratch workspaces lie where the lab says.
#include <QDir>
#include <QFileInfo>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <qcustomplot.h>

#include "async/job_runner.h"
#include "hotspots/heatmap_chart.h"
#include "keyscope/workload.h"
#include "regions/region_bar.h"
#include "test_workspace.h"
#include "workload/ab_summary.h"
#include "workload/run_panel.h"
#include "workload/workload_form.h"
#include "workload/workload_lab.h"

using namespace keyscope;

namespace {

constexpr int kRunTimeoutMs = 120000;  // a generous bound for a slow sanitizer build; not a timing check

int pointCount(QCustomPlot* plot) {
  int points = 0;
  for (int i = 0; i < plot->graphCount(); ++i) points += plot->graph(i)->data()->size();
  return points;
}

}  // namespace

class TestWorkloadLab : public QObject {
  Q_OBJECT

 private slots:
  void singleRunCreatesTheTableAndShowsServersAndRegions();
  void pauseResumeAndStop();
  void abRunComparesMonotonicWithSalted();
  void singleRunNeedsAWorkspace();
  void fanOutOfATimeLedAndASaltedKey();
};

void TestWorkloadLab::singleRunCreatesTheTableAndShowsServersAndRegions() {
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("lab.ksw"));
  std::unique_ptr<Workspace> ws = test::openWorkspace(path);
  JobRunner runner;
  WorkloadLab lab(&runner);
  lab.setWorkspace(ws.get(), path);
  QSignalSpy written(&lab, &WorkloadLab::workspaceChanged);
  QVERIFY(lab.form()->applyPreset(QStringLiteral("salted")));
  lab.form()->setOperations(4000);
  lab.form()->setSpeed(0);
  QVERIFY(lab.startSingle());
  QVERIFY(lab.isRunning());
  QTRY_VERIFY_WITH_TIMEOUT(!lab.isRunning(), kRunTimeoutMs);
  QVERIFY2(lab.lastError().isEmpty(), qPrintable(lab.lastError()));

  QCOMPARE(lab.lastTable(), QStringLiteral("workload_salted"));
  QCOMPARE(written.count(), 1);
  QVERIFY(ws->tableExists("workload_salted"));
  Result<TableOptions> table = ws->describeTable("workload_salted");
  QVERIFY(table.isOk());
  QCOMPARE(QString::fromStdString(table.value().keySchema), QStringLiteral("salt:salt(8, ts) | ts:i64 | event:u64"));
  // The live view: one line per server with points, the table's regions in the bar.
  RunPanel* panel = lab.panel(0);
  QCOMPARE(panel->serverChart()->graphCount(), ws->serverCount());
  QVERIFY(pointCount(panel->serverChart()) >= ws->serverCount() * 4);  // 4 simulated seconds
  QCOMPARE(panel->regionBar()->segments().size(), size_t{8});             // pre-split at the 8 buckets
  QVERIFY(panel->heatmap()->snapshot() != nullptr);
  QVERIFY(panel->heatmap()->snapshot()->grid.maxValue > 0);

  // A second run into the same workspace gets a table of its own.
  QVERIFY(lab.startSingle());
  QTRY_VERIFY_WITH_TIMEOUT(!lab.isRunning(), kRunTimeoutMs);
  QCOMPARE(lab.lastTable(), QStringLiteral("workload_salted_2"));
  QVERIFY(ws->tableExists("workload_salted_2"));
  lab.setWorkspace(nullptr, {});
}

void TestWorkloadLab::pauseResumeAndStop() {
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("lab.ksw"));
  std::unique_ptr<Workspace> ws = test::openWorkspace(path);
  JobRunner runner;
  WorkloadLab lab(&runner);
  lab.setWorkspace(ws.get(), path);
  QVERIFY(lab.form()->applyPreset(QStringLiteral("monotonic")));
  lab.form()->setSpeed(1);  // real time: 100 s planned, far longer than the test waits
  QVERIFY(lab.startSingle());
  // Live: the panel has its first snapshot while the run goes on.
  QTRY_VERIFY_WITH_TIMEOUT(lab.panel(0)->hasSnapshot(), kRunTimeoutMs);
  QVERIFY(lab.isRunning());
  lab.pause();
  QVERIFY(lab.isPaused());
  QTRY_VERIFY_WITH_TIMEOUT(lab.panel(0)->statusText().contains(QStringLiteral("paused")), kRunTimeoutMs);
  lab.resume();
  QVERIFY(!lab.isPaused());
  QVERIFY(lab.isRunning());
  lab.stop();
  QTRY_VERIFY_WITH_TIMEOUT(!lab.isRunning(), kRunTimeoutMs);
  QVERIFY2(lab.panel(0)->statusText().startsWith(QStringLiteral("Stopped after")),
           qPrintable(lab.panel(0)->statusText()));
  // What was written stays, and the table is there for the other views.
  QVERIFY(ws->tableExists("workload_monotonic"));
  Result<uint64_t> rows = ws->count("workload_monotonic", ScanOptions{});
  QVERIFY(rows.isOk());
  QVERIFY(rows.value() > 0);
  QVERIFY(rows.value() < kDefaultOperations);
}

void TestWorkloadLab::abRunComparesMonotonicWithSalted() {
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("open.ksw"));
  std::unique_ptr<Workspace> ws = test::openWorkspace(path);
  JobRunner runner;
  WorkloadLab lab(&runner);
  lab.setWorkspace(ws.get(), path);
  lab.form()->setOperations(20000);
  lab.form()->setSpeed(0);
  QSignalSpy open(&lab, &WorkloadLab::openWorkspaceRequested);
  QVERIFY(lab.startAb(QStringLiteral("monotonic"), QStringLiteral("salted")));
  QTRY_VERIFY_WITH_TIMEOUT(!lab.isRunning(), kRunTimeoutMs);
  QVERIFY2(lab.lastError().isEmpty(), qPrintable(lab.lastError()));

  // The scratch workspaces: next to the open one, in open.ab/, one per design.
  const QStringList scratch = lab.scratchPaths();
  QCOMPARE(scratch.size(), 2);
  QCOMPARE(QFileInfo(scratch[0]).absoluteFilePath(), QDir(dir.filePath(QStringLiteral("open.ab"))).filePath(QStringLiteral("A-monotonic.ksw")));
  QCOMPARE(QFileInfo(scratch[1]).fileName(), QStringLiteral("B-salted.ksw"));
  QVERIFY(QFileInfo::exists(scratch[0]));
  QVERIFY(QFileInfo::exists(scratch[1]));
  QVERIFY(!ws->tableExists("workload"));  // the open workspace is left alone

  const std::optional<std::array<RunFigures, 2>> figures = lab.abFigures();
  QVERIFY(figures.has_value());
  const RunFigures& a = (*figures)[0];
  const RunFigures& b = (*figures)[1];
  QCOMPARE(a.design, QStringLiteral("monotonic"));
  QCOMPARE(b.design, QStringLiteral("salted"));
  QVERIFY2(a.hottestServerShare > b.hottestServerShare,
           qPrintable(QStringLiteral("%1 vs %2").arg(a.hottestServerShare).arg(b.hottestServerShare)));
  QVERIFY(a.hotspot());
  QVERIFY(!b.hotspot());
  QCOMPARE(b.fanOut.scans, 8u);    // the preset's 8 salt buckets: 8 scans
  QCOMPARE(b.fanOut.regions, 8u);  // pre-split at the buckets: one region each
  QCOMPARE(a.fanOut.scans, 1u);
  QCOMPARE(a.fanOut.regions, 1u);
  QVERIFY(!a.verdict.isEmpty());
  QVERIFY(!b.verdict.isEmpty());
  const QString summary = lab.summaryText();
  QVERIFY2(summary.contains(QStringLiteral("A (monotonic) sends")), qPrintable(summary));
  QVERIFY(summary.contains(QStringLiteral("8 scans")));

  // Both panels drew their runs, on one colour scale and one time span.
  for (int i = 0; i < 2; ++i) {
    RunPanel* panel = lab.panel(i);
    QCOMPARE(panel->serverChart()->graphCount(), 4);
    QVERIFY(pointCount(panel->serverChart()) >= 4 * 20);  // 20 simulated seconds
    QVERIFY(!panel->regionBar()->segments().empty());
    QCOMPARE(panel->heatmap()->scaleMode(), HeatScaleMode::kAbsolute);
  }
  QCOMPARE(lab.panel(0)->heatmap()->hotValue(), lab.panel(1)->heatmap()->hotValue());
  QCOMPARE(lab.panel(0)->serverChart()->xAxis->range().upper, lab.panel(1)->serverChart()->xAxis->range().upper);
  QCOMPARE(lab.panel(0)->serverChart()->yAxis->range().upper, lab.panel(1)->serverChart()->yAxis->range().upper);
  QCOMPARE(lab.panel(1)->regionBar()->segments().size(), size_t{8});

  // Charts and numbers to files.
  QVERIFY(lab.saveCharts(dir.filePath(QStringLiteral("ab.png"))).isOk());
  QVERIFY(QFileInfo(dir.filePath(QStringLiteral("ab-A-heatmap.png"))).size() > 0);
  QVERIFY(QFileInfo(dir.filePath(QStringLiteral("ab-B-servers.png"))).size() > 0);
  QVERIFY(lab.exportCsv(dir.filePath(QStringLiteral("ab.csv"))).isOk());
  QFile csv(dir.filePath(QStringLiteral("ab-summary.csv")));
  QVERIFY(csv.open(QIODevice::ReadOnly));
  QVERIFY(csv.readAll().contains("typical_read_scans,1,8"));

  // "Open A's workspace": asked for once the lab has let go of the file,
  // which then opens as a workspace holding the run's table.
  lab.openScratchWorkspace(0);
  QTRY_COMPARE_WITH_TIMEOUT(open.count(), 1, kRunTimeoutMs);
  QCOMPARE(open.at(0).at(0).toString(), scratch[0]);
  std::unique_ptr<Workspace> opened = test::openWorkspace(scratch[0]);
  QVERIFY(opened->tableExists("workload"));
  QCOMPARE(opened->describeTable("workload").value().keySchema, std::string("ts:i64 | event:u64"));
  lab.setWorkspace(nullptr, {});
}

void TestWorkloadLab::singleRunNeedsAWorkspace() {
  JobRunner runner;
  WorkloadLab lab(&runner);
  QVERIFY(!lab.startSingle());
  QVERIFY(lab.lastError().contains(QStringLiteral("Open a workspace")));
  QVERIFY(!lab.isRunning());
  QVERIFY(!lab.startAb(QStringLiteral("monotonic"), QStringLiteral("no-such-preset")));
  QVERIFY2(lab.lastError().startsWith(QStringLiteral("B: ")), qPrintable(lab.lastError()));
}

void TestWorkloadLab::fanOutOfATimeLedAndASaltedKey() {
  // Regions of a salted table split inside bucket 3: a time range read
  // there touches both halves only when the range spans the split.
  Result<KeySchema> salted = KeySchema::parse("salt:salt(4, ts) | ts:i64 | event:u64");
  QVERIFY(salted.isOk());
  std::vector<RegionLoad> regions;
  auto region = [](int64_t id, Bytes start, Bytes end) {
    RegionLoad r;
    r.regionId = id;
    r.startRow = std::move(start);
    r.endRow = std::move(end);
    return r;
  };
  regions.push_back(region(1, "", "\x01"));
  regions.push_back(region(2, "\x01", "\x02"));
  regions.push_back(region(3, "\x02", "\x03"));
  regions.push_back(region(4, "\x03", ""));
  const ScanFanOut out = typicalScanFanOut(salted.value(), regions, TimeWindow{1000, 2000});
  QCOMPARE(out.scans, 4u);
  QCOMPARE(out.regions, 4u);
  QVERIFY(!out.wholeTable);

  Result<KeySchema> timeLed = KeySchema::parse("ts:i64 | event:u64");
  QVERIFY(timeLed.isOk());
  const ScanFanOut one = typicalScanFanOut(timeLed.value(), {region(1, "", "")}, TimeWindow{1000, 2000});
  QCOMPARE(one.scans, 1u);
  QCOMPARE(one.regions, 1u);

  Result<KeySchema> random = KeySchema::parse("key:u64");
  QVERIFY(random.isOk());
  const ScanFanOut whole = typicalScanFanOut(random.value(), regions, TimeWindow{1000, 2000});
  QVERIFY(whole.wholeTable);
  QCOMPARE(whole.regions, 4u);
}

QTEST_MAIN(TestWorkloadLab)
#include "tst_workload_lab.moc"
