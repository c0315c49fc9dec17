// The statistics tables (stats_schema.h).
//
// A bucket is floor(millis / kStatsBucketMillis) of the workspace clock: the
// second [bucket * 1000, bucket * 1000 + 1000). Counters are exact; samples
// are a weighted reservoir (key_reservoir.h) of the operations in a bucket.
// Stored in workspaces: DO NOT CHANGE the meaning of a column; add columns.
//
// region_stats: the load charged to a region in a bucket, per server (a
// region the balancer moved within a second has one row per server).
//   COLUMN         TYPE     DESCRIPTION
//   region_id      INTEGER  the catalog's region id                   } key
//   bucket         INTEGER  see above                                 }
//   server         INTEGER  simulated server charged, 0-based          }
//   reads          INTEGER  gets plus rows returned by scans
//   writes         INTEGER  mutations (one per row and region), increments
//   cells_read     INTEGER  cells returned
//   cells_written  INTEGER  cells written (delete markers included)
//   bytes_read     INTEGER  key + value bytes of the cells returned
//   bytes_written  INTEGER  key + value bytes of the cells written
//
// region_totals: region_stats summed over every bucket and server, so the
// region table's "since created" costs one row per region, not one per second
// of its life. Columns: region_id (key), table_id (the region's table, which
// finds a dropped table's regions), then the six counters as above.
//
// server_stats: region_stats summed over the regions of every table, so
// server load reads servers x seconds rows, not regions x seconds.
// Columns: bucket, server (key), then the six counters as above.
//
// key_samples: the sample of one table's operations in one bucket; at most
// kReservoirCapacity slots, each one operation (a write, a get, or some of a
// scan's rows) kept with probability growing with its weight.
//   COLUMN     TYPE     DESCRIPTION
//   table_id   INTEGER  the catalog's table id                        } key
//   bucket     INTEGER  see above                                     }
//   slot       INTEGER  0 ... n-1, no meaning beyond the key           }
//   region_id  INTEGER  the region the operation was charged to
//   row        BLOB     the row key
//   kind       INTEGER  0 read, 1 write                 -- DO NOT CHANGE
//   weight     REAL     operations it stands for (1; a scan's sample row: rows / rows sampled)
//   cells      REAL     cells those operations read or wrote
//   bytes      REAL     bytes those operations read or wrote
//   rank       REAL     -ln(u) / weight, u uniform in (0, 1]: the A-Res key
//                       u^(1/weight) as its negative log; the smallest ranks are kept
//
// key_sample_sets: one row per (table, bucket) that has samples.
//   COLUMN     TYPE     DESCRIPTION
//   table_id   INTEGER                                                } key
//   bucket     INTEGER                                                }
//   threshold  REAL     the smallest rank not kept (NULL: every operation was
//                       kept); with it an operation of weight w was kept with
//                       probability 1 - exp(-w * threshold)
#include "stats/stats_schema.h"

#include <string>

#include "engine/sqlite_util.h"

namespace keyscope::stats {

const char* statsSchemaSql() {
  return R"sql(
CREATE TABLE IF NOT EXISTS region_stats(
  region_id INTEGER NOT NULL, bucket INTEGER NOT NULL, server INTEGER NOT NULL,
  reads INTEGER NOT NULL, writes INTEGER NOT NULL, cells_read INTEGER NOT NULL,
  cells_written INTEGER NOT NULL, bytes_read INTEGER NOT NULL, bytes_written INTEGER NOT NULL,
  PRIMARY KEY(region_id, bucket, server)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS region_totals(
  region_id INTEGER PRIMARY KEY, table_id INTEGER NOT NULL,
  reads INTEGER NOT NULL, writes INTEGER NOT NULL, cells_read INTEGER NOT NULL,
  cells_written INTEGER NOT NULL, bytes_read INTEGER NOT NULL, bytes_written INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS server_stats(
  bucket INTEGER NOT NULL, server INTEGER NOT NULL,
  reads INTEGER NOT NULL, writes INTEGER NOT NULL, cells_read INTEGER NOT NULL,
  cells_written INTEGER NOT NULL, bytes_read INTEGER NOT NULL, bytes_written INTEGER NOT NULL,
  PRIMARY KEY(bucket, server)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS key_samples(
  table_id INTEGER NOT NULL, bucket INTEGER NOT NULL, slot INTEGER NOT NULL,
  region_id INTEGER NOT NULL, row BLOB NOT NULL, kind INTEGER NOT NULL,
  weight REAL NOT NULL, cells REAL NOT NULL, bytes REAL NOT NULL, rank REAL NOT NULL,
  PRIMARY KEY(table_id, bucket, slot)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS key_sample_sets(
  table_id INTEGER NOT NULL, bucket INTEGER NOT NULL, threshold REAL,
  PRIMARY KEY(table_id, bucket)) WITHOUT ROWID;
)sql";
}

Status deleteTableStatistics(sqlite3* db, int64_t tableId) {
  // region_stats first: its rows are found through region_totals.
  for (const char* sql :
       {"DELETE FROM region_stats WHERE region_id IN (SELECT region_id FROM region_totals WHERE table_id = ?1)",
        "DELETE FROM region_totals WHERE table_id = ?1", "DELETE FROM key_samples WHERE table_id = ?1",
        "DELETE FROM key_sample_sets WHERE table_id = ?1"}) {
    engine::Statement st;
    if (Status s = st.prepareOnce(db, sql); !s) return s;
    st.bindInt(1, tableId);
    if (Status s = st.run("deleting a dropped table's statistics"); !s) return s;
  }
  return Status::ok();
}

}  // namespace keyscope::stats
