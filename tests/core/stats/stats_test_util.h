// Helpers for the statistics tests: a workspace-like SQLite file in a fresh
// temporary directory holding only the statistics tables, persisting a
// recorder in a transaction, and one-line builders for regions, contexts
// and row keys, so each assertion reads as a sentence.
#pragma once

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "keyscope/statistics.h"
#include "stats/stats_queries.h"
#include "stats/stats_recorder.h"

namespace keyscope::test {

class StatsDb {
 public:
  StatsDb();
  ~StatsDb();
  StatsDb(const StatsDb&) = delete;
  StatsDb& operator=(const StatsDb&) = delete;

  sqlite3* db() const { return m_db; }
  // BEGIN; recorder.persist; COMMIT - a test failure when any step fails.
  void persist(stats::StatsRecorder& recorder);
  // The single integer a query returns (a test failure and -1 otherwise).
  int64_t integer(const std::string& sql);

 private:
  std::filesystem::path m_dir;
  sqlite3* m_db = nullptr;
};

// "row000042": rows that sort as their numbers.
std::string rowKey(int i);

stats::RegionSpan region(int64_t id, std::string start, std::string end, int64_t createdMillis = 0,
                         std::optional<int64_t> retiredMillis = std::nullopt, int32_t server = 0,
                         bool merged = false);

// A context with the given history; every region not retired is live (with zero sizes).
stats::TableContext tableOf(int64_t tableId, std::vector<stats::RegionSpan> history, std::string keySchema = "");

// One stored key per row, each standing for `cells` cells of 100 bytes.
std::vector<stats::KeySample> keysOf(const std::vector<std::string>& rows, uint64_t cells = 1);

inline stats::ChargeTarget at(int64_t table, int64_t regionId, int32_t server = 0) {
  return {table, regionId, server};
}

// Sum over key buckets of one column.
double columnTotal(const HeatGrid& grid, size_t column);
// Sum over the whole grid.
double gridTotal(const HeatGrid& grid);

}  // namespace keyscope::test
