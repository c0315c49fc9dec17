#include "shell_test_util.h"

#include <random>

namespace keyscope::shell::test {

Statement parseStatement(std::string_view source) {
  std::vector<Statement> statements = parseShell(source);
  if (statements.size() != 1) {
    ADD_FAILURE() << "'" << source << "' has " << statements.size() << " statements, expected 1";
    return statements.empty() ? Statement{} : statements.front();
  }
  return statements.front();
}

std::string parseError(std::string_view source) {
  Statement s = parseStatement(source);
  return s.status ? "parsed" : s.status.message();
}

Bytes literal(std::string_view text) {
  return parseAs<PutCommand>("put 't', " + std::string(text) + ", 'f:q', 'v'").put.row;
}

TempDir::TempDir() {
  std::random_device rd;
  m_path = std::filesystem::temp_directory_path() / ("keyscope-shell-test-" + std::to_string(rd()) + std::to_string(rd()));
  std::filesystem::create_directories(m_path);
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(m_path, ec);
}

ShellFixture::ShellFixture(ShellFormat format) {
  OpenOptions options;
  options.backgroundCompaction = false;  // tests decide when files merge
  Result<std::unique_ptr<Workspace>> ws = Workspace::open(m_dir.file("shell.ksw"), options);
  if (!ws) {
    ADD_FAILURE() << ws.status().message();
    return;
  }
  m_ws = std::move(ws).value();
  m_shell = std::make_unique<Shell>(*m_ws, format);
}

std::string ShellFixture::run(std::string_view source) {
  std::string out;
  m_failures += m_shell->run(source, 1, [&out](const CommandOutput& o) { out += o.text; });
  return out;
}

}  // namespace keyscope::shell::test
