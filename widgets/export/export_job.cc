// The export's work (see export_job.h). Worker threads.
#include "export/export_job.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace keyscope {

namespace {

std::filesystem::path fsPath(const QString& path) {
  return std::filesystem::path(path.toStdU16String());
}

}  // namespace

QString exportPartPath(const QString& path) {
  return path + QStringLiteral(".part");
}

ExportOutcome runExport(const Workspace& ws, const std::string& table, CsvExportOptions options,
                        const QString& path, const CancelToken& userCancel, ExportCommit& commit,
                        qint64 estimatedCells, JobControl& control) {
  ExportOutcome outcome;
  outcome.path = path;
  const std::filesystem::path finalPath = fsPath(path);
  const std::filesystem::path partPath = fsPath(exportPartPath(path));
  const std::string shownPath = path.toStdString();

  // exportCsv checks one token: the user's. The runner's own (cancelled when
  // the workspace closes or the runner goes) is forwarded to it here, since
  // exportCsv reports progress every few thousand cells.
  CancelToken cancel;
  const auto forwardCancel = [&] {
    if (userCancel.cancelled() || control.isCancelled()) cancel.cancel();
  };
  forwardCancel();
  options.cancel = &cancel;
  options.progress = [&](const CsvExportProgress& progress) {
    forwardCancel();
    JobProgress report;
    report.done = static_cast<qint64>(progress.cells);
    report.total = estimatedCells;
    report.text = QString::number(progress.rows);  // rows; the dialog words it
    control.reportProgress(report);
  };

  std::ofstream out(partPath, std::ios::binary | std::ios::trunc);
  if (!out) {
    outcome.status = Status::ioError("cannot write " + partPath.string() + ": " + std::strerror(errno));
    return outcome;
  }
  outcome.status = exportCsv(ws, table, out, options, &outcome.report);
  out.close();
  if (outcome.status.isOk() && out.fail()) {
    outcome.status = Status::ioError("writing " + partPath.string() + " failed (disk full?)");
  }
  forwardCancel();
  if (outcome.status.isOk() && cancel.cancelled()) outcome.status = Status::cancelled("export cancelled");
  std::error_code error;
  if (outcome.status.isOk()) {
    const bool tried = commit.renameUnlessCancelled([&] {
      std::filesystem::rename(partPath, finalPath, error);
      return !error;
    });
    if (!tried) {
      outcome.status = Status::cancelled("export cancelled");
    } else if (error) {
      outcome.status = Status::ioError("cannot rename " + partPath.string() + " to " + shownPath + ": " +
                                       error.message());
    }
  } else if (outcome.status.code() == Status::Code::kIOError &&
             outcome.status.message().find(shownPath) == std::string::npos) {
    // Core's message does not know the file: name it.
    outcome.status = Status::ioError("writing " + partPath.string() + ": " + outcome.status.message());
  }
  if (!outcome.status.isOk()) std::filesystem::remove(partPath, error);
  return outcome;
}

Result<std::string> previewExport(const Workspace& ws, const std::string& table,
                                  CsvExportOptions options, int rows) {
  if (options.scan.limit < 0 || options.scan.limit > rows) options.scan.limit = rows;
  options.progress = nullptr;
  options.cancel = nullptr;
  std::ostringstream out;
  CsvExportReport report;
  Status status = exportCsv(ws, table, out, options, &report);
  if (!status.isOk()) return status;
  return out.str();
}

}  // namespace keyscope
