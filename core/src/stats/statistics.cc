// LoadCounters and the metric names (keyscope/statistics.h).
#include "keyscope/statistics.h"

namespace keyscope {

void LoadCounters::add(const LoadCounters& o) {
  reads += o.reads;
  writes += o.writes;
  cellsRead += o.cellsRead;
  cellsWritten += o.cellsWritten;
  bytesRead += o.bytesRead;
  bytesWritten += o.bytesWritten;
}

double metricValue(const LoadCounters& c, LoadMetric metric) {
  switch (metric) {
    case LoadMetric::kReads: return static_cast<double>(c.reads);
    case LoadMetric::kWrites: return static_cast<double>(c.writes);
    case LoadMetric::kCellsRead: return static_cast<double>(c.cellsRead);
    case LoadMetric::kCellsWritten: return static_cast<double>(c.cellsWritten);
    case LoadMetric::kBytesRead: return static_cast<double>(c.bytesRead);
    case LoadMetric::kBytesWritten: return static_cast<double>(c.bytesWritten);
    case LoadMetric::kOperations: break;
  }
  return static_cast<double>(c.reads + c.writes);
}

const char* loadMetricName(LoadMetric metric) {
  switch (metric) {
    case LoadMetric::kReads: return "reads";
    case LoadMetric::kWrites: return "writes";
    case LoadMetric::kCellsRead: return "cells_read";
    case LoadMetric::kCellsWritten: return "cells_written";
    case LoadMetric::kBytesRead: return "bytes_read";
    case LoadMetric::kBytesWritten: return "bytes_written";
    case LoadMetric::kOperations: break;
  }
  return "operations";
}

}  // namespace keyscope
