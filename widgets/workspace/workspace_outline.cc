// loadOutline (see workspace_outline.h). Any thread; no Qt.
#include "workspace/workspace_outline.h"

#include <algorithm>

namespace keyscope {

Result<WorkspaceOutline> loadOutline(const Workspace& ws, const CancelToken& cancel) {
  WorkspaceOutline outline;
  outline.servers = ws.serverCount();
  std::vector<std::string> names = ws.listTables();
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    if (cancel.cancelled()) return Status::cancelled("outline cancelled");
    TableOutline table;
    table.options.name = name;
    Result<TableOptions> options = ws.describeTable(name);
    Result<std::vector<RegionInfo>> regions = ws.regions(name);
    if (!options) {
      table.error = options.status().toString();
    } else if (!regions) {
      table.options = std::move(options).value();
      table.error = regions.status().toString();
    } else {
      table.options = std::move(options).value();
      table.regions = std::move(regions).value();
      std::sort(table.regions.begin(), table.regions.end(),
                [](const RegionInfo& a, const RegionInfo& b) { return a.startRow < b.startRow; });
    }
    outline.tables.push_back(std::move(table));
  }
  return outline;
}

}  // namespace keyscope
