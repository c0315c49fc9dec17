// What `keyscope-cli import` and `export` share: CSV dialect arguments, list
// arguments, a throttled progress line on stderr, and Ctrl-C as a cancel
// request. Single-threaded, like the rest of keyscope-cli.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "keyscope/byte_format.h"
#include "keyscope/cancel_token.h"
#include "keyscope/status.h"

namespace keyscope::cli {

// "," or any one character; "tab" or "\t" for a tab.
Result<char> delimiterArg(const std::string& text);
// One character, or "none" for no quoting.
Result<std::optional<char>> quoteArg(const std::string& text);
// "lf" or "crlf".
Result<std::string> lineEndingArg(const std::string& text);
Result<ByteFormat> byteFormatArg(const std::string& text);
// A comma-separated list, read as one CSV record so that an item may be
// quoted: 'row,"d:a,b"' is two items.
Result<std::vector<std::string>> listArg(const std::string& text);

// "270.0 MiB"
std::string humanBytes(uint64_t bytes);
// "1,234,567"
std::string withCommas(uint64_t n);

// One line of progress on stderr. On a terminal it redraws itself in place
// (at most 10 times a second); elsewhere (--progress into a file or pipe) it
// writes a line at most once a second. Disabled: does nothing.
class ProgressLine {
 public:
  ProgressLine(std::ostream& err, bool enabled, bool terminal) : m_err(err), m_enabled(enabled), m_terminal(terminal) {}
  ~ProgressLine() { finish(); }
  void update(const std::string& text, bool force = false);
  // Clears a terminal line (so a summary starts on a clean line).
  void finish();

 private:
  std::ostream& m_err;
  bool m_enabled;
  bool m_terminal;
  bool m_shown = false;
  size_t m_width = 0;
  std::chrono::steady_clock::time_point m_last{};
};

// True when standard error is a terminal.
bool stderrIsTerminal();

// While alive, the first Ctrl-C (SIGINT) cancels `token` instead of killing
// the process; a second one kills it as usual.
class CancelOnInterrupt {
 public:
  explicit CancelOnInterrupt(CancelToken& token);
  ~CancelOnInterrupt();
  CancelOnInterrupt(const CancelOnInterrupt&) = delete;
  CancelOnInterrupt& operator=(const CancelOnInterrupt&) = delete;
};

}  // namespace keyscope::cli
