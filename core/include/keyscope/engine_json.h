// JSON forms of the engine's descriptions that every machine-readable output
// shares (the batch API's answers and the shell's JSON lines): a table's
// options and a read report. Field names and their order are documented in
// docs/BATCH-API.md. Pure functions; thread-safe.
#pragma once

#include <nlohmann/json.hpp>

#include "keyscope/options.h"
#include "keyscope/read_report.h"

namespace keyscope {

// {"table", "families": [{"name", "versions", ...}], "memstore_flushsize",
//  "key_schema", "description", "examples"}
nlohmann::ordered_json tableOptionsToJson(const TableOptions& table);

// {"regions_visited", "store_files_considered", ..., "elapsed_micros"}
nlohmann::ordered_json readReportToJson(const ReadReport& report);

}  // namespace keyscope
