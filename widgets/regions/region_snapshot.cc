// RegionSnapshot (see region_snapshot.h). Worker threads; pure CSV.
#include "regions/region_snapshot.h"

#include <algorithm>
#include <sstream>

#include "keyscope/csv.h"

namespace keyscope {

RegionSnapshot computeRegionSnapshot(const Workspace& ws, const QString& table, RegionWindowChoice choice) {
  RegionSnapshot out;
  out.table = table;
  const std::string name = table.toStdString();
  auto fail = [&](const Status& status) {
    out.error = QString::fromStdString(status.message());
    return out;
  };
  Result<TableOptions> options = ws.describeTable(name);
  if (!options) return fail(options.status());
  out.schema = KeySchema::parseStored(options.value().keySchema);
  out.nowMillis = ws.now();
  if (choice.kind == RegionWindowChoice::Kind::kLastSeconds)
    out.window = TimeWindow{out.nowMillis - std::max<int64_t>(1, choice.seconds) * 1000, out.nowMillis + 1};
  Result<std::vector<RegionLoad>> regions = ws.regionLoad(name, out.window);
  if (!regions) return fail(regions.status());
  out.regions = std::move(regions).value();
  std::sort(out.regions.begin(), out.regions.end(), [](const RegionLoad& a, const RegionLoad& b) {
    return BytesView(a.startRow) < BytesView(b.startRow);
  });
  Result<std::vector<RegionHistoryEntry>> history = ws.regionHistory(name);
  if (!history) return fail(history.status());
  out.history = std::move(history).value();
  out.servers = ws.serverCount();
  out.balancerEnabled = ws.balancerEnabled();
  return out;
}

std::string regionLoadCsv(const std::vector<RegionLoad>& regions) {
  std::ostringstream out;
  CsvWriter writer(out, CsvDialect{});
  for (const char* column : {"region", "start_row", "end_row", "server", "raw_bytes", "stored_bytes", "memstore_bytes",
                             "store_files", "cells", "reads", "writes", "reads_per_second", "writes_per_second"})
    writer.add(column);
  (void)writer.endRecord();  // a string stream does not fail
  for (const RegionLoad& r : regions) {
    writer.add(std::to_string(r.regionId));
    writer.add(toStringBinary(r.startRow));
    writer.add(toStringBinary(r.endRow));
    writer.add(std::to_string(r.server));
    writer.add(std::to_string(r.rawBytes));
    writer.add(std::to_string(r.storedBytes));
    writer.add(std::to_string(r.memstoreBytes));
    writer.add(std::to_string(r.storeFiles));
    writer.add(std::to_string(r.cells));
    writer.add(std::to_string(r.window.reads));
    writer.add(std::to_string(r.window.writes));
    std::ostringstream reads, writes;
    reads << r.readsPerSecond;
    writes << r.writesPerSecond;
    writer.add(reads.str());
    writer.add(writes.str());
    (void)writer.endRecord();
  }
  return out.str();
}

}  // namespace keyscope
