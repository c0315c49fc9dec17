// Shared pieces of the import and export commands (see csv_cli.h).
#include "csv_cli.h"

#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <sstream>

#include "keyscope/csv.h"

namespace keyscope::cli {

Result<char> delimiterArg(const std::string& text) {
  if (text == "tab" || text == "\\t" || text == "\t") return '\t';
  if (text.size() != 1) return Status::invalidArgument("a delimiter is one character (or 'tab'), got '" + text + "'");
  if (text[0] == '\r' || text[0] == '\n') return Status::invalidArgument("the delimiter cannot be a line break");
  return text[0];
}

Result<std::optional<char>> quoteArg(const std::string& text) {
  if (text == "none") return std::optional<char>();
  if (text.size() != 1) return Status::invalidArgument("a quote is one character (or 'none'), got '" + text + "'");
  return std::optional<char>(text[0]);
}

Result<std::string> lineEndingArg(const std::string& text) {
  if (text == "lf") return std::string("\n");
  if (text == "crlf") return std::string("\r\n");
  return Status::invalidArgument("--line-ending takes 'lf' or 'crlf', got '" + text + "'");
}

Result<ByteFormat> byteFormatArg(const std::string& text) {
  if (std::optional<ByteFormat> f = byteFormatFromName(text)) return *f;
  return Status::invalidArgument("--bytes takes escaped, hex, base64 or raw, got '" + text + "'");
}

Result<std::vector<std::string>> listArg(const std::string& text) {
  std::istringstream in(text);
  CsvReader reader(in, {});
  CsvRecord record;
  Result<bool> got = reader.next(&record);
  if (!got) return Status::invalidArgument(got.status().message());
  if (!*got) return std::vector<std::string>();
  return record.fields;
}

std::string humanBytes(uint64_t bytes) {
  char buf[32];
  if (bytes < (uint64_t{1} << 20)) {
    std::snprintf(buf, sizeof buf, "%.1f KiB", static_cast<double>(bytes) / 1024.0);
  } else if (bytes < (uint64_t{1} << 30)) {
    std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  } else {
    std::snprintf(buf, sizeof buf, "%.2f GiB", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
  }
  return buf;
}

std::string withCommas(uint64_t n) {
  std::string digits = std::to_string(n);
  for (size_t i = digits.size(); i > 3; i -= 3) digits.insert(i - 3, 1, ',');
  return digits;
}

void ProgressLine::update(const std::string& text, bool force) {
  if (!m_enabled) return;
  const auto now = std::chrono::steady_clock::now();
  const auto every = m_terminal ? std::chrono::milliseconds(100) : std::chrono::milliseconds(1000);
  if (!force && m_shown && now - m_last < every) return;
  m_last = now;
  m_shown = true;
  if (m_terminal) {
    std::string line = "\r" + text;
    if (text.size() < m_width) line.append(m_width - text.size(), ' ');
    m_width = text.size();
    m_err << line << std::flush;
  } else {
    m_err << text << "\n" << std::flush;
  }
}

void ProgressLine::finish() {
  if (!m_enabled || !m_terminal || m_width == 0) return;
  m_err << "\r" << std::string(m_width, ' ') << "\r" << std::flush;
  m_width = 0;
}

bool stderrIsTerminal() { return ::isatty(STDERR_FILENO) == 1; }

namespace {

CancelToken* g_interruptToken = nullptr;

extern "C" void onInterrupt(int) {
  if (g_interruptToken != nullptr) g_interruptToken->cancel();
  std::signal(SIGINT, SIG_DFL);  // a second Ctrl-C ends the process
}

}  // namespace

CancelOnInterrupt::CancelOnInterrupt(CancelToken& token) {
  g_interruptToken = &token;
  std::signal(SIGINT, onInterrupt);
}

CancelOnInterrupt::~CancelOnInterrupt() {
  std::signal(SIGINT, SIG_DFL);
  g_interruptToken = nullptr;
}

}  // namespace keyscope::cli
