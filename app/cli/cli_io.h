// Shared conventions of keyscope-cli commands: every command gets its
// arguments and three streams, and returns the process exit status.
//   0  success
//   1  a command ran but reported failures (the shell)
//   2  bad input or usage: one line on stderr says what and where
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace keyscope::cli {

constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;
constexpr int kExitBadInput = 2;

struct Streams {
  std::istream& in;
  std::ostream& out;
  std::ostream& err;
};

using Args = std::vector<std::string>;

int runKeyCommand(const Args& args, Streams io);
int runBatchCommand(const Args& args, Streams io);
int runImportCommand(const Args& args, Streams io);
int runExportCommand(const Args& args, Streams io);
int runShellCommand(const Args& args, Streams io);
int runDemoCommand(const Args& args, Streams io);
int runWorkloadCommand(const Args& args, Streams io);
int runCheckCommand(const Args& args, Streams io);

}  // namespace keyscope::cli
