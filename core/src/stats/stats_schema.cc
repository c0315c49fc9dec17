// The statistics tables (stats_schema.h). PLACEHOLDER until the statistics module lands.
#include "stats/stats_schema.h"

namespace keyscope::stats {

const char* statsSchemaSql() { return ""; }

}  // namespace keyscope::stats
