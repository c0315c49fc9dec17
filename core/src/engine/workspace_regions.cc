// WorkspaceImpl: simulated servers and the balancer, the split policy, and
// split lineage (DESIGN.md "Regions", HBASE-SEMANTICS.md B7). Splits and
// merges themselves: workspace_split.cc.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include "engine/internal_key.h"
#include "engine/merging_iterator.h"
#include "engine/region_partition.h"
#include "engine/workspace_impl.h"
#include "xxhash.h"

namespace keyscope {

uint64_t regionSplitSize(const TableOptions& options, uint64_t regionsOnServer) {
  const uint64_t initial = 2 * options.memstoreFlushSize;  // hbase.increasing.policy.initial.size's default
  switch (options.splitPolicy) {
    case SplitPolicy::kDisabled: return std::numeric_limits<uint64_t>::max();
    case SplitPolicy::kConstantSize: return options.maxFileSize;
    case SplitPolicy::kStepping: return regionsOnServer == 1 ? std::min(initial, options.maxFileSize) : options.maxFileSize;
    case SplitPolicy::kIncreasingToUpperBound: break;
  }
  // IncreasingToUpperBoundRegionSplitPolicy.getSizeToCheck.
  if (regionsOnServer == 0 || regionsOnServer > 100) return options.maxFileSize;
  const double size = static_cast<double>(initial) * static_cast<double>(regionsOnServer) *
                      static_cast<double>(regionsOnServer) * static_cast<double>(regionsOnServer);
  return size >= static_cast<double>(options.maxFileSize) ? options.maxFileSize : static_cast<uint64_t>(size);
}

const char* regionOriginName(RegionOrigin origin) {
  switch (origin) {
    case RegionOrigin::kPreSplit: return "pre-split";
    case RegionOrigin::kSizeSplit: return "size split";
    case RegionOrigin::kManualSplit: return "manual split";
    case RegionOrigin::kMerge: return "merge";
    case RegionOrigin::kCreate: break;
  }
  return "create";
}

}  // namespace keyscope

namespace keyscope::engine {

namespace {

constexpr int32_t kDefaultServers = 4;
constexpr int32_t kMaxServers = 1000;
// HBase's hbase.regions.slop: servers within 20% of the average count as balanced.
constexpr double kBalancerSlop = 0.2;
// HBase's hbase.balancer.period: the balancer runs on its own at most this
// often. Between runs a split's daughters stay on their parent's server, which
// is how a monotonic key piles its regions, and its load, onto one server.
constexpr int64_t kBalancerPeriodMillis = 5 * 60 * 1000;
}  // namespace

// --- Servers ------------------------------------------------------------------

Status WorkspaceImpl::loadServerSettings() {
  Result<std::optional<std::string>> servers = m_catalog->setting("servers");
  if (!servers) return servers.status();
  int32_t count = kDefaultServers;
  if (servers->has_value()) {
    const std::string& text = **servers;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), count);
    if (ec != std::errc() || end != text.data() + text.size() || count < 1 || count > kMaxServers)
      return Status::corruption(path() + ": setting 'servers' is '" + text + "', not a number from 1 to 1000");
  }
  Result<std::optional<std::string>> balancer = m_catalog->setting("balancer");
  if (!balancer) return balancer.status();
  m_servers.store(count);
  m_balancerOn.store(!balancer->has_value() || **balancer != "off");
  return Status::ok();
}

std::vector<uint32_t> WorkspaceImpl::regionsPerServer() const {
  std::vector<uint32_t> load(static_cast<size_t>(m_servers.load()), 0);
  std::lock_guard lock(m_tablesMutex);
  for (const auto& [id, region] : m_regions) {
    const auto server = static_cast<size_t>(region->server.load());
    if (server < load.size()) ++load[server];
  }
  return load;
}

int32_t WorkspaceImpl::takeLeastLoadedServer(std::vector<uint32_t>* load) {
  const auto least = std::min_element(load->begin(), load->end());
  ++*least;
  return static_cast<int32_t>(least - load->begin());
}

int32_t WorkspaceImpl::serverCount() const { return m_servers.load(); }

bool WorkspaceImpl::balancerEnabled() const { return m_balancerOn.load(); }

Status WorkspaceImpl::setBalancerEnabled(bool enabled) {
  std::lock_guard maintenance(m_maintenance);
  std::lock_guard db(m_db);
  if (Status s = m_catalog->putSetting("balancer", enabled ? "on" : "off"); !s) return s;
  m_balancerOn.store(enabled);
  return Status::ok();
}

Status WorkspaceImpl::setServerCount(int32_t servers) {
  if (servers < 1 || servers > kMaxServers)
    return Status::invalidArgument("the number of region servers must be from 1 to " + std::to_string(kMaxServers) +
                                   ", not " + std::to_string(servers));
  std::lock_guard maintenance(m_maintenance);
  {
    std::lock_guard db(m_db);
    if (Status s = m_catalog->putSetting("servers", std::to_string(servers)); !s) return s;
  }
  m_servers.store(servers);
  // Regions of servers that no longer exist go to the least loaded ones,
  // then the balancer evens the rest out.
  Result<uint32_t> moved = balanceLocked(/*force=*/true);
  return moved.status();
}

Result<uint32_t> WorkspaceImpl::balance() {
  std::lock_guard maintenance(m_maintenance);
  return balanceLocked(/*force=*/false);
}

void WorkspaceImpl::maybeBalanceLocked() {
  if (!m_balancerOn.load()) return;
  const int64_t at = now();
  if (m_lastBalanceMillis && at >= *m_lastBalanceMillis && at - *m_lastBalanceMillis < kBalancerPeriodMillis) return;
  m_lastBalanceMillis = at;
  (void)balanceLocked(/*force=*/false);  // a failure leaves the assignment as it was
}

Result<uint32_t> WorkspaceImpl::balanceLocked(bool force) {
  // HBase's SimpleLoadBalancer over every table: servers above ceil(average)
  // shed regions (the newest first) to servers below floor(average), then
  // the remainder tops servers up to ceil(average). Nothing moves when every
  // server is within the slop of the average, unless forced (a server
  // removed).
  const auto servers = static_cast<size_t>(m_servers.load());
  std::vector<std::vector<std::shared_ptr<Region>>> byServer(servers);
  std::vector<std::shared_ptr<Region>> homeless;
  size_t total = 0;
  {
    std::lock_guard lock(m_tablesMutex);
    for (const auto& [id, region] : m_regions) {
      const auto server = static_cast<size_t>(region->server.load());
      if (server < servers) byServer[server].push_back(region); else homeless.push_back(region);
      ++total;
    }
  }
  if (total == 0) return 0u;
  const double average = static_cast<double>(total) / static_cast<double>(servers);
  const auto floorAvg = static_cast<size_t>(average);
  const size_t ceilAvg = floorAvg + (static_cast<double>(floorAvg) < average ? 1 : 0);
  if (homeless.empty() && !force) {
    const double low = std::floor(average * (1 - kBalancerSlop));
    const double high = std::ceil(average * (1 + kBalancerSlop));
    const bool balanced = std::all_of(byServer.begin(), byServer.end(), [&](const auto& regions) {
      return static_cast<double>(regions.size()) >= low && static_cast<double>(regions.size()) <= high;
    });
    if (balanced) return 0u;
  }
  std::vector<std::shared_ptr<Region>> toMove = homeless;
  for (auto& regions : byServer) {
    std::sort(regions.begin(), regions.end(), [](const auto& a, const auto& b) { return a->id < b->id; });
    while (regions.size() > ceilAvg) {
      toMove.push_back(regions.back());
      regions.pop_back();
    }
  }
  // Servers still above floor(average) give up one region each while some
  // server is below it, so no server ends under floor(average).
  auto below = [&] {
    return std::count_if(byServer.begin(), byServer.end(), [&](const auto& r) { return r.size() < floorAvg; });
  };
  for (auto& regions : byServer) {
    if (static_cast<size_t>(below()) <= toMove.size()) break;
    if (regions.size() > floorAvg) {
      toMove.push_back(regions.back());
      regions.pop_back();
    }
  }
  std::vector<std::pair<std::shared_ptr<Region>, int32_t>> moves;
  for (const auto& region : toMove) {
    size_t target = 0;
    for (size_t s = 1; s < servers; ++s) {
      if (byServer[s].size() < byServer[target].size()) target = s;
    }
    byServer[target].push_back(region);
    if (static_cast<size_t>(region->server.load()) != target) moves.emplace_back(region, static_cast<int32_t>(target));
  }
  if (moves.empty()) return 0u;
  std::lock_guard db(m_db);
  Status status = m_catalog->begin();
  for (const auto& [region, server] : moves) {
    if (status) status = m_catalog->setRegionServer(region->id, server);
  }
  if (status) status = m_catalog->commit();
  if (!status) {
    m_catalog->rollback();
    return status;
  }
  for (const auto& [region, server] : moves) region->server.store(server);
  return static_cast<uint32_t>(moves.size());
}

// --- Split policy -----------------------------------------------------------

uint64_t WorkspaceImpl::splitSizeFor(const Table& table, const Region& region) const {
  uint64_t regionsOnServer = 0;
  for (const auto& r : table.regions) {
    if (r->server.load() == region.server.load()) ++regionsOnServer;
  }
  const uint64_t size = regionSplitSize(table.options, regionsOnServer);
  if (table.options.splitPolicy != SplitPolicy::kConstantSize) return size;
  // ConstantSizeRegionSplitPolicy's jitter of +-12.5%, drawn once per region
  // (here from its id, so a run is reproducible).
  const uint64_t h = XXH3_64bits(&region.id, sizeof(region.id));
  const double jitter = (static_cast<double>(h % 10000) / 10000.0 - 0.5) * 0.25;
  return static_cast<uint64_t>(static_cast<double>(size) * (1.0 + jitter));
}

void WorkspaceImpl::maybeScheduleSplit(const Region& region) {
  auto table = findTable(region.tableName);
  if (table == nullptr || region.retired.load()) return;
  const uint64_t limit = splitSizeFor(*table, region);
  bool over = false;
  for (const auto& [family, store] : region.stores) over = over || store->current()->storedBytes() > limit;
  if (!over) return;
  {
    std::lock_guard lock(m_queueMutex);
    if (!m_splitQueued.insert(region.id).second) return;
  }
  enqueue(TaskKind::kSplit, region.id, false);
}

// --- Lineage ------------------------------------------------------------------

Result<std::vector<RegionHistoryEntry>> WorkspaceImpl::regionHistory(std::string_view tableName) const {
  Result<std::shared_ptr<const Table>> table = requireTable(tableName);
  if (!table) return table.status();
  Result<std::vector<RegionHistoryRecord>> records = [this] {
    std::lock_guard db(m_db);
    return m_catalog->loadRegionHistory();
  }();
  if (!records) return records.status();
  std::vector<RegionHistoryEntry> out;
  for (RegionHistoryRecord& r : records.value()) {
    if (r.tableId != (*table)->id) continue;
    out.push_back({r.regionId, std::move(r.startRow), std::move(r.endRow), r.createdMillis, r.retiredMillis,
                   std::move(r.parents), r.origin, std::move(r.splitRow)});
  }
  return out;
}

Status WorkspaceImpl::checkRegionsPartition(const Table& table) {
  std::vector<RegionBounds> bounds;
  for (const auto& region : table.regions) bounds.push_back({region->id, region->startRow, region->endRow});
  const std::string problem = regionPartitionProblem(bounds);
  if (problem.empty()) return Status::ok();
  return Status::corruption("table '" + table.options.name + "': its regions " + problem);
}

}  // namespace keyscope::engine
