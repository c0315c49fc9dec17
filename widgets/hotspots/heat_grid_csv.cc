// Heat grid CSV (see heat_grid_csv.h). Pure function.
#include "hotspots/heat_grid_csv.h"

#include <sstream>

#include "keyscope/csv.h"

namespace keyscope {

namespace {

std::string number(double value) {
  std::ostringstream out;
  out.precision(15);
  out << value;
  return out.str();
}

}  // namespace

std::string heatGridCsv(const HeatGrid& grid) {
  std::ostringstream out;
  CsvWriter writer(out, CsvDialect{});
  writer.add("bucket");
  writer.add("start_row");
  writer.add("end_row");
  writer.add(std::string("label (") + loadMetricName(grid.metric) + ")");
  for (uint32_t c = 0; c < grid.columns; ++c)
    writer.add(std::to_string(grid.window.fromMillis + static_cast<int64_t>(c) * grid.columnMillis));
  (void)writer.endRecord();  // a string stream does not fail
  for (size_t b = 0; b < grid.buckets.size(); ++b) {
    const HeatGridBucket& bucket = grid.buckets[b];
    writer.add(std::to_string(b));
    writer.add(toStringBinary(bucket.startRow));
    writer.add(toStringBinary(bucket.endRow));
    writer.add(bucket.label);
    for (uint32_t c = 0; c < grid.columns; ++c) writer.add(number(grid.at(b, c)));
    (void)writer.endRecord();
  }
  return out.str();
}

}  // namespace keyscope
