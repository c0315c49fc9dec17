// keyscope: the GUI entry point. Parses the command line, builds the main
// window, and in screenshot mode (a hidden option for scripts/screenshots)
// waits until the window has loaded what it shows, renders it to a PNG and
// quits.
//
//   keyscope [WORKSPACE]
//   keyscope --screenshot FILE [WORKSPACE] [--table NAME] [--tab KEY]
//            [--format COLUMN=FORMAT]... [--schema TEXT] [--tuple JSON | --key HEX] [--dark]
//            [--history ROW,FAMILY[:QUALIFIER]]  (that cell's history of --table in its dock;
//                                                 escaped text, the row up to the first comma)
//            [--inspect-key TEXT]  (the key inspector's key: escaped text, or a JSON tuple)
//            [--export-dialog]   (the CSV export dialog of --table, shot alone)
//            [--query LINE]  (runs LINE in the query console once open; the shot waits for it)
//            [--workload-ab A,B]  (the workload lab's A/B run of presets A and B once open;
//                                  the shot waits for its end)
//
// GUI thread only.
#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QPalette>
#include <QStyleFactory>
#include <QTimer>

#include <cstdio>

#include <keyscope/process_memory.h>

#include "browser/column_format_store.h"
#include "browser/data_browser.h"
#include "browser/row_key_input.h"
#include "browser/value_format.h"
#include "inspector/key_inspector.h"
#include "workload/workload_lab.h"
#include "export/export_dialog.h"
#include "console/query_console.h"
#include "key_lab/key_bytes_view.h"
#include "key_lab/key_schema_view.h"
#include "main_window.h"
#include "session.h"
#include "version.h"
#include "workspace/workspace_tree.h"

namespace {

QCommandLineOption hiddenOption(const QString& name, const QString& description,
                                const QString& valueName = {}) {
  QCommandLineOption option(name, description, valueName);
  option.setFlags(QCommandLineOption::HiddenFromHelp);
  return option;
}

// Fusion with a dark palette: lets scripts/screenshots check that every
// colour reads on dark as well as on light themes.
void useDarkPalette(QApplication& app) {
  app.setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
  QPalette p;
  p.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
  p.setColor(QPalette::WindowText, QColor(0xe6, 0xe6, 0xe6));
  p.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
  p.setColor(QPalette::AlternateBase, QColor(0x33, 0x33, 0x33));
  p.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
  p.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
  p.setColor(QPalette::ButtonText, QColor(0xe6, 0xe6, 0xe6));
  p.setColor(QPalette::ToolTipBase, QColor(0x35, 0x35, 0x35));
  p.setColor(QPalette::ToolTipText, QColor(0xe6, 0xe6, 0xe6));
  p.setColor(QPalette::PlaceholderText, QColor(0x90, 0x90, 0x90));
  p.setColor(QPalette::Highlight, QColor(0x2f, 0x65, 0xca));
  p.setColor(QPalette::HighlightedText, Qt::white);
  p.setColor(QPalette::Link, QColor(0x6c, 0xa8, 0xff));
  p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x80, 0x80, 0x80));
  p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x80, 0x80, 0x80));
  p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x80, 0x80, 0x80));
  app.setPalette(p);
}

// Screenshot mode with --export-dialog: opens the export dialog of the
// table and saves it alone once its preview is there.
void saveExportDialogWhenSettled(keyscope::MainWindow* window, const QString& file,
                                 const QString& table) {
  keyscope::ExportDialog* dialog = window->exportTable(table);
  if (dialog == nullptr) {
    std::fprintf(stderr, "keyscope: no export dialog: %s\n", qPrintable(window->lastError()));
    QApplication::exit(1);
    return;
  }
  // A file name that says what it is, not the screenshot machine's home.
  dialog->setFilePath(QStringLiteral("/home/user/Documents/%1.csv").arg(table));
  auto* clock = new QElapsedTimer;
  clock->start();
  auto* poll = new QTimer(dialog);
  QObject::connect(poll, &QTimer::timeout, dialog, [dialog, file, clock, poll] {
    if (!dialog->isIdle() && clock->elapsed() < 30000) return;
    poll->stop();
    delete clock;
    QTimer::singleShot(300, dialog, [dialog, file] {
      const bool saved = dialog->grab().save(file, "PNG");
      if (!saved) std::fprintf(stderr, "keyscope: cannot write %s\n", qPrintable(file));
      QApplication::exit(saved ? 0 : 1);
    });
  });
  poll->start(100);
}

// Screenshot mode: waits (polling, so the event loop runs) until the window
// is idle with the table selected, then saves it (or, with `exportDialog`,
// the table's export dialog). 30 s is far more than an open and a first
// page take; a window still busy then is saved as it is.
void saveWhenSettled(keyscope::MainWindow* window, const QString& file, const QString& table,
                     bool exportDialog = false) {
  auto* clock = new QElapsedTimer;
  clock->start();
  auto* poll = new QTimer(window);
  QObject::connect(poll, &QTimer::timeout, window, [window, file, table, clock, poll, exportDialog] {
    if (!table.isEmpty() && window->tree()->selectedTable() != table)
      window->tree()->selectTable(table);
    const bool settled =
        window->isIdle() && (table.isEmpty() || window->tree()->selectedTable() == table);
    if (!settled && clock->elapsed() < 30000) return;
    poll->stop();
    delete clock;
    if (exportDialog) {
      saveExportDialogWhenSettled(window, file, table);
      return;
    }
    // 300 ms more: long enough for the last paint and the layout to settle.
    QTimer::singleShot(300, window, [window, file] {
      const bool saved = window->grab().save(file, "PNG");
      if (!saved) std::fprintf(stderr, "keyscope: cannot write %s\n", qPrintable(file));
      QApplication::exit(saved ? 0 : 1);
    });
  });
  poll->start(100);
}

}  // namespace

int main(int argc, char* argv[]) {
  keyscope::configureProcessAllocator();
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("Keyscope"));
  QApplication::setApplicationName(QStringLiteral("Keyscope"));
  QApplication::setApplicationVersion(keyscope::keyscopeVersion());

  QCommandLineParser parser;
  parser.setApplicationDescription(QStringLiteral(
      "Keyscope: a desktop explorer and design lab for HBase/Bigtable-style tables."));
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument(QStringLiteral("workspace"), QStringLiteral("Workspace to open."),
                               QStringLiteral("[WORKSPACE]"));
  const QCommandLineOption screenshot =
      hiddenOption(QStringLiteral("screenshot"), QStringLiteral("Save the window as PNG and quit."),
                   QStringLiteral("FILE"));
  const QCommandLineOption schema = hiddenOption(
      QStringLiteral("schema"), QStringLiteral("Key schema to show."), QStringLiteral("TEXT"));
  const QCommandLineOption tuple = hiddenOption(
      QStringLiteral("tuple"), QStringLiteral("Tuple (JSON) to encode."), QStringLiteral("JSON"));
  const QCommandLineOption key = hiddenOption(
      QStringLiteral("key"), QStringLiteral("Key (hex) to decode."), QStringLiteral("HEX"));
  const QCommandLineOption dark =
      hiddenOption(QStringLiteral("dark"), QStringLiteral("Use a dark palette."));
  const QCommandLineOption table = hiddenOption(
      QStringLiteral("table"), QStringLiteral("Table to select."), QStringLiteral("NAME"));
  const QCommandLineOption tab = hiddenOption(
      QStringLiteral("tab"), QStringLiteral("Tab to show by key: data, lab, ..."), QStringLiteral("TAB"));
  const QCommandLineOption format = hiddenOption(
      QStringLiteral("format"),
      QStringLiteral("Display format of a column of --table, e.g. d:count=int (repeatable)."),
      QStringLiteral("COLUMN=FORMAT"));
  const QCommandLineOption exportDialog = hiddenOption(
      QStringLiteral("export-dialog"), QStringLiteral("Screenshot the CSV export dialog of --table."));
  parser.addOptions({screenshot, schema, tuple, key, dark, table, tab, format});
  const QCommandLineOption history = hiddenOption(
      QStringLiteral("history"),
      QStringLiteral("Show the history of a cell of --table: ROW,FAMILY[:QUALIFIER] (escaped text)."),
      QStringLiteral("CELL"));
  parser.addOption(history);
  parser.addOption(exportDialog);
  const QCommandLineOption query = hiddenOption(
      QStringLiteral("query"), QStringLiteral("Shell line for the query console to run."),
      QStringLiteral("LINE"));
  parser.addOption(query);
  const QCommandLineOption inspectKey = hiddenOption(
      QStringLiteral("inspect-key"),
      QStringLiteral("Key for the key inspector: escaped text, or a JSON tuple [...]."),
      QStringLiteral("TEXT"));
  parser.addOption(inspectKey);
  const QCommandLineOption workloadAb = hiddenOption(
      QStringLiteral("workload-ab"),
      QStringLiteral("Run the workload lab's A/B of two presets once open, e.g. monotonic,salted."),
      QStringLiteral("A,B"));
  parser.addOption(workloadAb);
  parser.process(app);

  if (parser.isSet(dark)) useDarkPalette(app);

  const bool screenshotMode = parser.isSet(screenshot);
  // Screenshots start from the defaults and leave the user's settings alone.
  keyscope::MainWindow window(/*persistState=*/!screenshotMode);
  if (parser.isSet(schema)) window.schemaView()->setSchemaText(parser.value(schema));
  if (parser.isSet(tuple)) window.bytesView()->setTupleJson(parser.value(tuple));
  if (parser.isSet(key)) window.bytesView()->setKeyHex(parser.value(key));
  if (parser.isSet(inspectKey)) {
    // Read when --table is selected: the window's own slot, connected first,
    // has given the inspector that table by then.
    QObject::connect(window.tree(), &keyscope::WorkspaceTree::tableSelected, &window,
                     [&window, text = parser.value(inspectKey),
                      wanted = parser.value(table)](const QString& selected) {
                       if (!wanted.isEmpty() && selected != wanted) return;
                       window.inspector()->setKeyInputKind(
                           text.trimmed().startsWith(QLatin1Char('['))
                               ? keyscope::RowKeyInputKind::kComponents
                               : keyscope::RowKeyInputKind::kEscaped);
                       window.inspector()->inspectText(text);
                     });
  }
  if (parser.isSet(tab)) {
    if (!window.showTab(parser.value(tab))) {
      std::fprintf(stderr, "keyscope: no tab '%s' (tabs: %s)\n", qPrintable(parser.value(tab)),
                   qPrintable(window.tabKeys().join(QStringLiteral(", "))));
      return 2;
    }
  } else if (parser.isSet(schema) || parser.isSet(tuple) || parser.isSet(key)) {
    window.showTab(QStringLiteral("lab"));  // what was asked for is in the lab
  }
  if (parser.isSet(query)) {
    // Run once the workspace is open; the window is not idle until it has finished.
    keyscope::QueryConsole* console = window.console();
    QObject::connect(
        window.session(), &keyscope::Session::opened, console,
        [console, line = parser.value(query)] { console->runLine(line); },
        Qt::SingleShotConnection);
  }
  if (parser.isSet(workloadAb)) {
    // Started once the workspace is open; the window is not idle until both runs end.
    const QStringList presets = parser.value(workloadAb).split(QLatin1Char(','));
    if (presets.size() != 2) {
      std::fprintf(stderr, "keyscope: --workload-ab wants A,B (two presets), got %s\n",
                   qPrintable(parser.value(workloadAb)));
      return 2;
    }
    keyscope::WorkloadLab* lab = window.workload();
    QObject::connect(
        window.session(), &keyscope::Session::opened, lab,
        [lab, presets] {
          if (!lab->startAb(presets[0].trimmed(), presets[1].trimmed()))
            std::fprintf(stderr, "keyscope: --workload-ab: %s\n", qPrintable(lab->lastError()));
        },
        Qt::SingleShotConnection);
  }
  window.show();
  if (parser.isSet(history)) {
    // ROW,FAMILY[:QUALIFIER] in escaped text (\xNN escapes); no qualifier: the whole family.
    const QString cell = parser.value(history);
    const qsizetype comma = cell.indexOf(QLatin1Char(','));
    const QString column = cell.mid(comma + 1);
    const qsizetype colon = column.indexOf(QLatin1Char(':'));
    const auto row = keyscope::parseRowKeyInput(cell.left(comma), keyscope::RowKeyInputKind::kEscaped, {});
    const auto qualifier = keyscope::parseRowKeyInput(
        colon < 0 ? QString() : column.mid(colon + 1), keyscope::RowKeyInputKind::kEscaped, {});
    if (comma < 0 || !row || !qualifier || !parser.isSet(table)) {
      std::fprintf(stderr, "keyscope: --history wants ROW,FAMILY[:QUALIFIER] and --table, got %s\n",
                   qPrintable(cell));
      return 2;
    }
    keyscope::CellHistoryTarget target;
    target.table = parser.value(table).toStdString();
    target.row = row.value();
    target.family = (colon < 0 ? column : column.left(colon)).toStdString();
    if (colon >= 0) target.qualifier = qualifier.value();
    QObject::connect(
        window.session(), &keyscope::Session::opened, &window,
        [&window, target] { window.showCellHistory(target); }, Qt::SingleShotConnection);
  }
  if (parser.isSet(format) && !parser.positionalArguments().isEmpty()) {
    const QString workspace =
        QFileInfo(parser.positionalArguments().constFirst()).absoluteFilePath();
    for (const QString& choice : parser.values(format)) {
      const qsizetype equals = choice.lastIndexOf(QLatin1Char('='));
      const std::optional<keyscope::ValueFormat> chosen =
          keyscope::valueFormatFromName(choice.mid(equals + 1).toStdString());
      if (equals < 0 || !chosen) {
        std::fprintf(stderr, "keyscope: --format wants COLUMN=FORMAT, got %s\n",
                     qPrintable(choice));
        return 2;
      }
      window.columnFormats()->setFormat(workspace, parser.value(table), choice.left(equals),
                                        *chosen);
    }
  }
  // A screenshot of the lab alone opens nothing.
  if (!screenshotMode || !parser.positionalArguments().isEmpty()) {
    window.openAtStart(parser.positionalArguments());
  }
  if (screenshotMode)
    saveWhenSettled(&window, parser.value(screenshot), parser.value(table), parser.isSet(exportDialog));
  return QApplication::exec();
}
