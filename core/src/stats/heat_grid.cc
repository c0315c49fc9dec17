// queryHeatGrid (stats_queries.h): the load of a table's key buckets per time
// column.
//
// Exact counters come from region_stats, one row per region, bucket and
// server in the window; the key samples of the window (at most
// kReservoirCapacity per bucket) place each region's load finer than the
// region. The counters of a region in a second are shared among that
// second's samples of the region by their estimated load (each sample's
// weight, cells or bytes over the probability it was kept), so the grid's
// totals per region and second are the exact counters. Load with no
// samples is spread evenly over the buckets the region covers.
#include <algorithm>
#include <unordered_map>

#include "stats/key_axis.h"
#include "stats/stats_labels.h"
#include "stats/stats_queries.h"
#include "stats/stats_store.h"
#include "stats/stats_time.h"

namespace keyscope::stats {

namespace {

constexpr uint32_t kMaxTimeColumns = 2000;
constexpr uint32_t kMaxKeyBuckets = 5000;

Status invalid(const std::string& message) { return Status::invalidArgument("heat grid: " + message); }

std::string componentList(const KeySchema& schema) {
  std::string out;
  for (const KeyComponent& c : schema.components()) out += (out.empty() ? "" : ", ") + c.name;
  return out;
}

Status checkRequest(const HeatGridRequest& r, const std::optional<KeySchema>& schema) {
  if (Status s = checkFiniteWindow(r.window, "heat grid"); !s) return s;
  if (r.timeColumns < 1 || r.timeColumns > kMaxTimeColumns)
    return invalid("timeColumns must be 1 ... " + std::to_string(kMaxTimeColumns) + ", not " +
                   std::to_string(r.timeColumns));
  if (r.axis != KeyAxis::kRegions && (r.keyBuckets < 1 || r.keyBuckets > kMaxKeyBuckets))
    return invalid("keyBuckets must be 1 ... " + std::to_string(kMaxKeyBuckets) + ", not " +
                   std::to_string(r.keyBuckets));
  if (static_cast<uint8_t>(r.metric) > static_cast<uint8_t>(LoadMetric::kBytesWritten))
    return invalid("unknown metric " + std::to_string(static_cast<int>(r.metric)));
  switch (r.axis) {
    case KeyAxis::kRegions:
      if (r.foldSalt) return invalid("foldSalt needs a key axis by key counts or by schema component, not by region");
      return Status::ok();
    case KeyAxis::kEqualKeyCounts:
    case KeyAxis::kSchemaComponent: break;
    default: return invalid("unknown key axis " + std::to_string(static_cast<int>(r.axis)));
  }
  if (r.foldSalt) {
    if (!schema) return invalid("foldSalt needs a key schema; the table has none");
    const KeyComponent& lead = (*schema)[0];
    if ((lead.type != ComponentType::kSalt && lead.type != ComponentType::kMd5) || schema->size() < 2)
      return invalid("foldSalt needs a key schema that starts with a salt or md5 component and has more after it;"
                     " the table's starts with '" + lead.name + "' (" + lead.typeText() + ")");
    return Status::ok();
  }
  if (r.axis == KeyAxis::kSchemaComponent) {
    if (!schema) return invalid("a key axis by schema component needs a key schema; the table has none");
    if (r.component.empty())
      return invalid("name the key-schema component to group by (one of " + componentList(*schema) + ")");
    if (!schema->indexOf(r.component))
      return invalid("unknown key-schema component '" + r.component + "' (the table's are " + componentList(*schema) +
                     ")");
  }
  return Status::ok();
}

// The metric as carried by reads and by writes: one of them is zero unless
// the metric is kOperations.
struct Sides {
  double reads = 0;
  double writes = 0;
};

Sides sides(const LoadCounters& c, LoadMetric m) {
  switch (m) {
    case LoadMetric::kReads: return {static_cast<double>(c.reads), 0};
    case LoadMetric::kWrites: return {0, static_cast<double>(c.writes)};
    case LoadMetric::kCellsRead: return {static_cast<double>(c.cellsRead), 0};
    case LoadMetric::kCellsWritten: return {0, static_cast<double>(c.cellsWritten)};
    case LoadMetric::kBytesRead: return {static_cast<double>(c.bytesRead), 0};
    case LoadMetric::kBytesWritten: return {0, static_cast<double>(c.bytesWritten)};
    case LoadMetric::kOperations: break;
  }
  return {static_cast<double>(c.reads), static_cast<double>(c.writes)};
}

// What a sample carries of the metric (before weighing by its probability).
double carried(const OperationSample& s, LoadMetric m) {
  switch (m) {
    case LoadMetric::kCellsRead:
    case LoadMetric::kCellsWritten: return s.cells;
    case LoadMetric::kBytesRead:
    case LoadMetric::kBytesWritten: return s.bytes;
    default: return s.weight;
  }
}

// A region's load in one bucket, summed over servers.
struct RegionBucket {
  int64_t regionId = 0;
  int64_t bucket = 0;
  LoadCounters counters;
};

bool livesIn(const RegionSpan& r, int64_t from, int64_t to) {
  return r.createdMillis < to && (!r.retiredMillis || *r.retiredMillis > from);
}

// Splits and merges inside the window, found from the history alone: a split
// daughter or merged region is created when its parents retire.
std::vector<HeatGridBoundary> boundariesIn(const TableContext& table, const TimeWindow& window) {
  std::vector<HeatGridBoundary> out;
  for (const RegionSpan& r : table.history) {
    if (r.createdMillis < window.fromMillis || r.createdMillis >= window.toMillis) continue;
    for (const RegionSpan& p : table.history) {
      if (!p.retiredMillis || *p.retiredMillis != r.createdMillis || p.regionId == r.regionId) continue;
      if (r.merged) {
        // The lower parent's end is the boundary that vanished.
        if (p.startRow == r.startRow && !p.endRow.empty() && (r.endRow.empty() || p.endRow < r.endRow))
          out.push_back({r.createdMillis, p.endRow, HeatGridBoundary::Kind::kMerge});
      } else if (p.startRow < r.startRow && (p.endRow.empty() || r.startRow < p.endRow)) {
        // The upper daughter starts at the split row.
        out.push_back({r.createdMillis, r.startRow, HeatGridBoundary::Kind::kSplit});
      }
    }
  }
  std::sort(out.begin(), out.end(), [](const HeatGridBoundary& a, const HeatGridBoundary& b) {
    return a.atMillis != b.atMillis ? a.atMillis < b.atMillis : a.row < b.row;
  });
  out.erase(std::unique(out.begin(), out.end(),
                        [](const HeatGridBoundary& a, const HeatGridBoundary& b) {
                          return a.atMillis == b.atMillis && a.row == b.row && a.kind == b.kind;
                        }),
            out.end());
  return out;
}

class GridFill {
 public:
  GridFill(HeatGrid* grid, const TimeColumns& columns) : m_grid(grid), m_columns(columns) {}

  // Adds `value` to key bucket `row`, spread over the columns of stats bucket `bucket`.
  void add(size_t row, int64_t bucket, double value) {
    if (value == 0) return;
    if (bucket != m_spreadBucket) {
      m_spread.clear();
      m_columns.spread(bucket, [&](uint32_t column, double share) { m_spread.emplace_back(column, share); });
      m_spreadBucket = bucket;
    }
    double* line = &m_grid->values[row * m_grid->columns];
    for (const auto& [column, share] : m_spread) line[column] += value * share;
  }

 private:
  HeatGrid* m_grid;
  const TimeColumns& m_columns;
  int64_t m_spreadBucket = std::numeric_limits<int64_t>::min();
  std::vector<std::pair<uint32_t, double>> m_spread;
};

// Places one region-bucket's load by its samples [first, last).
void placeBySamples(const RegionBucket& rb, const std::vector<StoredSample>& samples, size_t first, size_t last,
                    const std::vector<size_t>& sampleBuckets, double threshold, const HeatGridRequest& request,
                    const KeyAxisLayout& layout, const TableContext& table, const RegionSpan* span,
                    GridFill& fill, std::vector<size_t>& scratch) {
  const Sides load = sides(rb.counters, request.metric);
  for (const bool write : {false, true}) {
    const double value = write ? load.writes : load.reads;
    if (value == 0) continue;
    double estimated = 0;
    for (size_t i = first; i < last; ++i) {
      const OperationSample& s = samples[i].sample;
      if (s.write == write) estimated += carried(s, request.metric) / keptProbability(s.weight, threshold);
    }
    if (estimated > 0) {
      for (size_t i = first; i < last; ++i) {
        const OperationSample& s = samples[i].sample;
        if (s.write != write) continue;
        const double share = carried(s, request.metric) / keptProbability(s.weight, threshold) / estimated;
        fill.add(sampleBuckets[i], rb.bucket, value * share);
      }
      continue;
    }
    if (span != nullptr)
      layout.bucketsOfRegion(table, span->startRow, span->endRow, &scratch);
    else
      layout.bucketsOfRegion(table, BytesView(), BytesView(), &scratch);
    for (size_t b : scratch) fill.add(b, rb.bucket, value / static_cast<double>(scratch.size()));
  }
}

}  // namespace

Result<HeatGrid> queryHeatGrid(sqlite3* db, const TableContext& table, const HeatGridRequest& request) {
  Result<std::optional<KeySchema>> schema = parseTableSchema(table.keySchema);
  const bool needsSchema = request.foldSalt || request.axis == KeyAxis::kSchemaComponent;
  if (!schema && needsSchema) return invalid(schema.status().message());
  const KeyLabeler labeler(schema ? std::move(schema).value() : std::nullopt);
  if (Status s = checkRequest(request, labeler.schema()); !s) return s;

  const TimeColumns columns(request.window, request.timeColumns);
  const BucketRange range = bucketsIn(request.window);
  const int64_t spanFrom = bucketStart(range.first);
  const int64_t spanTo = bucketStart(range.end);

  HeatGrid grid;
  grid.window = columns.covered();
  grid.columnMillis = columns.columnMillis();
  grid.columns = columns.columns();
  grid.metric = request.metric;
  grid.boundaries = boundariesIn(table, request.window);

  // The regions that lived in the window's buckets, and their load there.
  StatsReader reader(db);
  std::vector<const RegionSpan*> regions;
  for (const RegionSpan& r : table.history)
    if (livesIn(r, spanFrom, spanTo)) regions.push_back(&r);
  std::stable_sort(regions.begin(), regions.end(), [](const RegionSpan* a, const RegionSpan* b) {
    return a->startRow != b->startRow ? a->startRow < b->startRow : a->createdMillis < b->createdMillis;
  });
  std::vector<RegionBucket> loads;
  std::vector<RegionBucketRow> rows;
  for (const RegionSpan* r : regions) {
    rows.clear();
    if (Status s = reader.regionBuckets(r->regionId, range, &rows); !s) return s;
    for (const RegionBucketRow& row : rows) {
      if (loads.empty() || loads.back().regionId != r->regionId || loads.back().bucket != row.bucket)
        loads.push_back({r->regionId, row.bucket, {}});
      loads.back().counters.add(row.counters);
    }
  }

  if (request.axis == KeyAxis::kRegions) {
    std::unordered_map<int64_t, size_t> rowOf;
    for (const RegionSpan* r : regions) {
      rowOf[r->regionId] = grid.buckets.size();
      HeatGridBucket bucket;
      bucket.startRow = r->startRow;
      bucket.endRow = r->endRow;
      bucket.regionId = r->regionId;
      bucket.label = "region " + std::to_string(r->regionId) + ": " +
                     (r->startRow.empty() ? std::string("(table start)") : labeler.row(r->startRow));
      grid.buckets.push_back(std::move(bucket));
    }
    grid.values.assign(grid.buckets.size() * grid.columns, 0.0);
    GridFill fill(&grid, columns);
    for (const RegionBucket& rb : loads) fill.add(rowOf[rb.regionId], rb.bucket, metricValue(rb.counters, request.metric));
  } else {
    std::vector<StoredSample> samples;
    std::vector<SampleThreshold> thresholds;
    if (Status s = reader.samples(table.tableId, range, &samples, &thresholds); !s) return s;
    Result<KeyAxisLayout> layout = KeyAxisLayout::build(table, request, labeler, samples);
    if (!layout) return layout.status();
    grid.buckets = layout->buckets();
    grid.values.assign(grid.buckets.size() * grid.columns, 0.0);

    // Samples by (region, bucket); each one's key bucket computed once.
    std::stable_sort(samples.begin(), samples.end(), [](const StoredSample& a, const StoredSample& b) {
      return a.sample.regionId != b.sample.regionId ? a.sample.regionId < b.sample.regionId : a.bucket < b.bucket;
    });
    std::vector<size_t> sampleBuckets(samples.size());
    for (size_t i = 0; i < samples.size(); ++i) sampleBuckets[i] = layout->bucketOf(samples[i].sample.row);
    std::unordered_map<int64_t, const RegionSpan*> spanOf;
    for (const RegionSpan* r : regions) spanOf[r->regionId] = r;

    GridFill fill(&grid, columns);
    std::vector<size_t> scratch;
    for (const RegionBucket& rb : loads) {
      auto key = [](const StoredSample& s) { return std::pair(s.sample.regionId, s.bucket); };
      const auto [lo, hi] = std::equal_range(
          samples.begin(), samples.end(), StoredSample{rb.bucket, OperationSample{{}, rb.regionId}},
          [&](const StoredSample& a, const StoredSample& b) { return key(a) < key(b); });
      const auto t = std::lower_bound(thresholds.begin(), thresholds.end(), rb.bucket,
                                      [](const SampleThreshold& a, int64_t b) { return a.bucket < b; });
      const double threshold = t != thresholds.end() && t->bucket == rb.bucket ? t->threshold : Reservoir::kNoThreshold;
      const auto found = spanOf.find(rb.regionId);
      placeBySamples(rb, samples, static_cast<size_t>(lo - samples.begin()), static_cast<size_t>(hi - samples.begin()),
                     sampleBuckets, threshold, request, *layout, table,
                     found != spanOf.end() ? found->second : nullptr, fill, scratch);
    }
  }

  for (double v : grid.values) grid.maxValue = std::max(grid.maxValue, v);
  grid.statRowsRead = reader.rowsRead();
  return grid;
}

}  // namespace keyscope::stats
