// The workload's names, option checks, operation mix, presets and key
// previews (keyscope/workload.h).
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "keyscope/workload.h"
#include "workload/key_design.h"
#include "workload/operation_stream.h"

namespace keyscope {

namespace {

constexpr uint32_t kMaxClients = 10000;
// A run past ten billion operations would take days; more is a typo.
constexpr uint64_t kMaxOperations = 10000000000ull;
// One operation per 1,000 simulated seconds up to ten million a second: the
// run's times stay whole milliseconds far from overflow.
constexpr double kMinRate = 0.001;
constexpr double kMaxRate = 1e7;
constexpr uint32_t kMaxBatch = 100000;
constexpr uint32_t kMaxValueBytes = 1u << 20;
constexpr uint32_t kMaxScanRows = 100000;
constexpr uint32_t kMaxIntervals = 1000;
constexpr uint32_t kMaxPreSplitRegions = 1000;
// 9999-12-31T23:59:59.999Z: past any date a workload means, and well inside
// what the statistics queries take.
constexpr int64_t kMaxStartMillis = 253402300799999;

struct DesignName {
  KeyDesign design;
  const char* name;
};
constexpr DesignName kDesignNames[] = {
    {KeyDesign::kMonotonic, "monotonic"}, {KeyDesign::kSequence, "sequence"},
    {KeyDesign::kSalted, "salted"},       {KeyDesign::kFieldSwapped, "field-swapped"},
    {KeyDesign::kHashed, "hashed"},       {KeyDesign::kUniform, "uniform"},
    {KeyDesign::kZipf, "zipf"},           {KeyDesign::kLockstep, "lockstep"},
    {KeyDesign::kSchema, "schema"},
};

std::string trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return std::string(s);
}

std::string percent(double share) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f%%", share * 100);
  return buf;
}

struct PresetDef {
  WorkloadPreset info;
  void (*apply)(WorkloadOptions&);
};

// Every preset: 100,000 operations at 1,000 a second, so 100 seconds of
// simulated time cut into ten 10-second intervals, by 8 clients.
void common(WorkloadOptions& o, KeyDesign design, uint32_t preSplit) {
  o.keys = KeyDesignOptions{};
  o.keys.design = design;
  o.clients = 8;
  o.mix = OperationMix{};
  o.rate = 1000;
  o.operations = 100000;
  o.durationMillis.reset();
  o.batchSize = 10;
  o.newTable.preSplitRegions = preSplit;
}

const std::vector<PresetDef>& presetDefs() {
  static const std::vector<PresetDef> kPresets = {
      // Ten regions for the ten summary intervals: each region's turn is one
      // interval, so every interval shows one server doing all the work.
      {{"lockstep",
        "the lock-step import: 8 clients walk sorted input from the same row, together, into a table pre-split in "
        "10; each region (and its server) takes the whole load in its turn"},
       [](WorkloadOptions& o) { common(o, KeyDesign::kLockstep, 10); }},
      {{"monotonic", "timestamp-led keys: every write lands in the last region, on one server, split after split"},
       [](WorkloadOptions& o) { common(o, KeyDesign::kMonotonic, 1); }},
      {{"salted", "the same events behind a one-byte salt of 8 buckets, pre-split at the buckets: writes spread"},
       [](WorkloadOptions& o) {
         common(o, KeyDesign::kSalted, 8);
         o.keys.saltBuckets = 8;
       }},
      {{"field-swapped", "OpenTSDB's metric | timestamp: 16 metrics, each with its own hot end, pre-split in 8"},
       [](WorkloadOptions& o) {
         common(o, KeyDesign::kFieldSwapped, 8);
         o.keys.entities = 16;
       }},
      {{"hashed", "md5 of the user in front: writes spread evenly, and a user's events stay together"},
       [](WorkloadOptions& o) { common(o, KeyDesign::kHashed, 8); }},
      {{"zipf", "10,000 users drawn Zipf-skewed, half writes and half reads: popular users make hot rows"},
       [](WorkloadOptions& o) {
         common(o, KeyDesign::kZipf, 8);
         o.mix = OperationMix{0.5, 0.5, 0};
       }},
      {{"uniform", "random 64-bit keys, pre-split in 8: the even spread to compare the others with"},
       [](WorkloadOptions& o) { common(o, KeyDesign::kUniform, 8); }},
  };
  return kPresets;
}

}  // namespace

const char* keyDesignName(KeyDesign design) {
  for (const DesignName& d : kDesignNames) {
    if (d.design == design) return d.name;
  }
  return "monotonic";
}

std::optional<KeyDesign> parseKeyDesign(std::string_view name) {
  for (const DesignName& d : kDesignNames) {
    if (name == d.name) return d.design;
  }
  if (name == "fieldswap" || name == "field-swap" || name == "swapped" || name == "opentsdb")
    return KeyDesign::kFieldSwapped;
  if (name == "lock-step") return KeyDesign::kLockstep;
  if (name == "random") return KeyDesign::kUniform;
  if (name == "custom") return KeyDesign::kSchema;
  return std::nullopt;
}

const std::vector<KeyDesign>& keyDesigns() {
  static const std::vector<KeyDesign> kAll = [] {
    std::vector<KeyDesign> all;
    for (const DesignName& d : kDesignNames) all.push_back(d.design);
    return all;
  }();
  return kAll;
}

Result<std::string> keyDesignSchema(const KeyDesignOptions& options) {
  Result<std::unique_ptr<workload::KeyDesignModel>> design = workload::makeKeyDesign(options, workload::RunPlan{});
  if (!design) return design.status();
  return (*design)->schemaText();
}

Result<OperationMix> parseOperationMix(std::string_view text) {
  OperationMix mix{0, 0, 0};
  bool seen[3] = {false, false, false};
  std::string_view rest = text;
  while (true) {
    const size_t comma = rest.find(',');
    const std::string item = trim(rest.substr(0, comma));
    const size_t eq = item.find('=');
    if (eq == std::string::npos)
      return Status::invalidArgument("mix item '" + item + "': write KIND=WEIGHT, KIND put, get or scan");
    const std::string kind = trim(std::string_view(item).substr(0, eq));
    const std::string weight = trim(std::string_view(item).substr(eq + 1));
    int index = kind == "put" ? 0 : kind == "get" ? 1 : kind == "scan" ? 2 : -1;
    if (index < 0) return Status::invalidArgument("mix item '" + item + "': unknown kind '" + kind + "' (put, get, scan)");
    if (seen[index]) return Status::invalidArgument("mix item '" + item + "': " + kind + " is given twice");
    seen[index] = true;
    char* end = nullptr;
    const double w = std::strtod(weight.c_str(), &end);
    if (weight.empty() || *end != '\0' || !std::isfinite(w) || w < 0)
      return Status::invalidArgument("mix item '" + item + "': the weight is a number, 0 or more");
    (index == 0 ? mix.put : index == 1 ? mix.get : mix.scan) = w;
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  if (mix.put + mix.get + mix.scan <= 0) return Status::invalidArgument("mix: the weights add up to 0");
  return mix;
}

std::string operationMixText(const OperationMix& mix) {
  const double total = mix.put + mix.get + mix.scan;
  if (!(total > 0)) return "none";
  std::string text;
  for (auto [name, w] : {std::pair{"put", mix.put}, std::pair{"get", mix.get}, std::pair{"scan", mix.scan}}) {
    if (w > 0) text += (text.empty() ? "" : ",") + std::string(name) + "=" + percent(w / total);
  }
  return text;
}

Status validateWorkloadOptions(const WorkloadOptions& o) {
  if (o.table.empty()) return Status::invalidArgument("the table name is empty");
  if (o.clients < 1 || o.clients > kMaxClients)
    return Status::invalidArgument("clients: " + std::to_string(o.clients) + " is out of range (1 to 10,000)");
  const OperationMix& m = o.mix;
  for (double w : {m.put, m.get, m.scan}) {
    if (!std::isfinite(w) || w < 0) return Status::invalidArgument("mix: a weight is negative or not a number");
  }
  if (m.put + m.get + m.scan <= 0) return Status::invalidArgument("mix: the weights add up to 0");
  if (o.rate && !(*o.rate >= kMinRate && *o.rate <= kMaxRate))
    return Status::invalidArgument("rate: operations per second must be 0.001 to 10,000,000");
  if (o.operations && (*o.operations < 1 || *o.operations > kMaxOperations))
    return Status::invalidArgument("operations: " + std::to_string(*o.operations) +
                                   " is out of range (1 to 10,000,000,000)");
  if (o.durationMillis && *o.durationMillis < 1) return Status::invalidArgument("duration: must be at least 1 ms");
  if (o.durationMillis && !o.operations) {
    const double ops = static_cast<double>(*o.durationMillis) * o.rate.value_or(kNominalRate) / 1000.0;
    if (ops > static_cast<double>(kMaxOperations))
      return Status::invalidArgument("duration: at this rate the run would pass 10,000,000,000 operations");
  }
  if (o.batchSize < 1 || o.batchSize > kMaxBatch)
    return Status::invalidArgument("batch: " + std::to_string(o.batchSize) + " is out of range (1 to 100,000)");
  if (o.valueBytes > kMaxValueBytes)
    return Status::invalidArgument("value size: " + std::to_string(o.valueBytes) + " is above 1 MiB");
  if (o.scanRows < 1 || o.scanRows > kMaxScanRows)
    return Status::invalidArgument("scan rows: " + std::to_string(o.scanRows) + " is out of range (1 to 100,000)");
  if (o.intervals < 1 || o.intervals > kMaxIntervals)
    return Status::invalidArgument("intervals: " + std::to_string(o.intervals) + " is out of range (1 to 1,000)");
  if (o.servers && (*o.servers < 1 || *o.servers > 1000))
    return Status::invalidArgument("servers: " + std::to_string(*o.servers) + " is out of range (1 to 1,000)");
  if (o.startMillis && (*o.startMillis < 0 || *o.startMillis > kMaxStartMillis))
    return Status::invalidArgument("start: " + std::to_string(*o.startMillis) +
                                   " ms is out of range (0 to 253402300799999, the end of year 9999)");
  if (o.newTable.memstoreFlushSize < 1 || o.newTable.maxFileSize < 1)
    return Status::invalidArgument("the new table's flush and split sizes must be above 0");
  if (o.newTable.preSplitRegions < 1 || o.newTable.preSplitRegions > kMaxPreSplitRegions)
    return Status::invalidArgument("pre-split: " + std::to_string(o.newTable.preSplitRegions) +
                                   " regions is out of range (1 to 1,000)");
  const workload::Schedule schedule = workload::Schedule::of(o, o.startMillis.value_or(kDefaultStartMillis));
  Result<std::unique_ptr<workload::KeyDesignModel>> design = workload::makeKeyDesign(o.keys, schedule.plan(o));
  return design.status();
}

Result<std::vector<Bytes>> previewKeys(const WorkloadOptions& options, size_t count) {
  if (Status s = validateWorkloadOptions(options); !s) return s;
  const WorkloadOptions& o = options;
  const workload::Schedule schedule = workload::Schedule::of(o, o.startMillis.value_or(kDefaultStartMillis));
  Result<std::unique_ptr<workload::KeyDesignModel>> design = workload::makeKeyDesign(o.keys, schedule.plan(o));
  if (!design) return design.status();
  workload::OperationStream stream(o, schedule, std::move(design).value(), "d");
  std::vector<Bytes> keys;
  workload::Action action;
  while (keys.size() < count && stream.next(&action)) {
    for (const Mutation& m : action.puts) keys.push_back(std::get<Put>(m).row);
  }
  if (!stream.status()) return stream.status();
  if (keys.size() > count) keys.resize(count);
  return keys;
}

const std::vector<WorkloadPreset>& workloadPresets() {
  static const std::vector<WorkloadPreset> kInfos = [] {
    std::vector<WorkloadPreset> infos;
    for (const PresetDef& p : presetDefs()) infos.push_back(p.info);
    return infos;
  }();
  return kInfos;
}

Status applyWorkloadPreset(std::string_view name, WorkloadOptions* options) {
  std::string names;
  for (const PresetDef& p : presetDefs()) {
    if (p.info.name == name) {
      p.apply(*options);
      return Status::ok();
    }
    names += (names.empty() ? "" : ", ") + p.info.name;
  }
  return Status::invalidArgument("unknown preset '" + std::string(name) + "' (presets: " + names + ")");
}

}  // namespace keyscope
