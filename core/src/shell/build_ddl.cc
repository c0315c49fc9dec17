// Builders of the table commands: create, alter, list, the one-table
// commands (describe ... major_compact), set_clock and key_schema.
#include <algorithm>
#include <cstdio>
#include <limits>
#include <regex>

#include "keyscope/key_schema.h"
#include "shell/builders.h"

namespace keyscope::shell {

namespace {

const std::vector<std::string_view> kFamilyKeys = {"NAME",        "VERSIONS", "MIN_VERSIONS", "TTL",
                                                   "KEEP_DELETED_CELLS", "COMPRESSION", "BLOOMFILTER", "BLOCKSIZE"};
const std::vector<std::string_view> kTableKeys = {"MEMSTORE_FLUSHSIZE", "MAX_FILESIZE", "SPLIT_POLICY",
                                                  "KEY_SCHEMA",         "DESCRIPTION",  "EXAMPLES"};
const std::vector<std::string_view> kCreateTableKeys = {"SPLITS",       "NUMREGIONS",   "SPLITALGO",
                                                        "MEMSTORE_FLUSHSIZE", "MAX_FILESIZE", "SPLIT_POLICY",
                                                        "KEY_SCHEMA",   "DESCRIPTION",  "EXAMPLES"};

// Family keys written where table keys belong, or the reverse, get a message
// that says where they go.
Status misplaced(const SourceText& src, const Value& map, const std::vector<std::string_view>& keys,
                 const std::string& advice) {
  for (const MapEntry& e : map.entries) {
    if (e.key.isString() && std::find(keys.begin(), keys.end(), e.key.bytes) != keys.end() && e.key.bytes != "NAME")
      return errorAt(src, e.key, e.key.bytes + " " + advice);
  }
  return Status::ok();
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 32 : c);
  return s;
}

Status readFamilyOptions(const SourceText& src, OptionMap& options, FamilyPatch* family) {
  if (const Value* v = options.take("VERSIONS")) {
    auto n = readInteger(src, *v, "VERSIONS", 1, std::numeric_limits<int32_t>::max(), true);
    if (!n) return n.status();
    family->maxVersions = static_cast<int32_t>(*n);
  }
  if (const Value* v = options.take("MIN_VERSIONS")) {
    auto n = readInteger(src, *v, "MIN_VERSIONS", 0, std::numeric_limits<int32_t>::max(), true);
    if (!n) return n.status();
    family->minVersions = static_cast<int32_t>(*n);
  }
  if (const Value* v = options.take("TTL")) {
    if (v->isString() && upper(v->bytes) == "FOREVER") {
      family->ttlSeconds = kTtlForever;
    } else {
      auto n = readInteger(src, *v, "TTL (seconds, or 'FOREVER')", 1, kTtlForever, true);
      if (!n) return n.status();
      family->ttlSeconds = *n;
    }
  }
  if (const Value* v = options.take("KEEP_DELETED_CELLS")) {
    const std::string text = v->isString() ? upper(v->bytes) : "";
    if (v->kind == Value::Kind::kBool) family->keepDeletedCells = v->boolean ? KeepDeletedCells::kTrue : KeepDeletedCells::kFalse;
    else if (text == "TRUE") family->keepDeletedCells = KeepDeletedCells::kTrue;
    else if (text == "FALSE") family->keepDeletedCells = KeepDeletedCells::kFalse;
    else if (text == "TTL") family->keepDeletedCells = KeepDeletedCells::kTtl;
    else return errorAt(src, *v, "KEEP_DELETED_CELLS: expected true, false or 'TTL'");
  }
  if (const Value* v = options.take("COMPRESSION")) {
    Result<std::string> text = readText(src, *v, "COMPRESSION");
    if (!text) return text.status();
    const std::string name = upper(*text);
    if (name == "NONE") family->compression = Compression::kNone;
    else if (name == "ZSTD") family->compression = Compression::kZstd;
    else if (name == "GZ" || name == "SNAPPY" || name == "LZ4" || name == "LZO" || name == "BZIP2" || name == "LZMA" || name == "BROTLI")
      return errorAt(src, *v, "COMPRESSION '" + *text + "' is not supported by Keyscope (it has NONE and ZSTD)");
    else return errorAt(src, *v, "COMPRESSION: expected 'NONE' or 'ZSTD', got '" + toStringBinary(*text) + "'");
  }
  if (const Value* v = options.take("BLOOMFILTER")) {
    Result<std::string> text = readText(src, *v, "BLOOMFILTER");
    if (!text) return text.status();
    const std::string name = upper(*text);
    if (name == "NONE") family->bloomFilter = BloomType::kNone;
    else if (name == "ROW") family->bloomFilter = BloomType::kRow;
    else if (name == "ROWCOL") family->bloomFilter = BloomType::kRowCol;
    else if (name == "ROWPREFIX_FIXED_LENGTH" || name.rfind("RIBBON", 0) == 0)
      return errorAt(src, *v, "BLOOMFILTER '" + *text + "' is not supported by Keyscope (it has NONE, ROW and ROWCOL)");
    else return errorAt(src, *v, "BLOOMFILTER: expected 'NONE', 'ROW' or 'ROWCOL', got '" + toStringBinary(*text) + "'");
  }
  if (const Value* v = options.take("BLOCKSIZE")) {
    auto n = readInteger(src, *v, "BLOCKSIZE", 1024, 16 << 20, true);
    if (!n) return n.status();
    family->blockSize = static_cast<uint32_t>(*n);
  }
  return Status::ok();
}

// A {NAME => 'f', ...} map.
Status readFamilyMap(const SourceText& src, const Value& map, const std::string& context, FamilyPatch* family) {
  if (Status s = misplaced(src, map, kCreateTableKeys, "is a table option: give it in a map of its own, without NAME"); !s)
    return s;
  OptionMap options(src, map, context);
  const Value* name = options.take("NAME");
  Result<std::string> text = readText(src, *name, "NAME");
  if (!text) return text.status();
  if (text->empty()) return errorAt(src, *name, "a family name cannot be empty");
  family->name = *text;
  if (Status s = readFamilyOptions(src, options, family); !s) return s;
  return options.finish(kFamilyKeys);
}

Status readKeySchema(const SourceText& src, const Value& value, std::string* out) {
  if (value.kind == Value::Kind::kNil) {
    out->clear();
    return Status::ok();
  }
  Result<std::string> text = readText(src, value, "KEY_SCHEMA");
  if (!text) return text.status();
  if (!text->empty()) {
    Result<KeySchema> schema = KeySchema::parse(*text);
    if (!schema) return mapInnerError(src, value, schema.status(), "KEY_SCHEMA");
  }
  *out = *text;
  return Status::ok();
}

Status readTableOptions(const SourceText& src, OptionMap& options, TablePatch* table) {
  if (const Value* v = options.take("MEMSTORE_FLUSHSIZE")) {
    auto n = readInteger(src, *v, "MEMSTORE_FLUSHSIZE", 65536, std::numeric_limits<int64_t>::max(), true);
    if (!n) return n.status();
    table->memstoreFlushSize = static_cast<uint64_t>(*n);
  }
  if (const Value* v = options.take("MAX_FILESIZE")) {
    auto n = readInteger(src, *v, "MAX_FILESIZE", 65536, std::numeric_limits<int64_t>::max(), true);
    if (!n) return n.status();
    table->maxFileSize = static_cast<uint64_t>(*n);
  }
  if (const Value* v = options.take("SPLIT_POLICY")) {
    Result<std::string> text = readText(src, *v, "SPLIT_POLICY");
    if (!text) return text.status();
    std::optional<SplitPolicy> policy = parseSplitPolicy(*text);
    if (!policy)
      return errorAt(src, *v, "SPLIT_POLICY: expected IncreasingToUpperBoundRegionSplitPolicy, "
                              "ConstantSizeRegionSplitPolicy, SteppingSplitPolicy or DisabledRegionSplitPolicy "
                              "(optionally with the package org.apache.hadoop.hbase.regionserver.), or 'increasing', "
                              "'constant', 'stepping' or 'disabled'; got '" + toStringBinary(*text) + "'");
    table->splitPolicy = *policy;
  }
  if (const Value* v = options.take("KEY_SCHEMA")) {
    std::string schema;
    if (Status s = readKeySchema(src, *v, &schema); !s) return s;
    table->keySchema = schema;
  }
  if (const Value* v = options.take("DESCRIPTION")) {
    Result<Bytes> text = readBytes(src, *v, "DESCRIPTION");
    if (!text) return text.status();
    table->description = *text;
  }
  if (const Value* v = options.take("EXAMPLES")) {  // a command, an array of them, or nil
    std::vector<std::string> examples;
    if (v->kind == Value::Kind::kArray) {
      for (const Value& item : v->items) {
        Result<std::string> text = readText(src, item, "EXAMPLES");
        if (!text) return text.status();
        examples.push_back(*text);
      }
    } else if (v->kind != Value::Kind::kNil) {
      Result<std::string> text = readText(src, *v, "EXAMPLES");
      if (!text) return text.status();
      examples.push_back(*text);
    }
    table->exampleCommands = std::move(examples);
  }
  return Status::ok();
}

// RegionSplitter's algorithms: n regions, n-1 split keys evenly over the key space.
Result<std::vector<Bytes>> computeSplits(const SourceText& src, const Value& algoValue, const std::string& algo,
                                         int64_t regions) {
  std::vector<Bytes> splits;
  const auto n = static_cast<uint64_t>(regions);
  if (algo == "HexStringSplit" || algo == "org.apache.hadoop.hbase.util.RegionSplitter.HexStringSplit") {
    // 8 lowercase hex digits over 00000000..ffffffff: split i = i * (2^32 / n).
    const uint64_t step = (uint64_t{1} << 32) / n;
    for (uint64_t i = 1; i < n; ++i) {
      char buf[17];
      std::snprintf(buf, sizeof buf, "%08llx", static_cast<unsigned long long>(i * step));
      splits.emplace_back(buf);
    }
  } else if (algo == "DecimalStringSplit" || algo == "org.apache.hadoop.hbase.util.RegionSplitter.DecimalStringSplit") {
    // 8 decimal digits over 00000000..99999999.
    const uint64_t step = 100000000ull / n;
    for (uint64_t i = 1; i < n; ++i) {
      char buf[21];
      std::snprintf(buf, sizeof buf, "%08llu", static_cast<unsigned long long>(i * step));
      splits.emplace_back(buf);
    }
  } else if (algo == "UniformSplit" || algo == "org.apache.hadoop.hbase.util.RegionSplitter.UniformSplit") {
    // 8 raw bytes: split i = i * floor(2^64 / n), big-endian.
    const uint64_t max = std::numeric_limits<uint64_t>::max();
    const uint64_t step = max / n + (max % n == n - 1 ? 1 : 0);
    for (uint64_t i = 1; i < n; ++i) {
      uint64_t v = i * step;
      Bytes key(8, '\0');
      for (size_t b = 8; b-- > 0;) {
        key[b] = static_cast<char>(v & 0xff);
        v >>= 8;
      }
      splits.push_back(key);
    }
  } else {
    return errorAt(src, algoValue, "SPLITALGO: expected 'HexStringSplit', 'DecimalStringSplit' or 'UniformSplit', got '" +
                                       toStringBinary(algo) + "'");
  }
  return splits;
}

}  // namespace

void FamilyPatch::applyTo(FamilyOptions* family) const {
  family->name = name;
  if (maxVersions) family->maxVersions = *maxVersions;
  if (minVersions) family->minVersions = *minVersions;
  if (ttlSeconds) family->ttlSeconds = *ttlSeconds;
  if (keepDeletedCells) family->keepDeletedCells = *keepDeletedCells;
  if (compression) family->compression = *compression;
  if (bloomFilter) family->bloomFilter = *bloomFilter;
  if (blockSize) family->blockSize = *blockSize;
}

void TablePatch::applyTo(TableOptions* table) const {
  if (memstoreFlushSize) table->memstoreFlushSize = *memstoreFlushSize;
  if (maxFileSize) table->maxFileSize = *maxFileSize;
  if (splitPolicy) table->splitPolicy = *splitPolicy;
  if (keySchema) table->keySchema = *keySchema;
  if (description) table->description = *description;
  if (exampleCommands) table->exampleCommands = *exampleCommands;
}

Status checkArity(const SourceText& src, const RawStatement& statement, size_t min, size_t max,
                  std::string_view usage) {
  return checkCount(src, statement, statement.args.size(), min, max, usage);
}

Status checkCount(const SourceText& src, const RawStatement& statement, size_t given, size_t min, size_t max,
                  std::string_view usage) {
  if (given >= min && given <= max) return Status::ok();
  std::string expected = std::to_string(min);
  if (max == min + 1) expected += " or " + std::to_string(max);
  else if (max > min && max < 100) expected += " to " + std::to_string(max);
  else if (max > min) expected = "at least " + expected;
  return src.errorAt(statement.nameOffset, statement.name + ": wrong number of arguments (given " +
                                               std::to_string(given) + ", expected " + expected + "); usage: " +
                                               std::string(usage));
}

const Value* trailingMap(const RawStatement& statement) {
  if (statement.args.empty() || !statement.args.back().isMap()) return nullptr;
  return &statement.args.back();
}

size_t positionalCount(const RawStatement& statement) {
  return statement.args.size() - (trailingMap(statement) ? 1 : 0);
}

Result<Command> buildCreate(const SourceText& src, const RawStatement& statement) {
  constexpr std::string_view kUsage = "create 't', 'family'[, {NAME => 'f2', VERSIONS => 3}, ...][, SPLITS => ['m']]";
  if (Status s = checkArity(src, statement, 1, SIZE_MAX, kUsage); !s) return s;
  Result<std::string> name = readTableName(src, statement.args[0]);
  if (!name) return name.status();
  CreateCommand command;
  command.table.name = *name;
  std::vector<FamilyPatch> families;
  std::vector<const Value*> familyValues;
  TablePatch attributes;
  const Value* splitsValue = nullptr;
  const Value* regionsValue = nullptr;
  const Value* algoValue = nullptr;
  for (size_t i = 1; i < statement.args.size(); ++i) {
    const Value& arg = statement.args[i];
    FamilyPatch family;
    if (arg.isString()) {
      Result<std::string> text = readText(src, arg, "a family name");
      if (!text) return text.status();
      if (text->empty()) return errorAt(src, arg, "a family name cannot be empty");
      family.name = *text;
    } else if (arg.isMap() && OptionMap(src, arg, "create").has("NAME")) {
      if (Status s = readFamilyMap(src, arg, "family", &family); !s) return s;
    } else if (arg.isMap()) {
      if (Status s = misplaced(src, arg, kFamilyKeys, "is a family option: give it in a map with NAME => 'family'"); !s)
        return s;
      OptionMap options(src, arg, "create");
      if (const Value* v = options.take("SPLITS")) splitsValue = v;
      if (const Value* v = options.take("NUMREGIONS")) regionsValue = v;
      if (const Value* v = options.take("SPLITALGO")) algoValue = v;
      if (Status s = readTableOptions(src, options, &attributes); !s) return s;
      if (Status s = options.finish(kCreateTableKeys); !s) return s;
      continue;
    } else {
      return errorAt(src, arg, std::string("create: expected a family name or a {NAME => ...} map, got ") + arg.kindName());
    }
    for (size_t k = 0; k < families.size(); ++k) {
      if (families[k].name == family.name)
        return errorAt(src, arg, "family '" + family.name + "' is given twice (first at " +
                                     src.where(familyValues[k]->offset) + ")");
    }
    families.push_back(family);
    familyValues.push_back(&arg);
  }
  if (families.empty())
    return src.errorAt(statement.nameOffset, "create: a table needs at least one column family; usage: " + std::string(kUsage));
  for (const FamilyPatch& patch : families) {
    FamilyOptions family;
    patch.applyTo(&family);
    command.table.families.push_back(family);
  }
  attributes.applyTo(&command.table);
  if (Status s = validateTableOptions(command.table); !s) return errorAt(src, statement.args[0], s.message());

  if (splitsValue && regionsValue)
    return errorAt(src, *regionsValue, "give SPLITS or NUMREGIONS with SPLITALGO, not both");
  if (splitsValue) {
    if (splitsValue->kind != Value::Kind::kArray)
      return errorAt(src, *splitsValue, std::string("SPLITS: expected an array of split keys, got ") + splitsValue->kindName());
    for (const Value& item : splitsValue->items) {
      Result<Bytes> key = readBytes(src, item, "SPLITS");
      if (!key) return key.status();
      if (key->empty()) return errorAt(src, item, "SPLITS: a split key cannot be empty");
      for (size_t k = 0; k < command.splits.size(); ++k) {
        if (command.splits[k] == *key) return errorAt(src, item, "SPLITS: '" + toStringBinary(*key) + "' is given twice");
      }
      command.splits.push_back(*key);
    }
  }
  if (regionsValue || algoValue) {
    if (!regionsValue || !algoValue)
      return errorAt(src, regionsValue ? *regionsValue : *algoValue, "NUMREGIONS and SPLITALGO go together");
    // 1000: HBase's hbase.regionserver.regionSplitLimit; far beyond a design lab's needs.
    auto n = readInteger(src, *regionsValue, "NUMREGIONS", 2, 1000);
    if (!n) return n.status();
    Result<std::string> algo = readText(src, *algoValue, "SPLITALGO");
    if (!algo) return algo.status();
    Result<std::vector<Bytes>> splits = computeSplits(src, *algoValue, *algo, *n);
    if (!splits) return splits.status();
    command.splits = *splits;
  }
  return Command(std::move(command));
}

Result<Command> buildAlter(const SourceText& src, const RawStatement& statement) {
  constexpr std::string_view kUsage =
      "alter 't', NAME => 'f', VERSIONS => 5 | alter 't', 'delete' => 'f' | alter 't', MEMSTORE_FLUSHSIZE => n";
  if (Status s = checkArity(src, statement, 2, SIZE_MAX, kUsage); !s) return s;
  Result<std::string> name = readTableName(src, statement.args[0]);
  if (!name) return name.status();
  AlterCommand command;
  command.table = *name;
  for (size_t i = 1; i < statement.args.size(); ++i) {
    const Value& arg = statement.args[i];
    AlterStep step;
    step.line = src.lineOf(arg.offset);
    step.column = src.columnOf(arg.offset);
    if (arg.isString()) {
      Result<std::string> text = readText(src, arg, "a family name");
      if (!text) return text.status();
      if (text->empty()) return errorAt(src, arg, "a family name cannot be empty");
      step.family.name = *text;
      command.steps.push_back(step);
      continue;
    }
    if (!arg.isMap())
      return errorAt(src, arg, std::string("alter: expected a family name or a {NAME => ...} map, got ") + arg.kindName());
    OptionMap options(src, arg, "alter");
    if (const Value* v = options.take("delete")) {  // alter 't', 'delete' => 'f'
      Result<std::string> family = readText(src, *v, "'delete'");
      if (!family) return family.status();
      step.kind = AlterStep::Kind::kDeleteFamily;
      step.family.name = *family;
      for (const MapEntry& e : arg.entries) {
        if (e.key.isString() && e.key.bytes != "delete")
          return errorAt(src, e.key, "'delete' => 'family' stands alone: give " + toStringBinary(e.key.bytes) +
                                         " in a map of its own");
      }
      command.steps.push_back(step);
      continue;
    }
    std::string method;
    if (const Value* v = options.take("METHOD")) {
      Result<std::string> text = readText(src, *v, "METHOD");
      if (!text) return text.status();
      method = *text;
      if (method != "delete" && method != "table_att" && method != "table_att_unset")
        return errorAt(src, *v, "METHOD: expected 'delete', 'table_att' or 'table_att_unset', got '" + toStringBinary(method) + "'");
    }
    if (method == "delete") {
      const Value* family = options.take("NAME");
      if (!family) return errorAt(src, arg, "alter: METHOD => 'delete' needs NAME => 'family'");
      Result<std::string> text = readText(src, *family, "NAME");
      if (!text) return text.status();
      step.kind = AlterStep::Kind::kDeleteFamily;
      step.family.name = *text;
      if (Status s = options.finish({"NAME", "METHOD"}); !s) return s;
    } else if (method == "table_att_unset") {
      const Value* attr = options.take("NAME");
      if (!attr) return errorAt(src, arg, "alter: METHOD => 'table_att_unset' needs NAME => 'ATTRIBUTE'");
      Result<std::string> text = readText(src, *attr, "NAME");
      if (!text) return text.status();
      step.kind = AlterStep::Kind::kTableAttributes;
      const TableOptions defaults;
      if (*text == "MEMSTORE_FLUSHSIZE") step.attributes.memstoreFlushSize = defaults.memstoreFlushSize;
      else if (*text == "MAX_FILESIZE") step.attributes.maxFileSize = defaults.maxFileSize;
      else if (*text == "SPLIT_POLICY") step.attributes.splitPolicy = defaults.splitPolicy;
      else if (*text == "KEY_SCHEMA") step.attributes.keySchema = "";
      else if (*text == "DESCRIPTION") step.attributes.description = "";
      else if (*text == "EXAMPLES") step.attributes.exampleCommands = std::vector<std::string>();
      else return errorAt(src, *attr, "table_att_unset: expected MEMSTORE_FLUSHSIZE, MAX_FILESIZE, SPLIT_POLICY, "
                                      "KEY_SCHEMA, DESCRIPTION or EXAMPLES");
      if (Status s = options.finish({"NAME", "METHOD"}); !s) return s;
    } else if (method.empty() && options.has("NAME")) {
      step.kind = AlterStep::Kind::kSetFamily;
      if (Status s = readFamilyMap(src, arg, "alter", &step.family); !s) return s;
    } else {
      if (Status s = misplaced(src, arg, kFamilyKeys, "is a family option: give it with NAME => 'family'"); !s) return s;
      step.kind = AlterStep::Kind::kTableAttributes;
      if (Status s = readTableOptions(src, options, &step.attributes); !s) return s;
      std::vector<std::string_view> accepted = kTableKeys;
      accepted.push_back("METHOD");
      if (Status s = options.finish(accepted); !s) return s;
    }
    command.steps.push_back(step);
  }
  return Command(std::move(command));
}

Result<Command> buildTableCommand(const SourceText& src, const RawStatement& statement, TableAction action) {
  TableCommand command;
  command.action = action;
  const bool compaction = action == TableAction::kCompact || action == TableAction::kMajorCompact;
  const size_t max = compaction ? 3 : 1;
  if (Status s = checkArity(src, statement, 1, max, statement.name + " 't'" + (compaction ? "[, ...]" : "")); !s) return s;
  Result<std::string> name = readTableName(src, statement.args[0]);
  if (!name) return name.status();
  command.table = *name;
  if (statement.args.size() > 1)
    return errorAt(src, statement.args[1], statement.name + " of one column family is not available: Keyscope compacts whole tables");
  return Command(std::move(command));
}

Result<Command> buildList(const SourceText& src, const RawStatement& statement) {
  if (Status s = checkArity(src, statement, 0, 1, "list ['regex']"); !s) return s;
  ListCommand command;
  if (!statement.args.empty() && statement.args[0].kind != Value::Kind::kNil) {
    Result<std::string> pattern = readText(src, statement.args[0], "list");
    if (!pattern) return pattern.status();
    try {
      std::regex check(*pattern);
    } catch (const std::regex_error&) {
      return errorAt(src, statement.args[0], "list: invalid regular expression '" + toStringBinary(*pattern) + "'");
    }
    command.pattern = *pattern;
  }
  return Command(std::move(command));
}

Result<Command> buildSetClock(const SourceText& src, const RawStatement& statement) {
  if (Status s = checkArity(src, statement, 1, 1, "set_clock millis | set_clock nil"); !s) return s;
  SetClockCommand command;
  const Value& arg = statement.args[0];
  if (arg.kind != Value::Kind::kNil) {
    auto now = readInteger(src, arg, "set_clock", 0, std::numeric_limits<int64_t>::max() - 1);
    if (!now) return now.status();
    command.nowMillis = *now;
  }
  return Command(std::move(command));
}

Result<Command> buildKeySchema(const SourceText& src, const RawStatement& statement) {
  if (Status s = checkArity(src, statement, 1, 2, "key_schema 't'[, 'schema' | nil]"); !s) return s;
  Result<std::string> name = readTableName(src, statement.args[0]);
  if (!name) return name.status();
  KeySchemaCommand command;
  command.table = *name;
  if (statement.args.size() == 2) {
    command.set = true;
    if (Status s = readKeySchema(src, statement.args[1], &command.schema); !s) return s;
  }
  return Command(std::move(command));
}

}  // namespace keyscope::shell
