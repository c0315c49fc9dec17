// Shell: parse, run and render, statement by statement.
#include "keyscope/shell.h"

namespace keyscope::shell {

namespace {

// The same status with `prefix` before its message.
Status prefixed(const Status& status, const std::string& prefix) {
  const std::string message = prefix + status.message();
  switch (status.code()) {
    case Status::Code::kNotFound: return Status::notFound(message);
    case Status::Code::kCorruption: return Status::corruption(message);
    case Status::Code::kIOError: return Status::ioError(message);
    case Status::Code::kCancelled: return Status::cancelled(message);
    case Status::Code::kBusy: return Status::busy(message);
    default: return Status::invalidArgument(message);
  }
}

}  // namespace

size_t Shell::run(std::string_view source, int firstLine, const std::function<void(const CommandOutput&)>& emit) {
  size_t failures = 0;
  ShellParser parser(source, firstLine);
  while (!m_exit) {
    std::optional<Statement> statement = parser.next();
    if (!statement) break;
    CommandOutput out;
    out.name = statement->name;
    Status error = statement->status;
    std::optional<CommandResult> result;
    if (error) {
      Result<CommandResult> r = m_session.execute(*statement->command);
      if (r) {
        result = std::move(r).value();
      } else {
        // Errors from the workspace say what; the statement's line says where.
        const bool placed = r.status().message().rfind("line ", 0) == 0;
        error = placed ? r.status() : prefixed(r.status(), "line " + std::to_string(statement->line) + ": ");
      }
    }
    if (result) {
      out.text = m_format == ShellFormat::kJsonl ? formatJson(out.name, *statement->command, *result)
                                                 : formatText(*statement->command, *result);
      if (std::holds_alternative<ExitCommand>(*statement->command)) m_exit = true;
    } else {
      out.ok = false;
      ++failures;
      out.text = m_format == ShellFormat::kJsonl ? formatErrorJson(out.name, error) : formatErrorText(error);
    }
    emit(out);
  }
  return failures;
}

}  // namespace keyscope::shell
