// The query console's engine work, run on the JobRunner's pool:
//   - a scan is read with Workspace::scan and a Scanner, and its cells are
//     sent to the GUI in batches as they are read (JobStream), so a long
//     scan fills the grid while it runs; it stops within a row of a cancel
//     and at kMaxCellsShown cells (the grid stays bounded: export gets all);
//   - a get is one Workspace::get;
//   - anything else (count, describe, list, put, alter, ...) runs through a
//     ShellSession, as keyscope-cli shell runs it, and comes back as the
//     shell's text.
// Only values cross threads: batches of formatted cells and the outcome.
//
// Thread rules: the functions run on a worker thread with the workspace
// open (the Session waits for every job before closing it). ConsoleShell
// serialises its session: one command at a time, whichever thread.
#pragma once

#include <QString>

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "async/job_runner.h"
#include "keyscope/read_report.h"
#include "keyscope/shell.h"
#include "keyscope/shell_command.h"
#include "keyscope/status.h"
#include "keyscope/workspace.h"

namespace keyscope {

// One cell as the grid shows it, formatted on the worker.
struct ResultCell {
  QString row;          // toStringBinary
  QString column;       // family:qualifier (qualifier as toStringBinary)
  qint64 timestamp = 0;
  QString type;         // "Put", "DeleteColumn", ...
  QString value;        // as the query's FORMATTER (and column converters) show it
};
using ResultBatch = std::vector<ResultCell>;

// The grid shows at most this many cells; a scan stops there.
constexpr size_t kMaxCellsShown = 100000;
// A batch goes to the grid when it holds this many cells, or when
// kBatchInterval has passed since the last one (a slow filter still shows
// rows as they come).
constexpr size_t kCellsPerBatch = 1000;
constexpr std::chrono::milliseconds kBatchInterval{100};

struct QueryOutcome {
  Status status;                // OK, or the error (the shell's text says it too)
  bool cells = false;           // a get or scan: the grid and the report
  QString text;                 // other commands: the shell's text; errors included
  ReadReport report;            // cells only
  uint64_t rows = 0;            // rows (or row fragments with BATCH) returned
  uint64_t cellsReturned = 0;
  bool truncated = false;       // the scan stopped at kMaxCellsShown
  bool changedWorkspace = false;  // a write, alter, split, ... ran
};

// A ShellSession for the console's other commands, shared by its jobs.
class ConsoleShell {
 public:
  explicit ConsoleShell(Workspace& ws) : m_session(ws) {}
  Result<shell::CommandResult> execute(const shell::Command& command) {
    std::lock_guard lock(m_mutex);
    return m_session.execute(command);
  }

 private:
  std::mutex m_mutex;
  shell::ShellSession m_session;
};

// Streams a scan into `stream`. Progress: rows so far.
QueryOutcome runScanJob(const Workspace& ws, const shell::ScanCommand& scan, JobControl& control,
                        JobStream<ResultBatch>& stream);
QueryOutcome runGetJob(const Workspace& ws, const shell::GetCommand& get, JobStream<ResultBatch>& stream);
// Runs each command through the shell session; their text, one after the other.
QueryOutcome runShellJob(ConsoleShell& shell, const std::vector<shell::Command>& commands,
                         const std::vector<std::string>& names, JobControl& control);

// True for commands that change tables, data, regions or servers (the
// workspace tree and the data browser then reload).
bool changesWorkspace(const shell::Command& command);

}  // namespace keyscope
