// ShellSession: runs typed commands against the workspace.
#include <algorithm>
#include <regex>

#include "keyscope/filter.h"
#include "keyscope/shell.h"
#include "shell/run_regions.h"

namespace keyscope::shell {

namespace {

int64_t toLong(BytesView value) {
  uint64_t x = 0;
  for (char ch : value) x = (x << 8) | static_cast<uint8_t>(ch);
  return static_cast<int64_t>(x);
}

std::string position(int line, int column) {
  return "line " + std::to_string(line) + ", column " + std::to_string(column) + ": ";
}

class Executor {
 public:
  Executor(Workspace& ws, DisabledTables& disabled) : m_ws(ws), m_disabled(disabled) {}

  Result<CommandResult> operator()(const CreateCommand& c) {
    if (Status s = m_ws.createTable(c.table, c.splits); !s) return s;
    m_disabled.erase(c.table.name);
    return done();
  }

  Result<CommandResult> operator()(const AlterCommand& c) {
    Result<TableOptions> current = m_ws.describeTable(c.table);
    if (!current) return current.status();
    TableOptions table = *current;
    for (const AlterStep& step : c.steps) {
      auto family = std::find_if(table.families.begin(), table.families.end(),
                                 [&](const FamilyOptions& f) { return f.name == step.family.name; });
      switch (step.kind) {
        case AlterStep::Kind::kSetFamily:
          if (family == table.families.end()) {
            FamilyOptions added;
            step.family.applyTo(&added);
            table.families.push_back(added);
          } else {
            step.family.applyTo(&*family);  // HBase: a named family changes from its current options
          }
          break;
        case AlterStep::Kind::kDeleteFamily:
          if (family == table.families.end())
            return Status::invalidArgument(position(step.line, step.column) + "alter: table '" + c.table +
                                           "' has no family '" + step.family.name + "'");
          table.families.erase(family);
          break;
        case AlterStep::Kind::kTableAttributes:
          step.attributes.applyTo(&table);
          break;
      }
    }
    if (Status s = m_ws.alterTable(table); !s) return s;
    return done();
  }

  Result<CommandResult> operator()(const TableCommand& c) {
    if (c.action == TableAction::kExists) return CommandResult(BoolResult{m_ws.tableExists(c.table)});
    Result<TableOptions> table = m_ws.describeTable(c.table);
    if (!table) return table.status();
    const bool disabled = m_disabled.count(c.table) > 0;
    switch (c.action) {
      case TableAction::kDescribe: return CommandResult(DescribeResult{*table, !disabled});
      case TableAction::kIsEnabled: return CommandResult(BoolResult{!disabled});
      case TableAction::kIsDisabled: return CommandResult(BoolResult{disabled});
      case TableAction::kDisable:
        m_disabled.insert(c.table);
        return done();
      case TableAction::kEnable:
        m_disabled.erase(c.table);
        return done();
      case TableAction::kDrop:
        if (!disabled) return Status::invalidArgument("Table " + c.table + " is enabled. Disable it first.");
        if (Status s = m_ws.dropTable(c.table); !s) return s;
        m_disabled.erase(c.table);
        return done();
      case TableAction::kTruncate:
        // HBase's truncate disables, truncates and leaves the table enabled.
        if (Status s = m_ws.truncateTable(c.table); !s) return s;
        m_disabled.erase(c.table);
        return done();
      default:
        break;
    }
    if (Status s = requireEnabled(c.table); !s) return s;
    switch (c.action) {
      case TableAction::kFlush: return statusOnly(m_ws.flush(c.table));
      case TableAction::kCompact: return statusOnly(m_ws.compact(c.table, false));
      case TableAction::kMajorCompact: return statusOnly(m_ws.compact(c.table, true));
      default:
        return Status::invalidArgument("unhandled table command");
    }
  }

  Result<CommandResult> operator()(const ListCommand& c) {
    std::vector<std::string> tables = m_ws.listTables();
    if (c.pattern) {
      std::vector<std::string> matching;
      try {
        const std::regex re(*c.pattern);
        for (const std::string& t : tables) {
          if (std::regex_match(t, re)) matching.push_back(t);
        }
      } catch (const std::regex_error&) {
        return Status::invalidArgument("list: invalid regular expression '" + *c.pattern + "'");
      }
      tables = std::move(matching);
    }
    return CommandResult(TablesResult{std::move(tables)});
  }

  Result<CommandResult> operator()(const PutCommand& c) {
    if (Status s = requireEnabled(c.table); !s) return s;
    return statusOnly(m_ws.put(c.table, c.put));
  }

  Result<CommandResult> operator()(const DeleteCommand& c) {
    if (Status s = requireEnabled(c.table); !s) return s;
    if (!c.rowPrefix) return statusOnly(m_ws.remove(c.table, c.del));
    // deleteall with ROWPREFIXFILTER: find the rows, then delete them all in
    // one atomic mutation.
    ScanOptions scan;
    scan.setRowPrefix(*c.rowPrefix);
    Result<std::shared_ptr<const Filter>> keysOnly = parseFilter("FirstKeyOnlyFilter () AND KeyOnlyFilter ()");
    if (!keysOnly) return keysOnly.status();
    scan.filter = *keysOnly;
    Result<std::unique_ptr<Scanner>> scanner = m_ws.scan(c.table, scan);
    if (!scanner) return scanner.status();
    std::vector<Mutation> deletes;
    RowResult row;
    while ((*scanner)->next(&row)) {
      Delete del = c.del;
      del.row = row.row;
      deletes.emplace_back(std::move(del));
    }
    if (Status s = (*scanner)->status(); !s) return s;
    if (deletes.empty()) return done();
    return statusOnly(m_ws.mutate(c.table, deletes));
  }

  Result<CommandResult> operator()(const IncrCommand& c) {
    if (Status s = requireEnabled(c.table); !s) return s;
    Result<std::vector<Cell>> cells = m_ws.increment(c.table, c.increment);
    if (!cells) return cells.status();
    if (cells->empty()) return CommandResult(CounterResult{});
    return CommandResult(CounterResult{toLong(cells->front().value)});
  }

  Result<CommandResult> operator()(const GetCounterCommand& c) {
    if (Status s = requireEnabled(c.table); !s) return s;
    GetOptions get;
    get.row = c.row;
    get.columns.push_back({c.family, c.qualifier});
    Result<GetResult> result = m_ws.get(c.table, get);
    if (!result) return result.status();
    if (result->cells.empty()) return CommandResult(CounterResult{});
    const Cell& cell = result->cells.front();
    if (cell.value.size() != 8)
      return Status::invalidArgument("get_counter: the value of " + c.family + ":" + toStringBinary(c.qualifier) +
                                     " is " + std::to_string(cell.value.size()) + " bytes, not an 8-byte counter");
    return CommandResult(CounterResult{toLong(cell.value)});
  }

  Result<CommandResult> operator()(const GetCommand& c) {
    if (Status s = requireEnabled(c.table); !s) return s;
    Result<GetResult> result = m_ws.get(c.table, c.options);
    if (!result) return result.status();
    CellsResult cells;
    cells.report = result->report;
    if (!result->cells.empty()) cells.rows.push_back(RowResult{c.options.row, result->cells, false});
    return CommandResult(std::move(cells));
  }

  Result<CommandResult> operator()(const ScanCommand& c) {
    if (Status s = requireEnabled(c.table); !s) return s;
    Result<std::unique_ptr<Scanner>> scanner = m_ws.scan(c.table, c.options);
    if (!scanner) return scanner.status();
    CellsResult cells;
    RowResult row;
    while ((*scanner)->next(&row)) cells.rows.push_back(std::move(row));
    if (Status s = (*scanner)->status(); !s) return s;
    cells.report = (*scanner)->report();
    return CommandResult(std::move(cells));
  }

  Result<CommandResult> operator()(const CountCommand& c) {
    if (Status s = requireEnabled(c.table); !s) return s;
    Result<uint64_t> rows = m_ws.count(c.table, c.options);
    if (!rows) return rows.status();
    return CommandResult(CountResult{*rows});
  }

  Result<CommandResult> operator()(const SetClockCommand& c) {
    m_ws.setClock(c.nowMillis);
    return done();
  }

  Result<CommandResult> operator()(const KeySchemaCommand& c) {
    Result<TableOptions> table = m_ws.describeTable(c.table);
    if (!table) return table.status();
    if (!c.set) return CommandResult(KeySchemaResult{table->keySchema});
    TableOptions changed = *table;
    changed.keySchema = c.schema;
    return statusOnly(m_ws.alterTable(changed));
  }

  Result<CommandResult> operator()(const SplitCommand& c) { return runSplit(m_ws, m_disabled, c); }
  Result<CommandResult> operator()(const MergeRegionCommand& c) { return runMergeRegion(m_ws, m_disabled, c); }
  Result<CommandResult> operator()(const BalancerCommand& c) { return runBalancer(m_ws, c); }
  Result<CommandResult> operator()(const BalanceSwitchCommand& c) { return runBalanceSwitch(m_ws, c); }
  Result<CommandResult> operator()(const BalancerEnabledCommand&) { return runBalancerEnabled(m_ws); }
  Result<CommandResult> operator()(const RegionsCommand& c) { return runRegions(m_ws, c); }
  Result<CommandResult> operator()(const ServersCommand&) { return runServers(m_ws); }
  Result<CommandResult> operator()(const SetServersCommand& c) { return runSetServers(m_ws, c); }

  Result<CommandResult> operator()(const HelpCommand&) { return done(); }
  Result<CommandResult> operator()(const ExitCommand&) { return done(); }

 private:
  static Result<CommandResult> done() { return CommandResult(DoneResult{}); }
  static Result<CommandResult> statusOnly(const Status& s) {
    if (!s) return s;
    return done();
  }
  Status requireEnabled(const std::string& table) const { return checkEnabled(m_disabled, table); }

  Workspace& m_ws;
  DisabledTables& m_disabled;
};

}  // namespace

Result<CommandResult> ShellSession::execute(const Command& command) {
  Executor executor(m_ws, m_disabled);
  return std::visit(executor, command);
}

}  // namespace keyscope::shell
