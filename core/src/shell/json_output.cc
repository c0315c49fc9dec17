// The shell's JSON lines (DESIGN.md "Machine-readable output"): one object per
// command, byte strings as Bytes.toStringBinary renders them. Field names and
// shapes match the batch API's answers (docs/BATCH-API.md) where they overlap.
#include <nlohmann/json.hpp>

#include "keyscope/engine_json.h"
#include "keyscope/shell.h"

namespace keyscope::shell {

namespace {

using json = nlohmann::ordered_json;  // fields stay in the documented order

json cellJson(const Cell& cell, const OutputFormat* format) {
  const ValueFormatter f = format ? format->formatterFor(cell.family, cell.qualifier) : ValueFormatter::kToStringBinary;
  return {{"row", toStringBinary(cell.row)},
          {"family", cell.family},
          {"qualifier", toStringBinary(cell.qualifier)},
          {"timestamp", cell.timestamp},
          {"type", cellTypeName(cell.type)},
          {"value", formatValue(f, cell.value)}};
}

std::string line(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace) + "\n"; }

json header(std::string_view name) {
  json j;
  if (name.empty()) j["cmd"] = nullptr;
  else j["cmd"] = std::string(name);
  return j;
}

}  // namespace

std::string formatJson(std::string_view name, const Command& command, const CommandResult& result) {
  json j = header(name);
  if (const auto* cells = std::get_if<CellsResult>(&result)) {
    const OutputFormat* format = nullptr;
    if (const auto* get = std::get_if<GetCommand>(&command)) format = &get->format;
    if (const auto* scan = std::get_if<ScanCommand>(&command)) format = &scan->format;
    json list = json::array();
    for (const RowResult& row : cells->rows) {
      for (const Cell& cell : row.cells) list.push_back(cellJson(cell, format));
    }
    j["cells"] = std::move(list);
    if (format && format->metrics) j["report"] = readReportToJson(cells->report);
  } else if (const auto* count = std::get_if<CountResult>(&result)) {
    j["rows"] = count->rows;
  } else if (const auto* counter = std::get_if<CounterResult>(&result)) {
    if (counter->value) j["value"] = *counter->value;
    else j["value"] = nullptr;
  } else if (const auto* tables = std::get_if<TablesResult>(&result)) {
    j["tables"] = tables->tables;
  } else if (const auto* b = std::get_if<BoolResult>(&result)) {
    j["result"] = b->value;
  } else if (const auto* d = std::get_if<DescribeResult>(&result)) {
    j["table"] = tableOptionsToJson(d->table);
    j["enabled"] = d->enabled;
  } else if (const auto* r = std::get_if<RegionsResult>(&result)) {
    json list = json::array();
    for (size_t i = 0; i < r->regions.size(); ++i)
      list.push_back(regionToJson(r->regions[i], r->load[i], ByteFormat::kEscaped));
    j["regions"] = std::move(list);
  } else if (const auto* h = std::get_if<RegionHistoryResult>(&result)) {
    json list = json::array();
    for (const RegionHistoryEntry& entry : h->regions)
      list.push_back(regionHistoryToJson(entry, ByteFormat::kEscaped));
    j["history"] = std::move(list);
  } else if (const auto* split = std::get_if<SplitResult>(&result)) {
    j["daughters"] = split->daughters;
  } else if (const auto* merge = std::get_if<MergeResult>(&result)) {
    j["region"] = merge->region;
  } else if (const auto* balancer = std::get_if<BalancerResult>(&result)) {
    j["result"] = balancer->ran;
    j["moved"] = balancer->moved;
  } else if (const auto* sw = std::get_if<BalanceSwitchResult>(&result)) {
    j["previous"] = sw->previous;
  } else if (const auto* servers = std::get_if<ServersResult>(&result)) {
    json list = json::array();
    for (const ServerLoad& server : servers->servers) list.push_back(serverLoadToJson(server));
    j["servers"] = std::move(list);
  } else if (const auto* k = std::get_if<KeySchemaResult>(&result)) {
    j["key_schema"] = k->schema;
  } else if (std::holds_alternative<HelpCommand>(command)) {
    j["commands"] = commandNames();
  } else {
    j["ok"] = true;
  }
  return line(j);
}

std::string formatErrorJson(std::string_view name, const Status& status) {
  json j = header(name);
  j["error"] = status.message();
  return line(j);
}

}  // namespace keyscope::shell
