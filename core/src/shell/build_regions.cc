// Builders of the region and server commands: split, merge_region,
// balancer, balance_switch, balancer_enabled, regions, servers, set_servers.
#include <charconv>

#include "shell/builders.h"

namespace keyscope::shell {

namespace {

// The most simulated servers a workspace may have (Workspace::setServerCount).
constexpr int64_t kMaxServers = 1000;

SourcePosition positionOf(const SourceText& src, const Value& value) {
  return {src.lineOf(value.offset), src.columnOf(value.offset)};
}

// A region id written in decimal ("12"); nullopt when the text is not one.
std::optional<int64_t> regionIdFromText(const std::string& text) {
  int64_t id = 0;
  const char* first = text.data();
  const char* last = first + text.size();
  auto [ptr, ec] = std::from_chars(first, last, id);
  if (text.empty() || ec != std::errc() || ptr != last || id < 0) return std::nullopt;
  return id;
}

// A region id: an integer, or a string of digits as HBase writes region names.
Result<int64_t> readRegionId(const SourceText& src, const Value& value, std::string_view what) {
  const std::string expected = std::string(what) + ": expected a region id (a number, as regions 't' lists them), got ";
  if (value.kind == Value::Kind::kInteger) {
    if (value.integer < 0) return errorAt(src, value, expected + std::to_string(value.integer));
    return value.integer;
  }
  if (!value.isString() || value.fromBytesHelper) return errorAt(src, value, expected + value.kindName());
  std::optional<int64_t> id = regionIdFromText(value.bytes);
  if (!id) return errorAt(src, value, expected + "'" + toStringBinary(value.bytes) + "'");
  return *id;
}

}  // namespace

Result<Command> buildSplit(const SourceText& src, const RawStatement& statement) {
  constexpr std::string_view kUsage = "split 'table'[, 'row'] | split 'REGION'[, 'row'] (REGION: a region id)";
  if (Status s = checkArity(src, statement, 1, 2, kUsage); !s) return s;
  SplitCommand command;
  const Value& target = statement.args[0];
  command.targetAt = positionOf(src, target);
  if (target.kind == Value::Kind::kInteger) {
    Result<int64_t> id = readRegionId(src, target, "split");
    if (!id) return id.status();
    command.regionId = *id;
    command.target = std::to_string(*id);
  } else if (target.isString() && !target.fromBytesHelper) {
    if (target.bytes.empty()) return errorAt(src, target, "split: expected a table name or a region id, got ''");
    command.target = target.bytes;
    command.regionId = regionIdFromText(target.bytes);
  } else {
    return errorAt(src, target, std::string("split: expected a table name or a region id, got ") + target.kindName());
  }
  if (statement.args.size() == 2) {
    const Value& row = statement.args[1];
    Result<Bytes> splitRow = readBytes(src, row, "split row");
    if (!splitRow) return splitRow.status();
    if (splitRow->empty()) return errorAt(src, row, "split row: cannot be empty (every region starts after '')");
    command.splitRow = *splitRow;
    command.rowAt = positionOf(src, row);
  }
  return Command(std::move(command));
}

Result<Command> buildMergeRegion(const SourceText& src, const RawStatement& statement) {
  constexpr std::string_view kUsage = "merge_region 'REGION1', 'REGION2'[, true] (region ids, as regions 't' lists them)";
  if (Status s = checkArity(src, statement, 2, 3, kUsage); !s) return s;
  MergeRegionCommand command;
  Result<int64_t> first = readRegionId(src, statement.args[0], "merge_region");
  if (!first) return first.status();
  Result<int64_t> second = readRegionId(src, statement.args[1], "merge_region");
  if (!second) return second.status();
  if (*first == *second)
    return errorAt(src, statement.args[1], "merge_region: cannot merge region " + std::to_string(*first) + " with itself");
  command.first = *first;
  command.second = *second;
  command.firstAt = positionOf(src, statement.args[0]);
  command.secondAt = positionOf(src, statement.args[1]);
  if (statement.args.size() == 3) {
    Result<bool> force = readBool(src, statement.args[2], "merge_region's force flag");
    if (!force) return force.status();
    command.force = *force;
  }
  return Command(command);
}

Result<Command> buildBalancer(const SourceText& src, const RawStatement& statement) {
  if (Status s = checkArity(src, statement, 0, 1, "balancer ['force']"); !s) return s;
  BalancerCommand command;
  if (!statement.args.empty()) {
    const Value& arg = statement.args[0];
    if (!arg.isString() || arg.bytes != "force")
      return errorAt(src, arg, "balancer: the only argument is 'force'");
    command.force = true;
  }
  return Command(command);
}

Result<Command> buildBalanceSwitch(const SourceText& src, const RawStatement& statement) {
  if (Status s = checkArity(src, statement, 1, 1, "balance_switch true|false"); !s) return s;
  Result<bool> enable = readBool(src, statement.args[0], "balance_switch");
  if (!enable) return enable.status();
  return Command(BalanceSwitchCommand{*enable});
}

Result<Command> buildBalancerEnabled(const SourceText& src, const RawStatement& statement) {
  if (Status s = checkArity(src, statement, 0, 0, "balancer_enabled"); !s) return s;
  return Command(BalancerEnabledCommand{});
}

Result<Command> buildRegions(const SourceText& src, const RawStatement& statement) {
  constexpr std::string_view kUsage = "regions 't'[, {HISTORY => true}]";
  if (Status s = checkArity(src, statement, 1, 2, kUsage); !s) return s;
  Result<std::string> name = readTableName(src, statement.args[0]);
  if (!name) return name.status();
  RegionsCommand command;
  command.table = *name;
  if (statement.args.size() == 2) {
    const Value& options = statement.args[1];
    if (!options.isMap())
      return errorAt(src, options, std::string("regions: expected {HISTORY => true}, got ") + options.kindName());
    OptionMap map(src, options, "regions");
    if (const Value* v = map.take("HISTORY")) {
      Result<bool> history = readBool(src, *v, "HISTORY");
      if (!history) return history.status();
      command.history = *history;
    }
    if (Status s = map.finish({"HISTORY"}); !s) return s;
  }
  return Command(std::move(command));
}

Result<Command> buildServers(const SourceText& src, const RawStatement& statement) {
  if (Status s = checkArity(src, statement, 0, 0, "servers"); !s) return s;
  return Command(ServersCommand{});
}

Result<Command> buildSetServers(const SourceText& src, const RawStatement& statement) {
  if (Status s = checkArity(src, statement, 1, 1, "set_servers n (1 ... 1000)"); !s) return s;
  Result<int64_t> count = readInteger(src, statement.args[0], "set_servers", 1, kMaxServers);
  if (!count) return count.status();
  return Command(SetServersCommand{static_cast<int32_t>(*count)});
}

}  // namespace keyscope::shell
