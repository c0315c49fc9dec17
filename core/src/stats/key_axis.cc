// KeyAxisLayout (key_axis.h).
#include "stats/key_axis.h"

#include <algorithm>

namespace keyscope::stats {

namespace {

// Axis keys are parts of their rows, so points borrow both from the table's
// keys or the samples: building copies no key but the bucket starts.
struct AxisPoint {
  BytesView key;
  double weight = 1;
  BytesView row;
};

}  // namespace

std::optional<BytesView> KeyAxisLayout::axisKey(BytesView row) const {
  switch (m_mode) {
    case Mode::kRows: return row;
    case Mode::kFolded: return row.substr(std::min(m_foldBytes, row.size()));
    case Mode::kComponent: break;
  }
  const DecodedKey decoded = decodeKey(*m_schema, row);
  if (decoded.values.size() <= m_component) return std::nullopt;
  const auto [begin, end] = decoded.spans[m_component];
  return row.substr(begin, end - begin);
}

Result<KeyAxisLayout> KeyAxisLayout::build(const TableContext& table, const HeatGridRequest& request,
                                           const KeyLabeler& labeler, const std::vector<StoredSample>& samples) {
  KeyAxisLayout layout;
  layout.m_schema = labeler.schema();
  if (request.foldSalt) {
    layout.m_mode = Mode::kFolded;
    layout.m_foldBytes = (*layout.m_schema)[0].fixedSize().value_or(0);
  } else if (request.axis == KeyAxis::kSchemaComponent) {
    layout.m_mode = Mode::kComponent;
    layout.m_component = layout.m_schema->indexOf(request.component).value_or(0);
  }

  // The points whose quantiles make the buckets, sorted by axis key.
  std::vector<AxisPoint> points;
  bool undecodable = false;
  auto add = [&](BytesView row, double weight) {
    const std::optional<BytesView> key = layout.axisKey(row);
    if (!key) {
      undecodable = true;
      return;
    }
    points.push_back({*key, weight, row});
  };
  points.reserve(layout.m_mode == Mode::kComponent ? table.keys.size() + samples.size() : table.keys.size());
  if (layout.m_mode == Mode::kComponent) {
    // Every value seen counts once: the buckets hold equally many values.
    for (const KeySample& k : table.keys) add(k.row, 1);
    for (const StoredSample& s : samples) add(s.sample.row, 1);
    std::stable_sort(points.begin(), points.end(), [](const AxisPoint& a, const AxisPoint& b) { return a.key < b.key; });
    points.erase(std::unique(points.begin(), points.end(),
                             [](const AxisPoint& a, const AxisPoint& b) { return a.key == b.key; }),
                 points.end());
  } else if (!table.keys.empty()) {
    for (const KeySample& k : table.keys) add(k.row, static_cast<double>(std::max<uint64_t>(k.cells, 1)));
    if (layout.m_mode == Mode::kFolded)
      std::stable_sort(points.begin(), points.end(), [](const AxisPoint& a, const AxisPoint& b) { return a.key < b.key; });
  } else {
    for (const StoredSample& s : samples) add(s.sample.row, 1);
    std::stable_sort(points.begin(), points.end(), [](const AxisPoint& a, const AxisPoint& b) { return a.key < b.key; });
  }

  // Bucket b starts at the first point whose preceding weight reaches b / B of the total.
  double total = 0;
  for (const AxisPoint& p : points) total += p.weight;
  layout.m_starts.push_back(Bytes());
  std::vector<size_t> firstPoint{0};
  size_t j = 0;
  double before = 0;
  for (uint32_t b = 1; b < request.keyBuckets && !points.empty(); ++b) {
    const double target = total * b / request.keyBuckets;
    while (j < points.size() && before < target) before += points[j++].weight;
    if (j >= points.size()) break;
    if (points[j].key > BytesView(layout.m_starts.back())) {
      layout.m_starts.push_back(Bytes(points[j].key));
      firstPoint.push_back(j);
    }
  }

  const size_t n = layout.m_starts.size();
  for (size_t b = 0; b < n; ++b) {
    HeatGridBucket bucket;
    bucket.startRow = layout.m_starts[b];
    if (b + 1 < n) bucket.endRow = layout.m_starts[b + 1];
    if (points.empty()) {
      bucket.label = "(whole table)";
      layout.m_buckets.push_back(std::move(bucket));
      continue;
    }
    const AxisPoint& first = points[firstPoint[b]];
    switch (layout.m_mode) {
      case Mode::kRows: bucket.label = labeler.row(first.row); break;
      case Mode::kFolded:
        bucket.label = labeler.row(first.row, 1);
        bucket.keyRange = false;
        break;
      case Mode::kComponent: {
        const size_t i = layout.m_component;
        const KeySchema& schema = *layout.m_schema;
        const AxisPoint& last = points[(b + 1 < n ? firstPoint[b + 1] : points.size()) - 1];
        const DecodedKey a = decodeKey(schema, first.row);
        bucket.label = schema[i].name + "=" + labeler.value(i, a.values[i]);
        if (&last != &first) {
          const DecodedKey z = decodeKey(schema, last.row);
          bucket.label += " \u2026 " + labeler.value(i, z.values[i]);
        }
        bucket.keyRange = i == 0;
        break;
      }
    }
    layout.m_buckets.push_back(std::move(bucket));
  }
  if (undecodable) {
    layout.m_undecodable = layout.m_buckets.size();
    HeatGridBucket bucket;
    bucket.label = "(rows without a decodable '" + request.component + "')";
    bucket.keyRange = false;
    layout.m_buckets.push_back(std::move(bucket));
  }
  return layout;
}

size_t KeyAxisLayout::bucketOf(BytesView row) const {
  const std::optional<BytesView> key = axisKey(row);
  if (!key) return m_undecodable.value_or(0);
  const auto it = std::upper_bound(m_starts.begin(), m_starts.end(), *key,
                                   [](BytesView k, const Bytes& start) { return k < BytesView(start); });
  return static_cast<size_t>(it - m_starts.begin()) - 1;
}

void KeyAxisLayout::bucketsOfRegion(const TableContext& table, BytesView startRow, BytesView endRow,
                                    std::vector<size_t>* out) const {
  out->clear();
  if (m_mode == Mode::kRows) {
    const size_t first = bucketOf(startRow);
    size_t last = m_starts.size() - 1;
    if (!endRow.empty()) {
      const auto it = std::lower_bound(m_starts.begin(), m_starts.end(), endRow,
                                       [](const Bytes& start, BytesView k) { return BytesView(start) < k; });
      last = std::max(first, static_cast<size_t>(it - m_starts.begin()) - 1);
    }
    for (size_t b = first; b <= last; ++b) out->push_back(b);
    return;
  }
  auto rowLess = [](const KeySample& k, BytesView row) { return BytesView(k.row) < row; };
  const auto lo = std::lower_bound(table.keys.begin(), table.keys.end(), startRow, rowLess);
  const auto hi = endRow.empty() ? table.keys.end() : std::lower_bound(lo, table.keys.end(), endRow, rowLess);
  std::vector<bool> seen(m_buckets.size(), false);
  const auto count = static_cast<size_t>(hi - lo);
  const size_t step = std::max<size_t>(1, count / kRegionProbes);
  for (size_t k = 0; k < count; k += step) seen[bucketOf(lo[static_cast<ptrdiff_t>(k)].row)] = true;
  if (count == 0 && !startRow.empty()) seen[bucketOf(startRow)] = true;
  for (size_t b = 0; b < seen.size(); ++b)
    if (seen[b]) out->push_back(b);
  if (out->empty())
    for (size_t b = 0; b < m_buckets.size(); ++b) out->push_back(b);
}

}  // namespace keyscope::stats
