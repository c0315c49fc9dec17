#include "stats_test_util.h"

#include <cstdio>
#include <random>

#include "stats/stats_schema.h"

namespace keyscope::test {

StatsDb::StatsDb() {
  std::random_device rd;
  m_dir = std::filesystem::temp_directory_path() / ("keyscope-stats-" + std::to_string(rd()) + std::to_string(rd()));
  std::filesystem::create_directories(m_dir);
  const std::string path = (m_dir / "stats.ksw").string();
  if (sqlite3_open(path.c_str(), &m_db) != SQLITE_OK) {
    ADD_FAILURE() << "cannot open " << path;
    return;
  }
  char* error = nullptr;
  if (sqlite3_exec(m_db, "PRAGMA journal_mode=WAL;", nullptr, nullptr, &error) != SQLITE_OK ||
      sqlite3_exec(m_db, stats::statsSchemaSql(), nullptr, nullptr, &error) != SQLITE_OK) {
    ADD_FAILURE() << "creating the statistics tables: " << (error ? error : "?");
    sqlite3_free(error);
  }
}

StatsDb::~StatsDb() {
  sqlite3_close(m_db);
  std::error_code ec;
  std::filesystem::remove_all(m_dir, ec);
}

void StatsDb::persist(stats::StatsRecorder& recorder) {
  ASSERT_EQ(sqlite3_exec(m_db, "BEGIN", nullptr, nullptr, nullptr), SQLITE_OK);
  const Status s = recorder.persist(m_db);
  ASSERT_TRUE(s.isOk()) << s.toString();
  ASSERT_EQ(sqlite3_exec(m_db, "COMMIT", nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(m_db);
}

int64_t StatsDb::integer(const std::string& sql) {
  sqlite3_stmt* st = nullptr;
  int64_t value = -1;
  if (sqlite3_prepare_v2(m_db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
    value = sqlite3_column_int64(st, 0);
  else
    ADD_FAILURE() << sql << ": " << sqlite3_errmsg(m_db);
  sqlite3_finalize(st);
  return value;
}

std::string rowKey(int i) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "row%06d", i);
  return buf;
}

stats::RegionSpan region(int64_t id, std::string start, std::string end, int64_t createdMillis,
                         std::optional<int64_t> retiredMillis, int32_t server, bool merged) {
  stats::RegionSpan r;
  r.regionId = id;
  r.startRow = std::move(start);
  r.endRow = std::move(end);
  r.createdMillis = createdMillis;
  r.retiredMillis = retiredMillis;
  r.server = server;
  r.merged = merged;
  return r;
}

stats::TableContext tableOf(int64_t tableId, std::vector<stats::RegionSpan> history, std::string keySchema) {
  stats::TableContext t;
  t.tableId = tableId;
  t.keySchema = std::move(keySchema);
  for (const stats::RegionSpan& r : history)
    if (!r.retiredMillis) t.live.push_back({r.regionId, 0, 0, 0, 0, 0});
  t.history = std::move(history);
  return t;
}

std::vector<stats::KeySample> keysOf(const std::vector<std::string>& rows, uint64_t cells) {
  std::vector<stats::KeySample> keys;
  for (const std::string& r : rows) keys.push_back({r, cells, cells * 100});
  return keys;
}

double columnTotal(const HeatGrid& grid, size_t column) {
  double sum = 0;
  for (size_t b = 0; b < grid.buckets.size(); ++b) sum += grid.at(b, column);
  return sum;
}

double gridTotal(const HeatGrid& grid) {
  double sum = 0;
  for (double v : grid.values) sum += v;
  return sum;
}

}  // namespace keyscope::test
