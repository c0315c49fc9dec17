// Drill-through: the rows behind a cell or a brushed area of the hotspot
// heatmap, as a prefilled scan (STARTROW, STOPROW, TIMERANGE) over exactly
// those rows and that time: the ScanOptions the data browser and the query
// console run, and the same scan as a shell line
//   scan 't', {STARTROW => "a\x00", STOPROW => "b", TIMERANGE => [1000, 2000]}
// that the shell's parser reads back to the same options.
//
// Only buckets that are one range of row keys can be drilled into: folded
// salt buckets and buckets of a schema component after the first gather rows
// from many ranges (HeatGridBucket::keyRange), and no single scan holds them.
//
// Pure functions; thread-safe.
#pragma once

#include <QString>
#include <QStringList>

#include <cstddef>
#include <cstdint>

#include "keyscope/options.h"
#include "keyscope/statistics.h"
#include "keyscope/status.h"

namespace keyscope {

// A rectangle of grid cells, inclusive at both ends.
struct GridArea {
  size_t firstBucket = 0;
  size_t lastBucket = 0;
  size_t firstColumn = 0;
  size_t lastColumn = 0;
};

struct DrillThrough {
  QString table;
  ScanOptions scan;        // startRow, stopRow (empty: unbounded), timeRange
  QString shellLine;       // the same scan in the shell's language
  QString description;     // "rows ts=… to ts=…, 10:00:00 to 10:00:05"
};

// The scan over `area` of `grid`. InvalidArgument when the area is outside
// the grid or covers a bucket that is not one key range (saying which and
// what to do instead).
Result<DrillThrough> drillThrough(const QString& table, const HeatGrid& grid, const GridArea& area);

// A byte string as a double-quoted shell literal: printable ASCII as is
// (with \" \\ and \# escaped), every other byte as \xNN.
QString shellBytesLiteral(BytesView bytes);
// `scan 'table', {STARTROW => ..., STOPROW => ..., TIMERANGE => [a, b]}`;
// unbounded rows and an all-time range are left out.
QString scanShellLine(const QString& table, const ScanOptions& scan);

}  // namespace keyscope
