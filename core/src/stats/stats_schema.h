// The statistics tables in the workspace file (created with the catalog's
// schema, format version 3 and later). Layout and meaning: stats_schema.cc.
//
// Threads: pure functions over a connection the caller owns and serializes.
#pragma once

#include <cstdint>

#include <sqlite3.h>

#include "keyscope/status.h"

namespace keyscope::stats {

// CREATE TABLE IF NOT EXISTS statements; safe to run on every open.
const char* statsSchemaSql();

// Forgets the statistics of a dropped table: its regions' counters (every
// region that ever had load persisted) and its key samples. The servers'
// counters stay (that load happened). Run it in the transaction that drops
// the table, so that region ids SQLite may hand out again never inherit a
// dropped region's history.
Status deleteTableStatistics(sqlite3* db, int64_t tableId);

}  // namespace keyscope::stats
