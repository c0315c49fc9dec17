// Builders of the read commands: get, scan and count, with the options
// HBase's shell gives them (table.rb _get_internal, _hash_to_scan).
#include <limits>

#include "keyscope/filter.h"
#include "shell/builders.h"

namespace keyscope::shell {

namespace {

const std::vector<std::string_view> kGetKeys = {"COLUMN",    "COLUMNS",         "TIMESTAMP", "TIMERANGE",
                                                "VERSIONS",  "FILTER",          "FORMATTER", "FORMATTER_CLASS",
                                                "MAXLENGTH", "ALL_METRICS",     "CACHE_BLOCKS"};
const std::vector<std::string_view> kScanKeys = {
    "COLUMNS", "COLUMN",    "STARTROW",  "STOPROW",         "ROWPREFIXFILTER", "TIMESTAMP",   "TIMERANGE",
    "VERSIONS", "LIMIT",    "REVERSED",  "RAW",             "FILTER",          "CACHE_BLOCKS", "CACHE",
    "BATCH",   "MAXLENGTH", "FORMATTER", "FORMATTER_CLASS", "ALL_METRICS",     "MAX_RESULT_SIZE"};
const std::vector<std::string_view> kCountKeys = {
    "INTERVAL", "CACHE",    "COLUMNS",  "COLUMN",   "STARTROW",     "STOPROW", "ROWPREFIXFILTER", "TIMESTAMP",
    "TIMERANGE", "VERSIONS", "REVERSED", "RAW",     "FILTER",       "CACHE_BLOCKS", "LIMIT", "BATCH",
    "MAX_RESULT_SIZE"};

Status addColumn(const SourceText& src, const Value& value, ReadOptions* read, OutputFormat* format) {
  Result<ColumnSpec> column = readColumn(src, value, ColumnUse::kRead);
  if (!column) return column.status();
  read->columns.push_back({column->family, column->qualifier});
  if (column->formatter && format) format->columns[{column->family, column->qualifier.value_or(Bytes())}] = *column->formatter;
  return Status::ok();
}

// 'f:q' or ['f', 'g:q', ...].
Status addColumns(const SourceText& src, const Value& value, ReadOptions* read, OutputFormat* format) {
  if (value.kind == Value::Kind::kArray) {
    for (const Value& item : value.items) {
      if (Status s = addColumn(src, item, read, format); !s) return s;
    }
    return Status::ok();
  }
  if (!value.isString()) return errorAt(src, value, std::string("COLUMNS: expected a column or an array of columns, got ") + value.kindName());
  return addColumn(src, value, read, format);
}

// The options get, scan and count share. `format` is null for count (which
// shows no values: a column's formatter is accepted and has nothing to do).
Status readReadOptions(const SourceText& src, OptionMap& options, ReadOptions* read, OutputFormat* format) {
  const Value* column = options.take("COLUMN");
  const Value* columns = options.take("COLUMNS");
  if (column && columns) return errorAt(src, *columns, "give COLUMN or COLUMNS, not both");
  if (column || columns) {
    if (Status s = addColumns(src, column ? *column : *columns, read, format); !s) return s;
  }
  const Value* timestamp = options.take("TIMESTAMP");
  const Value* timeRange = options.take("TIMERANGE");
  if (timestamp && timeRange) return errorAt(src, *timeRange, "give TIMESTAMP or TIMERANGE, not both");
  if (timestamp) {
    auto ts = readInteger(src, *timestamp, "TIMESTAMP", 0, std::numeric_limits<int64_t>::max() - 1);
    if (!ts) return ts.status();
    read->timeRange = TimeRange::at(*ts);
  }
  if (timeRange) {
    if (timeRange->kind != Value::Kind::kArray || timeRange->items.size() != 2)
      return errorAt(src, *timeRange, "TIMERANGE: expected [min, max] (max exclusive)");
    auto min = readInteger(src, timeRange->items[0], "TIMERANGE min", 0, std::numeric_limits<int64_t>::max());
    if (!min) return min.status();
    auto max = readInteger(src, timeRange->items[1], "TIMERANGE max", 0, std::numeric_limits<int64_t>::max());
    if (!max) return max.status();
    TimeRange range{*min, *max};
    if (Status s = validateTimeRange(range); !s) return errorAt(src, *timeRange, "TIMERANGE: " + s.message());
    read->timeRange = range;
  }
  if (const Value* v = options.take("VERSIONS")) {
    auto n = readInteger(src, *v, "VERSIONS", 1, std::numeric_limits<int32_t>::max());
    if (!n) return n.status();
    read->maxVersions = static_cast<int32_t>(*n);
  }
  if (const Value* v = options.take("FILTER")) {
    Result<std::string> text = readText(src, *v, "FILTER");
    if (!text) return text.status();
    Result<std::shared_ptr<const Filter>> filter = parseFilter(*text);
    if (!filter) return mapInnerError(src, *v, filter.status(), "FILTER");
    read->filter = *filter;
  }
  if (const Value* v = options.take("CACHE_BLOCKS")) {
    auto b = readBool(src, *v, "CACHE_BLOCKS");
    if (!b) return b.status();
    read->cacheBlocks = *b;
  }
  if (!format) return Status::ok();
  if (const Value* v = options.take("FORMATTER")) {
    Result<std::string> name = readText(src, *v, "FORMATTER");
    if (!name) return name.status();
    std::optional<ValueFormatter> f = formatterFromName(*name);
    if (!f)
      return errorAt(src, *v, "FORMATTER: unknown formatter '" + toStringBinary(*name) +
                                  "' (toStringBinary, toString, toLong, toInt, toShort, toDouble, toFloat, toBoolean, toHex)");
    format->values = *f;
  }
  if (const Value* v = options.take("FORMATTER_CLASS")) {
    Result<std::string> name = readText(src, *v, "FORMATTER_CLASS");
    if (!name) return name.status();
    if (*name != "org.apache.hadoop.hbase.util.Bytes")
      return errorAt(src, *v, "FORMATTER_CLASS: only org.apache.hadoop.hbase.util.Bytes is available");
  }
  if (const Value* v = options.take("MAXLENGTH")) {
    auto n = readInteger(src, *v, "MAXLENGTH", 1, std::numeric_limits<int64_t>::max());
    if (!n) return n.status();
    format->maxLength = *n;
  }
  if (const Value* v = options.take("ALL_METRICS")) {
    auto b = readBool(src, *v, "ALL_METRICS");
    if (!b) return b.status();
    format->metrics = *b;
  }
  return Status::ok();
}

// The scan options proper: row range, limit, direction, raw, batch.
Status readScanOptions(const SourceText& src, OptionMap& options, ScanOptions* scan) {
  const Value* start = options.take("STARTROW");
  const Value* stop = options.take("STOPROW");
  const Value* prefix = options.take("ROWPREFIXFILTER");
  if (const Value* v = options.take("REVERSED")) {
    auto b = readBool(src, *v, "REVERSED");
    if (!b) return b.status();
    scan->reversed = *b;
  }
  if (prefix && (start || stop))
    return errorAt(src, *prefix, "ROWPREFIXFILTER replaces STARTROW and STOPROW; give one or the other");
  if (prefix) {
    Result<Bytes> p = readBytes(src, *prefix, "ROWPREFIXFILTER");
    if (!p) return p.status();
    scan->setRowPrefix(*p);
    if (scan->reversed) {
      // A reversed scan starts at the high end: from just below the row after
      // the prefix (or the end of the table) down to the prefix itself.
      std::swap(scan->startRow, scan->stopRow);
      scan->startInclusive = false;
      scan->stopInclusive = true;
    }
  } else {
    if (start) {
      Result<Bytes> s = readBytes(src, *start, "STARTROW");
      if (!s) return s.status();
      scan->startRow = *s;
    }
    if (stop) {
      Result<Bytes> s = readBytes(src, *stop, "STOPROW");
      if (!s) return s.status();
      scan->stopRow = *s;
    }
    // HBase's shell builds Scan(start, stop), which reads one row inclusively
    // when the two are equal (a "get scan").
    if (!scan->startRow.empty() && scan->startRow == scan->stopRow) scan->stopInclusive = true;
  }
  if (const Value* v = options.take("LIMIT")) {
    auto n = readInteger(src, *v, "LIMIT", std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max());
    if (!n) return n.status();
    scan->limit = *n > 0 ? *n : -1;  // HBase: setLimit only when > 0
  }
  if (const Value* v = options.take("RAW")) {
    auto b = readBool(src, *v, "RAW");
    if (!b) return b.status();
    scan->raw = *b;
  }
  if (const Value* v = options.take("BATCH")) {
    auto n = readInteger(src, *v, "BATCH", std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
    if (!n) return n.status();
    scan->batch = *n > 0 ? static_cast<int32_t>(*n) : -1;
  }
  // Transport sizes: they change how HBase ships results, never which (B5).
  for (std::string_view key : {"CACHE", "MAX_RESULT_SIZE"}) {
    if (const Value* v = options.take(key)) {
      auto n = readInteger(src, *v, key, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max());
      if (!n) return n.status();
    }
  }
  return Status::ok();
}

}  // namespace

Result<Command> buildGet(const SourceText& src, const RawStatement& statement) {
  constexpr std::string_view kUsage = "get 't', 'row'[, 'family:qualifier', ...][, {COLUMNS => [...], VERSIONS => n, ...}]";
  if (Status s = checkArity(src, statement, 2, SIZE_MAX, kUsage); !s) return s;
  Result<TableAndRow> target = readTableAndRow(src, statement);
  if (!target) return target.status();
  GetCommand command;
  command.table = target->table;
  command.options.row = target->row;
  for (size_t i = 2; i < statement.args.size(); ++i) {
    const Value& arg = statement.args[i];
    if (arg.isMap()) {
      if (i + 1 != statement.args.size()) return errorAt(src, arg, "get: the options map comes last");
      OptionMap options(src, arg, "get");
      if (Status s = readReadOptions(src, options, &command.options, &command.format); !s) return s;
      if (Status s = options.finish(kGetKeys); !s) return s;
    } else if (Status s = addColumns(src, arg, &command.options, &command.format); !s) {
      return s;
    }
  }
  return Command(std::move(command));
}

Result<Command> buildScan(const SourceText& src, const RawStatement& statement) {
  constexpr std::string_view kUsage = "scan 't'[, {STARTROW => 'a', STOPROW => 'b', LIMIT => n, ...}]";
  if (Status s = checkArity(src, statement, 1, 2, kUsage); !s) return s;
  Result<std::string> table = readTableName(src, statement.args[0]);
  if (!table) return table.status();
  ScanCommand command;
  command.table = *table;
  if (statement.args.size() == 2) {
    const Value& arg = statement.args[1];
    if (!arg.isMap()) return errorAt(src, arg, std::string("scan: expected a {KEY => value} map of options, got ") + arg.kindName());
    OptionMap options(src, arg, "scan");
    if (Status s = readReadOptions(src, options, &command.options, &command.format); !s) return s;
    if (Status s = readScanOptions(src, options, &command.options); !s) return s;
    if (Status s = options.finish(kScanKeys); !s) return s;
  }
  return Command(std::move(command));
}

Result<Command> buildCount(const SourceText& src, const RawStatement& statement) {
  constexpr std::string_view kUsage = "count 't'[, {INTERVAL => n, FILTER => \"...\", ...}]";
  if (Status s = checkArity(src, statement, 1, 2, kUsage); !s) return s;
  Result<std::string> table = readTableName(src, statement.args[0]);
  if (!table) return table.status();
  CountCommand command;
  command.table = *table;
  command.options.cacheBlocks = false;  // HBase's count does not fill the block cache
  if (statement.args.size() == 2) {
    const Value& arg = statement.args[1];
    if (!arg.isMap()) return errorAt(src, arg, std::string("count: expected a {KEY => value} map of options, got ") + arg.kindName());
    OptionMap options(src, arg, "count");
    if (const Value* v = options.take("INTERVAL")) {
      auto n = readInteger(src, *v, "INTERVAL", 1, std::numeric_limits<int64_t>::max());
      if (!n) return n.status();
      command.interval = *n;
    }
    if (Status s = readReadOptions(src, options, &command.options, nullptr); !s) return s;
    if (Status s = readScanOptions(src, options, &command.options); !s) return s;
    if (Status s = options.finish(kCountKeys); !s) return s;
  }
  return Command(std::move(command));
}

}  // namespace keyscope::shell
