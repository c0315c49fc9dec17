// keyscope: the GUI entry point. Parses the command line, builds the main
// window, and in screenshot mode (a hidden option for scripts/screenshots)
// renders the window to a PNG and quits.
//
//   keyscope [WORKSPACE]
//   keyscope --screenshot FILE [--schema TEXT] [--tuple JSON | --key HEX] [--dark]
//
// GUI thread only.
#include <QApplication>
#include <QCommandLineParser>
#include <QPalette>
#include <QStyleFactory>
#include <QTimer>

#include <cstdio>

#include "key_lab/key_bytes_view.h"
#include "key_lab/key_schema_view.h"
#include "main_window.h"
#include "version.h"

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

}  // namespace

int main(int argc, char* argv[]) {
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("Keyscope"));
  QApplication::setApplicationName(QStringLiteral("Keyscope"));
  QApplication::setApplicationVersion(keyscope::keyscopeVersion());

  QCommandLineParser parser;
  parser.setApplicationDescription(
      QStringLiteral("Keyscope: a desktop explorer and design lab for HBase/Bigtable-style tables."));
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
  parser.addOptions({screenshot, schema, tuple, key, dark});
  parser.process(app);

  if (parser.isSet(dark)) useDarkPalette(app);

  const bool screenshotMode = parser.isSet(screenshot);
  // Screenshots start from the defaults and leave the user's settings alone.
  keyscope::MainWindow window(/*persistState=*/!screenshotMode);
  if (parser.isSet(schema)) window.schemaView()->setSchemaText(parser.value(schema));
  if (parser.isSet(tuple)) window.bytesView()->setTupleJson(parser.value(tuple));
  if (parser.isSet(key)) window.bytesView()->setKeyHex(parser.value(key));
  if (!parser.positionalArguments().isEmpty()) {
    window.noteWorkspaceArgument(parser.positionalArguments().constFirst());
  }
  window.show();

  if (screenshotMode) {
    const QString file = parser.value(screenshot);
    // 300 ms: long enough for the first paint and the layout to settle.
    QTimer::singleShot(300, &window, [&window, file] {
      const bool saved = window.grab().save(file, "PNG");
      if (!saved) std::fprintf(stderr, "keyscope: cannot write %s\n", qPrintable(file));
      QApplication::exit(saved ? 0 : 1);
    });
  }
  return QApplication::exec();
}
