// Builders of the write commands: put, delete, deleteall, incr, get_counter.
// As in HBase's shell (table.rb), rows, qualifiers and values are the bytes of
// value.to_s: strings as written, numbers as their decimal text.
#include <limits>

#include "shell/builders.h"

namespace keyscope::shell {

namespace {

// The trailing {ATTRIBUTES => ..., TTL => ...} map HBase's writes take: Keyscope
// has neither operation attributes nor cell TTLs.
Status rejectWriteOptions(const SourceText& src, const RawStatement& statement) {
  const Value* map = trailingMap(statement);
  if (!map) return Status::ok();
  OptionMap options(src, *map, statement.name);
  if (const Value* ttl = options.take("TTL"))
    return errorAt(src, *ttl, statement.name + ": cell TTLs are not supported by Keyscope (families have TTL)");
  return options.finish({});
}

Result<ColumnSpec> readWriteColumn(const SourceText& src, const Value& value) {
  return readColumn(src, value, ColumnUse::kWrite);
}

}  // namespace

Result<Command> buildPut(const SourceText& src, const RawStatement& statement) {
  constexpr std::string_view kUsage = "put 't', 'row', 'family:qualifier', 'value'[, timestamp]";
  if (Status s = rejectWriteOptions(src, statement); !s) return s;
  if (Status s = checkCount(src, statement, positionalCount(statement), 4, 5, kUsage); !s) return s;
  Result<TableAndRow> target = readTableAndRow(src, statement);
  if (!target) return target.status();
  Result<ColumnSpec> column = readWriteColumn(src, statement.args[2]);
  if (!column) return column.status();
  Result<Bytes> value = readBytes(src, statement.args[3], "value");
  if (!value) return value.status();
  PutCell cell;
  cell.family = column->family;
  cell.qualifier = column->qualifier.value_or(Bytes());  // 'f' alone: the empty qualifier, as in HBase
  cell.value = *value;
  if (positionalCount(statement) == 5) {
    Result<int64_t> ts = readTimestamp(src, statement.args[4], "timestamp");
    if (!ts) return ts.status();
    cell.timestamp = *ts;
  }
  PutCommand command;
  command.table = target->table;
  command.put.row = target->row;
  command.put.cells.push_back(std::move(cell));
  return Command(std::move(command));
}

Result<Command> buildDelete(const SourceText& src, const RawStatement& statement) {
  constexpr std::string_view kUsage = "delete 't', 'row', 'family:qualifier'[, timestamp]";
  if (Status s = rejectWriteOptions(src, statement); !s) return s;
  const size_t given = positionalCount(statement);
  if (Status s = checkCount(src, statement, given, 3, 4, kUsage); !s) return s;
  Result<TableAndRow> target = readTableAndRow(src, statement);
  if (!target) return target.status();
  DeleteCommand command;
  command.table = target->table;
  command.del.row = target->row;
  if (given == 4) {
    Result<int64_t> ts = readTimestamp(src, statement.args[3], "timestamp");
    if (!ts) return ts.status();
    command.del.timestamp = *ts;
  }
  const Value& columnValue = statement.args[2];
  if (columnValue.isString() && columnValue.bytes.empty()) return Command(std::move(command));  // '' : the row (HBase)
  Result<ColumnSpec> column = readWriteColumn(src, columnValue);
  if (!column) return column.status();
  DeleteSpec spec;
  spec.family = column->family;
  if (column->qualifier) {
    // HBase 2's shell: Delete.addColumn, one version: the given timestamp, or the newest.
    spec.scope = DeleteScope::kColumnVersion;
    spec.qualifier = *column->qualifier;
  } else {
    // Delete.addFamilyVersion: every column of the family at exactly the timestamp.
    if (given < 4)
      return errorAt(src, columnValue, "delete of a family ('" + column->family +
                                           "') removes its cells at exactly one timestamp: give the timestamp, or use "
                                           "deleteall 't', 'row', '" + column->family + "' for all of them");
    spec.scope = DeleteScope::kFamilyVersion;
  }
  command.del.specs.push_back(spec);
  return Command(std::move(command));
}

Result<Command> buildDeleteAll(const SourceText& src, const RawStatement& statement) {
  constexpr std::string_view kUsage =
      "deleteall 't', 'row'[, 'family[:qualifier]'[, timestamp]] | deleteall 't', {ROWPREFIXFILTER => 'prefix'}[, ...]";
  if (Status s = checkArity(src, statement, 2, 4, kUsage); !s) return s;
  Result<std::string> table = readTableName(src, statement.args[0]);
  if (!table) return table.status();
  DeleteCommand command;
  command.table = *table;
  const Value& rowValue = statement.args[1];
  if (rowValue.isMap()) {
    OptionMap options(src, rowValue, "deleteall");
    const Value* prefix = options.take("ROWPREFIXFILTER");
    if (!prefix) return errorAt(src, rowValue, "deleteall: a map takes ROWPREFIXFILTER => 'prefix'");
    Result<Bytes> p = readBytes(src, *prefix, "ROWPREFIXFILTER");
    if (!p) return p.status();
    command.rowPrefix = *p;
    if (const Value* cache = options.take("CACHE")) {  // HBase's batch size for the deletes; one batch here
      auto n = readInteger(src, *cache, "CACHE", 1, std::numeric_limits<int32_t>::max());
      if (!n) return n.status();
    }
    if (Status s = options.finish({"ROWPREFIXFILTER", "CACHE"}); !s) return s;
  } else {
    Result<Bytes> row = readBytes(src, rowValue, "row");
    if (!row) return row.status();
    command.del.row = *row;
  }
  if (statement.args.size() == 4) {
    Result<int64_t> ts = readTimestamp(src, statement.args[3], "timestamp");
    if (!ts) return ts.status();
    command.del.timestamp = *ts;
  }
  if (statement.args.size() >= 3) {
    const Value& columnValue = statement.args[2];
    const bool wholeRow = columnValue.kind == Value::Kind::kNil || (columnValue.isString() && columnValue.bytes.empty());
    if (!wholeRow) {
      Result<ColumnSpec> column = readWriteColumn(src, columnValue);
      if (!column) return column.status();
      DeleteSpec spec;
      spec.family = column->family;
      // Delete.addColumns (every version <= ts) or Delete.addFamily.
      spec.scope = column->qualifier ? DeleteScope::kColumnAll : DeleteScope::kFamily;
      spec.qualifier = column->qualifier.value_or(Bytes());
      command.del.specs.push_back(spec);
    }
  }
  return Command(std::move(command));
}

Result<Command> buildIncr(const SourceText& src, const RawStatement& statement) {
  constexpr std::string_view kUsage = "incr 't', 'row', 'family:qualifier'[, delta]";
  if (Status s = rejectWriteOptions(src, statement); !s) return s;
  const size_t given = positionalCount(statement);
  if (Status s = checkCount(src, statement, given, 3, 4, kUsage); !s) return s;
  Result<TableAndRow> target = readTableAndRow(src, statement);
  if (!target) return target.status();
  Result<ColumnSpec> column = readWriteColumn(src, statement.args[2]);
  if (!column) return column.status();
  IncrementColumn inc;
  inc.family = column->family;
  inc.qualifier = column->qualifier.value_or(Bytes());
  if (given == 4) {
    auto delta = readInteger(src, statement.args[3], "incr delta", std::numeric_limits<int64_t>::min(),
                             std::numeric_limits<int64_t>::max());
    if (!delta) return delta.status();
    inc.delta = *delta;
  }
  IncrCommand command;
  command.table = target->table;
  command.increment.row = target->row;
  command.increment.columns.push_back(inc);
  return Command(std::move(command));
}

Result<Command> buildGetCounter(const SourceText& src, const RawStatement& statement) {
  if (Status s = checkArity(src, statement, 3, 3, "get_counter 't', 'row', 'family:qualifier'"); !s) return s;
  Result<TableAndRow> target = readTableAndRow(src, statement);
  if (!target) return target.status();
  Result<ColumnSpec> column = readWriteColumn(src, statement.args[2]);
  if (!column) return column.status();
  GetCounterCommand command;
  command.table = target->table;
  command.row = target->row;
  command.family = column->family;
  command.qualifier = column->qualifier.value_or(Bytes());
  return Command(std::move(command));
}

}  // namespace keyscope::shell
