// `keyscope-cli shell WORKSPACE [SCRIPT] [-e COMMAND]... [--format text|jsonl]`:
// the HBase shell language over a workspace (docs/SHELL.md). Commands come
// from -e arguments, a script file, or standard input; on a terminal the
// shell is interactive, with line editing and history (libedit). It carries
// on after a failed command and exits 1 if any failed.
#include <editline/readline.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>

#include "cli_io.h"
#include "cli_workspace.h"
#include "keyscope/shell.h"

namespace keyscope::cli {

namespace {

constexpr const char* kShellUsage =
    "usage: keyscope-cli shell WORKSPACE [SCRIPT] [-e COMMAND]... [--format text|jsonl]\n"
    "  Runs HBase shell commands (docs/SHELL.md) on WORKSPACE (created if missing):\n"
    "  the -e COMMANDs, else the SCRIPT file ('-': standard input), else standard input;\n"
    "  interactive, with line editing and history, when standard input is a terminal.\n"
    "  --format jsonl prints one JSON object per command (DESIGN.md \"Machine-readable output\").\n"
    "  Exit status: 0 all commands ran, 1 some failed, 2 bad usage or an unreadable workspace.\n";

class ShellRunner {
 public:
  ShellRunner(Workspace& ws, shell::ShellFormat format, Streams io) : m_shell(ws, format), m_format(format), m_io(io) {}

  // Runs one chunk of source whose first line is `firstLine`.
  void run(std::string_view source, int firstLine) {
    m_failures += m_shell.run(source, firstLine, [this](const shell::CommandOutput& out) {
      // Text-mode errors go to standard error, as a command line's do; JSON
      // lines all go to standard output, one per command.
      std::ostream& stream = out.ok || m_format == shell::ShellFormat::kJsonl ? m_io.out : m_io.err;
      stream << out.text;
      stream.flush();  // each answer leaves at once, so a pipe sees it before the next command
    });
  }

  // Reads statements line by line (a statement may span lines) and runs each
  // as soon as it is complete.
  void runStream(std::istream& in) {
    std::string buffer;
    std::string line;
    int lineNo = 0;
    int bufferLine = 1;
    while (!m_shell.exitRequested() && std::getline(in, line)) {
      ++lineNo;
      if (buffer.empty()) bufferLine = lineNo;
      buffer += line;
      buffer += '\n';
      if (!shell::needsMoreInput(buffer)) {
        run(buffer, bufferLine);
        buffer.clear();
      }
    }
    if (!m_shell.exitRequested() && buffer.find_first_not_of(" \t\r\n") != std::string::npos) run(buffer, bufferLine);
  }

  void runInteractive(const std::string& workspace) {
    const char* home = std::getenv("HOME");
    const std::string historyFile = home && *home ? std::string(home) + "/.keyscope_history" : "";
    using_history();
    stifle_history(1000);
    if (!historyFile.empty()) read_history(historyFile.c_str());
    m_io.out << "Keyscope shell on " << workspace << ". Type help for the commands, exit to leave.\n";
    m_io.out.flush();
    std::string buffer;
    int lineNo = 0;
    int bufferLine = 1;
    while (!m_shell.exitRequested()) {
      char prompt[48];
      std::snprintf(prompt, sizeof prompt, "keyscope:%03d:%d%s ", lineNo + 1, buffer.empty() ? 0 : 1,
                    buffer.empty() ? ">" : "*");
      char* raw = readline(prompt);
      if (raw == nullptr) {  // end of input (Ctrl-D)
        m_io.out << "\n";
        break;
      }
      std::string line(raw);
      std::free(raw);
      ++lineNo;
      if (line.find_first_not_of(" \t") != std::string::npos) add_history(line.c_str());
      if (buffer.empty()) bufferLine = lineNo;
      buffer += line;
      buffer += '\n';
      if (!shell::needsMoreInput(buffer)) {
        run(buffer, bufferLine);
        buffer.clear();
      }
    }
    if (!historyFile.empty()) write_history(historyFile.c_str());
  }

  bool exitRequested() const { return m_shell.exitRequested(); }
  size_t failures() const { return m_failures; }

 private:
  shell::Shell m_shell;
  shell::ShellFormat m_format;
  Streams m_io;
  size_t m_failures = 0;
};

}  // namespace

int runShellCommand(const Args& args, Streams io) {
  std::vector<std::string> positional;
  std::vector<std::string> commands;
  shell::ShellFormat format = shell::ShellFormat::kText;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-h" || a == "--help") {
      io.out << kShellUsage;
      return kExitOk;
    }
    if (a == "-e" || a == "--execute") {
      if (i + 1 >= args.size()) {
        io.err << "keyscope-cli: " << a << " needs a command\n" << kShellUsage;
        return kExitBadInput;
      }
      commands.push_back(args[++i]);
    } else if (a == "--format" || a.rfind("--format=", 0) == 0) {
      std::string value;
      if (a == "--format") {
        if (i + 1 >= args.size()) {
          io.err << "keyscope-cli: --format takes 'text' or 'jsonl'\n";
          return kExitBadInput;
        }
        value = args[++i];
      } else {
        value = a.substr(9);
      }
      if (value == "text") format = shell::ShellFormat::kText;
      else if (value == "jsonl") format = shell::ShellFormat::kJsonl;
      else {
        io.err << "keyscope-cli: --format takes 'text' or 'jsonl', not '" << value << "'\n";
        return kExitBadInput;
      }
    } else if (a.size() > 1 && a[0] == '-') {
      io.err << "keyscope-cli: unknown option '" << a << "'\n" << kShellUsage;
      return kExitBadInput;
    } else {
      positional.push_back(a);
    }
  }
  if (positional.empty() || positional.size() > 2) {
    io.err << kShellUsage;
    return kExitBadInput;
  }
  if (positional.size() == 2 && !commands.empty()) {
    io.err << "keyscope-cli: give a SCRIPT or -e commands, not both\n";
    return kExitBadInput;
  }
  std::ifstream file;
  if (positional.size() == 2 && positional[1] != "-") {
    file.open(positional[1], std::ios::binary);
    if (!file) {
      io.err << "keyscope-cli: cannot read " << positional[1] << "\n";
      return kExitBadInput;
    }
  }
  Result<std::unique_ptr<Workspace>> ws = Workspace::open(positional[0], cliOpenOptions(positional[0]));
  if (!ws) {
    io.err << "keyscope-cli: " << ws.status().message() << "\n";
    return kExitBadInput;
  }
  ShellRunner runner(**ws, format, io);
  if (!commands.empty()) {
    for (const std::string& command : commands) {
      if (runner.exitRequested()) break;
      runner.run(command, 1);
    }
  } else if (file.is_open()) {
    runner.runStream(file);
  } else if (positional.size() == 1 && &io.in == &std::cin && isatty(STDIN_FILENO)) {
    runner.runInteractive(positional[0]);
  } else {
    runner.runStream(io.in);
  }
  return runner.failures() > 0 ? kExitFailed : kExitOk;
}

}  // namespace keyscope::cli
