// runWorkload (keyscope/workload.h): sets up the table, runs the operation
// stream against the workspace with the clock fixed to simulated time, and
// summarises what the engine recorded.
#include <algorithm>
#include <chrono>

#include "keyscope/workload.h"
#include "keyscope/workspace.h"
#include "workload/key_design.h"
#include "workload/operation_stream.h"
#include "workload/workload_summary.h"

namespace keyscope {

namespace {

using workload::Action;

// Returns the workspace to its own clock however the run ends.
class ClockGuard {
 public:
  explicit ClockGuard(Workspace& ws) : m_ws(ws) {}
  ~ClockGuard() { m_ws.setClock(std::nullopt); }
  ClockGuard(const ClockGuard&) = delete;
  ClockGuard& operator=(const ClockGuard&) = delete;

 private:
  Workspace& m_ws;
};

// Splits in a table's history: the parents of split daughters.
std::optional<uint32_t> splitCount(const Workspace& ws, const std::string& table) {
  Result<std::vector<RegionHistoryEntry>> history = ws.regionHistory(table);
  if (!history) return std::nullopt;
  std::vector<int64_t> parents;
  for (const RegionHistoryEntry& e : *history) {
    if ((e.origin == RegionOrigin::kSizeSplit || e.origin == RegionOrigin::kManualSplit) && !e.parents.empty())
      parents.push_back(e.parents.front());
  }
  std::sort(parents.begin(), parents.end());
  return static_cast<uint32_t>(std::unique(parents.begin(), parents.end()) - parents.begin());
}

uint32_t regionCount(const Workspace& ws, const std::string& table) {
  Result<std::vector<RegionInfo>> regions = ws.regions(table);
  return regions ? static_cast<uint32_t>(regions->size()) : 0;
}

// The end of the last statistics column in `window` with any load, found by
// narrowing the window down to one bucket; nullopt when there is none (or
// the statistics cannot be read).
std::optional<int64_t> lastLoadEnd(const Workspace& ws, TimeWindow window) {
  constexpr uint32_t kColumns = 2000;
  while (true) {
    Result<LoadSeries> series = ws.serverLoadSeries(window, kColumns);
    if (!series || series->columns == 0) return std::nullopt;
    std::optional<uint32_t> last;
    for (uint32_t c = 0; c < series->columns; ++c) {
      for (size_t s = 0; s < series->series.size(); ++s) {
        const LoadCounters& v = series->at(s, c);
        if (v.reads > 0 || v.writes > 0) last = c;
      }
    }
    if (!last) return std::nullopt;
    const int64_t from = series->window.fromMillis + series->columnMillis * *last;
    const int64_t to = from + series->columnMillis;
    if (series->columnMillis <= kStatsBucketMillis || (from == window.fromMillis && to == window.toMillis)) return to;
    window = {from, to};
  }
}

// Where a run starts by default: kDefaultStartMillis, so that runs into a
// fresh workspace repeat exactly, unless the workspace recorded load in the
// run's planned seconds (an earlier run, of any table: servers are shared);
// then at the first whole minute after the last load recorded (within two
// centuries of kDefaultStartMillis), so that runs never add to each other's
// buckets. Without statistics to ask: the default, or for a table that
// exists, the workspace's own clock.
int64_t defaultStart(const Workspace& ws, const WorkloadOptions& options, bool tableExists) {
  const int64_t fallback = tableExists ? ws.now() / kStatsBucketMillis * kStatsBucketMillis : kDefaultStartMillis;
  const workload::Schedule schedule = workload::Schedule::of(options, kDefaultStartMillis);
  const int64_t plannedEnd = schedule.operations > 0 ? schedule.timeOf(schedule.operations - 1) : kDefaultStartMillis;
  Result<std::vector<ServerLoad>> planned = ws.serverLoad(TimeWindow{kDefaultStartMillis, plannedEnd + 1});
  if (!planned) return fallback;
  bool busy = false;
  for (const ServerLoad& load : *planned) busy = busy || load.window.reads > 0 || load.window.writes > 0;
  if (!busy) return kDefaultStartMillis;
  constexpr int64_t kTwoCenturies = 200 * 31556952000LL;
  constexpr int64_t kMinute = 60000;
  const std::optional<int64_t> last =
      lastLoadEnd(ws, TimeWindow{kDefaultStartMillis, kDefaultStartMillis + kTwoCenturies});
  if (!last) return fallback;
  return (*last + kMinute - 1) / kMinute * kMinute;
}

Status createTable(Workspace& ws, const WorkloadOptions& options, const workload::KeyDesignModel& design) {
  TableOptions table;
  table.name = options.table;
  FamilyOptions family;
  family.name = "d";
  family.compression = options.newTable.compression;
  table.families.push_back(family);
  table.memstoreFlushSize = options.newTable.memstoreFlushSize;
  table.maxFileSize = options.newTable.maxFileSize;
  table.splitPolicy = options.newTable.splitPolicy;
  table.keySchema = design.schemaText();
  table.description = std::string("Written by the workload simulator: the ") + keyDesignName(options.keys.design) +
                      " key design (" + table.keySchema + "), seed " + std::to_string(options.seed) + ".";
  std::vector<Bytes> splits;
  if (options.newTable.preSplitRegions > 1) {
    Result<std::vector<Bytes>> points = design.splitPoints(options.newTable.preSplitRegions);
    if (!points) return points.status();
    splits = *points;
  }
  if (Status s = ws.createTable(table, splits); !s) {
    if (s.code() != Status::Code::kInvalidArgument) return s;
    return Status::invalidArgument("creating table '" + options.table + "': " + s.message());
  }
  return Status::ok();
}

// Runs one action; counts what the reads found.
Status execute(Workspace& ws, const WorkloadOptions& options, const Action& action, WorkloadSummary* summary) {
  switch (action.kind) {
    case Action::Kind::kPuts: return ws.mutate(options.table, action.puts);
    case Action::Kind::kGet: {
      GetOptions get;
      get.row = action.row;
      Result<GetResult> result = ws.get(options.table, get);
      if (!result) return result.status();
      if (!result->cells.empty()) ++summary->getsFound;
      return Status::ok();
    }
    case Action::Kind::kScan: {
      RowResult row;
      for (const workload::ScanRange& range : action.ranges) {
        ScanOptions scan;
        scan.startRow = range.start;
        scan.stopRow = range.stop;
        scan.limit = options.scanRows;
        Result<std::unique_ptr<Scanner>> scanner = ws.scan(options.table, scan);
        if (!scanner) return scanner.status();
        while ((*scanner)->next(&row)) ++summary->rowsScanned;
        if (Status s = (*scanner)->status(); !s) return s;
      }
      return Status::ok();
    }
  }
  return Status::ok();
}

}  // namespace

Status runWorkload(Workspace& ws, const WorkloadOptions& options, WorkloadSummary* summary) {
  *summary = WorkloadSummary{};
  summary->table = options.table;
  summary->design = keyDesignName(options.keys.design);
  summary->seed = options.seed;
  summary->clients = options.clients;
  if (Status s = validateWorkloadOptions(options); !s) return s;
  const auto wallStart = std::chrono::steady_clock::now();

  const bool exists = ws.tableExists(options.table);
  const int64_t start = options.startMillis ? *options.startMillis : defaultStart(ws, options, exists);
  const workload::Schedule schedule = workload::Schedule::of(options, start);
  Result<std::unique_ptr<workload::KeyDesignModel>> design =
      workload::makeKeyDesign(options.keys, schedule.plan(options));
  if (!design) return design.status();
  summary->keySchema = (*design)->schemaText();
  summary->plannedOperations = schedule.operations;
  summary->rate = schedule.rate;
  summary->startMillis = summary->endMillis = start;

  ClockGuard clockGuard(ws);
  ws.setClock(start);
  if (options.servers) {
    if (Status s = ws.setServerCount(*options.servers); !s) return Status::invalidArgument("servers: " + s.message());
  }
  std::string family = "d";
  if (!exists) {
    if (Status s = createTable(ws, options, **design); !s) return s;
    summary->createdTable = true;
  } else {
    Result<TableOptions> table = ws.describeTable(options.table);
    if (!table) return table.status();
    if (table->families.empty()) return Status::invalidArgument("table '" + options.table + "' has no family");
    if (!table->family("d")) {
      family = table->families.front().name;
      summary->notes.push_back("table '" + options.table + "' has no family 'd'; the puts go to '" + family + "'");
    }
    if (table->keySchema != summary->keySchema)
      summary->notes.push_back("table '" + options.table + "' exists with " +
                               (table->keySchema.empty() ? "no key schema" : "key schema '" + table->keySchema + "'") +
                               "; its keys are written as '" + summary->keySchema + "'");
    if (options.newTable.preSplitRegions > 1)
      summary->notes.push_back("table '" + options.table + "' exists, so it was not pre-split");
  }
  summary->regionsBefore = regionCount(ws, options.table);
  const std::optional<uint32_t> splitsBefore = splitCount(ws, options.table);

  workload::OperationStream stream(options, schedule, std::move(design).value(), family);
  const uint64_t every = options.progressEvery > 0 ? options.progressEvery
                                                   : std::max<uint64_t>(100, schedule.operations / 100);
  uint64_t nextProgress = every;
  std::optional<uint64_t> reported;  // operations at the last report
  auto report = [&] {
    if (!options.progress) return;
    reported = stream.issued();
    WorkloadProgress p;
    p.operations = stream.issued();
    p.plannedOperations = schedule.operations;
    p.puts = stream.puts();
    p.gets = stream.gets();
    p.scans = stream.scans();
    p.nowMillis = stream.lastMillis();
    p.simulatedMillis = stream.lastMillis() - start;
    p.regions = regionCount(ws, options.table);
    const std::optional<uint32_t> splits = splitCount(ws, options.table);
    p.splits = splits && splitsBefore ? *splits - std::min(*splits, *splitsBefore) : 0;
    options.progress(p);
  };

  Status status;
  Action action;
  while (true) {
    if (options.pause != nullptr) options.pause->waitWhilePaused(options.cancel);
    if (options.cancel != nullptr && options.cancel->cancelled() && !summary->cancelled) {
      summary->cancelled = true;
      stream.stop();  // what was collected is still written: the clients had been told it was
    }
    if (!stream.next(&action)) break;
    ws.setClock(action.nowMillis);
    status = execute(ws, options, action, summary);
    if (!status) break;
    if (stream.issued() >= nextProgress) {
      report();
      while (nextProgress <= stream.issued()) nextProgress += every;
    }
  }
  if (status && !stream.status()) status = stream.status();
  if (status) status = ws.waitForBackgroundWork();

  summary->operations = stream.issued();
  summary->puts = stream.puts();
  summary->gets = stream.gets();
  summary->scans = stream.scans();
  summary->endMillis = stream.lastMillis();
  if (reported != stream.issued()) report();
  summary->regionsAfter = regionCount(ws, options.table);
  if (const std::optional<uint32_t> splitsAfter = splitCount(ws, options.table); splitsAfter && splitsBefore)
    summary->splits = *splitsAfter - std::min(*splitsAfter, *splitsBefore);
  if (summary->operations > 0) workload::summarizeLoad(ws, options.table, options.intervals, summary);
  summary->wallSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
  if (!status) return status;
  if (summary->cancelled)
    return Status::cancelled("the workload was cancelled after " + std::to_string(summary->operations) + " of " +
                             std::to_string(summary->plannedOperations) + " operations");
  return Status::ok();
}

}  // namespace keyscope
