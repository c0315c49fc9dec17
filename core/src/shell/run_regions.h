// Running the region and server commands against a workspace: split,
// merge_region, balancer, balance_switch, balancer_enabled, regions,
// servers and set_servers. ShellSession (session.cc) calls these; each is
// one engine call, or reads before its one change.
//
// Errors about a value the command names (a region that does not exist, a
// split row at a region's start) say where it is written: "line 2, column
// 7: region 12 does not exist".
#pragma once

#include <functional>
#include <set>
#include <string>

#include "keyscope/shell.h"
#include "keyscope/shell_command.h"
#include "keyscope/workspace.h"

namespace keyscope::shell {

// The tables a session has disabled (ShellSession keeps them).
using DisabledTables = std::set<std::string, std::less<>>;

// "table 't' is disabled (enable 't' first)" when the session disabled it.
Status checkEnabled(const DisabledTables& disabled, const std::string& table);

Result<CommandResult> runSplit(Workspace& ws, const DisabledTables& disabled, const SplitCommand& command);
Result<CommandResult> runMergeRegion(Workspace& ws, const DisabledTables& disabled, const MergeRegionCommand& command);
Result<CommandResult> runBalancer(Workspace& ws, const BalancerCommand& command);
Result<CommandResult> runBalanceSwitch(Workspace& ws, const BalanceSwitchCommand& command);
Result<CommandResult> runBalancerEnabled(Workspace& ws);
Result<CommandResult> runRegions(Workspace& ws, const RegionsCommand& command);
Result<CommandResult> runServers(Workspace& ws);
Result<CommandResult> runSetServers(Workspace& ws, const SetServersCommand& command);

}  // namespace keyscope::shell
