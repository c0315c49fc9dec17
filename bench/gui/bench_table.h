// The table the GUI benchmark browses: 1,000,000 rows × 10 columns, 10
// million cells, keyed by a two-component schema (host, ts) so the browser
// also decodes key columns. Built once into a workspace file and reused
// (building takes a minute or two); a file that does not hold the complete
// table is rebuilt.
//
// Any thread; not GUI code.
#pragma once

#include <cstdint>
#include <string>

#include "keyscope/bytes.h"
#include "keyscope/status.h"

namespace keyscope::bench {

constexpr char kBenchTable[] = "metrics";
constexpr char kBenchSchema[] = "host:utf8 | ts:i64";
constexpr uint64_t kBenchRows = 1'000'000;
constexpr uint32_t kBenchColumns = 10;

// The row key of row `i` (0 ... kBenchRows-1), in sort order.
Bytes benchRowKey(uint64_t i);

// Makes sure `path` holds the table; prints progress to stderr while building.
Status ensureBenchTable(const std::string& path);

}  // namespace keyscope::bench
