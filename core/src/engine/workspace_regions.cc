// WorkspaceImpl: splits, merges, split lineage, simulated servers and the balancer.
#include "engine/workspace_impl.h"

namespace keyscope {

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
Status notYet(const char* what) { return Status::invalidArgument(std::string(what) + " is being built"); }
}  // namespace

Result<std::vector<int64_t>> WorkspaceImpl::split(std::string_view, const std::optional<Bytes>&) { return notYet("split"); }
Result<std::vector<int64_t>> WorkspaceImpl::splitRegion(int64_t, const std::optional<Bytes>&) { return notYet("split"); }
Result<int64_t> WorkspaceImpl::mergeRegions(int64_t, int64_t) { return notYet("merge"); }
Result<std::vector<RegionHistoryEntry>> WorkspaceImpl::regionHistory(std::string_view) const { return notYet("history"); }
int32_t WorkspaceImpl::serverCount() const { return 4; }
Status WorkspaceImpl::setServerCount(int32_t) { return notYet("servers"); }
Result<uint32_t> WorkspaceImpl::balance() { return notYet("balance"); }
bool WorkspaceImpl::balancerEnabled() const { return true; }
Status WorkspaceImpl::setBalancerEnabled(bool) { return notYet("balancer"); }

}  // namespace keyscope::engine
