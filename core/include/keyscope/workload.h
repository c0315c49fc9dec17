// The workload simulator (DESIGN.md "Workload lab", docs/WORKLOAD.md): runs
// a key design into a table through the real engine, so that a hotspot shows
// up in the regions, servers and statistics before it reaches a cluster.
//
// A run is a deterministic sequence of operations. Logical clients take turns
// in a fixed order (client 0, 1, ..., C-1, 0, ...); each has its own random
// source seeded from the run's seed; operation k happens at simulated time
// start + k x 1000 / rate milliseconds. The simulator fixes the workspace
// clock (Workspace::setClock) to that time before every write and read, so
// the cells' timestamps and the statistics' 1-second buckets are the same on
// every run of the same options into the same fresh table, and returns the
// clock to the workspace's own (setClock(nullopt)) when the run ends, however
// it ends. The engine does the rest: regions, splits, servers, statistics.
//
// Threads: runWorkload runs on its caller's thread (the GUI's workload lab
// calls it off the GUI thread) and uses the workspace as any client does.
// Other threads may read the workspace meanwhile, but must not set its clock
// while a run owns it, and their reads are charged to the simulated time.
// progress is called on the running thread; cancel and pause may be used
// from any thread. Everything else here is a pure function; thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "keyscope/bytes.h"
#include "keyscope/cancel_token.h"
#include "keyscope/options.h"
#include "keyscope/pause_token.h"
#include "keyscope/statistics.h"
#include "keyscope/status.h"

namespace keyscope {

class Workspace;

// --- Key designs ----------------------------------------------------------------

// The row keys a run writes. Every design states its keys as a key schema
// (keyDesignSchema), encodes them with it, and attaches it to a table it
// creates, so the GUI and the heatmap decode (and fold the salt of) exactly
// the keys written. Schemas with the default options:
enum class KeyDesign : uint8_t {
  kMonotonic,     // ts:i64 | event:u64 - the simulated time leads: every write goes to the end
  kSequence,      // seq:u64 - an auto-increment id leads: the same, with dense keys
  kSalted,        // salt:salt(8, ts) | ts:i64 | event:u64 - one byte, md5(ts) mod N, in front
  kFieldSwapped,  // metric:utf8 | ts:i64 | event:u64 - OpenTSDB: the metric before the time
  kHashed,        // hash:md5(4, entity) | entity:utf8 | ts:i64 | event:u64 - md5 of the entity in front
  kUniform,       // key:u64 - uniformly random keys
  kZipf,          // entity:utf8 | ts:i64 | event:u64 - entities drawn Zipf-skewed
  kLockstep,      // row:u64 | client:u16 - sorted input: client c's n-th write is row n
  kSchema,        // any key schema, each component from a generator (KeyDesignOptions)
};
const char* keyDesignName(KeyDesign design);  // "monotonic", "sequence", "salted", "field-swapped", ...
// The names above, plus "fieldswap", "opentsdb", "lock-step", "random", "custom".
std::optional<KeyDesign> parseKeyDesign(std::string_view name);
// Every design, in the order above.
const std::vector<KeyDesign>& keyDesigns();

// What the salt of kSalted hashes (md5, as the salt component does).
enum class SaltSource : uint8_t {
  kTimestamp,  // salt:salt(N, ts) | ts:i64 | event:u64 - one time range is N scans
  kEntity,     // salt:salt(N, entity) | ts:i64 | entity:utf8 | event:u64 - an entity stays in one bucket
};
// How the salt is written.
enum class SaltFormat : uint8_t {
  kByte,  // one byte 0..N-1 (a salt component: the heatmap can fold it)
  kHex,   // two lowercase hex digits "00".."ff", as bytes(2) (readable in a shell)
};

struct KeyDesignOptions {
  KeyDesign design = KeyDesign::kMonotonic;
  uint32_t saltBuckets = 8;  // kSalted: 1 ... 256
  SaltSource saltSource = SaltSource::kTimestamp;
  SaltFormat saltFormat = SaltFormat::kByte;
  // Users (kSalted by entity, kHashed, kZipf) or metrics (kFieldSwapped),
  // named "user0042" / "metric0007" with at least 4 digits; 1 ... 10,000,000.
  uint64_t entities = 10000;
  // kZipf: P(rank r) ~ 1 / (r + 1)^s. 1.1 gives the most popular of 10,000
  // users 15% of the traffic (a "celebrity" row). 0 < s <= 10.
  double zipfExponent = 1.1;
  // kSchema: the key schema (docs/KEY-SCHEMAS.md) and a value generator per
  // component, as "NAME=SPEC" (docs/WORKLOAD.md "Generators"): now, seq,
  // client, step, uniform(LO, HI), zipf(N[, S]), random, choice(A, B, ...).
  // A component without one gets a default by its type; derived components
  // (salt, md5 of fields) are computed.
  std::string keySchema;
  std::vector<std::pair<std::string, std::string>> generators;
};

// The key schema text of the design's keys: "salt:salt(8, ts) | ts:i64 | event:u64".
// InvalidArgument names the option at fault (a bad bucket count, a malformed
// schema or generator).
Result<std::string> keyDesignSchema(const KeyDesignOptions& options);

// --- Runs -----------------------------------------------------------------------

// Shares of the operation kinds; any non-negative weights, not all zero.
struct OperationMix {
  double put = 1;
  double get = 0;
  double scan = 0;
};
// "put=90,get=8,scan=2" or "put=0.9,get=0.1" (kinds left out weigh 0).
// InvalidArgument says which item is wrong.
Result<OperationMix> parseOperationMix(std::string_view text);
std::string operationMixText(const OperationMix& mix);  // "put=90%,get=8%,scan=2%"

// How a table the run creates is made. Small flush and split sizes so that a
// run of a few seconds on a laptop splits several times (a run of 100,000
// puts of 100-byte values writes about 16 MiB): 1 MiB memstores flush often,
// and a region splits at 4 MiB stored, under the constant-size policy so
// every region splits at the same size and the story is simple to tell
// (HBase's defaults, 128 MiB and 10 GiB, would take gigabytes to show one).
struct NewTableOptions {
  uint64_t memstoreFlushSize = 1ull << 20;
  uint64_t maxFileSize = 4ull << 20;
  SplitPolicy splitPolicy = SplitPolicy::kConstantSize;
  // Regions made at create, cut where the design's keys would divide evenly
  // (the salt buckets, the metrics, the planned time range, ...); 1: none.
  uint32_t preSplitRegions = 1;
  // COMPRESSION NONE: a region's stored size is then its raw size, so the
  // split size means what it says whatever the values look like.
  Compression compression = Compression::kNone;
};

// A run's progress: after every progressEvery operations, and once at the end.
struct WorkloadProgress {
  uint64_t operations = 0;         // issued so far (puts count when generated)
  uint64_t plannedOperations = 0;
  uint64_t puts = 0;
  uint64_t gets = 0;
  uint64_t scans = 0;
  int64_t nowMillis = 0;           // the simulated clock
  int64_t simulatedMillis = 0;     // since the run's start
  uint32_t regions = 0;            // the table's live regions
  uint32_t splits = 0;             // splits of the table since the run began (0 while unknown)
};

struct WorkloadOptions {
  std::string table;
  KeyDesignOptions keys;
  uint32_t clients = 8;            // 1 ... 10,000
  OperationMix mix;
  // Operations per second of simulated time, over all clients (0.001 ...
  // 10,000,000). nullopt: as fast as possible; the clock then advances at
  // kNominalRate, so that the statistics still get their 1-second buckets.
  std::optional<double> rate;
  // When the run stops: after this many operations, or this much simulated
  // time, whichever comes first. Neither: kDefaultOperations.
  std::optional<uint64_t> operations;
  std::optional<int64_t> durationMillis;
  uint32_t batchSize = 10;         // puts a client collects per atomic write; 1 ... 100,000
  uint64_t seed = 1;
  // Simulated time of the first operation. nullopt: kDefaultStartMillis,
  // unless the workspace recorded load in the run's planned seconds (an
  // earlier run: servers serve every table, so the summary would count it);
  // then the first whole minute after the last load recorded.
  std::optional<int64_t> startMillis;
  uint32_t valueBytes = 100;       // each put writes one cell d:v of this many bytes
  uint32_t scanRows = 20;          // rows a scan reads (per range: a salted scan reads one per bucket)
  // Summary intervals: the run's simulated time cut into this many equal
  // whole-second intervals (fewer when the run is shorter); 1 ... 1000.
  uint32_t intervals = 10;
  // Simulated region servers (Workspace::setServerCount) set before the run; nullopt: as they are.
  std::optional<int32_t> servers;
  NewTableOptions newTable;        // used only when the table does not exist
  uint64_t progressEvery = 0;      // 0: 1% of the planned operations (at least 100)
  std::function<void(const WorkloadProgress&)> progress;
  const CancelToken* cancel = nullptr;  // checked between writes and reads
  PauseToken* pause = nullptr;          // waited on between writes and reads
};

// 2024-01-01T00:00:00Z: a fixed start, so that runs into fresh tables repeat exactly.
constexpr int64_t kDefaultStartMillis = 1704067200000;
// Without a rate the clock advances 1 ms per operation: 1,000 operations
// fill one statistics bucket, and the default run spans 100 buckets.
constexpr double kNominalRate = 1000;
constexpr uint64_t kDefaultOperations = 100000;

// InvalidArgument naming the option at fault (zero clients, a negative rate,
// an unknown preset's leftovers, ...). runWorkload checks it first.
Status validateWorkloadOptions(const WorkloadOptions& options);

// The load of one summary interval, from the engine's statistics.
struct IntervalLoad {
  TimeWindow window;
  uint64_t writes = 0;               // over all servers
  uint64_t reads = 0;
  int32_t hottestServer = -1;        // by `metric` of the summary; -1: no load
  double hottestServerShare = 0;     // 0 ... 1
  int64_t hottestRegion = -1;        // region id; -1: no load
  Bytes hottestRegionStart;          // its start row (empty: the table's start)
  std::string hottestRegionLabel;    // "region 12: [1250, 0]": the start row decoded by the key schema
  double hottestRegionShare = 0;
};

struct ServerTotals {
  int32_t server = 0;
  uint64_t writes = 0;
  uint64_t reads = 0;
};

struct WorkloadSummary {
  std::string table;
  std::string design;                // keyDesignName
  std::string keySchema;             // the design's schema text
  uint64_t seed = 0;
  uint32_t clients = 0;
  bool createdTable = false;
  bool cancelled = false;
  uint64_t plannedOperations = 0;
  uint64_t operations = 0;           // issued
  uint64_t puts = 0;
  uint64_t gets = 0;
  uint64_t scans = 0;                // scan operations (a salted scan reads several ranges)
  uint64_t getsFound = 0;            // gets that found their row
  uint64_t rowsScanned = 0;
  int64_t startMillis = 0;           // simulated time of the first and last operation
  int64_t endMillis = 0;
  double rate = 0;                   // operations per simulated second used for the clock
  double wallSeconds = 0;
  uint32_t regionsBefore = 0;
  uint32_t regionsAfter = 0;
  uint32_t splits = 0;               // splits of the table during the run
  // From the engine's statistics over `window` (the run's seconds): what
  // each server did, and per interval the hottest server and region by
  // `metric` (writes when the run put anything, else reads).
  TimeWindow window;
  LoadMetric metric = LoadMetric::kWrites;
  std::vector<ServerTotals> servers;
  std::vector<IntervalLoad> intervals;
  // "hottest server took 97% of writes in 9 of 10 intervals: a write hotspot".
  std::string verdict;
  // Set when the statistics could not be read (the run itself went through);
  // the per-server and per-interval figures are then empty.
  std::string statisticsError;
  std::vector<std::string> notes;    // things worth telling the user
};

// Runs the workload into options.table, creating it (with the design's key
// schema, family "d", options.newTable) when missing; an existing table is
// written as it is (its first family when it has no "d"). Sets the server
// count first when options.servers is given.
//
// Returns OK; InvalidArgument for bad options (nothing written); Cancelled
// when options.cancel fired (the writes made so far stay, puts collected
// but not yet written are written first); or the engine's error that stopped
// the run. `summary` is filled in either way, as far as the run got; a
// failed statistics query is not an error of the run (summary->statisticsError).
Status runWorkload(Workspace& ws, const WorkloadOptions& options, WorkloadSummary* summary);

// The row keys the first `count` puts of a run with these options write, in
// the order they are written (batch by batch), without running it: the
// design's golden examples, the lab's preview. Reads need no workspace to
// choose their rows, so these are exactly the run's keys.
Result<std::vector<Bytes>> previewKeys(const WorkloadOptions& options, size_t count);

// --- Presets ------------------------------------------------------------------

struct WorkloadPreset {
  std::string name;         // "lockstep"
  std::string description;  // one line: what it shows
};
// lockstep, monotonic, salted, field-swapped, hashed, zipf, uniform.
const std::vector<WorkloadPreset>& workloadPresets();
// Sets the design and the options the preset fixes (mix, clients, rate,
// operations, batch size, pre-split regions); leaves table, seed, servers and
// the callbacks alone. InvalidArgument lists the presets for an unknown name.
Status applyWorkloadPreset(std::string_view name, WorkloadOptions* options);

}  // namespace keyscope
