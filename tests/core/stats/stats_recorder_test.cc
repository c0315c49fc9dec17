// StatsRecorder: exact counters, persisted in parts, from many threads; key
// samples bounded, reproducible per seed, and the same however often a
// bucket is persisted.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <thread>
#include <tuple>

#include "stats/key_reservoir.h"
#include "stats/stats_recorder.h"
#include "stats_test_util.h"

namespace keyscope::test {
namespace {

using stats::StatsRecorder;

struct Totals {
  int64_t reads, writes, cellsRead, cellsWritten, bytesRead, bytesWritten;
  bool operator==(const Totals&) const = default;
};

Totals sumOf(StatsDb& db, const std::string& table, const std::string& where = "1") {
  return {db.integer("SELECT total(reads) FROM " + table + " WHERE " + where),
          db.integer("SELECT total(writes) FROM " + table + " WHERE " + where),
          db.integer("SELECT total(cells_read) FROM " + table + " WHERE " + where),
          db.integer("SELECT total(cells_written) FROM " + table + " WHERE " + where),
          db.integer("SELECT total(bytes_read) FROM " + table + " WHERE " + where),
          db.integer("SELECT total(bytes_written) FROM " + table + " WHERE " + where)};
}

// Samples as stored: (bucket, row, rank) sorted, and the thresholds.
std::vector<std::tuple<int64_t, std::string, double>> storedSamples(StatsDb& db) {
  std::vector<std::tuple<int64_t, std::string, double>> out;
  sqlite3_stmt* st = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db.db(), "SELECT bucket, row, rank FROM key_samples", -1, &st, nullptr), SQLITE_OK);
  while (sqlite3_step(st) == SQLITE_ROW)
    out.emplace_back(sqlite3_column_int64(st, 0),
                     std::string(static_cast<const char*>(sqlite3_column_blob(st, 1)),
                                 static_cast<size_t>(sqlite3_column_bytes(st, 1))),
                     sqlite3_column_double(st, 2));
  sqlite3_finalize(st);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::pair<int64_t, double>> storedThresholds(StatsDb& db) {
  std::vector<std::pair<int64_t, double>> out;
  sqlite3_stmt* st = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db.db(), "SELECT bucket, ifnull(threshold, -1) FROM key_sample_sets ORDER BY bucket",
                               -1, &st, nullptr),
            SQLITE_OK);
  while (sqlite3_step(st) == SQLITE_ROW) out.emplace_back(sqlite3_column_int64(st, 0), sqlite3_column_double(st, 1));
  sqlite3_finalize(st);
  return out;
}

// A seeded mixed workload: writes and reads over 3 regions of table 1 and a
// region of table 2, on 2 servers, over 5 seconds.
Totals runWorkload(StatsRecorder& recorder, int operations, uint32_t seed, StatsDb* persistEvery = nullptr,
                   int every = 0) {
  std::mt19937 rng(seed);
  Totals t{};
  for (int i = 0; i < operations; ++i) {
    const int64_t now = i * 5000 / operations;
    const int64_t regionId = 1 + static_cast<int64_t>(rng() % 4);
    const auto target = at(regionId == 4 ? 2 : 1, regionId, static_cast<int32_t>(regionId % 2));
    const std::string row = rowKey(static_cast<int>(rng() % 1000));
    const uint64_t cells = 1 + rng() % 3;
    if (rng() % 3 == 0) {
      const std::string_view rows[] = {row};
      recorder.recordReads(target, 1, cells, cells * 10, rows, now);
      t.reads += 1;
      t.cellsRead += static_cast<int64_t>(cells);
      t.bytesRead += static_cast<int64_t>(cells * 10);
    } else {
      recorder.recordWrite(target, row, cells, cells * 20, now);
      t.writes += 1;
      t.cellsWritten += static_cast<int64_t>(cells);
      t.bytesWritten += static_cast<int64_t>(cells * 20);
    }
    if (persistEvery != nullptr && (i + 1) % every == 0) persistEvery->persist(recorder);
  }
  return t;
}

TEST(StatsRecorder, CountersOverRegionsServersAndTotalsAddUpToTheOperationsRecorded) {
  StatsDb db;
  StatsRecorder recorder;
  const Totals recorded = runWorkload(recorder, 5000, 1);
  db.persist(recorder);
  EXPECT_EQ(sumOf(db, "region_stats"), recorded);
  EXPECT_EQ(sumOf(db, "region_totals"), recorded);
  EXPECT_EQ(sumOf(db, "server_stats"), recorded);
  EXPECT_EQ(db.integer("SELECT count(DISTINCT bucket) FROM region_stats"), 5);
  EXPECT_EQ(db.integer("SELECT count(*) FROM region_totals"), 4);
  EXPECT_EQ(db.integer("SELECT count(*) FROM region_totals WHERE table_id = 2"), 1);
  // Region 3 is charged to server 1 only, region 2 to server 0 only.
  EXPECT_EQ(db.integer("SELECT count(*) FROM region_stats WHERE region_id = 3 AND server <> 1"), 0);
  EXPECT_EQ(sumOf(db, "region_stats", "region_id IN (2, 4)"), sumOf(db, "server_stats", "server = 0"));
}

TEST(StatsRecorder, PersistingInPartsAddsToTheStoredRows) {
  StatsDb once;
  StatsDb parts;
  StatsRecorder a;
  StatsRecorder b;
  const Totals recorded = runWorkload(a, 6000, 2);
  once.persist(a);
  EXPECT_EQ(runWorkload(b, 6000, 2, &parts, 700), recorded);
  parts.persist(b);
  EXPECT_EQ(sumOf(parts, "region_stats"), recorded);
  EXPECT_EQ(sumOf(parts, "region_totals"), recorded);
  EXPECT_EQ(sumOf(parts, "server_stats"), recorded);
  // The same rows, each counted once: no row per persist.
  EXPECT_EQ(parts.integer("SELECT count(*) FROM region_stats"), once.integer("SELECT count(*) FROM region_stats"));
  EXPECT_EQ(parts.integer("SELECT total(writes * bucket * 7 + reads * region_id) FROM region_stats"),
            once.integer("SELECT total(writes * bucket * 7 + reads * region_id) FROM region_stats"));
}

TEST(StatsRecorder, ThreadsRecordingWhileAnotherPersistsLoseNoCount) {
  StatsDb db;
  StatsRecorder recorder;
  constexpr int kThreads = 4;
  constexpr int kEach = 20000;
  std::atomic<int> running{kThreads};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const std::string row = rowKey(t);
      const std::string_view rows[] = {row};
      for (int i = 0; i < kEach; ++i) {
        if (i % 2 == 0)
          recorder.recordWrite(at(1, t % 2 + 1), row, 2, 30, i / 4000 * 1000);
        else
          recorder.recordReads(at(1, t % 2 + 1), 3, 6, 90, rows, i / 4000 * 1000);
      }
      --running;
    });
  }
  while (running > 0) db.persist(recorder);
  for (std::thread& t : threads) t.join();
  db.persist(recorder);
  EXPECT_TRUE(recorder.empty());
  const Totals expected{kThreads * kEach / 2 * 3, kThreads * kEach / 2, kThreads * kEach / 2 * 6,
                        kThreads * kEach / 2 * 2, kThreads * kEach / 2 * 90, kThreads * kEach / 2 * 30};
  EXPECT_EQ(sumOf(db, "region_stats"), expected);
  EXPECT_EQ(sumOf(db, "server_stats"), expected);
}

TEST(StatsRecorder, KeepsAtMostTheReservoirCapacityOfSamplesPerTableAndSecond) {
  StatsDb db;
  StatsRecorder recorder;
  for (int i = 0; i < 10000; ++i) recorder.recordWrite(at(1, 1), rowKey(i), 1, 10, 500);
  for (int i = 0; i < 100; ++i) recorder.recordWrite(at(1, 1), rowKey(i), 1, 10, 1500);
  db.persist(recorder);
  EXPECT_EQ(db.integer("SELECT count(*) FROM key_samples WHERE bucket = 0"),
            static_cast<int64_t>(stats::kReservoirCapacity));
  EXPECT_EQ(db.integer("SELECT count(*) FROM key_samples WHERE bucket = 1"), 100);
  // A full reservoir has a threshold; one that kept everything has none.
  EXPECT_EQ(db.integer("SELECT count(*) FROM key_sample_sets WHERE bucket = 0 AND threshold > 0"), 1);
  EXPECT_EQ(db.integer("SELECT count(*) FROM key_sample_sets WHERE bucket = 1 AND threshold IS NULL"), 1);
}

TEST(StatsRecorder, TheSameSeedAndCallsKeepTheSameSamplesAndAnotherSeedOthers) {
  StatsDb first;
  StatsDb second;
  StatsDb other;
  StatsRecorder a(42);
  StatsRecorder b(42);
  StatsRecorder c(43);
  runWorkload(a, 8000, 3);
  runWorkload(b, 8000, 3);
  runWorkload(c, 8000, 3);
  first.persist(a);
  second.persist(b);
  other.persist(c);
  const auto samples = storedSamples(first);
  ASSERT_EQ(samples.size(), 5 * 2 * stats::kReservoirCapacity);  // 5 seconds, 2 tables, all full
  EXPECT_EQ(samples, storedSamples(second));
  EXPECT_EQ(storedThresholds(first), storedThresholds(second));
  EXPECT_NE(samples, storedSamples(other));
}

TEST(StatsRecorder, ABucketPersistedInPartsKeepsTheSampleOfOnePersist) {
  StatsDb once;
  StatsDb parts;
  StatsRecorder a(7);
  StatsRecorder b(7);
  runWorkload(a, 8000, 4);
  once.persist(a);
  runWorkload(b, 8000, 4, &parts, 333);
  parts.persist(b);
  EXPECT_EQ(storedSamples(parts), storedSamples(once));
  EXPECT_EQ(storedThresholds(parts), storedThresholds(once));
}

TEST(StatsRecorder, IsEmptyAfterPersistAndIgnoresReadsOfNothing) {
  StatsDb db;
  StatsRecorder recorder;
  EXPECT_TRUE(recorder.empty());
  recorder.recordReads(at(1, 1), 0, 0, 0, {}, 0);
  EXPECT_TRUE(recorder.empty());
  recorder.recordReads(at(1, 1), 5, 5, 50, {}, 0);  // a scan that kept no sample rows
  EXPECT_FALSE(recorder.empty());
  db.persist(recorder);
  EXPECT_TRUE(recorder.empty());
  EXPECT_EQ(db.integer("SELECT reads FROM region_stats"), 5);
  EXPECT_EQ(db.integer("SELECT count(*) FROM key_samples"), 0);
}

TEST(StatsRecorder, AFailedPersistKeepsWhatWasRecordedForTheNextOne) {
  StatsDb db;
  StatsRecorder recorder;
  recorder.recordWrite(at(1, 1), "a", 1, 10, 0);
  // Without the statistics tables the persist fails...
  ASSERT_EQ(sqlite3_exec(db.db(), "ALTER TABLE region_stats RENAME TO region_stats_away", nullptr, nullptr, nullptr),
            SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db.db(), "BEGIN", nullptr, nullptr, nullptr), SQLITE_OK);
  const Status failed = recorder.persist(db.db());
  EXPECT_EQ(failed.code(), Status::Code::kIOError) << failed.toString();
  ASSERT_EQ(sqlite3_exec(db.db(), "ROLLBACK", nullptr, nullptr, nullptr), SQLITE_OK);
  EXPECT_FALSE(recorder.empty());
  // ...and the next one, with more recorded meanwhile, stores all of it.
  recorder.recordWrite(at(1, 1), "b", 1, 10, 0);
  ASSERT_EQ(sqlite3_exec(db.db(), "ALTER TABLE region_stats_away RENAME TO region_stats", nullptr, nullptr, nullptr),
            SQLITE_OK);
  db.persist(recorder);
  EXPECT_EQ(db.integer("SELECT writes FROM region_stats"), 2);
  EXPECT_EQ(db.integer("SELECT count(*) FROM key_samples"), 2);
}

// The rank-conditioning estimate of a subset's load from a full reservoir:
// a tenth of the operations weigh 10x the others, and a third of all load
// falls in the subset; 200 seeded trials average close to the truth.
TEST(Reservoir, WeighingKeptOperationsByTheirProbabilityEstimatesASubsetsLoad) {
  double sumEstimate = 0;
  double sumTrue = 0;
  constexpr int kTrials = 200;
  for (int trial = 0; trial < kTrials; ++trial) {
    stats::Reservoir reservoir;
    stats::SampleRandom random(static_cast<uint64_t>(trial) + 1);
    double inSubset = 0;
    double total = 0;
    for (int i = 0; i < 5000; ++i) {
      const double weight = i % 10 == 0 ? 10.0 : 1.0;
      const bool subset = i % 3 == 0;
      reservoir.offer(random.nextRank(weight), subset ? "s" : "o", 1, weight, weight, weight, true);
      total += weight;
      if (subset) inSubset += weight;
    }
    double estimate = 0;
    for (const stats::OperationSample& s : reservoir.samples())
      if (s.row == "s") estimate += s.weight / stats::keptProbability(s.weight, reservoir.threshold());
    sumEstimate += estimate;
    sumTrue += inSubset;
    EXPECT_LT(total, 1e9);
  }
  EXPECT_NEAR(sumEstimate / sumTrue, 1.0, 0.03);
}

TEST(Reservoir, MergingTwoReservoirsKeepsTheSmallestRanksOfBoth) {
  stats::Reservoir a;
  stats::Reservoir b;
  stats::Reservoir both;
  stats::SampleRandom random(9);
  for (int i = 0; i < 1000; ++i) {
    const double rank = random.nextRank(1);
    (i % 2 == 0 ? a : b).offer(rank, rowKey(i), 1, 1, 1, 1, true);
    both.offer(rank, rowKey(i), 1, 1, 1, 1, true);
  }
  a.merge(b);
  auto rows = [](const stats::Reservoir& r) {
    std::set<std::string> out;
    for (const auto& s : r.samples()) out.insert(s.row);
    return out;
  };
  EXPECT_EQ(rows(a), rows(both));
  EXPECT_EQ(a.threshold(), both.threshold());
}

}  // namespace
}  // namespace keyscope::test
