// WorkspaceImpl: the statistics queries (stats/stats_queries.h) over the
// engine's regions and the workspace's statistics tables.
#include "engine/workspace_impl.h"

namespace keyscope::engine {

namespace {
Status notYet() { return Status::invalidArgument("statistics are being built"); }
}  // namespace

Result<std::vector<RegionLoad>> WorkspaceImpl::regionLoad(std::string_view, const TimeWindow&) const { return notYet(); }
Result<std::vector<ServerLoad>> WorkspaceImpl::serverLoad(const TimeWindow&) const { return notYet(); }
Result<LoadSeries> WorkspaceImpl::serverLoadSeries(const TimeWindow&, uint32_t) const { return notYet(); }
Result<HeatGrid> WorkspaceImpl::heatGrid(std::string_view, const HeatGridRequest&) const { return notYet(); }
Result<KeyHistogram> WorkspaceImpl::keyHistogram(std::string_view, const KeyHistogramRequest&) const { return notYet(); }

}  // namespace keyscope::engine
