// The region and server commands, run against a workspace (run_regions.h).
#include "shell/run_regions.h"

#include <map>

namespace keyscope::shell {

namespace {

// The same status with "line L, column C: " before its message; errors that
// are not about what the user wrote (I/O, corruption) are left as they are.
Status placed(const SourcePosition& at, const Status& status) {
  const std::string message =
      "line " + std::to_string(at.line) + ", column " + std::to_string(at.column) + ": " + status.message();
  switch (status.code()) {
    case Status::Code::kNotFound: return Status::notFound(message);
    case Status::Code::kInvalidArgument: return Status::invalidArgument(message);
    default: return status;
  }
}

struct FoundRegion {
  std::string table;
  RegionInfo region;
};

// A live region and its table. The workspace names no region's table, so
// the tables' region lists are searched: a shell's handful of tables.
Result<FoundRegion> findRegion(Workspace& ws, int64_t regionId) {
  for (const std::string& table : ws.listTables()) {
    Result<std::vector<RegionInfo>> regions = ws.regions(table);
    if (!regions) continue;  // dropped meanwhile
    for (const RegionInfo& region : *regions) {
      if (region.id == regionId) return FoundRegion{table, region};
    }
  }
  return Status::notFound("region " + std::to_string(regionId) + " does not exist");
}

// "rows 'e' to the end of the table", "rows from the start of the table up to 'e'".
std::string rangeText(const RegionInfo& region) {
  const std::string from = region.startRow.empty() ? "from the start of the table"
                                                   : "'" + toStringBinary(region.startRow) + "'";
  const std::string to = region.endRow.empty() ? "to the end of the table" : "up to '" + toStringBinary(region.endRow) + "'";
  return "rows " + from + " " + to;
}

}  // namespace

Status checkEnabled(const DisabledTables& disabled, const std::string& table) {
  if (disabled.count(table) > 0)
    return Status::invalidArgument("table '" + table + "' is disabled (enable '" + table + "' first)");
  return Status::ok();
}

Result<CommandResult> runSplit(Workspace& ws, const DisabledTables& disabled, const SplitCommand& command) {
  std::string table = command.target;
  std::optional<int64_t> region;
  if (!ws.tableExists(command.target)) {
    if (!command.regionId)
      return placed(command.targetAt, Status::notFound("table '" + command.target + "' does not exist"));
    Result<FoundRegion> found = findRegion(ws, *command.regionId);
    if (!found)
      return placed(command.targetAt, Status::notFound("no table or region is named '" + command.target + "'"));
    const RegionInfo& info = found->region;
    if (command.splitRow && (BytesView(*command.splitRow) < BytesView(info.startRow) ||
                             (!info.endRow.empty() && BytesView(*command.splitRow) >= BytesView(info.endRow))))
      return placed(command.rowAt, Status::invalidArgument("cannot split region " + command.target + " of table '" +
                                                           found->table + "' at '" + toStringBinary(*command.splitRow) +
                                                           "': the row is not inside the region (" + rangeText(info) + ")"));
    table = found->table;
    region = command.regionId;
  }
  if (Status s = checkEnabled(disabled, table); !s) return placed(command.targetAt, s);
  Result<std::vector<int64_t>> daughters =
      region ? ws.splitRegion(*region, command.splitRow) : ws.split(table, command.splitRow);
  if (!daughters) {
    // With a row, the engine's objections are to the row (a region's start,
    // outside the region); without one, to the region or table.
    const bool aboutRow = command.splitRow && daughters.status().code() == Status::Code::kInvalidArgument;
    return placed(aboutRow ? command.rowAt : command.targetAt, daughters.status());
  }
  return CommandResult(SplitResult{*daughters});
}

Result<CommandResult> runMergeRegion(Workspace& ws, const DisabledTables& disabled, const MergeRegionCommand& command) {
  Result<FoundRegion> first = findRegion(ws, command.first);
  if (!first) return placed(command.firstAt, first.status());
  Result<FoundRegion> second = findRegion(ws, command.second);
  if (!second) return placed(command.secondAt, second.status());
  if (first->table != second->table)
    return placed(command.secondAt,
                  Status::invalidArgument("region " + std::to_string(command.second) + " belongs to table '" +
                                          second->table + "', region " + std::to_string(command.first) + " to '" +
                                          first->table + "': only regions of one table merge"));
  if (Status s = checkEnabled(disabled, first->table); !s) return placed(command.firstAt, s);
  Result<int64_t> merged = ws.mergeRegions(command.first, command.second);
  if (!merged) return placed(command.secondAt, merged.status());
  return CommandResult(MergeResult{*merged});
}

Result<CommandResult> runBalancer(Workspace& ws, const BalancerCommand&) {
  // As HBase's: a balancer switched off does not run, and says false.
  if (!ws.balancerEnabled()) return CommandResult(BalancerResult{});
  Result<uint32_t> moved = ws.balance();
  if (!moved) return moved.status();
  return CommandResult(BalancerResult{true, *moved});
}

Result<CommandResult> runBalanceSwitch(Workspace& ws, const BalanceSwitchCommand& command) {
  const bool previous = ws.balancerEnabled();
  if (Status s = ws.setBalancerEnabled(command.enable); !s) return s;
  return CommandResult(BalanceSwitchResult{previous});
}

Result<CommandResult> runBalancerEnabled(Workspace& ws) { return CommandResult(BoolResult{ws.balancerEnabled()}); }

Result<CommandResult> runRegions(Workspace& ws, const RegionsCommand& command) {
  if (command.history) {
    Result<std::vector<RegionHistoryEntry>> history = ws.regionHistory(command.table);
    if (!history) return history.status();
    return CommandResult(RegionHistoryResult{*history});
  }
  Result<std::vector<RegionInfo>> regions = ws.regions(command.table);
  if (!regions) return regions.status();
  Result<std::vector<RegionLoad>> loads = ws.regionLoad(command.table, TimeWindow{});
  if (!loads) return loads.status();
  std::map<int64_t, LoadCounters> totals;
  for (const RegionLoad& load : *loads) totals[load.regionId] = load.total;
  RegionsResult result;
  result.regions = *regions;
  // A region made between the two calls has no load yet.
  for (const RegionInfo& region : result.regions) result.load.push_back(totals[region.id]);
  return CommandResult(std::move(result));
}

Result<CommandResult> runServers(Workspace& ws) {
  Result<std::vector<ServerLoad>> loads = ws.serverLoad(TimeWindow{});
  if (!loads) return loads.status();
  // Servers that set_servers took away keep their past load in the
  // statistics; only the servers there are now are listed.
  const int32_t servers = ws.serverCount();
  ServersResult result;
  for (const ServerLoad& load : *loads) {
    if (load.server >= 0 && load.server < servers) result.servers.push_back(load);
  }
  return CommandResult(std::move(result));
}

Result<CommandResult> runSetServers(Workspace& ws, const SetServersCommand& command) {
  if (Status s = ws.setServerCount(command.count); !s) return s;
  return CommandResult(DoneResult{});
}

}  // namespace keyscope::shell
