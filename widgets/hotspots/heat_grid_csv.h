// A heat grid's numbers as CSV (RFC 4180, core's CsvWriter): one record per
// key bucket, in key order, with its start and end row (escaped as HBase's
// Bytes.toStringBinary), its label, then one value per time column; the
// header names each column by its start on the workspace clock in
// milliseconds. The metric is in the header's fourth field name.
//
//   bucket,start_row,end_row,label (writes),1704067200000,1704067201000,...
//   0,,ts=\x80...,ts=2024-01-01 00:00:00,12,0,...
//
// Pure function; thread-safe.
#pragma once

#include <string>

#include "keyscope/statistics.h"

namespace keyscope {

std::string heatGridCsv(const HeatGrid& grid);

}  // namespace keyscope
