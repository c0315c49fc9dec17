// The export's work, as the job runner runs it: exportCsv into FILE.part,
// then a rename to FILE. Kept apart from the dialog so that what touches the
// engine and the file system is plain code with one entry point.
//
// Thread rules: runs on a job runner worker thread (or any thread); reads
// the Workspace as any client does and shares nothing with the GUI thread
// but the cancel tokens and the progress it reports.
#pragma once

#include <QString>

#include <string>

#include "async/job_runner.h"
#include "keyscope/csv_table.h"
#include "keyscope/workspace.h"

namespace keyscope {

// What a finished export wrote.
struct ExportOutcome {
  Status status;   // OK, Cancelled, or the failure (naming the file)
  QString path;    // the file written (or that would have been)
  CsvExportReport report;
};

// The temporary name an export writes to: `path` + ".part".
QString exportPartPath(const QString& path);

// Writes `table` as CSV to exportPartPath(path), then renames it to `path`
// (replacing an older file only then). On failure or cancellation the .part
// file is removed, so nothing is left behind. Stops when `userCancel` or the
// job's own token is cancelled. Progress goes to `control` (done: cells
// written; total: `estimatedCells`, 0 when unknown).
ExportOutcome runExport(const Workspace& ws, const std::string& table, CsvExportOptions options,
                        const QString& path, const CancelToken& userCancel, qint64 estimatedCells,
                        JobControl& control);

// The first `rows` rows of the export as text, for the preview.
Result<std::string> previewExport(const Workspace& ws, const std::string& table,
                                  CsvExportOptions options, int rows);

}  // namespace keyscope
