// QueryConsole: the "Query" tab. A form for get and scan (QueryForm) above
// a shell line (ShellLineEdit, the language of keyscope-cli shell); the form
// writes the line as it changes, and Enter or "To form" reads the line back
// into the form with the shell's own parser (query_line.h). A parse error is
// shown under the line with its spot marked, and nothing runs.
//
// Running: a scan streams its cells into the grid batch by batch as the
// scanner reads them (query_jobs.h), with rows so far and a Cancel that
// stops it within a row; the grid holds at most kMaxCellsShown cells and
// says so. A get fills the grid at once. Either shows the read report
// (regions, store files read and skipped and why, pages, cache hits, cells
// examined versus returned, time). Any other command runs through the
// shell's session and shows the shell's text; one that writes (put, alter,
// split, ...) emits workspaceChanged so the window reloads its views.
// "Export results…" re-runs the current scan into CSV (ExportDialog).
//
// Thread rules: GUI thread only; all engine work runs on the JobRunner.
#pragma once

#include <QElapsedTimer>
#include <QHash>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <memory>
#include <optional>

#include "async/job_runner.h"
#include "console/query_jobs.h"
#include "console/query_line.h"
#include "export/export_dialog.h"

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSettings;
class QStackedWidget;
class QTableView;

namespace keyscope {

class QueryForm;
class QueryResultModel;
class ShellLineEdit;

class QueryConsole : public QWidget {
  Q_OBJECT

 public:
  // `runner` is not owned and must outlive the console; `settings` keeps
  // the line's history (not owned; nullptr: none kept).
  QueryConsole(JobRunner* runner, QSettings* settings, QWidget* parent = nullptr);
  ~QueryConsole() override;

  // The workspace queries run against; nullptr detaches (jobs are cancelled).
  // REQUIRES: `ws` stays open until the next setWorkspace().
  void setWorkspace(Workspace* ws);
  // The table selected elsewhere: the form's table when the line is a get or
  // scan (or empty).
  void setTable(const QString& table);

  // Sets the line and runs it as Enter does. False when it does not parse
  // (the error is shown; nothing runs).
  bool runLine(const QString& line);
  // Enter: reads the line into the form when it can, then runs it.
  bool runCurrentLine();
  // "To form": reads the line into the form without running it. False on a
  // parse error, or when the form cannot hold the line (see noteText()).
  bool lineToForm();
  void cancel();

  bool isRunning() const { return m_running; }
  // The tables and families used for completion have been loaded.
  bool isLoadingTables() const { return m_loadingTables; }

  QueryForm* form() const { return m_form; }
  ShellLineEdit* line() const { return m_line; }
  QueryResultModel* model() const { return m_model; }
  QTableView* grid() const { return m_grid; }
  // What the last run showed besides the grid.
  QString outputText() const;       // non-cell results: the shell's text
  QString reportText() const;       // the read report; empty for non-cell results
  QString statusText() const;       // "42 rows, 84 cells in 3.1 ms", "Cancelled after ..."
  QString errorText() const;        // the parse error under the line (empty: none)
  QString noteText() const;         // e.g. why the form cannot show the line
  bool showingCells() const;        // the grid (true) or the text (false) is shown
  // What "Export results…" exports: the line's scan (nullopt when the line
  // is not one scan).
  std::optional<ExportSource> exportSource() const;
  ExportDialog* exportDialog() const { return m_exportDialog; }

 signals:
  // A command changed tables, data, regions or servers.
  void workspaceChanged();
  // A run finished (ok, failed or cancelled).
  void queryFinished();

 private:
  void onFormChanged();
  void run(const ConsoleLine& parsed, const QString& text);
  void onBatch(ResultBatch batch);
  void onFinished(QueryOutcome outcome);
  void setRunning(bool running);
  void showParseError(const ConsoleLine& parsed, const QString& text);
  void clearError();
  void loadTables();
  void exportResults();

  JobRunner* m_runner;
  JobRunner::ChannelId m_queryChannel;
  JobRunner::ChannelId m_tablesChannel;
  Workspace* m_ws = nullptr;
  std::shared_ptr<ConsoleShell> m_shell;
  bool m_running = false;
  bool m_loadingTables = false;
  bool m_writingLine = false;  // the form is writing the line
  QString m_formLine;           // the line as the form last wrote it
  QElapsedTimer m_clock;        // since the run started

  QueryForm* m_form = nullptr;
  ShellLineEdit* m_line = nullptr;
  QPushButton* m_runButton = nullptr;
  QPushButton* m_toFormButton = nullptr;
  QPushButton* m_cancelButton = nullptr;
  QPushButton* m_exportButton = nullptr;
  QLabel* m_error = nullptr;
  QLabel* m_note = nullptr;
  QLabel* m_status = nullptr;
  QueryResultModel* m_model = nullptr;
  QTableView* m_grid = nullptr;
  QPlainTextEdit* m_text = nullptr;
  QStackedWidget* m_results = nullptr;
  QLabel* m_report = nullptr;
  QPointer<ExportDialog> m_exportDialog;
};

}  // namespace keyscope
