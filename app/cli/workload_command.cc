// `keyscope-cli workload WORKSPACE TABLE [options]`: runs a key design into a
// table through the engine and ends with the summary and verdict
// (keyscope/workload.h, docs/WORKLOAD.md).
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <iostream>

#include "cli_io.h"
#include "csv_cli.h"
#include "keyscope/key_codec.h"
#include "keyscope/key_json.h"
#include "keyscope/workload.h"
#include "keyscope/workspace.h"
#include "workload_report.h"

namespace keyscope::cli {

namespace {

constexpr const char* kWorkloadUsage =
    "usage: keyscope-cli workload WORKSPACE TABLE [options]\n"
    "  Runs a key design into TABLE through the engine (real regions, splits, servers and\n"
    "  statistics) on a simulated clock, and ends with operations per server, the hottest\n"
    "  server and region per interval, the splits, and a verdict (docs/WORKLOAD.md).\n"
    "  TABLE is created when missing (small flush and split sizes, so splits show within\n"
    "  seconds); WORKSPACE too. A run is reproducible from its options and seed.\n"
    "  --preset NAME           lockstep, monotonic, salted, field-swapped, hashed, zipf, uniform\n"
    "                          (the design and the run; options after it change it); --list-presets\n"
    "  --design NAME           monotonic, sequence, salted, field-swapped, hashed, uniform, zipf,\n"
    "                          lockstep, schema (default monotonic)\n"
    "  --ops N                 operations to run (default 100,000 unless --duration is given)\n"
    "  --duration TIME         simulated time to run: 90, 90s, 1500ms, 2m, 1h (the first of\n"
    "                          --ops and --duration ends the run)\n"
    "  --rate R                operations per simulated second (default: as fast as possible,\n"
    "                          the clock advancing 1 ms per operation)\n"
    "  --clients C             logical clients taking turns (default 8)\n"
    "  --mix LIST              put=W,get=W,scan=W: shares of the operations (default put=1)\n"
    "  --batch N               puts a client collects per atomic write (default 10)\n"
    "  --seed N                the run's random seed (default 1)\n"
    "  --start MS              simulated time of the first operation, ms since 1970 (default\n"
    "                          2024-01-01T00:00:00Z, or after the workspace's last recorded load)\n"
    "  --salt-buckets N        salted: 1 to 256 buckets (default 8)\n"
    "  --salt-by ts|entity     salted: what the salt hashes (default ts)\n"
    "  --salt-format byte|hex  salted: a salt byte, or two hex digits (default byte)\n"
    "  --entities N            users or metrics the design draws from (default 10,000)\n"
    "  --zipf-exponent S       zipf: the skew (default 1.1)\n"
    "  --key-schema SCHEMA     schema design: the row-key schema (docs/KEY-SCHEMAS.md)\n"
    "  --gen NAME=SPEC         schema design: component NAME's generator, e.g. user=zipf(1000)\n"
    "                          (now, seq, client, step, uniform(LO, HI), zipf(N[, S]), random,\n"
    "                          choice(A, B, ...)); repeat for each component\n"
    "  --value-size BYTES      value of each put (default 100)\n"
    "  --scan-rows N           rows a scan reads (default 20)\n"
    "  --servers S             simulated region servers (a workspace setting; default as it is)\n"
    "  --presplit N            a new table: N regions at the design's natural boundaries\n"
    "  --flush-size SIZE       a new table: MEMSTORE_FLUSHSIZE (default 1MiB)\n"
    "  --max-filesize SIZE     a new table: MAX_FILESIZE, the split size (default 4MiB)\n"
    "  --split-policy NAME     a new table: constant, increasing, stepping, disabled (default constant)\n"
    "  --intervals N           summary intervals (default 10)\n"
    "  --format text|jsonl     jsonl: progress lines, then one summary object (default text)\n"
    "  --progress, --no-progress  text: progress on stderr (default: when stderr is a terminal)\n"
    "  --preview N             print the first N row keys (hex and decoded) and write nothing\n"
    "Exit status: 0 ran, 1 the run stopped (an engine error, Ctrl-C) or its statistics could not\n"
    "be read, 2 bad usage or input.\n";

int usageError(Streams io, const std::string& message) {
  io.err << "keyscope-cli: workload: " << message << "\n";
  return kExitBadInput;
}

Result<uint64_t> unsignedArg(const std::string& option, const std::string& text, uint64_t min, uint64_t max) {
  errno = 0;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
  if (text.empty() || text[0] == '-' || *end != '\0' || errno != 0 || v < min || v > max)
    return Status::invalidArgument(option + " takes a whole number from " + withCommas(min) + " to " +
                                   withCommas(max) + ", got '" + text + "'");
  return static_cast<uint64_t>(v);
}

Result<double> numberArg(const std::string& option, const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(v) || v <= 0)
    return Status::invalidArgument(option + " takes a number above 0, got '" + text + "'");
  return v;
}

// "4MiB", "512K", "1048576": bytes, with binary K/M/G suffixes.
Result<uint64_t> sizeArg(const std::string& option, const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  std::string unit(end);
  if (unit.size() > 1 && (unit.ends_with("iB") || unit.ends_with("B"))) unit = unit.substr(0, 1);
  const double scale = unit.empty() ? 1 : unit == "K" || unit == "k" ? 1024.0
                                       : unit == "M" || unit == "m"   ? 1048576.0
                                       : unit == "G" || unit == "g"   ? 1073741824.0
                                                                      : 0;
  if (text.empty() || end == text.c_str() || scale == 0 || !std::isfinite(v) || v * scale < 1 || v * scale > 1e15)
    return Status::invalidArgument(option + " takes a size such as 1048576, 512KiB or 4MiB, got '" + text + "'");
  return static_cast<uint64_t>(v * scale);
}

// "90", "90s", "1500ms", "2m", "1h": milliseconds.
Result<int64_t> durationArg(const std::string& option, const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  const std::string unit(end);
  const double scale = unit.empty() || unit == "s" ? 1000.0 : unit == "ms" ? 1.0 : unit == "m" ? 60000.0
                       : unit == "h"                ? 3600000.0
                                                    : 0;
  if (text.empty() || end == text.c_str() || scale == 0 || !std::isfinite(v) || v * scale < 1 || v * scale > 1e15)
    return Status::invalidArgument(option + " takes a time such as 90, 90s, 1500ms, 2m or 1h, got '" + text + "'");
  return static_cast<int64_t>(std::llround(v * scale));
}

// Applies one option to `o`; `format` and `preview` collect the output choices.
Status applyOption(const std::string& name, const std::string& value, WorkloadOptions& o) {
  if (name == "--design") {
    std::optional<KeyDesign> d = parseKeyDesign(value);
    if (!d) {
      std::string names;
      for (KeyDesign k : keyDesigns()) names += (names.empty() ? "" : ", ") + std::string(keyDesignName(k));
      return Status::invalidArgument("--design: unknown design '" + value + "' (designs: " + names + ")");
    }
    o.keys.design = *d;
  } else if (name == "--ops") {
    Result<uint64_t> n = unsignedArg(name, value, 1, 10000000000ull);
    if (!n) return n.status();
    o.operations = *n;
  } else if (name == "--duration") {
    Result<int64_t> ms = durationArg(name, value);
    if (!ms) return ms.status();
    o.durationMillis = *ms;
  } else if (name == "--rate") {
    Result<double> r = numberArg(name, value);
    if (!r || *r < 0.001 || *r > 1e7)
      return Status::invalidArgument("--rate takes operations per second from 0.001 to 10,000,000, got '" + value + "'");
    o.rate = *r;
  } else if (name == "--clients") {
    Result<uint64_t> n = unsignedArg(name, value, 1, 10000);
    if (!n) return n.status();
    o.clients = static_cast<uint32_t>(*n);
  } else if (name == "--mix") {
    Result<OperationMix> mix = parseOperationMix(value);
    if (!mix) return Status::invalidArgument("--mix: " + mix.status().message());
    o.mix = *mix;
  } else if (name == "--batch") {
    Result<uint64_t> n = unsignedArg(name, value, 1, 100000);
    if (!n) return n.status();
    o.batchSize = static_cast<uint32_t>(*n);
  } else if (name == "--seed") {
    Result<uint64_t> n = unsignedArg(name, value, 0, UINT64_MAX);
    if (!n) return n.status();
    o.seed = *n;
  } else if (name == "--start") {
    Result<uint64_t> n = unsignedArg(name, value, 0, 253402300799999);
    if (!n) return n.status();
    o.startMillis = static_cast<int64_t>(*n);
  } else if (name == "--salt-buckets") {
    Result<uint64_t> n = unsignedArg(name, value, 1, 256);
    if (!n) return n.status();
    o.keys.saltBuckets = static_cast<uint32_t>(*n);
  } else if (name == "--salt-by") {
    if (value == "ts" || value == "timestamp") o.keys.saltSource = SaltSource::kTimestamp;
    else if (value == "entity") o.keys.saltSource = SaltSource::kEntity;
    else return Status::invalidArgument("--salt-by takes ts or entity, got '" + value + "'");
  } else if (name == "--salt-format") {
    if (value == "byte") o.keys.saltFormat = SaltFormat::kByte;
    else if (value == "hex") o.keys.saltFormat = SaltFormat::kHex;
    else return Status::invalidArgument("--salt-format takes byte or hex, got '" + value + "'");
  } else if (name == "--entities") {
    Result<uint64_t> n = unsignedArg(name, value, 1, 10000000);
    if (!n) return n.status();
    o.keys.entities = *n;
  } else if (name == "--zipf-exponent") {
    Result<double> s = numberArg(name, value);
    if (!s) return s.status();
    o.keys.zipfExponent = *s;
  } else if (name == "--key-schema") {
    o.keys.keySchema = value;
    o.keys.design = KeyDesign::kSchema;
  } else if (name == "--gen") {
    const size_t eq = value.find('=');
    if (eq == std::string::npos || eq == 0)
      return Status::invalidArgument("--gen takes NAME=SPEC, e.g. user=zipf(1000), got '" + value + "'");
    o.keys.generators.emplace_back(value.substr(0, eq), value.substr(eq + 1));
  } else if (name == "--value-size") {
    Result<uint64_t> n = value == "0" ? Result<uint64_t>(uint64_t{0}) : sizeArg(name, value);
    if (!n || *n > (1u << 20)) return Status::invalidArgument("--value-size takes 0 to 1MiB, got '" + value + "'");
    o.valueBytes = static_cast<uint32_t>(*n);
  } else if (name == "--scan-rows") {
    Result<uint64_t> n = unsignedArg(name, value, 1, 100000);
    if (!n) return n.status();
    o.scanRows = static_cast<uint32_t>(*n);
  } else if (name == "--servers") {
    Result<uint64_t> n = unsignedArg(name, value, 1, 1000);
    if (!n) return n.status();
    o.servers = static_cast<int32_t>(*n);
  } else if (name == "--presplit") {
    Result<uint64_t> n = unsignedArg(name, value, 1, 1000);
    if (!n) return n.status();
    o.newTable.preSplitRegions = static_cast<uint32_t>(*n);
  } else if (name == "--flush-size") {
    Result<uint64_t> n = sizeArg(name, value);
    if (!n) return n.status();
    o.newTable.memstoreFlushSize = *n;
  } else if (name == "--max-filesize") {
    Result<uint64_t> n = sizeArg(name, value);
    if (!n) return n.status();
    o.newTable.maxFileSize = *n;
  } else if (name == "--split-policy") {
    std::optional<SplitPolicy> p = parseSplitPolicy(value);
    if (!p) return Status::invalidArgument("--split-policy takes constant, increasing, stepping or disabled, got '" + value + "'");
    o.newTable.splitPolicy = *p;
  } else if (name == "--intervals") {
    Result<uint64_t> n = unsignedArg(name, value, 1, 1000);
    if (!n) return n.status();
    o.intervals = static_cast<uint32_t>(*n);
  } else {
    return Status::invalidArgument("unknown option '" + name + "' (see keyscope-cli workload --help)");
  }
  return Status::ok();
}

void listPresets(std::ostream& out) {
  for (const WorkloadPreset& p : workloadPresets()) out << p.name << ": " << p.description << "\n";
}

int preview(const WorkloadOptions& options, size_t count, bool jsonl, Streams io) {
  Result<std::vector<Bytes>> keys = previewKeys(options, count);
  if (!keys) return usageError(io, keys.status().message());
  Result<std::string> schemaText = keyDesignSchema(options.keys);
  Result<KeySchema> schema = schemaText ? KeySchema::parse(*schemaText) : Result<KeySchema>(schemaText.status());
  if (!schema) return usageError(io, schema.status().message());
  if (!jsonl) io.out << "key schema: " << *schemaText << "\n";
  for (const Bytes& key : *keys) {
    const DecodedKey decoded = decodeKey(*schema, key);
    const std::string tuple = tupleToJson(*schema, decoded.values);
    if (jsonl) io.out << "{\"type\":\"key\",\"hex\":\"" << toHex(key) << "\",\"key\":" << tuple << "}\n";
    else io.out << toHex(key) << "  " << tuple << "\n";
  }
  return kExitOk;
}

}  // namespace

int runWorkloadCommand(const Args& args, Streams io) {
  std::vector<std::string> positional;
  std::vector<std::pair<std::string, std::string>> settings;
  std::optional<std::string> preset;
  std::optional<bool> progress;
  std::optional<size_t> previewCount;
  bool jsonl = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "-h" || arg == "--help") {
      io.out << kWorkloadUsage;
      return kExitOk;
    }
    if (arg == "--list-presets") {
      listPresets(io.out);
      return kExitOk;
    }
    if (arg == "--progress" || arg == "--no-progress") {
      progress = arg == "--progress";
      continue;
    }
    if (!arg.starts_with("--")) {
      positional.push_back(arg);
      continue;
    }
    if (i + 1 >= args.size()) return usageError(io, arg + " needs a value");
    const std::string& value = args[++i];
    if (arg == "--preset") {
      preset = value;
    } else if (arg == "--format") {
      if (value != "text" && value != "jsonl") return usageError(io, "--format takes text or jsonl, got '" + value + "'");
      jsonl = value == "jsonl";
    } else if (arg == "--preview") {
      Result<uint64_t> n = unsignedArg(arg, value, 1, 1000000);
      if (!n) return usageError(io, n.status().message());
      previewCount = *n;
    } else {
      settings.emplace_back(arg, value);
    }
  }
  if (positional.size() != 2) {
    io.err << kWorkloadUsage;
    return kExitBadInput;
  }
  WorkloadOptions options;
  options.table = positional[1];
  if (preset) {
    if (Status s = applyWorkloadPreset(*preset, &options); !s) return usageError(io, "--preset: " + s.message());
  }
  for (const auto& [name, value] : settings) {
    if (Status s = applyOption(name, value, options); !s) return usageError(io, s.message());
  }
  if (Status s = validateWorkloadOptions(options); !s) return usageError(io, s.message());
  if (previewCount) return preview(options, *previewCount, jsonl, io);

  Result<std::unique_ptr<Workspace>> ws = Workspace::open(positional[0]);
  if (!ws) return usageError(io, ws.status().message());

  ProgressLine line(io.err, !jsonl && progress.value_or(stderrIsTerminal()), stderrIsTerminal());
  options.progress = [&](const WorkloadProgress& p) {
    if (jsonl) io.out << progressJson(p) << "\n" << std::flush;
    else line.update("workload " + options.table + ": " + progressText(p));
  };
  CancelToken cancel;
  options.cancel = &cancel;
  CancelOnInterrupt interrupt(cancel);

  WorkloadSummary summary;
  const Status status = runWorkload(**ws, options, &summary);
  line.finish();
  const bool nothingRan = summary.operations == 0;
  if (!status && status.code() == Status::Code::kInvalidArgument && nothingRan) {
    if (jsonl) io.out << summaryJson(summary, status.message()) << "\n";
    return usageError(io, status.message());
  }
  if (jsonl) io.out << summaryJson(summary, status ? std::string() : status.message()) << "\n";
  else printSummaryText(io.out, summary);
  if (!status) {
    io.err << "keyscope-cli: workload: " << status.message() << "\n";
    return kExitFailed;
  }
  if (!summary.statisticsError.empty()) {
    io.err << "keyscope-cli: workload: the run went through, but its statistics could not be read: "
           << summary.statisticsError << "\n";
    return kExitFailed;
  }
  return kExitOk;
}

}  // namespace keyscope::cli
