// Region actions (see region_actions.h). Worker threads.
#include "regions/region_actions.h"

#include <algorithm>

namespace keyscope {

namespace {

Result<std::vector<RegionInfo>> liveRegions(const Workspace& ws, const std::string& table) {
  Result<std::vector<RegionInfo>> regions = ws.regions(table);
  if (!regions) return regions.status();
  std::vector<RegionInfo> sorted = std::move(regions).value();
  std::sort(sorted.begin(), sorted.end(),
            [](const RegionInfo& a, const RegionInfo& b) { return BytesView(a.startRow) < BytesView(b.startRow); });
  return sorted;
}

Result<RegionInfo> findLive(const Workspace& ws, const std::string& table, int64_t regionId) {
  Result<std::vector<RegionInfo>> regions = liveRegions(ws, table);
  if (!regions) return regions.status();
  for (const RegionInfo& region : *regions)
    if (region.id == regionId) return region;
  return Status::notFound("region " + std::to_string(regionId) + " of table '" + table +
                          "' no longer exists (it was split or merged meanwhile)");
}

}  // namespace

Result<std::vector<int64_t>> splitTableRegion(Workspace& ws, const std::string& table, int64_t regionId,
                                              const std::optional<Bytes>& row) {
  Result<RegionInfo> region = findLive(ws, table, regionId);
  if (!region) return region.status();
  if (row && (BytesView(*row) < BytesView(region->startRow) ||
              (!region->endRow.empty() && BytesView(*row) >= BytesView(region->endRow)))) {
    const std::string from = region->startRow.empty() ? "the start of the table" : "'" + toStringBinary(region->startRow) + "'";
    const std::string to = region->endRow.empty() ? "the end of the table" : "'" + toStringBinary(region->endRow) + "'";
    return Status::invalidArgument("cannot split region " + std::to_string(regionId) + " at '" + toStringBinary(*row) +
                                   "': the row is not inside the region (from " + from + " up to " + to + ")");
  }
  return ws.splitRegion(regionId, row);
}

Result<int64_t> mergeTableRegions(Workspace& ws, const std::string& table, int64_t first, int64_t second) {
  if (first == second) return Status::invalidArgument("a region cannot merge with itself");
  if (Result<RegionInfo> a = findLive(ws, table, first); !a) return a.status();
  if (Result<RegionInfo> b = findLive(ws, table, second); !b) return b.status();
  return ws.mergeRegions(first, second);
}

Result<int64_t> nextRegion(const Workspace& ws, const std::string& table, int64_t regionId) {
  Result<std::vector<RegionInfo>> regions = liveRegions(ws, table);
  if (!regions) return regions.status();
  for (size_t i = 0; i < regions->size(); ++i) {
    if ((*regions)[i].id != regionId) continue;
    if (i + 1 == regions->size())
      return Status::invalidArgument("region " + std::to_string(regionId) +
                                     " is the table's last region: there is no next region to merge it with");
    return (*regions)[i + 1].id;
  }
  return Status::notFound("region " + std::to_string(regionId) + " of table '" + table + "' no longer exists");
}

Result<BalanceOutcome> runBalancer(Workspace& ws) {
  // As the shell's `balancer`: switched off, it does not run.
  if (!ws.balancerEnabled()) return BalanceOutcome{};
  Result<uint32_t> moved = ws.balance();
  if (!moved) return moved.status();
  return BalanceOutcome{true, *moved};
}

}  // namespace keyscope
