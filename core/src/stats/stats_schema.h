// The statistics tables in the workspace file (created with the catalog's
// schema, format version 3 and later). Layout and meaning: stats_schema.cc.
#pragma once

namespace keyscope::stats {

// CREATE TABLE IF NOT EXISTS statements; safe to run on every open.
const char* statsSchemaSql();

}  // namespace keyscope::stats
