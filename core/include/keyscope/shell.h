// The HBase shell over a Keyscope workspace: runs parsed commands
// (keyscope/shell_command.h) and renders what they return as the HBase
// shell's text or as JSON lines (docs/SHELL.md, DESIGN.md "Machine-readable
// output"). keyscope-cli shell and the GUI console both use it.
//
// Threads: a ShellSession and a Shell belong to one thread at a time; the
// Workspace they run against may be shared with other threads as usual.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "keyscope/shell_command.h"
#include "keyscope/status.h"
#include "keyscope/workspace.h"

namespace keyscope::shell {

// --- What commands return -----------------------------------------------------

struct DoneResult {};                       // nothing to show
struct CellsResult {                        // get and scan
  std::vector<RowResult> rows;              // a get returns at most one
  ReadReport report;
};
struct CountResult { uint64_t rows = 0; };
struct CounterResult { std::optional<int64_t> value; };  // incr, get_counter (nullopt: no counter)
struct TablesResult { std::vector<std::string> tables; };
struct BoolResult { bool value = false; };  // exists, is_enabled, is_disabled, balancer_enabled
struct DescribeResult {
  TableOptions table;
  bool enabled = true;
};
struct RegionsResult {
  std::vector<RegionInfo> regions;
  std::vector<LoadCounters> load;           // load[i]: regions[i]'s since it was created
};
struct RegionHistoryResult { std::vector<RegionHistoryEntry> regions; };
struct KeySchemaResult { std::string schema; };
struct SplitResult { std::vector<int64_t> daughters; };   // the new regions' ids
struct MergeResult { int64_t region = 0; };                // the merged region's id
struct BalancerResult {
  bool ran = false;                         // false: the balancer is switched off
  uint32_t moved = 0;                       // regions it moved to another server
};
struct BalanceSwitchResult { bool previous = false; };
struct ServersResult { std::vector<ServerLoad> servers; };  // load since the workspace began

using CommandResult =
    std::variant<DoneResult, CellsResult, CountResult, CounterResult, TablesResult, BoolResult, DescribeResult,
                 RegionsResult, RegionHistoryResult, KeySchemaResult, SplitResult, MergeResult, BalancerResult,
                 BalanceSwitchResult, ServersResult>;

// Runs commands against one workspace. A failed command changes nothing: each
// one is a single atomic engine call, or reads before its one write.
//
// Disabled tables: the engine has no disabled state, so the session keeps one.
// disable/enable mark a table for this session only; while it is disabled,
// reads, writes, flushes, compactions, splits and merges of it fail as in
// HBase, and drop
// requires it ("Table t is enabled. Disable it first."). Another session (or
// process) sees every table enabled.
class ShellSession {
 public:
  explicit ShellSession(Workspace& ws) : m_ws(ws) {}

  Result<CommandResult> execute(const Command& command);
  bool isDisabled(std::string_view table) const { return m_disabled.count(std::string(table)) > 0; }
  Workspace& workspace() { return m_ws; }

 private:
  Workspace& m_ws;
  std::set<std::string, std::less<>> m_disabled;
};

// --- Rendering --------------------------------------------------------------

enum class ShellFormat : uint8_t { kText, kJsonl };

// The HBase shell's text for a command's result: "" when it prints nothing,
// otherwise lines each ending in '\n'.
std::string formatText(const Command& command, const CommandResult& result);
// One JSON object on one line, ending in '\n': {"cmd":"scan","cells":[...]}.
std::string formatJson(std::string_view name, const Command& command, const CommandResult& result);
// "ERROR: message\n" / {"cmd":name,"error":message} ("cmd" is null when name is empty).
std::string formatErrorText(const Status& status);
std::string formatErrorJson(std::string_view name, const Status& status);

// --- The shell ---------------------------------------------------------------

struct CommandOutput {
  std::string name;   // the statement's command name ("" when there is none)
  bool ok = true;
  std::string text;   // rendered in the shell's format; errors too
};

// Parses and runs source text, statement by statement, in one session.
class Shell {
 public:
  Shell(Workspace& ws, ShellFormat format) : m_session(ws), m_format(format) {}

  // Runs every statement of `source` (lines numbered from `firstLine`), calling
  // `emit` after each one; stops early after exit/quit. Returns how many failed.
  size_t run(std::string_view source, int firstLine, const std::function<void(const CommandOutput&)>& emit);

  bool exitRequested() const { return m_exit; }
  ShellSession& session() { return m_session; }

 private:
  ShellSession m_session;
  ShellFormat m_format;
  bool m_exit = false;
};

}  // namespace keyscope::shell
