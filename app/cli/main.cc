// keyscope-cli: Keyscope on the command line (core only, no Qt).
#include <iostream>
#include <string>

#include <keyscope/process_memory.h>

#include "cli_io.h"

namespace {

constexpr const char* kUsage =
    "usage: keyscope-cli COMMAND ...\n"
    "\n"
    "commands:\n"
    "  key encode SCHEMA [JSON_ARRAY]    encode a key tuple as hex (stdin: one array per line)\n"
    "  key decode SCHEMA [HEX]           decode a hex key to a JSON array (stdin: one key per line)\n"
    "  key explain SCHEMA [--samples F]  layout, byte-order check and design advice\n"
    "  batch WORKSPACE [FILE] [--bytes hex]\n"
    "                                    JSON operations, one per line, answered one per line\n"
    "  import WORKSPACE TABLE FILE [--columns LIST] [--key-schema S] [--bad-lines skip|fail] ...\n"
    "                                    CSV/TSV into a table, as HBase's ImportTsv (docs/CSV.md)\n"
    "  export WORKSPACE TABLE [scan options] [--layout long|wide] [--bytes F] --out FILE\n"
    "                                    a scan as RFC 4180 CSV (docs/CSV.md)\n"
    "  shell WORKSPACE [SCRIPT] [-e COMMAND]... [--format text|jsonl]\n"
    "                                    HBase shell commands (docs/SHELL.md); interactive on a terminal\n"
    "  demo WORKSPACE [--force]          builds the demo workspace: a table per schema-design lesson\n"
    "  workload WORKSPACE TABLE [--preset P | --design D] [--ops N] [--clients C] [--servers S]\n"
    "           [--format jsonl] ...     runs a key design through the engine: hotspots, splits, verdict\n"
    "  check WORKSPACE [--repair] [--json]\n"
    "                                    verifies every page, index, bloom filter and region; --repair\n"
    "                                    drops what is damaged, saying what is lost (docs/CHECK.md)\n"
    "\n"
    "Key schemas are one line, e.g. 'salt:salt(16, user) | user:utf8 | ts:i64 desc'\n"
    "(docs/KEY-SCHEMAS.md). Exit status: 0 ok, 1 some shell commands failed (check: damage\n"
    "found), 2 bad input (one line on stderr), 3 check --repair repaired the workspace.\n";

}  // namespace

int main(int argc, char** argv) {
  keyscope::configureProcessAllocator();
  std::ios::sync_with_stdio(false);
  keyscope::cli::Args args(argv + 1, argv + argc);
  keyscope::cli::Streams io{std::cin, std::cout, std::cerr};
  if (args.empty() || args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
    (args.empty() ? std::cerr : std::cout) << kUsage;
    return args.empty() ? keyscope::cli::kExitBadInput : keyscope::cli::kExitOk;
  }
  if (args[0] == "--version") {
    std::cout << "keyscope-cli 0.1.0\n";
    return 0;
  }
  if (args[0] == "key") return keyscope::cli::runKeyCommand({args.begin() + 1, args.end()}, io);
  if (args[0] == "batch") return keyscope::cli::runBatchCommand({args.begin() + 1, args.end()}, io);
  if (args[0] == "import") return keyscope::cli::runImportCommand({args.begin() + 1, args.end()}, io);
  if (args[0] == "export") return keyscope::cli::runExportCommand({args.begin() + 1, args.end()}, io);
  if (args[0] == "shell") return keyscope::cli::runShellCommand({args.begin() + 1, args.end()}, io);
  if (args[0] == "demo") return keyscope::cli::runDemoCommand({args.begin() + 1, args.end()}, io);
  if (args[0] == "workload") return keyscope::cli::runWorkloadCommand({args.begin() + 1, args.end()}, io);
  if (args[0] == "check") return keyscope::cli::runCheckCommand({args.begin() + 1, args.end()}, io);
  std::cerr << "keyscope-cli: unknown command '" << args[0] << "' (try keyscope-cli --help)\n";
  return keyscope::cli::kExitBadInput;
}
