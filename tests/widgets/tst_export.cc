// Qt Test for ExportDialog over a real workspace: every layout and byte
// rendering, a tab delimiter, CRLF and LF, no header, round trip exactly
// (the file is imported with core's importCsv into a fresh table and every
// cell compared) through data holding quotes, delimiters, line breaks and
// binary bytes; the file appears only complete (.part renamed); Cancel and
// a closing workspace leave no file; a failure names the file and why;
// invalid combinations are explained before running; key columns only with
// a key schema; choices are remembered; the data browser's currentScan
// matches its filter.
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <atomic>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "async/job_runner.h"
#include "browser/cell_table_model.h"
#include "browser/column_format_store.h"
#include "browser/data_browser.h"
#include "export/export_dialog.h"
#include "keyscope/csv_table.h"
#include "test_workspace.h"

using keyscope::ByteFormat;
using keyscope::CsvLayout;
using keyscope::ExportChoices;
using keyscope::ExportDialog;
using keyscope::ExportSource;
using keyscope::test::check;

Q_DECLARE_METATYPE(keyscope::CsvLayout)
Q_DECLARE_METATYPE(keyscope::ByteFormat)

namespace {

// Every cell of a table (all versions), as a comparable list.
std::vector<keyscope::Cell> allCells(const keyscope::Workspace& ws, const std::string& table,
                                     bool latestOnly) {
  keyscope::ScanOptions scan;
  scan.maxVersions = latestOnly ? 1 : 1000;
  auto scanner = ws.scan(table, scan);
  check(scanner.status(), "scan");
  std::vector<keyscope::Cell> cells;
  keyscope::RowResult row;
  while ((*scanner)->next(&row)) {
    for (keyscope::Cell& cell : row.cells) cells.push_back(std::move(cell));
  }
  check((*scanner)->status(), "scan status");
  return cells;
}

std::string readFile(const QString& path) {
  std::ifstream in(path.toStdString(), std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Holds a one-worker runner's workers (one per priority: exports run at
// background priority) until released, so that what the test does next on
// the GUI thread (Cancel, closing) happens before the export starts, without
// any timing.
class PoolBlocker {
 public:
  explicit PoolBlocker(keyscope::JobRunner& runner, QObject* context) {
    for (keyscope::JobPriority priority : {keyscope::JobPriority::kInteractive, keyscope::JobPriority::kBackground}) {
      runner.submit(
          runner.newChannel(priority), context,
          [released = m_released](keyscope::JobControl&) {
            while (!released->load()) QThread::msleep(1);
            return 0;
          },
          [](int) {});
    }
  }
  ~PoolBlocker() { release(); }
  void release() { m_released->store(true); }

 private:
  std::shared_ptr<std::atomic<bool>> m_released = std::make_shared<std::atomic<bool>>(false);
};

}  // namespace

class TestExport : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir m_dir;
  std::unique_ptr<keyscope::Workspace> m_ws;
  int m_copies = 0;

  QString settingsFile() const { return m_dir.filePath(QStringLiteral("settings.ini")); }

  // The table "awkward": values and qualifiers that CSV must quote or that
  // are not text, three versions of one column.
  void fillAwkwardTable() {
    keyscope::TableOptions table;
    table.name = "awkward";
    keyscope::FamilyOptions d;
    d.name = "d";
    d.maxVersions = 5;
    keyscope::FamilyOptions e;
    e.name = "e";
    table.families = {d, e};
    check(m_ws->createTable(table), "create awkward");
    const std::vector<std::string> values = {
        "plain",
        "comma, and \"quotes\"",
        "line\nbreak and\r\nCRLF",
        "tab\there",
        std::string("nul\0byte\xff\x80 binary", 18),
        "back\\slash \\x41 not an escape",
        "",  // an empty value
        "'single' quotes; semicolon | pipe",
    };
    std::vector<keyscope::Mutation> batch;
    for (size_t i = 0; i < values.size(); ++i) {
      keyscope::Put put;
      put.row = "r" + std::to_string(i) + (i == 4 ? std::string("\x00\x01,\"\n", 5) : std::string());
      put.cells.push_back({"d", "v", 100, values[i]});
      put.cells.push_back({"d", std::string("q,\"\t\n\x02", 6), 100, values[(i + 3) % values.size()]});
      if (i % 2 == 0) put.cells.push_back({"e", "", 100, "family only"});
      batch.emplace_back(std::move(put));
    }
    keyscope::Put versions;
    versions.row = "r0";
    for (int64_t ts = 101; ts <= 103; ++ts)
      versions.cells.push_back({"d", "v", ts, "version " + std::to_string(ts)});
    batch.emplace_back(std::move(versions));
    check(m_ws->mutate("awkward", batch), "fill awkward");
  }

  // A fresh empty table with awkward's families.
  std::string freshCopy() {
    keyscope::TableOptions table = m_ws->describeTable("awkward").value();
    table.name = "copy" + std::to_string(++m_copies);
    check(m_ws->createTable(table), "create copy");
    return table.name;
  }

  static void waitIdle(ExportDialog& dialog) {
    QVERIFY(QTest::qWaitFor([&dialog] { return dialog.isIdle(); }, 30000));
  }

  // Exports through the dialog (its Export button's path) and waits for it.
  static void exportAndWait(ExportDialog& dialog, const QString& path) {
    dialog.setFilePath(path);
    waitIdle(dialog);
    QVERIFY2(dialog.problem().isEmpty(), qPrintable(dialog.problem()));
    QVERIFY2(dialog.startExport(), qPrintable(dialog.statusText()));
    QVERIFY(dialog.isExporting());
    QVERIFY(QTest::qWaitFor([&dialog] { return !dialog.isExporting(); }, 60000));
  }

  static ExportSource wholeTable(const QString& table, int versions) {
    ExportSource source;
    source.table = table;
    source.scan.maxVersions = versions;
    source.description = QStringLiteral("test export of %1").arg(table);
    return source;
  }

 private slots:
  void initTestCase() {
    QVERIFY(m_dir.isValid());
    m_ws = keyscope::test::openWorkspace(m_dir.filePath(QStringLiteral("export.ksw")));
    fillAwkwardTable();
    keyscope::test::fillKeyedTable(*m_ws, 20);
    keyscope::test::fillNumberedTable(*m_ws, 300, 100);
  }

  void cleanupTestCase() { m_ws.reset(); }

  void roundTrip_data() {
    QTest::addColumn<CsvLayout>("layout");
    QTest::addColumn<ByteFormat>("bytes");
    QTest::addColumn<char>("delimiter");
    QTest::addColumn<QString>("lineEnding");
    QTest::addColumn<bool>("header");
    for (CsvLayout layout : {CsvLayout::kLong, CsvLayout::kWide}) {
      for (ByteFormat bytes : {ByteFormat::kEscaped, ByteFormat::kHex, ByteFormat::kBase64, ByteFormat::kRaw}) {
        const QString name = QStringLiteral("%1 %2").arg(QLatin1String(keyscope::csvLayoutName(layout)),
                                                         QLatin1String(keyscope::byteFormatName(bytes)));
        QTest::newRow(qPrintable(name + QStringLiteral(" comma CRLF")))
            << layout << bytes << ',' << QStringLiteral("\r\n") << true;
        QTest::newRow(qPrintable(name + QStringLiteral(" tab LF")))
            << layout << bytes << '\t' << QStringLiteral("\n") << true;
      }
      QTest::newRow(layout == CsvLayout::kLong ? "long no header" : "wide no header")
          << layout << ByteFormat::kEscaped << ';' << QStringLiteral("\n") << false;
    }
  }

  // Export, import into a fresh table, compare every cell.
  void roundTrip() {
    QFETCH(CsvLayout, layout);
    QFETCH(ByteFormat, bytes);
    QFETCH(char, delimiter);
    QFETCH(QString, lineEnding);
    QFETCH(bool, header);
    const bool wide = layout == CsvLayout::kWide;
    QSettings settings(settingsFile(), QSettings::IniFormat);
    keyscope::JobRunner runner;
    ExportDialog dialog(&runner, m_ws.get(), wholeTable(QStringLiteral("awkward"), wide ? 1 : 1000),
                        nullptr, &settings);
    ExportChoices choices;
    choices.layout = layout;
    choices.bytes = bytes;
    choices.dialect.delimiter = delimiter;
    choices.dialect.lineEnding = lineEnding.toStdString();
    choices.header = header;
    dialog.setChoices(choices);
    QCOMPARE(dialog.choices().dialect.delimiter, delimiter);
    QCOMPARE(dialog.choices().bytes, bytes);

    const QString path = m_dir.filePath(QStringLiteral("round %1.csv").arg(QTest::currentDataTag()));
    exportAndWait(dialog, path);
    QVERIFY(dialog.lastOutcome().has_value());
    QVERIFY2(dialog.lastOutcome()->status.isOk(), dialog.lastOutcome()->status.toString().c_str());
    QVERIFY(QFile::exists(path));
    QVERIFY(!QFile::exists(path + QStringLiteral(".part")));
    QVERIFY2(dialog.statusText().contains(QStringLiteral("Exported 8 rows")), qPrintable(dialog.statusText()));
    QVERIFY(dialog.statusText().contains(path));

    // Line endings are the chosen ones: every line break outside a quoted
    // field. The data's own breaks are quoted, so count records that end
    // the file.
    const std::string text = readFile(path);
    QVERIFY(text.ends_with(lineEnding.toStdString()));
    if (lineEnding == QStringLiteral("\n")) QVERIFY(!text.ends_with("\r\n"));

    const std::string copy = freshCopy();
    keyscope::CsvImportOptions import;
    import.dialect = choices.dialect;
    import.bytes = bytes;
    import.layout = layout;
    import.badLines = keyscope::BadLines::kFail;
    if (header) {
      import.header = keyscope::CsvHeader::kUse;
    } else {
      import.header = keyscope::CsvHeader::kNone;
      if (wide) {
        import.columns = {"row", "d:q,\\x22\\x09\\x0A\\x02", "d:v", "e"};
      } else {
        import.columns = {"row", "family", "qualifier", "timestamp", "type", "value"};
      }
    }
    // Long lines say which cells exist, so an empty value is data. In the
    // wide layout an empty field is a cell the row lacks: an empty value
    // cannot be told from it (csv_table.h), and is left out below.
    import.skipEmptyValues = wide;
    keyscope::CsvImportReport report;
    const keyscope::Status imported =
        keyscope::importCsvFile(*m_ws, copy, path.toStdString(), import, &report);
    QVERIFY2(imported.isOk(), imported.toString().c_str());
    QCOMPARE(report.badLines, uint64_t{0});

    std::vector<keyscope::Cell> expected = allCells(*m_ws, "awkward", wide);
    if (wide) std::erase_if(expected, [](const keyscope::Cell& cell) { return cell.value.empty(); });
    // 8 rows of d:v and d:q, e: in 4 of them, 3 older versions of r0 d:v;
    // wide: the latest only, the 2 empty values left out.
    QCOMPARE(expected.size(), static_cast<size_t>(wide ? 18 : 23));
    std::vector<keyscope::Cell> actual = allCells(*m_ws, copy, wide);
    QCOMPARE(actual.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
      QCOMPARE(actual[i].row, expected[i].row);
      QCOMPARE(actual[i].family, expected[i].family);
      QCOMPARE(actual[i].qualifier, expected[i].qualifier);
      QCOMPARE(actual[i].value, expected[i].value);
      // Wide lines carry no timestamps; long ones carry them exactly.
      if (!wide) QCOMPARE(actual[i].timestamp, expected[i].timestamp);
    }
  }

  void keyColumnsOnlyWithASchema() {
    QSettings settings(settingsFile(), QSettings::IniFormat);
    keyscope::JobRunner runner;
    ExportDialog plain(&runner, m_ws.get(), wholeTable(QStringLiteral("t"), 1), nullptr, &settings);
    ExportDialog keyed(&runner, m_ws.get(), wholeTable(QStringLiteral("keyed"), 1), nullptr, &settings);
    waitIdle(plain);
    waitIdle(keyed);
    QVERIFY(!plain.findChild<QCheckBox*>(QStringLiteral("exportDecodeKey"))->isEnabled());
    QVERIFY(keyed.findChild<QCheckBox*>(QStringLiteral("exportDecodeKey"))->isEnabled());

    ExportChoices choices;
    choices.layout = CsvLayout::kWide;
    choices.decodeKey = true;
    choices.dialect.lineEnding = "\n";
    keyed.setChoices(choices);
    waitIdle(keyed);
    QVERIFY2(keyed.previewText().startsWith(QStringLiteral("row,row.metric,row.n,v:x")),
             qPrintable(keyed.previewText()));
    const QString path = m_dir.filePath(QStringLiteral("keyed.csv"));
    exportAndWait(keyed, path);
    QVERIFY(keyed.lastOutcome()->status.isOk());
    const std::string text = readFile(path);
    QVERIFY2(text.starts_with("row,row.metric,row.n,v:x\ncpu\\x00\\x01\\x00\\x00\\x00\\x00,cpu,0,1\n"),
             text.substr(0, 120).c_str());
    QCOMPARE(keyed.lastOutcome()->report.rows, uint64_t{40});
    QVERIFY2(keyed.statusText().contains(QStringLiteral("4 columns")), qPrintable(keyed.statusText()));
  }

  void previewShowsTheFirstLines() {
    QSettings settings(settingsFile(), QSettings::IniFormat);
    keyscope::JobRunner runner;
    ExportDialog dialog(&runner, m_ws.get(), wholeTable(QStringLiteral("t"), 1), nullptr, &settings);
    ExportChoices choices;
    choices.dialect.delimiter = '\t';
    choices.dialect.lineEnding = "\r\n";
    dialog.setChoices(choices);
    waitIdle(dialog);
    const QStringList lines = dialog.previewText().split(QLatin1Char('\n'));
    QCOMPARE(lines.size(), 1 + 6 * 2);  // a header, then 6 rows of d:count and d:name
    QCOMPARE(lines[0], QStringLiteral("row⇥family⇥qualifier⇥timestamp⇥type⇥value"));
    QVERIFY2(lines[2].startsWith(QStringLiteral("row00000⇥d⇥name⇥1000⇥Put⇥name0")), qPrintable(lines[2]));
  }

  void invalidCombinationsAreExplainedBeforeRunning() {
    QSettings settings(settingsFile(), QSettings::IniFormat);
    keyscope::JobRunner runner;
    ExportDialog versions(&runner, m_ws.get(), wholeTable(QStringLiteral("t"), 3), nullptr, &settings);
    ExportChoices choices;
    choices.layout = CsvLayout::kWide;
    versions.setChoices(choices);
    versions.setFilePath(m_dir.filePath(QStringLiteral("never.csv")));
    waitIdle(versions);
    QVERIFY2(versions.problem().contains(QStringLiteral("VERSIONS 3")), qPrintable(versions.problem()));
    QVERIFY(!versions.startExport());
    QVERIFY(versions.statusText().contains(QStringLiteral("long layout")));
    QVERIFY(!versions.isExporting());
    QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("never.csv"))));

    ExportSource rawSource = wholeTable(QStringLiteral("t"), 1);
    rawSource.scan.raw = true;
    ExportDialog raw(&runner, m_ws.get(), rawSource, nullptr, &settings);
    raw.setChoices(choices);
    waitIdle(raw);
    QVERIFY2(raw.problem().contains(QStringLiteral("RAW")), qPrintable(raw.problem()));
    choices.layout = CsvLayout::kLong;
    raw.setChoices(choices);
    raw.setFilePath(m_dir.filePath(QStringLiteral("raw.csv")));
    QVERIFY2(raw.problem().isEmpty(), qPrintable(raw.problem()));
  }

  void theFileAppearsOnlyWhenComplete() {
    // An older file is replaced by a complete export, and a failed export
    // (no quoting, but fields hold the delimiter) leaves it as it was.
    const QString path = m_dir.filePath(QStringLiteral("replace.csv"));
    {
      QFile old(path);
      QVERIFY(old.open(QIODevice::WriteOnly));
      old.write("old contents\n");
    }
    QSettings settings(settingsFile(), QSettings::IniFormat);
    keyscope::JobRunner runner;
    ExportDialog dialog(&runner, m_ws.get(), wholeTable(QStringLiteral("awkward"), 1), nullptr, &settings);
    ExportChoices choices;
    choices.dialect.quote = std::nullopt;
    dialog.setChoices(choices);
    exportAndWait(dialog, path);
    QVERIFY(!dialog.lastOutcome()->status.isOk());
    QVERIFY2(dialog.statusText().contains(path) && dialog.statusText().contains(QStringLiteral("failed")),
             qPrintable(dialog.statusText()));
    QCOMPARE(readFile(path), std::string("old contents\n"));
    QVERIFY(!QFile::exists(path + QStringLiteral(".part")));

    choices.dialect.quote = '"';
    dialog.setChoices(choices);
    exportAndWait(dialog, path);
    QVERIFY(dialog.lastOutcome()->status.isOk());
    QVERIFY(readFile(path).starts_with("row,family,qualifier,timestamp,type,value\r\n"));
    QVERIFY(!QFile::exists(path + QStringLiteral(".part")));
  }

  void cancelLeavesNoFile() {
    QSettings settings(settingsFile(), QSettings::IniFormat);
    keyscope::JobRunner runner(1);
    QObject context;
    ExportDialog dialog(&runner, m_ws.get(), wholeTable(QStringLiteral("t"), 3), nullptr, &settings);
    const QString path = m_dir.filePath(QStringLiteral("cancelled.csv"));
    dialog.setFilePath(path);
    waitIdle(dialog);
    PoolBlocker blocker(runner, &context);
    QVERIFY(dialog.startExport());
    dialog.cancelExport();
    QVERIFY(dialog.statusText().contains(QStringLiteral("Cancelling")));
    blocker.release();
    QVERIFY(QTest::qWaitFor([&dialog] { return !dialog.isExporting(); }, 60000));
    QCOMPARE(dialog.lastOutcome()->status.code(), keyscope::Status::Code::kCancelled);
    QCOMPARE(dialog.statusText(), QStringLiteral("Export cancelled, nothing written."));
    QVERIFY(!QFile::exists(path));
    QVERIFY(!QFile::exists(path + QStringLiteral(".part")));
  }

  void closingTheWorkspaceCancelsTheExport() {
    QSettings settings(settingsFile(), QSettings::IniFormat);
    keyscope::JobRunner runner(1);
    QObject context;
    ExportDialog dialog(&runner, m_ws.get(), wholeTable(QStringLiteral("t"), 3), nullptr, &settings);
    const QString path = m_dir.filePath(QStringLiteral("closed.csv"));
    dialog.setFilePath(path);
    waitIdle(dialog);
    PoolBlocker blocker(runner, &context);
    QVERIFY(dialog.startExport());
    // What Session::close does: aboutToClose, cancel every job, wait.
    dialog.workspaceClosing();
    runner.cancelAll();
    blocker.release();
    QVERIFY(runner.waitForDone(60000));
    QVERIFY(!dialog.isExporting());
    QVERIFY(dialog.statusText().contains(QStringLiteral("cancelled, nothing written")));
    QVERIFY(!dialog.problem().isEmpty());
    QVERIFY(!dialog.startExport());
    QVERIFY(!QFile::exists(path));
    QVERIFY(!QFile::exists(path + QStringLiteral(".part")));
  }

  // The race the other way: the export has put its file in place when the
  // workspace closes (its outcome is then dropped with every job's); the
  // dialog says the file was written, not that nothing was.
  void anExportCompleteWhenTheWorkspaceClosesSaysSo() {
    QSettings settings(settingsFile(), QSettings::IniFormat);
    keyscope::JobRunner runner(1);
    ExportDialog dialog(&runner, m_ws.get(), wholeTable(QStringLiteral("awkward"), 1), nullptr, &settings);
    const QString path = m_dir.filePath(QStringLiteral("complete-at-close.csv"));
    dialog.setFilePath(path);
    waitIdle(dialog);
    QVERIFY(dialog.startExport());
    // No events are processed meanwhile, so the outcome waits undelivered.
    for (int i = 0; i < 60000 && !QFile::exists(path); ++i) QThread::msleep(1);
    QVERIFY(QFile::exists(path));
    QVERIFY(dialog.isExporting());
    dialog.workspaceClosing();
    runner.cancelAll();
    QVERIFY(runner.waitForDone(60000));
    QVERIFY(!dialog.isExporting());
    QCOMPARE(dialog.statusText(), QStringLiteral("Exported to %1: it was complete when the workspace closed.")
                                      .arg(QDir::toNativeSeparators(path)));
    QVERIFY(readFile(path).starts_with("row,"));
    QVERIFY(!QFile::exists(path + QStringLiteral(".part")));
  }

  void aFailureNamesTheFileAndWhy() {
    // A "directory" that is a file: no user, root included, can write under it.
    const QString notADirectory = m_dir.filePath(QStringLiteral("plain-file"));
    {
      QFile file(notADirectory);
      QVERIFY(file.open(QIODevice::WriteOnly));
    }
    QSettings settings(settingsFile(), QSettings::IniFormat);
    keyscope::JobRunner runner;
    ExportDialog dialog(&runner, m_ws.get(), wholeTable(QStringLiteral("t"), 1), nullptr, &settings);
    const QString path = notADirectory + QStringLiteral("/out.csv");
    exportAndWait(dialog, path);
    QCOMPARE(dialog.lastOutcome()->status.code(), keyscope::Status::Code::kIOError);
    QVERIFY2(dialog.statusText().contains(path) && dialog.statusText().contains(QStringLiteral("Not a directory")),
             qPrintable(dialog.statusText()));
    QVERIFY(!QFile::exists(path));
  }

  void choicesAreRemembered() {
    QSettings settings(m_dir.filePath(QStringLiteral("remembered.ini")), QSettings::IniFormat);
    keyscope::JobRunner runner;
    {
      ExportDialog dialog(&runner, m_ws.get(), wholeTable(QStringLiteral("t"), 1), nullptr, &settings);
      ExportChoices choices;
      choices.layout = CsvLayout::kWide;
      choices.bytes = ByteFormat::kHex;
      choices.dialect.delimiter = '\t';
      choices.dialect.quote = '\'';
      choices.dialect.lineEnding = "\n";
      choices.header = false;
      dialog.setChoices(choices);
      exportAndWait(dialog, m_dir.filePath(QStringLiteral("sub/../remembered.tsv")));
      QVERIFY(dialog.lastOutcome()->status.isOk());
    }
    ExportDialog again(&runner, m_ws.get(), wholeTable(QStringLiteral("keyed"), 1), nullptr, &settings);
    const ExportChoices restored = again.choices();
    QCOMPARE(restored.layout, CsvLayout::kWide);
    QCOMPARE(restored.bytes, ByteFormat::kHex);
    QCOMPARE(restored.dialect.delimiter, '\t');
    QCOMPARE(restored.dialect.quote, std::optional<char>('\''));
    QCOMPARE(restored.dialect.lineEnding, std::string("\n"));
    QCOMPARE(restored.header, false);
    // The same folder, the new table's name.
    QCOMPARE(again.filePath(), QDir(m_dir.path()).filePath(QStringLiteral("keyed.tsv")));
    waitIdle(again);
  }

  void browserCurrentScanMatchesItsFilter() {
    QSettings settings(settingsFile(), QSettings::IniFormat);
    keyscope::ColumnFormatStore formats(&settings);
    keyscope::JobRunner runner;
    keyscope::DataBrowser browser(&runner, &formats);
    browser.setWorkspace(m_ws.get(), QStringLiteral("export.ksw"));
    browser.showTable(m_ws->describeTable("t").value());
    keyscope::ScanOptions scan = browser.currentScan();
    QVERIFY(scan.startRow.empty() && scan.stopRow.empty());
    QCOMPARE(scan.maxVersions, 1);

    QVERIFY(browser.applyFilter(QStringLiteral("row001"), QString(), QString()));
    scan = browser.currentScan();
    QCOMPARE(scan.startRow, std::string("row001"));
    QCOMPARE(scan.stopRow, std::string("row002"));
    QVERIFY(browser.currentViewDescription().contains(QStringLiteral("prefix row001")));

    QVERIFY(browser.applyFilter(QStringLiteral("row0"), QStringLiteral("row00150"), QStringLiteral("row00160")));
    scan = browser.currentScan();
    QCOMPARE(scan.startRow, std::string("row00150"));
    QCOMPARE(scan.stopRow, std::string("row00160"));

    // The scan reads what the view shows: export it and count the rows.
    ExportSource source;
    source.table = browser.tableName();
    source.scan = scan;
    ExportDialog dialog(&runner, m_ws.get(), source, nullptr, &settings);
    ExportChoices choices;
    choices.layout = CsvLayout::kWide;
    dialog.setChoices(choices);
    exportAndWait(dialog, m_dir.filePath(QStringLiteral("view.csv")));
    QVERIFY(dialog.lastOutcome()->status.isOk());
    QCOMPARE(dialog.lastOutcome()->report.rows, uint64_t{10});
    QVERIFY(QTest::qWaitFor([&browser] { return !browser.model()->isLoading(); }, 10000));
    QCOMPARE(browser.model()->rowCount(), 10);

    // A prefix outside the range: nothing.
    QVERIFY(browser.applyFilter(QStringLiteral("row002"), QStringLiteral("row00150"), QStringLiteral("row00160")));
    QCOMPARE(browser.currentScan().limit, int64_t{0});
    QVERIFY(QTest::qWaitFor([&browser] { return !browser.model()->isLoading(); }, 10000));
  }
};

QTEST_MAIN(TestExport)
#include "tst_export.moc"
