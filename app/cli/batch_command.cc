// `keyscope-cli batch WORKSPACE [FILE] [--bytes hex]`: one JSON operation per
// line in, one JSON answer per line out, in order (docs/BATCH-API.md).
#include <fstream>
#include <iostream>
#include <map>
#include <string_view>
#include <vector>

#include "batch_json.h"
#include "cli_io.h"
#include "cli_workspace.h"
#include "keyscope/engine_json.h"
#include "keyscope/workspace.h"

namespace keyscope::cli {

namespace {

constexpr const char* kBatchUsage =
    "usage: keyscope-cli batch WORKSPACE [FILE] [--bytes hex]\n"
    "  One JSON operation per line (standard input when no FILE), one JSON answer per line.\n"
    "  Operations and answers: docs/BATCH-API.md.\n";

json error(const Status& status) { return {{"error", status.message()}}; }

// A region id (as regions lists them): required.
Result<int64_t> regionId(const json& op, const std::string& field) {
  if (!op.contains(field) || op[field].is_null())
    return Status::invalidArgument("'" + field + "': missing (a region id, as regions lists them)");
  return intField(op, field, 0, 0, INT64_MAX);
}

// "report": true asks for the read report with a get or scan answer.
bool wantsReport(const json& op) { return op.contains("report") && op["report"].is_boolean() && op["report"].get<bool>(); }

class BatchSession {
 public:
  BatchSession(Workspace& ws, ByteRendering rendering) : m_ws(ws), m_rendering(rendering) {}

  // The answer to one operation; {"error": ...} when it failed.
  json run(const json& op) {
    if (!op.is_object()) return error(Status::invalidArgument("an operation is a JSON object"));
    if (!op.contains("op") || !op["op"].is_string())
      return error(Status::invalidArgument("an operation needs an \"op\" string"));
    const std::string name = op["op"].get<std::string>();
    const auto it = operations().find(name);
    if (it == operations().end()) return error(Status::invalidArgument("unknown op '" + name + "'"));
    if (Status s = checkKnownFields(op, it->second.fields, ""); !s) return error(s);
    return (this->*(it->second.run))(op);
  }

 private:
  // An operation: what runs it and the fields it takes, "op" among them
  // (docs/BATCH-API.md); any other field is refused, not ignored.
  struct Operation {
    json (BatchSession::*run)(const json&);
    std::vector<std::string_view> fields;
  };

  static std::vector<std::string_view> plus(std::vector<std::string_view> fields,
                                            const std::vector<std::string_view>& more) {
    fields.insert(fields.end(), more.begin(), more.end());
    return fields;
  }

  static const std::map<std::string, Operation, std::less<>>& operations() {
    static const std::vector<std::string_view> kTable = {"op", "table"};
    static const std::vector<std::string_view> kTableDefinition = {
        "op", "table", "families", "splits", "memstore_flushsize", "max_filesize", "split_policy",
        "key_schema", "description", "examples"};
    static const std::vector<std::string_view> kScan = plus(
        {"op", "table", "start_row", "start_inclusive", "stop_row", "stop_inclusive", "prefix", "reversed", "raw",
         "batch", "limit", "report"},
        kReadOptionFields);
    static const std::map<std::string, Operation, std::less<>> kOperations = {
        {"create_table", {&BatchSession::createTable, kTableDefinition}},
        {"alter_table", {&BatchSession::alterTable, kTableDefinition}},
        {"describe", {&BatchSession::describe, kTable}},
        {"list", {&BatchSession::list, {"op"}}},
        {"exists", {&BatchSession::exists, kTable}},
        {"truncate_table", {&BatchSession::truncateTable, kTable}},
        {"drop_table", {&BatchSession::dropTable, kTable}},
        {"put", {&BatchSession::put, plus(kPutFields, {"durability"})}},
        {"delete", {&BatchSession::remove, plus(kDeleteFields, {"durability"})}},
        {"mutate", {&BatchSession::mutateMany, {"op", "table", "mutations", "durability"}}},
        {"get", {&BatchSession::get, plus({"op", "table", "row", "report"}, kReadOptionFields)}},
        {"scan", {&BatchSession::scan, kScan}},
        {"count", {&BatchSession::count, kScan}},
        {"increment", {&BatchSession::increment, {"op", "table", "row", "columns", "durability"}}},
        {"check_and_mutate",
         {&BatchSession::checkAndMutate,
          {"op", "table", "row", "f", "q", "compare", "value", "time_range", "mutations", "durability"}}},
        {"flush", {&BatchSession::flush, kTable}},
        {"compact", {&BatchSession::compact, kTable}},
        {"major_compact", {&BatchSession::majorCompact, kTable}},
        {"split", {&BatchSession::split, {"op", "table", "region", "row"}}},
        {"merge_regions", {&BatchSession::mergeRegions, {"op", "first", "second"}}},
        {"balance", {&BatchSession::balance, {"op"}}},
        {"balance_switch", {&BatchSession::balanceSwitch, {"op", "enabled"}}},
        {"regions", {&BatchSession::regions, kTable}},
        {"region_history", {&BatchSession::regionHistory, kTable}},
        {"servers", {&BatchSession::servers, {"op"}}},
        {"set_servers", {&BatchSession::setServers, {"op", "count"}}},
        {"store_files", {&BatchSession::storeFiles, kTable}},
        {"set_clock", {&BatchSession::setClock, {"op", "now"}}},
    };
    return kOperations;
  }

  // A put or delete inside a mutate or check_and_mutate may name a table
  // (copied in whole from a put or delete), but only the operation's own.
  static Status checkMutationTable(const json& mutation, const std::string& table, size_t index) {
    if (!mutation.is_object() || !mutation.contains("table")) return Status::ok();
    const json& named = mutation["table"];
    if (named.is_string() && named.get<std::string>() == table) return Status::ok();
    return Status::invalidArgument("'mutations[" + std::to_string(index) + "].table': " + named.dump() +
                                   " is not this operation's table '" + table + "'");
  }

  static json ok(const Status& status) { return status ? json{{"ok", true}} : error(status); }

  Result<std::string> table(const json& op) {
    if (!op.contains("table") || !op["table"].is_string())
      return Status::invalidArgument("'table': missing (a table name)");
    return op["table"].get<std::string>();
  }

  json createTable(const json& op) {
    Result<TableOptions> options = tableFromJson(op);
    if (!options) return error(options.status());
    std::vector<Bytes> splits;
    if (op.contains("splits") && !op["splits"].is_null()) {
      if (!op["splits"].is_array()) return error(Status::invalidArgument("'splits': expected an array"));
      for (const json& s : op["splits"]) {
        Result<Bytes> split = bytesFromJson(s, "splits");
        if (!split) return error(split.status());
        splits.push_back(*split);
      }
    }
    return ok(m_ws.createTable(*options, splits));
  }
  json alterTable(const json& op) {
    Result<TableOptions> options = tableFromJson(op);
    if (!options) return error(options.status());
    return ok(m_ws.alterTable(*options));
  }
  json describe(const json& op) {
    Result<std::string> name = table(op);
    if (!name) return error(name.status());
    Result<TableOptions> options = m_ws.describeTable(*name);
    if (!options) return error(options.status());
    return {{"table", tableToJson(*options)}};
  }
  json list(const json&) { return {{"tables", m_ws.listTables()}}; }
  json exists(const json& op) {
    Result<std::string> name = table(op);
    if (!name) return error(name.status());
    return {{"result", m_ws.tableExists(*name)}};
  }
  json truncateTable(const json& op) {
    Result<std::string> name = table(op);
    return name ? ok(m_ws.truncateTable(*name)) : error(name.status());
  }
  json dropTable(const json& op) {
    Result<std::string> name = table(op);
    return name ? ok(m_ws.dropTable(*name)) : error(name.status());
  }

  json write(const json& op, Result<Mutation> (*parse)(const json&)) {
    Result<std::string> name = table(op);
    if (!name) return error(name.status());
    Result<Mutation> mutation = parse(op);
    if (!mutation) return error(mutation.status());
    Result<WriteOptions> options = writeOptionsFromJson(op);
    if (!options) return error(options.status());
    return ok(m_ws.mutate(*name, std::span<const Mutation>(&*mutation, 1), *options));
  }
  json put(const json& op) { return write(op, &putFromJson); }
  json remove(const json& op) { return write(op, &deleteFromJson); }
  // Several puts and deletes, applied atomically in one transaction.
  json mutateMany(const json& op) {
    Result<std::string> name = table(op);
    if (!name) return error(name.status());
    if (!op.contains("mutations") || !op["mutations"].is_array())
      return error(Status::invalidArgument("'mutations': expected an array of put/delete objects"));
    std::vector<Mutation> mutations;
    for (const json& m : op["mutations"]) {
      if (Status s = checkMutationTable(m, *name, mutations.size()); !s) return error(s);
      Result<Mutation> mutation = mutationFromJson(m);
      if (!mutation) return error(mutation.status());
      mutations.push_back(std::move(mutation).value());
    }
    Result<WriteOptions> options = writeOptionsFromJson(op);
    if (!options) return error(options.status());
    return ok(m_ws.mutate(*name, mutations, *options));
  }

  json get(const json& op) {
    Result<std::string> name = table(op);
    if (!name) return error(name.status());
    Result<GetOptions> options = getFromJson(op);
    if (!options) return error(options.status());
    Result<GetResult> result = m_ws.get(*name, *options);
    if (!result) return error(result.status());
    json answer = {{"rows", json::array()}};
    if (!result->cells.empty()) answer["rows"].push_back(rowToJson(options->row, result->cells, m_rendering));
    if (wantsReport(op)) answer["report"] = reportToJson(result->report);
    return answer;
  }
  json scan(const json& op) {
    Result<std::string> name = table(op);
    if (!name) return error(name.status());
    Result<ScanOptions> options = scanFromJson(op);
    if (!options) return error(options.status());
    Result<std::unique_ptr<Scanner>> scanner = m_ws.scan(*name, *options);
    if (!scanner) return error(scanner.status());
    json answer = {{"rows", json::array()}};
    RowResult row;
    while ((*scanner)->next(&row)) {
      json r = rowToJson(row.row, row.cells, m_rendering);
      if (row.mayHaveMoreCellsInRow) r["partial"] = true;
      answer["rows"].push_back(std::move(r));
    }
    if (Status s = (*scanner)->status(); !s) return error(s);
    if (wantsReport(op)) answer["report"] = reportToJson((*scanner)->report());
    return answer;
  }
  json count(const json& op) {
    Result<std::string> name = table(op);
    if (!name) return error(name.status());
    Result<ScanOptions> options = scanFromJson(op);
    if (!options) return error(options.status());
    Result<uint64_t> rows = m_ws.count(*name, *options);
    return rows ? json{{"rows", *rows}} : error(rows.status());
  }

  json increment(const json& op) {
    Result<std::string> name = table(op);
    if (!name) return error(name.status());
    Increment inc;
    Result<Bytes> row = op.contains("row") ? bytesFromJson(op["row"], "row")
                                           : Result<Bytes>(Status::invalidArgument("'row': missing"));
    if (!row) return error(row.status());
    inc.row = *row;
    if (!op.contains("columns") || !op["columns"].is_array())
      return error(Status::invalidArgument("'columns': expected an array of {\"f\",\"q\",\"delta\"}"));
    for (const json& c : op["columns"]) {
      if (!c.is_object() || !c.contains("f") || !c["f"].is_string())
        return error(Status::invalidArgument("'columns': each needs \"f\" (and \"q\", \"delta\")"));
      const std::string where = "columns[" + std::to_string(inc.columns.size()) + "]";
      static const std::vector<std::string_view> kIncrementFields = {"f", "q", "delta"};
      if (Status s = checkKnownFields(c, kIncrementFields, where); !s) return error(s);
      Result<Bytes> q = c.contains("q") ? bytesFromJson(c["q"], "columns.q") : Result<Bytes>(Bytes());
      if (!q) return error(q.status());
      if (c.contains("delta") && !c["delta"].is_number_integer())
        return error(Status::invalidArgument("'columns.delta': expected an integer"));
      inc.columns.push_back({c["f"].get<std::string>(), *q, c.contains("delta") ? c["delta"].get<int64_t>() : 1});
    }
    Result<WriteOptions> options = writeOptionsFromJson(op);
    if (!options) return error(options.status());
    Result<std::vector<Cell>> cells = m_ws.increment(*name, inc, *options);
    if (!cells) return error(cells.status());
    const auto asLong = [](const Bytes& v) {
      uint64_t x = 0;
      for (char ch : v) x = (x << 8) | static_cast<uint8_t>(ch);
      return static_cast<int64_t>(x);
    };
    json answer;
    if (cells->size() == 1) answer["value"] = asLong(cells->front().value);
    answer["values"] = json::array();
    for (const Cell& cell : *cells) {
      answer["values"].push_back({{"family", cell.family},
                                  {"qualifier", bytesToJson(cell.qualifier, m_rendering)},
                                  {"timestamp", cell.timestamp},
                                  {"value", asLong(cell.value)}});
    }
    return answer;
  }

  json checkAndMutate(const json& op) {
    Result<std::string> name = table(op);
    if (!name) return error(name.status());
    CheckAndMutate check;
    if (!op.contains("row") || !op.contains("f") || !op["f"].is_string())
      return error(Status::invalidArgument("check_and_mutate needs \"row\", \"f\" and \"q\""));
    Result<Bytes> row = bytesFromJson(op["row"], "row");
    Result<Bytes> q = op.contains("q") ? bytesFromJson(op["q"], "q") : Result<Bytes>(Bytes());
    if (!row) return error(row.status());
    if (!q) return error(q.status());
    check.row = *row;
    check.family = op["f"].get<std::string>();
    check.qualifier = *q;
    const std::string opName =
        op.contains("compare") && op["compare"].is_string() ? op["compare"].get<std::string>() : "EQUAL";
    std::optional<CompareOp> compare = compareOpFromString(opName);
    if (!compare) return error(Status::invalidArgument("'compare': unknown operator '" + opName + "'"));
    check.op = *compare;
    if (op.contains("value") && !op["value"].is_null()) {
      Result<Bytes> value = bytesFromJson(op["value"], "value");
      if (!value) return error(value.status());
      check.value = *value;
    }
    if (op.contains("time_range")) {
      const json& r = op["time_range"];
      if (!r.is_array() || r.size() != 2 || !r[0].is_number_integer() || !r[1].is_number_integer())
        return error(Status::invalidArgument("'time_range': expected [min, max)"));
      check.timeRange = {r[0].get<int64_t>(), r[1].get<int64_t>()};
    }
    if (!op.contains("mutations") || !op["mutations"].is_array())
      return error(Status::invalidArgument("'mutations': expected an array of put/delete objects"));
    for (const json& m : op["mutations"]) {
      if (Status s = checkMutationTable(m, *name, check.mutations.size()); !s) return error(s);
      json withRow = m;
      if (!withRow.contains("row")) withRow["row"] = op["row"];
      Result<Mutation> mutation = mutationFromJson(withRow);
      if (!mutation) return error(mutation.status());
      check.mutations.push_back(std::move(mutation).value());
    }
    Result<WriteOptions> options = writeOptionsFromJson(op);
    if (!options) return error(options.status());
    Result<bool> result = m_ws.checkAndMutate(*name, check, *options);
    return result ? json{{"result", *result}} : error(result.status());
  }

  json flush(const json& op) {
    Result<std::string> name = table(op);
    return name ? ok(m_ws.flush(*name)) : error(name.status());
  }
  json compact(const json& op) {
    Result<std::string> name = table(op);
    return name ? ok(m_ws.compact(*name, false)) : error(name.status());
  }
  json majorCompact(const json& op) {
    Result<std::string> name = table(op);
    return name ? ok(m_ws.compact(*name, true)) : error(name.status());
  }
  // Every region of the table, or the one region, at the row or at its mid key.
  json split(const json& op) {
    const bool byRegion = op.contains("region");
    if (byRegion == op.contains("table"))
      return error(Status::invalidArgument("split needs 'table' or 'region' (a region id), not both"));
    std::optional<Bytes> row;
    if (op.contains("row") && !op["row"].is_null()) {
      Result<Bytes> bytes = bytesFromJson(op["row"], "row");
      if (!bytes) return error(bytes.status());
      row = *bytes;
    }
    auto run = [&]() -> Result<std::vector<int64_t>> {
      if (byRegion) {
        Result<int64_t> id = regionId(op, "region");
        if (!id) return id.status();
        return m_ws.splitRegion(*id, row);
      }
      Result<std::string> name = table(op);
      if (!name) return name.status();
      return m_ws.split(*name, row);
    };
    Result<std::vector<int64_t>> daughters = run();
    return daughters ? json{{"daughters", *daughters}} : error(daughters.status());
  }
  json mergeRegions(const json& op) {
    Result<int64_t> first = regionId(op, "first");
    if (!first) return error(first.status());
    Result<int64_t> second = regionId(op, "second");
    if (!second) return error(second.status());
    Result<int64_t> merged = m_ws.mergeRegions(*first, *second);
    return merged ? json{{"region", *merged}} : error(merged.status());
  }
  // As HBase's Admin.balance: a balancer switched off does not run.
  json balance(const json&) {
    if (!m_ws.balancerEnabled()) return {{"result", false}, {"moved", 0}};
    Result<uint32_t> moved = m_ws.balance();
    return moved ? json{{"result", true}, {"moved", *moved}} : error(moved.status());
  }
  json balanceSwitch(const json& op) {
    if (!op.contains("enabled") || !op["enabled"].is_boolean())
      return error(Status::invalidArgument("'enabled': expected true or false"));
    const bool previous = m_ws.balancerEnabled();
    if (Status s = m_ws.setBalancerEnabled(op["enabled"].get<bool>()); !s) return error(s);
    return {{"previous", previous}};
  }
  json regions(const json& op) {
    Result<std::string> name = table(op);
    if (!name) return error(name.status());
    Result<std::vector<RegionInfo>> regions = m_ws.regions(*name);
    if (!regions) return error(regions.status());
    Result<std::vector<RegionLoad>> loads = m_ws.regionLoad(*name, TimeWindow{});
    if (!loads) return error(loads.status());
    std::map<int64_t, LoadCounters> totals;
    for (const RegionLoad& load : *loads) totals[load.regionId] = load.total;
    json list = json::array();
    for (const RegionInfo& r : *regions) list.push_back(regionToJson(r, totals[r.id], byteFormatOf(m_rendering)));
    return {{"regions", list}};
  }
  json regionHistory(const json& op) {
    Result<std::string> name = table(op);
    if (!name) return error(name.status());
    Result<std::vector<RegionHistoryEntry>> history = m_ws.regionHistory(*name);
    if (!history) return error(history.status());
    json list = json::array();
    for (const RegionHistoryEntry& e : *history) list.push_back(regionHistoryToJson(e, byteFormatOf(m_rendering)));
    return {{"history", list}};
  }
  // The servers there are now, with their load since the workspace began.
  json servers(const json&) {
    Result<std::vector<ServerLoad>> loads = m_ws.serverLoad(TimeWindow{});
    if (!loads) return error(loads.status());
    json list = json::array();
    for (const ServerLoad& load : *loads) {
      if (load.server >= 0 && load.server < m_ws.serverCount()) list.push_back(serverLoadToJson(load));
    }
    return {{"servers", list}};
  }
  json setServers(const json& op) {
    if (!op.contains("count")) return error(Status::invalidArgument("'count': missing (1 ... 1000 servers)"));
    Result<int64_t> count = intField(op, "count", 0, 1, 1000);
    return count ? ok(m_ws.setServerCount(static_cast<int32_t>(*count))) : error(count.status());
  }
  json storeFiles(const json& op) {
    Result<std::string> name = table(op);
    if (!name) return error(name.status());
    Result<std::vector<StoreFileInfo>> files = m_ws.storeFiles(*name);
    if (!files) return error(files.status());
    json list = json::array();
    for (const StoreFileInfo& f : *files) {
      list.push_back({{"id", f.id}, {"region", f.regionId}, {"family", f.family}, {"cells", f.cells},
                      {"raw_bytes", f.rawBytes}, {"stored_bytes", f.storedBytes}, {"pages", f.pages},
                      {"min_timestamp", f.minTimestamp}, {"max_timestamp", f.maxTimestamp},
                      {"first_row", bytesToJson(f.firstRow, m_rendering)},
                      {"last_row", bytesToJson(f.lastRow, m_rendering)}});
    }
    return {{"store_files", list}};
  }
  json setClock(const json& op) {
    if (!op.contains("now")) return error(Status::invalidArgument("'now': missing (milliseconds, or null)"));
    if (op["now"].is_null()) {
      m_ws.setClock(std::nullopt);
      return ok(Status::ok());
    }
    if (!op["now"].is_number_integer() || op["now"].get<int64_t>() < 0)
      return error(Status::invalidArgument("'now': expected a non-negative integer of milliseconds"));
    m_ws.setClock(op["now"].get<int64_t>());
    return ok(Status::ok());
  }

  Workspace& m_ws;
  ByteRendering m_rendering;
};

}  // namespace

int runBatchCommand(const Args& args, Streams io) {
  std::vector<std::string> positional;
  ByteRendering rendering = ByteRendering::kStringBinary;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "-h" || args[i] == "--help") {
      io.out << kBatchUsage;
      return kExitOk;
    }
    if (args[i] == "--bytes") {
      if (i + 1 >= args.size() || (args[i + 1] != "hex" && args[i + 1] != "binary")) {
        io.err << "keyscope-cli: --bytes takes 'hex' or 'binary'\n";
        return kExitBadInput;
      }
      rendering = args[++i] == "hex" ? ByteRendering::kHex : ByteRendering::kStringBinary;
    } else {
      positional.push_back(args[i]);
    }
  }
  if (positional.empty() || positional.size() > 2) {
    io.err << kBatchUsage;
    return kExitBadInput;
  }
  std::ifstream file;
  std::istream* in = &io.in;
  if (positional.size() == 2 && positional[1] != "-") {
    file.open(positional[1]);
    if (!file) {
      io.err << "keyscope-cli: cannot read " << positional[1] << "\n";
      return kExitBadInput;
    }
    in = &file;
  }
  Result<std::unique_ptr<Workspace>> ws = Workspace::open(positional[0], cliOpenOptions(positional[0]));
  if (!ws) {
    io.err << "keyscope-cli: " << ws.status().message() << "\n";
    return kExitBadInput;
  }
  BatchSession session(**ws, rendering);
  int status = kExitOk;
  std::string line;
  for (size_t lineNo = 1; std::getline(*in, line); ++lineNo) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    json op = json::parse(line, nullptr, /*allow_exceptions=*/false);
    json answer;
    if (op.is_discarded()) {
      answer = error(Status::invalidArgument("line " + std::to_string(lineNo) + ": not valid JSON"));
    } else {
      try {
        answer = session.run(op);
      } catch (const json::exception& e) {  // a field of an unexpected JSON type
        answer = error(Status::invalidArgument(std::string("bad field type: ") + e.what()));
      }
      if (answer.contains("error")) answer["error"] = "line " + std::to_string(lineNo) + ": " + answer["error"].get<std::string>();
    }
    if (answer.contains("error")) status = kExitFailed;
    io.out << answer.dump(-1, ' ', false, json::error_handler_t::replace) << "\n";
    io.out.flush();  // each answer is an acknowledgement: it leaves at once
  }
  return status;
}

}  // namespace keyscope::cli
