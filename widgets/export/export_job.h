// The export's work, as the job runner runs it: exportCsv into FILE.part,
// then a rename to FILE. Kept apart from the dialog so that what touches the
// engine and the file system is plain code with one entry point.
//
// Thread rules: runs on a job runner worker thread (or any thread); reads
// the Workspace as any client does and shares nothing with the GUI thread
// but the cancel tokens and the progress it reports.
#pragma once

#include <QString>

#include <functional>
#include <mutex>
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

// Settles the race between an export's last step and a cancel: the job
// renames FILE.part to FILE only if no cancel came first, and a cancel that
// comes later learns whether the file was put in place. The rename runs under
// the lock, so a cancel waits at most for that one call.
class ExportCommit {
 public:
  // The job: calls rename() (true when the file is in place) unless a
  // cancel came first; false then, and nothing is renamed.
  bool renameUnlessCancelled(const std::function<bool()>& rename) {
    std::lock_guard lock(m_mutex);
    if (m_cancelled) return false;
    m_renamed = rename();
    m_renameTried = true;
    return true;
  }
  // A cancel: true when nothing was written (nor will be); false when the
  // job had already put the file in place.
  bool cancel() {
    std::lock_guard lock(m_mutex);
    if (m_renameTried) return !m_renamed;
    m_cancelled = true;
    return true;
  }

 private:
  std::mutex m_mutex;
  bool m_cancelled = false;
  bool m_renameTried = false;
  bool m_renamed = false;
};

// The temporary name an export writes to: `path` + ".part".
QString exportPartPath(const QString& path);

// Writes `table` as CSV to exportPartPath(path), then renames it to `path`
// (replacing an older file only then). On failure or cancellation the .part
// file is removed, so nothing is left behind. Stops when `userCancel` or the
// job's own token is cancelled, and renames only when `commit` was not
// cancelled first. Progress goes to `control` (done: cells written; total:
// `estimatedCells`, 0 when unknown).
ExportOutcome runExport(const Workspace& ws, const std::string& table, CsvExportOptions options,
                        const QString& path, const CancelToken& userCancel, ExportCommit& commit,
                        qint64 estimatedCells, JobControl& control);

// The first `rows` rows of the export as text, for the preview.
Result<std::string> previewExport(const Workspace& ws, const std::string& table,
                                  CsvExportOptions options, int rows);

}  // namespace keyscope
