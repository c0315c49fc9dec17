// computeKeyHistogram (stats_queries.h): stored data by key prefix or by a
// key-schema component, from the engine's key sample (each store-file
// block's last row standing for the block, each memstore row for itself).
#include <algorithm>
#include <map>

#include "stats/stats_labels.h"
#include "stats/stats_queries.h"

namespace keyscope::stats {

namespace {

constexpr uint32_t kMaxPrefixLength = 4096;

Status invalid(const std::string& message) { return Status::invalidArgument("key histogram: " + message); }

struct Group {
  std::string label;
  uint64_t cells = 0;
  uint64_t bytes = 0;
};

// Linear interpolation between the closest ranks, over values sorted ascending.
double percentile(const std::vector<uint64_t>& sorted, double p) {
  if (sorted.empty()) return 0;
  const double at = p * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<size_t>(at);
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  const double f = at - static_cast<double>(lo);
  return static_cast<double>(sorted[lo]) * (1 - f) + static_cast<double>(sorted[hi]) * f;
}

}  // namespace

Result<KeyHistogram> computeKeyHistogram(const TableContext& table, const KeyHistogramRequest& request) {
  if (request.maxBuckets < 1) return invalid("maxBuckets must be at least 1");
  std::optional<KeyLabeler> labeler;
  std::optional<size_t> component;
  if (!request.component.empty()) {
    Result<std::optional<KeySchema>> schema = parseTableSchema(table.keySchema);
    if (!schema) return invalid(schema.status().message());
    if (!*schema) return invalid("grouping by component '" + request.component + "' needs a key schema; the table has none");
    component = (*schema)->indexOf(request.component);
    if (!component) {
      std::string names;
      for (const KeyComponent& c : (*schema)->components()) names += (names.empty() ? "" : ", ") + c.name;
      return invalid("unknown key-schema component '" + request.component + "' (the table's are " + names + ")");
    }
    labeler.emplace(std::move(schema).value());
  } else if (request.prefixLength < 1 || request.prefixLength > kMaxPrefixLength) {
    return invalid("prefixLength must be 1 ... " + std::to_string(kMaxPrefixLength) + ", not " +
                   std::to_string(request.prefixLength));
  }

  // Groups by their key bytes (prefix, or the component's encoded value: its
  // value order); rows whose component does not decode gather after them.
  std::map<Bytes, Group> groups;
  Group undecodable{"(does not decode)"};
  bool anyUndecodable = false;
  for (const KeySample& k : table.keys) {
    if (!component) {
      const BytesView prefix = BytesView(k.row).substr(0, request.prefixLength);
      auto [it, inserted] = groups.try_emplace(Bytes(prefix));
      if (inserted) it->second.label = toStringBinary(prefix);
      it->second.cells += k.cells;
      it->second.bytes += k.bytes;
      continue;
    }
    const DecodedKey decoded = decodeKey(*labeler->schema(), k.row);
    if (decoded.values.size() <= *component) {
      anyUndecodable = true;
      undecodable.cells += k.cells;
      undecodable.bytes += k.bytes;
      continue;
    }
    const auto [begin, end] = decoded.spans[*component];
    auto [it, inserted] = groups.try_emplace(Bytes(BytesView(k.row).substr(begin, end - begin)));
    if (inserted) it->second.label = labeler->value(*component, decoded.values[*component]);
    it->second.cells += k.cells;
    it->second.bytes += k.bytes;
  }

  KeyHistogram out;
  out.sampled = true;
  std::vector<std::pair<Bytes, Group>> all(std::make_move_iterator(groups.begin()), std::make_move_iterator(groups.end()));
  if (anyUndecodable) all.emplace_back(Bytes(), std::move(undecodable));
  std::vector<uint64_t> sizes;
  sizes.reserve(all.size());
  for (const auto& [key, g] : all) {
    out.totalCells += g.cells;
    out.totalBytes += g.bytes;
    sizes.push_back(g.cells);
  }
  std::sort(sizes.begin(), sizes.end());
  if (out.totalCells > 0 && !sizes.empty())
    out.largestShare = static_cast<double>(sizes.back()) / static_cast<double>(out.totalCells);
  out.quartiles[0] = percentile(sizes, 0.25);
  out.quartiles[1] = percentile(sizes, 0.5);
  out.quartiles[2] = percentile(sizes, 0.75);

  // Keep the maxBuckets - 1 largest groups (ties: the first in key order); the rest become "other".
  std::vector<size_t> keep(all.size());
  for (size_t i = 0; i < keep.size(); ++i) keep[i] = i;
  if (all.size() > request.maxBuckets) {
    std::stable_sort(keep.begin(), keep.end(), [&](size_t a, size_t b) { return all[a].second.cells > all[b].second.cells; });
    keep.resize(request.maxBuckets - 1);
    std::sort(keep.begin(), keep.end());
  }
  KeyHistogramBucket other;
  size_t merged = all.size() - keep.size();
  {
    size_t k = 0;
    for (size_t i = 0; i < all.size(); ++i) {
      if (k < keep.size() && keep[k] == i) {
        ++k;
        out.buckets.push_back({all[i].first, all[i].second.label, all[i].second.cells, all[i].second.bytes});
      } else {
        other.cells += all[i].second.cells;
        other.bytes += all[i].second.bytes;
      }
    }
  }
  if (merged > 0) {
    other.label = "other (" + std::to_string(merged) + " groups)";
    out.buckets.push_back(std::move(other));
  }
  return out;
}

}  // namespace keyscope::stats
