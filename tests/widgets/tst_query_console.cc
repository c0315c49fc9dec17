// Qt Test for the query console over a real workspace file: the form and
// the shell line round-trip every get and scan option; a line that does not
// parse shows where and runs nothing; completion offers commands, tables,
// families and filter names; the history survives in QSettings; a large
// scan streams into the grid in several batches, Cancel stops it and the
// console runs again; other commands show the shell's text; a write tells
// the window to reload. GUI thread, work on the job runner.
#include <QAbstractItemModelTester>
#include <QCompleter>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStringListModel>
#include <QTemporaryDir>
#include <QTest>

#include <limits>
#include <memory>

#include "async/job_runner.h"
#include "console/query_console.h"
#include "console/query_form.h"
#include "console/query_line.h"
#include "console/query_result_model.h"
#include "console/shell_completion.h"
#include "console/shell_line_edit.h"
#include "keyscope/filter.h"
#include "test_workspace.h"

using namespace keyscope;

namespace {

constexpr int kRows = 5000;  // 3 cells each: 15 batches of kCellsPerBatch

QuerySpec richScan() {
  QuerySpec spec;
  spec.kind = QueryKind::kScan;
  spec.table = "t";
  spec.startRow = std::string("row\x00" "1", 5);
  spec.startInclusive = false;
  spec.stopRow = "row04000\"'#{x}";
  spec.stopInclusive = true;
  spec.reversed = false;
  spec.raw = true;
  spec.limit = 250;
  spec.batch = 7;
  spec.columns = {{"d", std::nullopt, std::nullopt},
                  {"d", Bytes("count"), shell::ValueFormatter::kToLong},
                  {"m", Bytes("ex,tra\xff"), std::nullopt}};
  spec.timeRange = {1001, 1003};
  spec.versions = 3;
  spec.filter = "ValueFilter (!=, 'binary:x') AND KeyOnlyFilter ()";
  spec.maxResultsPerFamily = 2;
  spec.rowOffsetPerFamily = 1;
  spec.cacheBlocks = false;
  spec.now = 1767225600000;
  spec.formatter = shell::ValueFormatter::kToHex;
  return spec;
}

QuerySpec richGet() {
  QuerySpec spec;
  spec.kind = QueryKind::kGet;
  spec.table = "t";
  spec.row = "row00042";
  spec.columns = {{"d", Bytes("name"), shell::ValueFormatter::kToString}};
  spec.timestamp = 1002;
  spec.versions = 5;
  spec.filter = "QualifierFilter (=, 'binary:name')";
  spec.maxResultsPerFamily = 1;
  spec.now = 5;
  spec.formatter = shell::ValueFormatter::kToString;
  return spec;
}

// The spec's filter as the engine writes it back (the form shows that).
QuerySpec normalised(QuerySpec spec) {
  if (!spec.filter.empty()) spec.filter = parseFilter(spec.filter).value()->toString();
  return spec;
}

}  // namespace

class TestQueryConsole : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir m_dir;
  std::unique_ptr<Workspace> m_ws;

  std::unique_ptr<QSettings> scratchSettings(const QString& name) {
    return std::make_unique<QSettings>(m_dir.filePath(name), QSettings::IniFormat);
  }

 private slots:
  void initTestCase() {
    QVERIFY(m_dir.isValid());
    m_ws = test::openWorkspace(m_dir.filePath(QStringLiteral("console.ksw")));
    test::fillNumberedTable(*m_ws, kRows, kRows / 2);
  }

  void richScanSurvivesFormLineForm() {
    const QuerySpec spec = normalised(richScan());
    const std::string line = queryLine(spec);
    QVERIFY2(line.find("# console:") != std::string::npos, line.c_str());
    const ConsoleLine parsed = parseConsoleLine(line);
    QVERIFY2(parsed.status.isOk(), parsed.status.message().c_str());
    QVERIFY2(parsed.spec.has_value(), parsed.formCannotHold.c_str());
    QVERIFY(*parsed.spec == spec);
    // The command the line runs has every option.
    const auto& scan = std::get<shell::ScanCommand>(parsed.commands.front());
    QCOMPARE(scan.options.startRow, spec.startRow);
    QVERIFY(!scan.options.startInclusive);
    QVERIFY(scan.options.stopInclusive);
    QCOMPARE(scan.options.now.value(), int64_t{1767225600000});
    QCOMPARE(scan.options.maxResultsPerFamily, 2);
    QCOMPARE(scan.options.rowOffsetPerFamily, 1);
    QCOMPARE(scan.options.batch, 7);
    QCOMPARE(scan.options.limit, int64_t{250});
    QVERIFY(scan.options.raw);
    QVERIFY(!scan.options.cacheBlocks);
    QCOMPARE(scan.options.columns.size(), size_t{3});
    QCOMPARE(scan.format.formatterFor("d", "count"), shell::ValueFormatter::kToLong);

    // Through the form's widgets too.
    QueryForm form;
    form.setSpec(spec);
    QString problem;
    const std::optional<QuerySpec> back = form.spec(&problem);
    QVERIFY2(back.has_value(), qPrintable(problem));
    QCOMPARE(queryLine(*back), line);
    QVERIFY(*back == spec);
  }

  void prefixScanReversedSurvives() {
    QuerySpec spec;
    spec.table = "t";
    spec.rowPrefix = "row01";
    spec.reversed = true;
    const ConsoleLine parsed = parseConsoleLine(queryLine(spec));
    QVERIFY(parsed.spec.has_value());
    QVERIFY(*parsed.spec == spec);
    QVERIFY(queryLine(spec).find("ROWPREFIXFILTER => 'row01'") != std::string::npos);
  }

  void richGetSurvivesFormLineForm() {
    const QuerySpec spec = normalised(richGet());
    const ConsoleLine parsed = parseConsoleLine(queryLine(spec));
    QVERIFY2(parsed.status.isOk(), parsed.status.message().c_str());
    QVERIFY(parsed.spec.has_value());
    QVERIFY(*parsed.spec == spec);
    QueryForm form;
    form.setSpec(spec);
    QVERIFY(form.spec().value() == spec);
    const auto& get = std::get<shell::GetCommand>(parsed.commands.front());
    QCOMPARE(get.options.timeRange, TimeRange::at(1002));
    QCOMPARE(get.options.now.value(), int64_t{5});
  }

  void aLineTheFormCannotHoldRunsAsWritten() {
    const ConsoleLine parsed = parseConsoleLine("scan 't', {LIMIT => 3, MAXLENGTH => 4}");
    QVERIFY(parsed.status.isOk());
    QVERIFY(parsed.isSingleRead());
    QVERIFY(!parsed.spec.has_value());
    QCOMPARE(parsed.formCannotHold, std::string("MAXLENGTH"));
  }

  void parseErrorsSayWhere() {
    ConsoleLine parsed = parseConsoleLine("scan 't', {LIMT => 1}");
    QVERIFY(!parsed.status.isOk());
    QCOMPARE(parsed.errorColumn, 12);
    parsed = parseConsoleLine("scan 't'  # console: NOW => soon");
    QVERIFY(!parsed.status.isOk());
    QCOMPARE(parsed.errorColumn, 29);
    QVERIFY(parsed.status.message().find("NOW") != std::string::npos);
    parsed = parseConsoleLine("describe 't'  # console: NOW => 1");
    QVERIFY(!parsed.status.isOk());
    // An ordinary comment is the shell's business.
    QVERIFY(parseConsoleLine("scan 't'  # just a note").status.isOk());
  }

  void completionOffersCommandsTablesFamiliesAndFilters() {
    CompletionSources sources;
    sources.tables = {QStringLiteral("t"), QStringLiteral("taxis"), QStringLiteral("web")};
    sources.families.insert(QStringLiteral("t"), {QStringLiteral("d"), QStringLiteral("m")});
    Completion c = completeShellLine(QStringLiteral("sc"), 2, sources);
    QCOMPARE(c.candidates, QStringList{QStringLiteral("scan")});
    QCOMPARE(c.start, 0);
    c = completeShellLine(QStringLiteral("scan 't"), 7, sources);
    QCOMPARE(c.candidates, (QStringList{QStringLiteral("t"), QStringLiteral("taxis")}));
    QCOMPARE(c.start, 6);
    const QString get = QStringLiteral("get 't', 'row1', '");
    c = completeShellLine(get, static_cast<int>(get.size()), sources);
    QCOMPARE(c.candidates, (QStringList{QStringLiteral("d"), QStringLiteral("m")}));
    const QString filter = QStringLiteral("scan 't', {FILTER => \"PrefixFilter ('a') AND Val");
    c = completeShellLine(filter, static_cast<int>(filter.size()), sources);
    QCOMPARE(c.candidates, QStringList{QStringLiteral("ValueFilter")});
    QCOMPARE(c.prefix, QStringLiteral("Val"));
    const QString option = QStringLiteral("scan 't', {LIM");
    c = completeShellLine(option, static_cast<int>(option.size()), sources);
    QCOMPARE(c.candidates, QStringList{QStringLiteral("LIMIT")});
    // Every filter offered is one the engine's parser knows, with a template it reads.
    for (const QString& name : filterNames()) {
      const auto parsedFilter = parseFilter(filterTemplate(name).toStdString());
      QVERIFY2(parsedFilter.isOk(), qPrintable(name + QStringLiteral(": ") +
                                               QString::fromStdString(parsedFilter.status().message())));
    }
    QCOMPARE(filterNames().size(), 18);
  }

  void tabCompletesInTheLine() {
    ShellLineEdit line(nullptr);
    line.setCompletionSources({{QStringLiteral("t"), QStringLiteral("web")}, {}});
    line.setText(QStringLiteral("scan 'w"));
    line.setCursorPosition(7);
    QTest::keyClick(&line, Qt::Key_Tab);
    QCOMPARE(line.text(), QStringLiteral("scan 'web"));
    line.setText(QStringLiteral("s"));
    line.setCursorPosition(1);
    const QStringList offered = line.complete();
    QVERIFY(offered.contains(QStringLiteral("scan")));
    QVERIFY(offered.contains(QStringLiteral("split")));
    auto* popupModel = qobject_cast<QStringListModel*>(line.completer()->model());
    QVERIFY(popupModel);
    QCOMPARE(popupModel->stringList(), offered);
  }

  void historyWalksAndPersists() {
    const std::unique_ptr<QSettings> settings = scratchSettings(QStringLiteral("history.ini"));
    {
      ShellLineEdit line(settings.get());
      line.addToHistory(QStringLiteral("list"));
      line.addToHistory(QStringLiteral("scan 't'"));
      line.addToHistory(QStringLiteral("scan 't'"));  // no two alike in a row
      line.setText(QStringLiteral("draft"));
      QTest::keyClick(&line, Qt::Key_Up);
      QCOMPARE(line.text(), QStringLiteral("scan 't'"));
      QTest::keyClick(&line, Qt::Key_Up);
      QCOMPARE(line.text(), QStringLiteral("list"));
      QTest::keyClick(&line, Qt::Key_Up);
      QCOMPARE(line.text(), QStringLiteral("list"));
      QTest::keyClick(&line, Qt::Key_Down);
      QTest::keyClick(&line, Qt::Key_Down);
      QCOMPARE(line.text(), QStringLiteral("draft"));
    }
    ShellLineEdit again(settings.get());
    QCOMPARE(again.history(), (QStringList{QStringLiteral("list"), QStringLiteral("scan 't'")}));
  }

  void theFormWritesTheLine() {
    JobRunner runner;
    QueryConsole console(&runner, nullptr);
    console.setWorkspace(m_ws.get());
    QTRY_VERIFY(!console.isLoadingTables());
    console.form()->setTable(QStringLiteral("t"));
    QCOMPARE(console.line()->text(), QStringLiteral("scan 't'"));
    // A field edited by hand updates the line at once.
    auto* limit = console.form()->findChild<QSpinBox*>(QStringLiteral("limit"));
    QVERIFY(limit);
    limit->setValue(9);
    QVERIFY2(console.line()->text().contains(QStringLiteral("LIMIT => 9")), qPrintable(console.line()->text()));
    // The line read back fills the form.
    console.line()->setText(QStringLiteral("get 't', 'row00007', {VERSIONS => 2}"));
    QVERIFY(console.lineToForm());
    QCOMPARE(console.form()->spec().value().kind, QueryKind::kGet);
    QCOMPARE(console.form()->spec().value().row, Bytes("row00007"));
    QCOMPARE(console.form()->spec().value().versions, 2);
    console.setWorkspace(nullptr);
  }

  void aParseErrorIsShownAndNothingRuns() {
    JobRunner runner;
    QueryConsole console(&runner, nullptr);
    console.setWorkspace(m_ws.get());
    QVERIFY(!console.runLine(QStringLiteral("scan 't', {LIMT => 1}")));
    QVERIFY(!console.isRunning());
    QVERIFY2(console.errorText().contains(QStringLiteral("column 12")), qPrintable(console.errorText()));
    QVERIFY(console.errorText().endsWith(QStringLiteral("\n           ^")));
    QCOMPARE(console.model()->rowCount(), 0);
    QCOMPARE(console.line()->selectionStart(), 11);
    console.setWorkspace(nullptr);
  }

  void aLargeScanStreamsInBatches() {
    JobRunner runner;
    QueryConsole console(&runner, nullptr);
    QAbstractItemModelTester tester(console.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    console.setWorkspace(m_ws.get());
    QSignalSpy batches(console.model(), &QAbstractItemModel::rowsInserted);
    QSignalSpy finished(&console, &QueryConsole::queryFinished);
    QVERIFY(console.runLine(QStringLiteral("scan 't'")));
    QVERIFY(console.isRunning());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
    // d:name, d:count (latest of 3) for every row, m:extra for the second half.
    const int cells = kRows * 2 + kRows / 2;
    QCOMPARE(console.model()->rowCount(), cells);
    QCOMPARE(console.model()->rowKeys(), qint64{kRows});
    QVERIFY2(batches.count() >= 3, qPrintable(QString::number(batches.count())));
    QVERIFY(console.showingCells());
    QVERIFY2(console.statusText().contains(QStringLiteral("%L1 rows").arg(kRows)), qPrintable(console.statusText()));
    QVERIFY(console.reportText().contains(QStringLiteral("Cells: ")));
    QVERIFY(console.reportText().contains(QStringLiteral("returned")));
    QCOMPARE(console.model()->cell(0).row, QStringLiteral("row00000"));
    QCOMPARE(console.model()->cell(0).column, QStringLiteral("d:count"));
    QCOMPARE(console.model()->cell(0).value, QStringLiteral("\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00"));
    console.setWorkspace(nullptr);
  }

  void cancelStopsTheScanAndTheConsoleRunsAgain() {
    JobRunner runner;
    QueryConsole console(&runner, nullptr);
    console.setWorkspace(m_ws.get());
    int shownAtCancel = -1;
    // Cancel as soon as the first batch is on screen.
    connect(console.model(), &QAbstractItemModel::rowsInserted, &console, [&] {
      if (shownAtCancel >= 0) return;
      shownAtCancel = console.model()->rowCount();
      console.cancel();
    });
    QVERIFY(console.runLine(QStringLiteral("scan 't', {VERSIONS => 3}")));
    QTRY_VERIFY_WITH_TIMEOUT(shownAtCancel >= 0, 30000);
    QVERIFY(!console.isRunning());
    QVERIFY(runner.waitForDone(30000));
    QTest::qWait(100);  // anything still queued would arrive now
    QCOMPARE(console.model()->rowCount(), shownAtCancel);
    QVERIFY(shownAtCancel < kRows * 4);
    QVERIFY2(console.statusText().startsWith(QStringLiteral("Cancelled")), qPrintable(console.statusText()));

    QSignalSpy finished(&console, &QueryConsole::queryFinished);
    QVERIFY(console.runLine(QStringLiteral("scan 't', {LIMIT => 4, COLUMNS => 'd:name'}")));
    QTRY_COMPARE(finished.count(), 1);
    QCOMPARE(console.model()->rowCount(), 4);
    QCOMPARE(console.model()->cell(3).value, QStringLiteral("name3"));
    console.setWorkspace(nullptr);
  }

  void otherCommandsShowTheShellsText() {
    JobRunner runner;
    QueryConsole console(&runner, nullptr);
    console.setWorkspace(m_ws.get());
    QSignalSpy finished(&console, &QueryConsole::queryFinished);
    QSignalSpy changed(&console, &QueryConsole::workspaceChanged);
    QVERIFY(console.runLine(QStringLiteral("count 't'")));
    QTRY_COMPARE(finished.count(), 1);
    QVERIFY(!console.showingCells());
    QVERIFY2(console.outputText().contains(QStringLiteral("%1 row(s)").arg(kRows)), qPrintable(console.outputText()));
    QVERIFY(console.reportText().isEmpty());
    QCOMPARE(changed.count(), 0);
    QVERIFY(console.runLine(QStringLiteral("describe 't'")));
    QTRY_COMPARE(finished.count(), 2);
    QVERIFY(console.outputText().contains(QStringLiteral("NAME => 'd'")));
    QVERIFY(console.noteText().contains(QStringLiteral("Not a get or a scan")));
    console.setWorkspace(nullptr);
  }

  void aWriteAsksTheWindowToReload() {
    JobRunner runner;
    QueryConsole console(&runner, nullptr);
    console.setWorkspace(m_ws.get());
    QSignalSpy finished(&console, &QueryConsole::queryFinished);
    QSignalSpy changed(&console, &QueryConsole::workspaceChanged);
    QVERIFY(console.runLine(QStringLiteral("put 't', 'zz-console', 'd:name', 'written'")));
    QTRY_COMPARE(finished.count(), 1);
    QCOMPARE(changed.count(), 1);
    QVERIFY(console.runLine(QStringLiteral("get 't', 'zz-console'")));
    QTRY_COMPARE(finished.count(), 2);
    QCOMPARE(console.model()->rowCount(), 1);
    QCOMPARE(console.model()->cell(0).value, QStringLiteral("written"));
    QVERIFY(console.reportText().contains(QStringLiteral("Regions visited: 1")));
    QCOMPARE(changed.count(), 1);
    QVERIFY(console.runLine(QStringLiteral("deleteall 't', 'zz-console'")));
    QTRY_COMPARE(finished.count(), 3);
    QCOMPARE(changed.count(), 2);
    console.setWorkspace(nullptr);
  }
};

QTEST_MAIN(TestQueryConsole)
#include "tst_query_console.moc"
