// ExportDialog: CSV export of a table, a data browser's view or a query's
// results (core's exportCsv, keyscope/csv_table.h), with every option core
// has: layout (long, wide, auto), byte rendering (escaped, hex, base64, raw),
// decoded key columns (only when the table has a key schema), delimiter
// (tab included), quote character, line endings (LF, CRLF) and the header
// line. A short preview of the first lines (the same scan with a small
// LIMIT) follows the options as they change; invalid combinations (wide needs
// VERSIONS 1 and no RAW) are explained before anything runs. The choices are
// remembered in QSettings.
//
// The export runs on the job runner: it writes FILE.part and renames it to
// FILE only when complete, so a cancelled or failed export leaves no file
// (and an older FILE is replaced only by a complete one). Progress shows rows
// and cells (and a percentage when the stored cells give an estimate); Cancel
// stops it. The dialog stays responsive throughout.
//
// Usage: construct, show() (or open()); the dialog may stay up while the
// user works elsewhere. Whoever owns the workspace must call
// workspaceClosing() before it closes (connect Session::aboutToClose): a
// running export is cancelled (the job removes its .part) and the dialog
// stops reading.
//
// Thread rules: GUI thread only; every engine call runs on the job runner.
#pragma once

#include <QDialog>
#include <QString>

#include <memory>
#include <optional>

#include "async/job_runner.h"
#include "export/export_job.h"
#include "keyscope/csv.h"
#include "keyscope/csv_table.h"
#include "keyscope/options.h"
#include "keyscope/workspace.h"

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSettings;
class QTimer;

namespace keyscope {

// What to export: a table and the scan that reads it.
struct ExportSource {
  QString table;
  ScanOptions scan;     // its range, filter, columns, versions, time range, "now", raw, limit
  QString description;  // shown in the dialog: "table web_visits", "the data browser's view (prefix ...)"
};

// The options of the form (everything but the scan).
struct ExportChoices {
  CsvLayout layout = CsvLayout::kLong;
  ByteFormat bytes = ByteFormat::kEscaped;
  bool decodeKey = false;  // ignored when the table has no key schema
  CsvDialect dialect;      // delimiter, quote (nullopt: none), line ending ("\n" or "\r\n")
  bool header = true;
};

class ExportDialog : public QDialog {
  Q_OBJECT

 public:
  // `runner` is not owned and must outlive the dialog. `ws` must stay open
  // until workspaceClosing() (or the dialog's destruction). `settings`:
  // where the choices are remembered; nullptr: the application's QSettings.
  ExportDialog(JobRunner* runner, const Workspace* ws, ExportSource source,
               QWidget* parent = nullptr, QSettings* settings = nullptr);
  ~ExportDialog() override;  // cancels a running export

  const ExportSource& source() const { return m_source; }

  ExportChoices choices() const;
  void setChoices(const ExportChoices& choices);
  QString filePath() const;
  void setFilePath(const QString& path);

  // Why the current choices cannot run (empty: they can).
  QString problem() const;
  // Starts the export as the Export button does. False, with the reason in
  // the status line, when the choices or the file cannot work.
  bool startExport();
  // Stops a running export; nothing is written.
  void cancelExport();
  bool isExporting() const { return m_exporting; }
  // Nothing is loading or running (no table description, preview or export).
  bool isIdle() const;

  QString previewText() const;
  QString statusText() const;
  // The last finished export; nullopt before the first.
  const std::optional<ExportOutcome>& lastOutcome() const { return m_lastOutcome; }

 public slots:
  // The workspace is about to close: cancel, forget it, and say so.
  void workspaceClosing();

 signals:
  // An export ended (OK, failed or cancelled).
  void exportFinished(const QString& path, bool ok);
  // A preview came (or failed: see previewText()).
  void previewUpdated();

 protected:
  void reject() override;  // Close while exporting asks before cancelling

 private:
  void buildUi();
  void loadTable();
  void restoreChoices();
  void saveChoices() const;
  void onChoicesChanged();
  void updateValidity();
  void schedulePreview();
  void runPreview();
  void chooseFile();
  void onExportDone(ExportOutcome outcome);
  void onExportProgress(const JobProgress& progress);
  void setExporting(bool exporting);
  void showStatus(const QString& text, bool isError);
  void showInFolder();
  CsvExportOptions exportOptions() const;

  JobRunner* m_runner;
  const Workspace* m_ws;
  ExportSource m_source;
  QSettings* m_settings;
  JobRunner::ChannelId m_tableChannel;
  JobRunner::ChannelId m_previewChannel;
  JobRunner::ChannelId m_exportChannel;
  std::optional<TableOptions> m_table;  // once loaded
  qint64 m_estimatedCells = 0;          // 0: unknown
  bool m_loadingTable = false;
  bool m_previewing = false;
  bool m_exporting = false;
  QString m_exportPath;
  std::shared_ptr<CancelToken> m_userCancel;  // the running export's Cancel
  std::shared_ptr<ExportCommit> m_commit;      // the running export's rename, or a cancel: whichever is first
  std::optional<ExportOutcome> m_lastOutcome;

  QLabel* m_sourceLabel = nullptr;
  QComboBox* m_layout = nullptr;
  QComboBox* m_bytes = nullptr;
  QCheckBox* m_decodeKey = nullptr;
  QComboBox* m_delimiter = nullptr;
  QComboBox* m_quote = nullptr;
  QComboBox* m_lineEnding = nullptr;
  QCheckBox* m_header = nullptr;
  QLineEdit* m_file = nullptr;
  QPushButton* m_browse = nullptr;
  QLabel* m_problem = nullptr;
  QGroupBox* m_previewBox = nullptr;
  QPlainTextEdit* m_preview = nullptr;
  QProgressBar* m_progress = nullptr;
  QLabel* m_status = nullptr;
  QPushButton* m_exportButton = nullptr;
  QPushButton* m_cancelButton = nullptr;
  QPushButton* m_showInFolder = nullptr;
  QPushButton* m_closeButton = nullptr;
  QTimer* m_previewTimer = nullptr;
};

}  // namespace keyscope
