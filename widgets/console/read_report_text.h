// The read report (keyscope/read_report.h) in plain words, for the console:
// regions visited, store files read and skipped (and why), memstores,
// pages read and cache hits, bytes fetched and decompressed, cells examined
// versus returned, rows, time. Pure function; any thread.
#pragma once

#include <QString>

#include "keyscope/read_report.h"

namespace keyscope {

// One fact per line, e.g. "Store files: 12 considered, 7 read, 5 skipped
// (3 outside the key range, 1 outside the time range, 1 by the bloom filter)".
QString readReportText(const ReadReport& report);

}  // namespace keyscope
