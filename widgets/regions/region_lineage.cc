// Region lineage (see region_lineage.h). Pure function.
#include "regions/region_lineage.h"

#include <algorithm>
#include <map>
#include <set>

namespace keyscope {

RegionLineage regionLineage(const std::vector<RegionHistoryEntry>& history, int64_t regionId) {
  std::map<int64_t, const RegionHistoryEntry*> byId;
  std::multimap<int64_t, int64_t> childrenOf;  // parent -> child
  for (const RegionHistoryEntry& entry : history) {
    byId[entry.regionId] = &entry;
    for (int64_t parent : entry.parents) childrenOf.emplace(parent, entry.regionId);
  }
  RegionLineage lineage;
  if (byId.count(regionId) == 0) return lineage;

  std::set<int64_t> related{regionId};
  std::vector<int64_t> pending{regionId};
  while (!pending.empty()) {  // ancestors
    const int64_t id = pending.back();
    pending.pop_back();
    auto it = byId.find(id);
    if (it == byId.end()) continue;
    for (int64_t parent : it->second->parents)
      if (byId.count(parent) > 0 && related.insert(parent).second) pending.push_back(parent);
  }
  pending.push_back(regionId);
  while (!pending.empty()) {  // descendants
    const int64_t id = pending.back();
    pending.pop_back();
    auto [first, last] = childrenOf.equal_range(id);
    for (auto it = first; it != last; ++it)
      if (related.insert(it->second).second) pending.push_back(it->second);
  }

  std::vector<const RegionHistoryEntry*> ordered;
  for (int64_t id : related) ordered.push_back(byId[id]);
  std::sort(ordered.begin(), ordered.end(), [](const RegionHistoryEntry* a, const RegionHistoryEntry* b) {
    return a->createdMillis != b->createdMillis ? a->createdMillis < b->createdMillis : a->regionId < b->regionId;
  });
  std::map<int64_t, size_t> indexOf;
  for (const RegionHistoryEntry* entry : ordered) {
    indexOf[entry->regionId] = lineage.nodes.size();
    lineage.nodes.push_back(LineageNode{*entry, {}, entry->regionId == regionId});
  }
  for (size_t i = 0; i < lineage.nodes.size(); ++i) {
    bool hasParent = false;
    for (int64_t parent : lineage.nodes[i].entry.parents) {
      auto it = indexOf.find(parent);
      if (it == indexOf.end()) continue;
      lineage.nodes[it->second].children.push_back(i);
      hasParent = true;
    }
    if (!hasParent) lineage.roots.push_back(i);
  }
  return lineage;
}

}  // namespace keyscope
