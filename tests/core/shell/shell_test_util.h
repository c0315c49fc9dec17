// Helpers for the shell tests: parse one statement into its command type, the
// error a statement gives, and a shell over a workspace in a temporary
// directory whose output is collected as text.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "keyscope/shell.h"
#include "keyscope/shell_command.h"
#include "keyscope/workspace.h"

namespace keyscope::shell::test {

// The one statement of `source`; a test failure if there is not exactly one.
Statement parseStatement(std::string_view source);

// The command `source` parses to, as T (a test failure, and T{}, otherwise).
template <typename T>
T parseAs(std::string_view source) {
  Statement s = parseStatement(source);
  if (!s.status) {
    ADD_FAILURE() << "'" << source << "' failed to parse: " << s.status.message();
    return T{};
  }
  if (!s.command || !std::holds_alternative<T>(*s.command)) {
    ADD_FAILURE() << "'" << source << "' parsed to another command";
    return T{};
  }
  return std::get<T>(*s.command);
}

// The error message of the one statement of `source`, or "parsed" when it parsed.
std::string parseError(std::string_view source);

// The row bytes a literal gives, written as the row of a put.
Bytes literal(std::string_view text);

// A temporary directory removed with the object.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  std::string file(const std::string& name) const { return (m_path / name).string(); }

 private:
  std::filesystem::path m_path;
};

// A shell over a fresh workspace file; run() returns everything the commands
// printed, errors included, in order.
class ShellFixture {
 public:
  explicit ShellFixture(ShellFormat format = ShellFormat::kText);
  std::string run(std::string_view source);
  size_t failures() const { return m_failures; }
  Workspace& ws() { return *m_ws; }
  Shell& shell() { return *m_shell; }

 private:
  TempDir m_dir;
  std::unique_ptr<Workspace> m_ws;
  std::unique_ptr<Shell> m_shell;
  size_t m_failures = 0;
};

}  // namespace keyscope::shell::test
