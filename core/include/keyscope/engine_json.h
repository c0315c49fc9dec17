// JSON forms of the engine's descriptions that every machine-readable output
// shares (the batch API's answers and the shell's JSON lines): a table's
// options, a read report, a region, a region's lineage and a server's load.
// Field names and their order are documented in docs/BATCH-API.md. Pure
// functions; thread-safe.
#pragma once

#include <nlohmann/json.hpp>

#include "keyscope/byte_format.h"
#include "keyscope/options.h"
#include "keyscope/read_report.h"
#include "keyscope/statistics.h"
#include "keyscope/workspace.h"

namespace keyscope {

// {"table", "families": [{"name", "versions", ...}], "memstore_flushsize",
//  "key_schema", "description", "examples"}
nlohmann::ordered_json tableOptionsToJson(const TableOptions& table);

// {"regions_visited", "store_files_considered", ..., "elapsed_micros"}
nlohmann::ordered_json readReportToJson(const ReadReport& report);

// Rows are rendered in `rows` (kEscaped: Bytes.toStringBinary; kHex).
// {"id", "start_row", "end_row", "server", "created", "memstore_bytes",
//  "store_files", "stored_bytes", "raw_bytes", "cells", "reads", "writes"};
// reads and writes are `load`'s.
nlohmann::ordered_json regionToJson(const RegionInfo& region, const LoadCounters& load, ByteFormat rows);

// {"id", "start_row", "end_row", "created", "retired" (null while live),
//  "parents", "origin" (regionOriginName), "split_row" (null unless a split
//  made the region)}
nlohmann::ordered_json regionHistoryToJson(const RegionHistoryEntry& entry, ByteFormat rows);

// {"server", "regions", "reads", "writes"}
nlohmann::ordered_json serverLoadToJson(const ServerLoad& server);

}  // namespace keyscope
