// The console's engine work (see query_jobs.h). Worker threads.
#include "console/query_jobs.h"

#include <chrono>
#include <variant>

#include "keyscope/cell.h"

namespace keyscope {

namespace {

ResultCell formatCell(const Cell& cell, const shell::OutputFormat& format) {
  ResultCell out;
  out.row = QString::fromStdString(toStringBinary(cell.row));
  out.column = QString::fromStdString(cell.family + ":" + toStringBinary(cell.qualifier));
  out.timestamp = cell.timestamp;
  out.type = QString::fromLatin1(cellTypeName(cell.type));
  out.value = QString::fromStdString(
      shell::formatValue(format.formatterFor(cell.family, cell.qualifier), cell.value));
  return out;
}

QString rowsText(uint64_t rows) {
  return rows == 1 ? QStringLiteral("1 row") : QStringLiteral("%L1 rows").arg(rows);
}

}  // namespace

QueryOutcome runScanJob(const Workspace& ws, const shell::ScanCommand& scan, JobControl& control,
                        JobStream<ResultBatch>& stream) {
  QueryOutcome outcome;
  outcome.cells = true;
  Result<std::unique_ptr<Scanner>> scanner = ws.scan(scan.table, scan.options);
  if (!scanner) {
    outcome.status = scanner.status();
    return outcome;
  }
  using Clock = std::chrono::steady_clock;
  Clock::time_point lastSent = Clock::now();
  ResultBatch batch;
  RowResult row;
  while (!control.isCancelled() && (*scanner)->next(&row)) {
    ++outcome.rows;
    for (const Cell& cell : row.cells) {
      if (outcome.cellsReturned == kMaxCellsShown) {
        outcome.truncated = true;
        break;
      }
      batch.push_back(formatCell(cell, scan.format));
      ++outcome.cellsReturned;
    }
    if (outcome.truncated) break;
    if (batch.size() >= kCellsPerBatch || (!batch.empty() && Clock::now() - lastSent >= kBatchInterval)) {
      stream.send(std::move(batch));
      batch = {};
      lastSent = Clock::now();
      control.reportProgress({static_cast<qint64>(outcome.rows), 0, rowsText(outcome.rows)});
    }
  }
  if (!batch.empty()) stream.send(std::move(batch));
  outcome.report = (*scanner)->report();
  if (control.isCancelled()) {
    outcome.status = Status::cancelled("scan cancelled");
  } else {
    outcome.status = (*scanner)->status();
  }
  return outcome;
}

QueryOutcome runGetJob(const Workspace& ws, const shell::GetCommand& get, JobStream<ResultBatch>& stream) {
  QueryOutcome outcome;
  outcome.cells = true;
  Result<GetResult> result = ws.get(get.table, get.options);
  if (!result) {
    outcome.status = result.status();
    return outcome;
  }
  ResultBatch batch;
  for (const Cell& cell : result->cells) batch.push_back(formatCell(cell, get.format));
  outcome.rows = result->cells.empty() ? 0 : 1;
  outcome.cellsReturned = batch.size();
  outcome.report = result->report;
  if (!batch.empty()) stream.send(std::move(batch));
  return outcome;
}

QueryOutcome runShellJob(ConsoleShell& shell, const std::vector<shell::Command>& commands,
                         const std::vector<std::string>& names, JobControl& control) {
  QueryOutcome outcome;
  std::string text;
  for (size_t i = 0; i < commands.size() && !control.isCancelled(); ++i) {
    const shell::Command& command = commands[i];
    if (std::holds_alternative<shell::ExitCommand>(command)) {
      text += "exit: the console stays open (close the window to quit)\n";
      continue;
    }
    if (commands.size() > 1) text += "> " + (i < names.size() ? names[i] : std::string()) + "\n";
    Result<shell::CommandResult> result = shell.execute(command);
    if (!result) {
      text += shell::formatErrorText(result.status());
      if (outcome.status.isOk()) outcome.status = result.status();
      continue;
    }
    if (changesWorkspace(command)) outcome.changedWorkspace = true;
    const std::string rendered = shell::formatText(command, *result);
    text += rendered.empty() ? std::string("OK\n") : rendered;
  }
  outcome.text = QString::fromStdString(text);
  return outcome;
}

bool changesWorkspace(const shell::Command& command) {
  if (const auto* table = std::get_if<shell::TableCommand>(&command)) {
    switch (table->action) {
      case shell::TableAction::kDescribe:
      case shell::TableAction::kExists:
      case shell::TableAction::kIsEnabled:
      case shell::TableAction::kIsDisabled:
        return false;
      default:
        return true;
    }
  }
  if (const auto* schema = std::get_if<shell::KeySchemaCommand>(&command)) return schema->set;
  return std::holds_alternative<shell::CreateCommand>(command) || std::holds_alternative<shell::AlterCommand>(command) ||
         std::holds_alternative<shell::PutCommand>(command) || std::holds_alternative<shell::DeleteCommand>(command) ||
         std::holds_alternative<shell::IncrCommand>(command) || std::holds_alternative<shell::SplitCommand>(command) ||
         std::holds_alternative<shell::MergeRegionCommand>(command) ||
         std::holds_alternative<shell::BalancerCommand>(command) ||
         std::holds_alternative<shell::SetServersCommand>(command) ||
         std::holds_alternative<shell::SetClockCommand>(command);
}

}  // namespace keyscope
