#include "batch_json.h"

#include <algorithm>
#include <limits>
#include <set>

#include "keyscope/bytes.h"
#include "keyscope/did_you_mean.h"
#include "keyscope/engine_json.h"
#include "keyscope/filter.h"

namespace keyscope::cli {

namespace {

// The fields of the objects inside an operation (named once: a put checks
// every cell against its list).
const std::vector<std::string_view> kCellFields = {"f", "q", "ts", "v"};
const std::vector<std::string_view> kDeleteSpecFields = {"type", "f", "q", "ts"};
const std::vector<std::string_view> kColumnFields = {"f", "q"};

Status bad(const std::string& field, const std::string& what) {
  return Status::invalidArgument("'" + field + "': " + what);
}

Bytes bigEndian(uint64_t v, size_t width) {
  Bytes out(width, '\0');
  for (size_t i = width; i-- > 0;) {
    out[i] = static_cast<char>(v & 0xff);
    v >>= 8;
  }
  return out;
}

Result<std::string> stringField(const json& op, const std::string& field) {
  if (!op.contains(field)) return bad(field, "missing");
  if (!op[field].is_string()) return bad(field, "expected a string");
  return op[field].get<std::string>();
}

Result<Bytes> requiredBytes(const json& op, const std::string& field) {
  if (!op.contains(field) || op[field].is_null()) return bad(field, "missing");
  return bytesFromJson(op[field], field);
}

Result<Bytes> optionalBytes(const json& op, const std::string& field) {
  if (!op.contains(field) || op[field].is_null()) return Bytes();
  return bytesFromJson(op[field], field);
}

Result<int64_t> timestampField(const json& op, const std::string& field) {
  return intField(op, field, kLatestTimestamp, 0, kLatestTimestamp);
}

Result<FamilyOptions> familyFromJson(const json& j, size_t index) {
  const std::string where = "families[" + std::to_string(index) + "]";
  FamilyOptions f;
  if (j.is_string()) {
    f.name = j.get<std::string>();
    return f;
  }
  if (!j.is_object()) return bad(where, "expected a family name or an object");
  Result<std::string> name = stringField(j, "name");
  if (!name) return bad(where, name.status().message());
  f.name = *name;
  static const std::set<std::string> known = {"name", "versions", "min_versions", "ttl", "keep_deleted_cells",
                                              "compression", "bloomfilter", "blocksize"};
  for (const auto& [key, value] : j.items()) {
    if (known.count(key) == 0) return bad(where + "." + key, "unknown family option");
  }
  auto versions = intField(j, "versions", f.maxVersions, 1, INT32_MAX);
  auto minVersions = intField(j, "min_versions", f.minVersions, 0, INT32_MAX);
  auto ttl = intField(j, "ttl", f.ttlSeconds, 1, kTtlForever);
  auto blockSize = intField(j, "blocksize", f.blockSize, 1024, 16 << 20);
  for (const Status* s : {&versions.status(), &minVersions.status(), &ttl.status(), &blockSize.status()}) {
    if (!*s) return bad(where, s->message());
  }
  f.maxVersions = static_cast<int32_t>(*versions);
  f.minVersions = static_cast<int32_t>(*minVersions);
  f.ttlSeconds = *ttl;
  f.blockSize = static_cast<uint32_t>(*blockSize);
  if (j.contains("keep_deleted_cells")) {
    const json& k = j["keep_deleted_cells"];
    if (k.is_boolean()) {
      f.keepDeletedCells = k.get<bool>() ? KeepDeletedCells::kTrue : KeepDeletedCells::kFalse;
    } else if (k.is_string() && (k == "TRUE" || k == "true")) {
      f.keepDeletedCells = KeepDeletedCells::kTrue;
    } else if (k.is_string() && (k == "FALSE" || k == "false")) {
      f.keepDeletedCells = KeepDeletedCells::kFalse;
    } else if (k.is_string() && (k == "TTL" || k == "ttl")) {
      f.keepDeletedCells = KeepDeletedCells::kTtl;
    } else {
      return bad(where + ".keep_deleted_cells", "expected true, false or \"TTL\"");
    }
  }
  if (j.contains("compression")) {
    const json& c = j["compression"];
    if (c == "ZSTD" || c == "zstd") f.compression = Compression::kZstd;
    else if (c == "NONE" || c == "none") f.compression = Compression::kNone;
    else return bad(where + ".compression", "expected \"NONE\" or \"ZSTD\"");
  }
  if (j.contains("bloomfilter")) {
    const json& b = j["bloomfilter"];
    if (b == "NONE" || b == "none") f.bloomFilter = BloomType::kNone;
    else if (b == "ROW" || b == "row") f.bloomFilter = BloomType::kRow;
    else if (b == "ROWCOL" || b == "rowcol") f.bloomFilter = BloomType::kRowCol;
    else return bad(where + ".bloomfilter", "expected \"NONE\", \"ROW\" or \"ROWCOL\"");
  }
  return f;
}

Result<TimeRange> timeRangeFromJson(const json& op) {
  TimeRange range;
  if (op.contains("time_range") && !op["time_range"].is_null()) {
    const json& r = op["time_range"];
    if (!r.is_array() || r.size() != 2 || !r[0].is_number_integer() || !r[1].is_number_integer())
      return bad("time_range", "expected [min, max) as two integers");
    range = {r[0].get<int64_t>(), r[1].is_number_unsigned() && r[1].get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)
                                      ? INT64_MAX
                                      : r[1].get<int64_t>()};
    if (Status s = validateTimeRange(range); !s) return bad("time_range", s.message());
  }
  if (op.contains("timestamp") && !op["timestamp"].is_null()) {
    auto ts = intField(op, "timestamp", 0, 0, INT64_MAX - 1);
    if (!ts) return ts.status();
    range = TimeRange::at(*ts);
  }
  return range;
}

Status readOptionsFromJson(const json& op, ReadOptions* options) {
  if (op.contains("columns") && !op["columns"].is_null()) {
    if (!op["columns"].is_array()) return bad("columns", "expected an array of \"family:qualifier\" strings");
    for (const json& c : op["columns"]) {
      if (c.is_string()) {
        const std::string spec = c.get<std::string>();
        const size_t colon = spec.find(':');
        if (colon == std::string::npos) {
          options->columns.push_back({spec, std::nullopt});
        } else {
          options->columns.push_back({spec.substr(0, colon), fromStringBinary(spec.substr(colon + 1))});
        }
      } else if (c.is_object() && c.contains("f")) {
        if (Status s = checkKnownFields(c, kColumnFields, "columns"); !s) return s;
        Result<std::string> family = stringField(c, "f");
        if (!family) return bad("columns", family.status().message());
        if (c.contains("q")) {
          Result<Bytes> q = bytesFromJson(c["q"], "columns.q");
          if (!q) return q.status();
          options->columns.push_back({*family, *q});
        } else {
          options->columns.push_back({*family, std::nullopt});
        }
      } else {
        return bad("columns", "expected \"family:qualifier\" strings or {\"f\", \"q\"} objects");
      }
    }
  }
  if (op.contains("families") && !op["families"].is_null()) {
    if (!op["families"].is_array()) return bad("families", "expected an array of family names");
    for (const json& f : op["families"]) {
      if (!f.is_string()) return bad("families", "expected family names");
      options->columns.push_back({f.get<std::string>(), std::nullopt});
    }
  }
  if (op.contains("max_versions") && !op["max_versions"].is_null()) {
    const json& v = op["max_versions"];
    if (v == "all") {
      options->maxVersions = INT32_MAX;
    } else {
      auto n = intField(op, "max_versions", 1, 1, INT32_MAX);
      if (!n) return n.status();
      options->maxVersions = static_cast<int32_t>(*n);
    }
  }
  Result<TimeRange> range = timeRangeFromJson(op);
  if (!range) return range.status();
  options->timeRange = *range;
  auto perFamily = intField(op, "max_results_per_family", -1, -1, INT32_MAX);
  auto offset = intField(op, "row_offset_per_family", 0, 0, INT32_MAX);
  if (!perFamily) return perFamily.status();
  if (!offset) return offset.status();
  options->maxResultsPerFamily = static_cast<int32_t>(*perFamily);
  options->rowOffsetPerFamily = static_cast<int32_t>(*offset);
  auto cache = boolField(op, "cache_blocks", true);
  if (!cache) return cache.status();
  options->cacheBlocks = *cache;
  if (op.contains("now") && !op["now"].is_null()) {
    auto now = intField(op, "now", 0, 0, INT64_MAX);
    if (!now) return now.status();
    options->now = *now;
  }
  if (op.contains("filter") && !op["filter"].is_null()) {
    const json& f = op["filter"];
    Result<std::shared_ptr<const Filter>> filter =
        f.is_string() ? parseFilter(f.get<std::string>())
        : f.is_object() ? filterFromJson(f.dump())
                        : Result<std::shared_ptr<const Filter>>(bad("filter", "expected a filter string or object"));
    if (!filter) return bad("filter", filter.status().message());
    options->filter = *filter;
  }
  return Status::ok();
}

}  // namespace

Status checkKnownFields(const json& object, const std::vector<std::string_view>& known, const std::string& where) {
  if (!object.is_object()) return Status::ok();  // its reader says what it expected
  for (const auto& [key, value] : object.items()) {
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    // A typo is at most two edits from the field meant, and fewer than half
    // the name's letters ("stop" is two edits from "op" too).
    const size_t maxEdits = key.size() < 2 ? 0 : std::min<size_t>(2, (key.size() - 1) / 2);
    const std::string_view closest = nearestName(key, known, maxEdits);
    std::string list;
    for (std::string_view name : known) list += (list.empty() ? "" : ", ") + std::string(name);
    const std::string hint = closest.empty() ? "" : "; did you mean '" + std::string(closest) + "'?";
    return bad(where.empty() ? key : where + "." + key, "unknown field" + hint + " (known: " + list + ")");
  }
  return Status::ok();
}

Result<int64_t> intField(const json& op, const std::string& field, int64_t fallback, int64_t min, int64_t max) {
  if (!op.contains(field) || op[field].is_null()) return fallback;
  const json& v = op[field];
  if (!v.is_number_integer()) return bad(field, "expected an integer");
  const int64_t n = v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)
                        ? INT64_MAX
                        : v.get<int64_t>();
  if (n < min || n > max) return bad(field, std::to_string(n) + " is out of range [" + std::to_string(min) + ", " + std::to_string(max) + "]");
  return n;
}

Result<bool> boolField(const json& op, const std::string& field, bool fallback) {
  if (!op.contains(field) || op[field].is_null()) return fallback;
  if (!op[field].is_boolean()) return bad(field, "expected true or false");
  return op[field].get<bool>();
}

Result<Bytes> bytesFromJson(const json& value, const std::string& field) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_object() && value.size() == 1) {
    if (value.contains("hex") && value["hex"].is_string()) {
      size_t at = 0;
      auto bytes = fromHex(value["hex"].get<std::string>(), &at);
      if (!bytes) return bad(field, "invalid hex at character " + std::to_string(at + 1));
      return *bytes;
    }
    if (value.contains("long") && value["long"].is_number_integer())
      return bigEndian(static_cast<uint64_t>(value["long"].get<int64_t>()), 8);
    if (value.contains("int") && value["int"].is_number_integer()) {
      const int64_t n = value["int"].get<int64_t>();
      if (n < INT32_MIN || n > INT32_MAX) return bad(field, "an int must fit in 32 bits");
      return bigEndian(static_cast<uint32_t>(static_cast<int32_t>(n)), 4);
    }
  }
  return bad(field, "expected a string, {\"hex\":\"..\"}, {\"long\":N} or {\"int\":N}");
}

json bytesToJson(BytesView bytes, ByteRendering rendering) {
  return rendering == ByteRendering::kHex ? toHex(bytes) : toStringBinary(bytes);
}

ByteFormat byteFormatOf(ByteRendering rendering) {
  return rendering == ByteRendering::kHex ? ByteFormat::kHex : ByteFormat::kEscaped;
}

Result<TableOptions> tableFromJson(const json& op) {
  TableOptions table;
  Result<std::string> name = stringField(op, "table");
  if (!name) return name.status();
  table.name = *name;
  if (!op.contains("families") || !op["families"].is_array()) return bad("families", "expected an array");
  for (size_t i = 0; i < op["families"].size(); ++i) {
    Result<FamilyOptions> f = familyFromJson(op["families"][i], i);
    if (!f) return f.status();
    table.families.push_back(*f);
  }
  auto flushSize = intField(op, "memstore_flushsize", static_cast<int64_t>(table.memstoreFlushSize), 65536, INT64_MAX);
  if (!flushSize) return flushSize.status();
  table.memstoreFlushSize = static_cast<uint64_t>(*flushSize);
  auto maxFileSize = intField(op, "max_filesize", static_cast<int64_t>(table.maxFileSize), 65536, INT64_MAX);
  if (!maxFileSize) return maxFileSize.status();
  table.maxFileSize = static_cast<uint64_t>(*maxFileSize);
  if (op.contains("split_policy") && !op["split_policy"].is_null()) {
    const json& policyName = op["split_policy"];
    std::optional<SplitPolicy> policy = policyName.is_string() ? parseSplitPolicy(policyName.get<std::string>()) : std::nullopt;
    if (!policy)
      return bad("split_policy", "expected an HBase split policy class (ConstantSizeRegionSplitPolicy, "
                                 "IncreasingToUpperBoundRegionSplitPolicy, SteppingSplitPolicy, "
                                 "DisabledRegionSplitPolicy) or constant, increasing, stepping, disabled");
    table.splitPolicy = *policy;
  }
  if (op.contains("key_schema") && op["key_schema"].is_string()) table.keySchema = op["key_schema"];
  if (op.contains("description") && op["description"].is_string()) table.description = op["description"];
  if (op.contains("examples")) {
    const json& examples = op["examples"];
    if (!examples.is_array()) return bad("examples", "expected an array of shell commands");
    for (const json& e : examples) {
      if (!e.is_string()) return bad("examples", "expected an array of shell commands");
      table.exampleCommands.push_back(e.get<std::string>());
    }
  }
  return table;
}

json tableToJson(const TableOptions& table) { return tableOptionsToJson(table); }

Result<Mutation> putFromJson(const json& op) {
  Put put;
  Result<Bytes> row = requiredBytes(op, "row");
  if (!row) return row.status();
  put.row = *row;
  if (!op.contains("cells") || !op["cells"].is_array()) return bad("cells", "expected an array of {\"f\",\"q\",\"ts\",\"v\"}");
  for (size_t i = 0; i < op["cells"].size(); ++i) {
    const json& c = op["cells"][i];
    const std::string where = "cells[" + std::to_string(i) + "]";
    if (!c.is_object()) return bad(where, "expected an object");
    if (Status s = checkKnownFields(c, kCellFields, where); !s) return s;
    Result<std::string> family = stringField(c, "f");
    if (!family) return bad(where, family.status().message());
    Result<Bytes> qualifier = optionalBytes(c, "q");
    Result<Bytes> value = optionalBytes(c, "v");
    Result<int64_t> ts = timestampField(c, "ts");
    for (const Status* s : {&qualifier.status(), &value.status(), &ts.status()}) {
      if (!*s) return bad(where, s->message());
    }
    put.cells.push_back({*family, *qualifier, *ts, *value});
  }
  return Mutation(std::move(put));
}

Result<Mutation> deleteFromJson(const json& op) {
  Delete del;
  Result<Bytes> row = requiredBytes(op, "row");
  if (!row) return row.status();
  del.row = *row;
  Result<int64_t> ts = timestampField(op, "ts");
  if (!ts) return ts.status();
  del.timestamp = *ts;
  if (op.contains("specs") && !op["specs"].is_null()) {
    if (!op["specs"].is_array()) return bad("specs", "expected an array");
    for (size_t i = 0; i < op["specs"].size(); ++i) {
      const json& s = op["specs"][i];
      const std::string where = "specs[" + std::to_string(i) + "]";
      if (!s.is_object()) return bad(where, "expected an object");
      if (Status known = checkKnownFields(s, kDeleteSpecFields, where); !known) return known;
      Result<std::string> type = stringField(s, "type");
      Result<std::string> family = stringField(s, "f");
      if (!type) return bad(where, type.status().message());
      if (!family) return bad(where, family.status().message());
      DeleteSpec spec;
      spec.family = *family;
      if (*type == "column_version") spec.scope = DeleteScope::kColumnVersion;
      else if (*type == "column_all") spec.scope = DeleteScope::kColumnAll;
      else if (*type == "family") spec.scope = DeleteScope::kFamily;
      else if (*type == "family_version") spec.scope = DeleteScope::kFamilyVersion;
      else return bad(where + ".type", "expected column_version, column_all, family or family_version");
      const bool needsQualifier = spec.scope == DeleteScope::kColumnVersion || spec.scope == DeleteScope::kColumnAll;
      if (needsQualifier) {
        Result<Bytes> q = requiredBytes(s, "q");
        if (!q) return bad(where, q.status().message());
        spec.qualifier = *q;
      }
      Result<int64_t> specTs = timestampField(s, "ts");
      if (!specTs) return bad(where, specTs.status().message());
      spec.timestamp = *specTs;
      if (spec.scope == DeleteScope::kFamilyVersion && spec.timestamp == kLatestTimestamp && del.timestamp == kLatestTimestamp)
        return bad(where, "a family_version delete needs a timestamp");
      del.specs.push_back(spec);
    }
  }
  return Mutation(std::move(del));
}

Result<Mutation> mutationFromJson(const json& op) {
  if (!op.is_object() || !op.contains("op")) return bad("mutations", "each mutation needs an \"op\": put or delete");
  if (op["op"] == "put") {
    if (Status s = checkKnownFields(op, kPutFields, "mutations"); !s) return s;
    return putFromJson(op);
  }
  if (op["op"] == "delete") {
    if (Status s = checkKnownFields(op, kDeleteFields, "mutations"); !s) return s;
    return deleteFromJson(op);
  }
  return bad("mutations", "a mutation's op is put or delete");
}

Result<WriteOptions> writeOptionsFromJson(const json& op) {
  WriteOptions options;
  if (!op.contains("durability") || op["durability"].is_null()) return options;
  const json& d = op["durability"];
  if (d == "sync" || d == "SYNC_WAL" || d == "USE_DEFAULT") options.durability = Durability::kSyncWal;
  else if (d == "fsync" || d == "FSYNC_WAL") options.durability = Durability::kFsyncWal;
  else if (d == "async" || d == "ASYNC_WAL") options.durability = Durability::kAsyncWal;
  else if (d == "skip" || d == "SKIP_WAL") options.durability = Durability::kSkipWal;
  else return bad("durability", "expected sync, fsync, async or skip");
  return options;
}

Result<GetOptions> getFromJson(const json& op) {
  GetOptions options;
  Result<Bytes> row = requiredBytes(op, "row");
  if (!row) return row.status();
  options.row = *row;
  if (Status s = readOptionsFromJson(op, &options); !s) return s;
  return options;
}

Result<ScanOptions> scanFromJson(const json& op) {
  ScanOptions options;
  if (Status s = readOptionsFromJson(op, &options); !s) return s;
  Result<Bytes> start = optionalBytes(op, "start_row");
  Result<Bytes> stop = optionalBytes(op, "stop_row");
  auto startInclusive = boolField(op, "start_inclusive", true);
  auto stopInclusive = boolField(op, "stop_inclusive", false);
  auto reversed = boolField(op, "reversed", false);
  auto raw = boolField(op, "raw", false);
  auto limit = intField(op, "limit", -1, -1, INT64_MAX);
  auto batch = intField(op, "batch", -1, 1, INT32_MAX);
  for (const Status* s : {&start.status(), &stop.status(), &startInclusive.status(), &stopInclusive.status(),
                          &reversed.status(), &raw.status(), &limit.status(), &batch.status()}) {
    if (!*s) return *s;
  }
  if (op.contains("prefix") && !op["prefix"].is_null()) {
    if (op.contains("start_row") || op.contains("stop_row"))
      return bad("prefix", "cannot be combined with start_row or stop_row");
    Result<Bytes> prefix = bytesFromJson(op["prefix"], "prefix");
    if (!prefix) return prefix.status();
    options.setRowPrefix(*prefix);
  } else {
    options.startRow = *start;
    options.stopRow = *stop;
    options.startInclusive = *startInclusive;
    options.stopInclusive = *stopInclusive;
  }
  options.reversed = *reversed;
  options.raw = *raw;
  options.limit = *limit;
  options.batch = static_cast<int32_t>(*batch);
  return options;
}

json cellToJson(const Cell& cell, ByteRendering rendering) {
  return {{"row", bytesToJson(cell.row, rendering)},
          {"family", cell.family},
          {"qualifier", bytesToJson(cell.qualifier, rendering)},
          {"timestamp", cell.timestamp},
          {"type", cellTypeName(cell.type)},
          {"value", bytesToJson(cell.value, rendering)}};
}

json rowToJson(BytesView row, const std::vector<Cell>& cells, ByteRendering rendering) {
  json out = {{"row", bytesToJson(row, rendering)}, {"cells", json::array()}};
  for (const Cell& cell : cells) out["cells"].push_back(cellToJson(cell, rendering));
  return out;
}

json reportToJson(const ReadReport& r) { return readReportToJson(r); }

}  // namespace keyscope::cli
