// The HBase shell's text output, as it prints to a pipe (no terminal-width
// columns): "ROW  COLUMN+CELL", " row column=f:q, timestamp=1, value=v",
// "1 row(s)". Timestamps print as numbers (HBase's
// hbase.shell.timestamp.format.epoch), since Keyscope's are often logical.
// HBase's "Took 0.0100 seconds" lines are left out: they would make the
// output differ from run to run.
#include <string>

#include "keyscope/shell.h"

namespace keyscope::shell {

namespace {

std::string rowsLine(size_t n) { return std::to_string(n) + " row(s)\n"; }

// HBase's PrettyPrinter.humanReadableTTL: "86400 SECONDS (1 DAY)".
std::string humanTtl(int64_t seconds) {
  if (seconds == kTtlForever) return "FOREVER";
  if (seconds < 60) return std::to_string(seconds) + (seconds == 1 ? " SECOND" : " SECONDS");
  const int64_t days = seconds / 86400, hours = seconds % 86400 / 3600, minutes = seconds % 3600 / 60, secs = seconds % 60;
  std::string parts;
  auto add = [&parts](int64_t n, const char* unit) {
    if (n == 0) return;
    parts += (parts.empty() ? "" : " ") + std::to_string(n) + " " + unit + (n == 1 ? "" : "S");
  };
  add(days, "DAY");
  add(hours, "HOUR");
  add(minutes, "MINUTE");
  add(secs, "SECOND");
  return std::to_string(seconds) + " SECONDS (" + parts + ")";
}

// A Ruby single-quoted literal of `text`, so describe's output reads back.
std::string quoted(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  return out + "'";
}

std::string familyText(const FamilyOptions& f) {
  const char* bloom = f.bloomFilter == BloomType::kNone ? "NONE" : f.bloomFilter == BloomType::kRowCol ? "ROWCOL" : "ROW";
  const char* keep = f.keepDeletedCells == KeepDeletedCells::kTrue  ? "TRUE"
                     : f.keepDeletedCells == KeepDeletedCells::kTtl ? "TTL"
                                                                    : "FALSE";
  return "{NAME => " + quoted(f.name) + ", BLOOMFILTER => '" + bloom + "', VERSIONS => '" +
         std::to_string(f.maxVersions) + "', KEEP_DELETED_CELLS => '" + keep + "', COMPRESSION => '" +
         (f.compression == Compression::kZstd ? "ZSTD" : "NONE") + "', TTL => '" + humanTtl(f.ttlSeconds) +
         "', MIN_VERSIONS => '" + std::to_string(f.minVersions) + "', BLOCKSIZE => '" + std::to_string(f.blockSize) +
         "'}";
}

std::string describeText(const DescribeResult& d) {
  const TableOptions defaults;
  std::string attributes;
  auto add = [&attributes](const std::string& key, const std::string& value) {
    attributes += (attributes.empty() ? "" : ", ") + key + " => " + value;
  };
  if (d.table.maxFileSize != defaults.maxFileSize) add("MAX_FILESIZE", "'" + std::to_string(d.table.maxFileSize) + "'");
  if (d.table.memstoreFlushSize != defaults.memstoreFlushSize)
    add("MEMSTORE_FLUSHSIZE", "'" + std::to_string(d.table.memstoreFlushSize) + "'");
  if (d.table.splitPolicy != defaults.splitPolicy)
    add("SPLIT_POLICY", std::string("'") + splitPolicyName(d.table.splitPolicy) + "'");
  if (!d.table.keySchema.empty()) add("KEY_SCHEMA", quoted(d.table.keySchema));
  if (!d.table.description.empty()) add("DESCRIPTION", quoted(d.table.description));
  if (!d.table.exampleCommands.empty()) {
    std::string list;
    for (const std::string& example : d.table.exampleCommands) list += (list.empty() ? "" : ", ") + quoted(example);
    add("EXAMPLES", "[" + list + "]");
  }
  std::string out = "Table " + d.table.name + " is " + (d.enabled ? "ENABLED" : "DISABLED") + "\n";
  out += d.table.name + (attributes.empty() ? "" : ", {TABLE_ATTRIBUTES => {" + attributes + "}}") + "\n";
  out += "COLUMN FAMILIES DESCRIPTION\n";
  for (const FamilyOptions& f : d.table.families) out += familyText(f) + "\n\n";
  return out + rowsLine(d.table.families.size());
}

// "timestamp=5, value=v" or "timestamp=5, type=DeleteColumn", cut at MAXLENGTH.
std::string cellText(const Cell& cell, const OutputFormat& format) {
  std::string text = "timestamp=" + std::to_string(cell.timestamp) + ", ";
  if (cell.type == CellType::kPut) text += "value=" + formatValue(format.formatterFor(cell.family, cell.qualifier), cell.value);
  else text += std::string("type=") + cellTypeName(cell.type);
  if (format.maxLength >= 0 && text.size() > static_cast<size_t>(format.maxLength)) {
    size_t cut = static_cast<size_t>(format.maxLength);
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xc0) == 0x80) --cut;  // whole characters
    text.resize(cut);
  }
  return text;
}

std::string columnText(const Cell& cell) { return toStringBinary(cell.family) + ":" + toStringBinary(cell.qualifier); }

std::string metricsText(const ReadReport& r) {
  std::string out = "METRIC  VALUE\n";
  for (const ReadReportField& field : readReportFields(r))
    out += std::string(" ") + field.name + " " + std::to_string(field.value) + "\n";
  return out;
}

std::string cellsText(const Command& command, const CellsResult& cells) {
  const bool isGet = std::holds_alternative<GetCommand>(command);
  const OutputFormat& format = isGet ? std::get<GetCommand>(command).format : std::get<ScanCommand>(command).format;
  std::string out = isGet ? "COLUMN  CELL\n" : "ROW  COLUMN+CELL\n";
  for (const RowResult& row : cells.rows) {
    const std::string rowText = toStringBinary(row.row);
    for (const Cell& cell : row.cells) {
      if (isGet) out += " " + columnText(cell) + " " + cellText(cell, format) + "\n";
      else out += " " + rowText + " column=" + columnText(cell) + ", " + cellText(cell, format) + "\n";
    }
  }
  out += rowsLine(cells.rows.size());
  if (format.metrics) out += metricsText(cells.report);
  return out;
}

std::string regionsText(const RegionsResult& r) {
  std::string out =
      "REGION  START_ROW, END_ROW, SERVER, CREATED, STORE_FILES, CELLS, MEMSTORE_BYTES, STORED_BYTES, RAW_BYTES, "
      "READS, WRITES\n";
  for (size_t i = 0; i < r.regions.size(); ++i) {
    const RegionInfo& region = r.regions[i];
    out += " " + std::to_string(region.id) + " start_row=" + toStringBinary(region.startRow) +
           ", end_row=" + toStringBinary(region.endRow) + ", server=" + std::to_string(region.server) +
           ", created=" + std::to_string(region.createdMillis) + ", store_files=" + std::to_string(region.storeFiles) +
           ", cells=" + std::to_string(region.cells) + ", memstore_bytes=" + std::to_string(region.memstoreBytes) +
           ", stored_bytes=" + std::to_string(region.storedBytes) + ", raw_bytes=" + std::to_string(region.rawBytes) +
           ", reads=" + std::to_string(r.load[i].reads) + ", writes=" + std::to_string(r.load[i].writes) + "\n";
  }
  return out + rowsLine(r.regions.size());
}

// "3 4": the parents of a merged region; "" for a table's first regions.
std::string idList(const std::vector<int64_t>& ids, const char* separator) {
  std::string out;
  for (int64_t id : ids) out += (out.empty() ? "" : separator) + std::to_string(id);
  return out;
}

std::string historyText(const RegionHistoryResult& h) {
  std::string out = "REGION  START_ROW, END_ROW, CREATED, RETIRED, PARENTS, ORIGIN, SPLIT_ROW\n";
  for (const RegionHistoryEntry& entry : h.regions) {
    out += " " + std::to_string(entry.regionId) + " start_row=" + toStringBinary(entry.startRow) +
           ", end_row=" + toStringBinary(entry.endRow) + ", created=" + std::to_string(entry.createdMillis) +
           ", retired=" + (entry.retiredMillis ? std::to_string(*entry.retiredMillis) : "") +
           ", parents=" + idList(entry.parents, " ") + ", origin=" + regionOriginName(entry.origin) +
           ", split_row=" + toStringBinary(entry.splitRow) + "\n";
  }
  return out + rowsLine(h.regions.size());
}

std::string serversText(const ServersResult& s) {
  std::string out = "SERVER  REGIONS, READS, WRITES\n";
  for (const ServerLoad& server : s.servers) {
    out += " " + std::to_string(server.server) + " regions=" + std::to_string(server.regions) +
           ", reads=" + std::to_string(server.window.reads) + ", writes=" + std::to_string(server.window.writes) + "\n";
  }
  return out + rowsLine(s.servers.size());
}

std::string balancerText(const BalancerResult& b) {
  if (!b.ran) return "false\nthe balancer is off (balance_switch true turns it on)\n";
  return "true\n" + std::to_string(b.moved) + " region(s) moved\n";
}

std::string helpText() {
  return "Commands (docs/SHELL.md has every option):\n"
         "  create 't', 'f1', {NAME => 'f2', VERSIONS => 3, TTL => 86400}, SPLITS => ['m']\n"
         "  alter 't', NAME => 'f', VERSIONS => 5 | alter 't', 'delete' => 'f'\n"
         "  describe 't'   list ['regex']   exists 't'   is_enabled 't'   is_disabled 't'\n"
         "  disable 't'   enable 't'   drop 't'   truncate 't'\n"
         "  flush 't'   compact 't'   major_compact 't'\n"
         "  split 't'[, 'row'] | split 'REGION'[, 'row']   merge_region 'REGION1', 'REGION2'\n"
         "  balancer   balance_switch true|false   balancer_enabled\n"
         "  regions 't'[, {HISTORY => true}]   servers   set_servers n\n"
         "  put 't', 'row', 'f:q', 'value'[, ts]\n"
         "  get 't', 'row'[, {COLUMNS => ['f:q'], VERSIONS => 3, TIMERANGE => [a, b], FILTER => \"...\"}]\n"
         "  scan 't'[, {STARTROW => 'a', STOPROW => 'b', ROWPREFIXFILTER => 'p', LIMIT => 10, REVERSED => true,\n"
         "              RAW => true, VERSIONS => 3, COLUMNS => ['f:q:toLong'], FILTER => \"...\"}]\n"
         "  count 't'[, {FILTER => \"...\"}]\n"
         "  delete 't', 'row', 'f:q'[, ts]   deleteall 't', 'row'[, 'f[:q]'[, ts]]\n"
         "  incr 't', 'row', 'f:q'[, n]   get_counter 't', 'row', 'f:q'\n"
         "  set_clock millis | set_clock nil   key_schema 't'[, 'schema']   help   exit\n";
}

}  // namespace

std::string formatText(const Command& command, const CommandResult& result) {
  if (const auto* cells = std::get_if<CellsResult>(&result)) return cellsText(command, *cells);
  if (const auto* count = std::get_if<CountResult>(&result)) return rowsLine(count->rows);
  if (const auto* counter = std::get_if<CounterResult>(&result)) {
    if (!counter->value) return "No counter found at specified coordinates\n";
    return "COUNTER VALUE = " + std::to_string(*counter->value) + "\n";
  }
  if (const auto* tables = std::get_if<TablesResult>(&result)) {
    std::string out = "TABLE\n";
    for (const std::string& t : tables->tables) out += t + "\n";
    return out + rowsLine(tables->tables.size());
  }
  if (const auto* b = std::get_if<BoolResult>(&result)) {
    if (const auto* table = std::get_if<TableCommand>(&command); table && table->action == TableAction::kExists)
      return "Table " + table->table + (b->value ? " does exist\n" : " does not exist\n");
    return b->value ? "true\n" : "false\n";
  }
  if (const auto* d = std::get_if<DescribeResult>(&result)) return describeText(*d);
  if (const auto* r = std::get_if<RegionsResult>(&result)) return regionsText(*r);
  if (const auto* h = std::get_if<RegionHistoryResult>(&result)) return historyText(*h);
  if (const auto* servers = std::get_if<ServersResult>(&result)) return serversText(*servers);
  if (const auto* split = std::get_if<SplitResult>(&result))
    return "Split into regions " + idList(split->daughters, ", ") + "\n";
  if (const auto* merge = std::get_if<MergeResult>(&result))
    return "Merged into region " + std::to_string(merge->region) + "\n";
  if (const auto* balancer = std::get_if<BalancerResult>(&result)) return balancerText(*balancer);
  if (const auto* sw = std::get_if<BalanceSwitchResult>(&result))
    return std::string("Previous balancer state : ") + (sw->previous ? "true" : "false") + "\n";
  if (const auto* k = std::get_if<KeySchemaResult>(&result)) {
    const std::string& table = std::get<KeySchemaCommand>(command).table;
    if (k->schema.empty()) return "Table " + table + " has no key schema\n";
    return "KEY SCHEMA\n " + k->schema + "\n";
  }
  // Commands with nothing to return; a few say what they did, as HBase's do.
  if (const auto* create = std::get_if<CreateCommand>(&command)) return "Created table " + create->table.name + "\n";
  if (const auto* table = std::get_if<TableCommand>(&command); table && table->action == TableAction::kTruncate)
    return "Truncating '" + table->table + "' table (it may take a while):\n";
  if (std::holds_alternative<HelpCommand>(command)) return helpText();
  return "";
}

std::string formatErrorText(const Status& status) { return "ERROR: " + status.message() + "\n"; }

}  // namespace keyscope::shell
