// The heat grid: exact by region, placed by key samples for equal key
// counts and schema components (fold the salt), with its cost bounded by
// the window and the grid, never by the data stored.
#include <gtest/gtest.h>

#include <random>

#include "keyscope/key_codec.h"
#include "keyscope/key_schema.h"
#include "stats/key_reservoir.h"
#include "stats/stats_labels.h"
#include "stats/stats_queries.h"
#include "stats/stats_recorder.h"
#include "stats_test_util.h"

namespace keyscope::test {
namespace {

using stats::StatsRecorder;

HeatGridRequest request(KeyAxis axis, TimeWindow window, uint32_t columns, uint32_t keyBuckets = 10,
                        LoadMetric metric = LoadMetric::kOperations) {
  HeatGridRequest r;
  r.axis = axis;
  r.window = window;
  r.timeColumns = columns;
  r.keyBuckets = keyBuckets;
  r.metric = metric;
  return r;
}

HeatGrid gridOf(StatsDb& db, const stats::TableContext& table, const HeatGridRequest& r) {
  Result<HeatGrid> grid = stats::queryHeatGrid(db.db(), table, r);
  EXPECT_TRUE(grid.isOk()) << grid.status().toString();
  return grid.isOk() ? std::move(grid).value() : HeatGrid{};
}

std::vector<std::string> rows(int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.push_back(rowKey(i));
  return out;
}

size_t nonZeroBuckets(const HeatGrid& grid, size_t column) {
  size_t n = 0;
  for (size_t b = 0; b < grid.buckets.size(); ++b) n += grid.at(b, column) > 1e-9 ? 1u : 0u;
  return n;
}

Status statusOf(StatsDb& db, const stats::TableContext& table, const HeatGridRequest& r) {
  return stats::queryHeatGrid(db.db(), table, r).status();
}

// --- By region ------------------------------------------------------------------

// Region 1 ["", m) splits at 5 s into 2 ["", g) and 3 [g, m); 4 [m, end) lives throughout.
stats::TableContext splitTable() {
  return tableOf(1, {region(1, "", "m", 0, 5000), region(4, "m", "", 0, std::nullopt, 1), region(2, "", "g", 5000),
                     region(3, "g", "m", 5000)});
}

void recordSplitLoad(StatsRecorder& r) {
  for (int s = 0; s < 10; ++s) {
    const int64_t t = s * 1000 + 10;
    for (int i = 0; i < (s < 5 ? (s + 1) * 3 : 0); ++i) r.recordWrite(at(1, 1), "c", 1, 10, t);
    for (int i = 0; i < (s >= 5 ? 2 : 0); ++i) r.recordWrite(at(1, 2), "c", 1, 10, t);
    for (int i = 0; i < (s >= 5 ? 7 : 0); ++i) r.recordWrite(at(1, 3), "h", 1, 10, t);
    for (int i = 0; i < 5; ++i) r.recordWrite(at(1, 4, 1), "x", 1, 10, t);
  }
}

TEST(HeatGrid, ByRegionEveryCellIsTheExactCountOfItsRegionAndSecond) {
  StatsDb db;
  StatsRecorder recorder;
  recordSplitLoad(recorder);
  db.persist(recorder);
  const HeatGrid grid = gridOf(db, splitTable(), request(KeyAxis::kRegions, {0, 10000}, 10, 10, LoadMetric::kWrites));
  ASSERT_EQ(grid.buckets.size(), 4u);
  // By start row, then creation: the parent before its lower daughter.
  EXPECT_EQ(grid.buckets[0].regionId, 1);
  EXPECT_EQ(grid.buckets[1].regionId, 2);
  EXPECT_EQ(grid.buckets[2].regionId, 3);
  EXPECT_EQ(grid.buckets[3].regionId, 4);
  EXPECT_EQ(grid.buckets[2].startRow, "g");
  EXPECT_EQ(grid.buckets[2].endRow, "m");
  EXPECT_EQ(grid.columnMillis, 1000);
  for (size_t s = 0; s < 10; ++s) {
    EXPECT_EQ(grid.at(0, s), s < 5 ? 3.0 * static_cast<double>(s + 1) : 0.0) << s;
    EXPECT_EQ(grid.at(1, s), s >= 5 ? 2.0 : 0.0) << s;
    EXPECT_EQ(grid.at(2, s), s >= 5 ? 7.0 : 0.0) << s;
    EXPECT_EQ(grid.at(3, s), 5.0) << s;
  }
  EXPECT_EQ(grid.maxValue, 15.0);
  EXPECT_EQ(grid.statRowsRead, 25u);  // the rows of the window: 5 + 5 + 5 + 10
}

TEST(HeatGrid, ReportsEverySplitAndMergeInsideTheWindow) {
  StatsDb db;
  stats::TableContext table = splitTable();
  // Regions 2 and 3 merge into 5 at 8 s.
  table.history[2].retiredMillis = 8000;
  table.history[3].retiredMillis = 8000;
  table.history.push_back(region(5, "", "m", 8000, std::nullopt, 0, true));
  const HeatGrid all = gridOf(db, table, request(KeyAxis::kRegions, {0, 10000}, 10));
  ASSERT_EQ(all.boundaries.size(), 2u);
  EXPECT_EQ(all.boundaries[0].atMillis, 5000);
  EXPECT_EQ(all.boundaries[0].row, "g");
  EXPECT_EQ(all.boundaries[0].kind, HeatGridBoundary::Kind::kSplit);
  EXPECT_EQ(all.boundaries[1].atMillis, 8000);
  EXPECT_EQ(all.boundaries[1].row, "g");
  EXPECT_EQ(all.boundaries[1].kind, HeatGridBoundary::Kind::kMerge);
  const HeatGrid late = gridOf(db, table, request(KeyAxis::kRegions, {6000, 10000}, 4));
  ASSERT_EQ(late.boundaries.size(), 1u);
  EXPECT_EQ(late.boundaries[0].kind, HeatGridBoundary::Kind::kMerge);
  EXPECT_EQ(late.buckets.size(), 4u);  // region 1 retired before the window
  const HeatGrid early = gridOf(db, table, request(KeyAxis::kEqualKeyCounts, {0, 4000}, 4));
  EXPECT_TRUE(early.boundaries.empty());
}

TEST(HeatGrid, ColumnsNarrowerThanASecondShareItsLoadEvenly) {
  StatsDb db;
  StatsRecorder recorder;
  for (int i = 0; i < 100; ++i) recorder.recordWrite(at(1, 1), "a", 1, 10, 0);
  for (int i = 0; i < 40; ++i) recorder.recordWrite(at(1, 1), "a", 1, 10, 1999);
  db.persist(recorder);
  const HeatGrid grid = gridOf(db, tableOf(1, {region(1, "", "")}), request(KeyAxis::kRegions, {0, 2000}, 8));
  EXPECT_EQ(grid.columnMillis, 250);
  for (size_t c = 0; c < 8; ++c) EXPECT_DOUBLE_EQ(grid.at(0, c), c < 4 ? 25.0 : 10.0) << c;
}

TEST(HeatGrid, AWindowThatColumnsDoNotDivideEndsAtWholeColumnsAndKeepsEverySecond) {
  StatsDb db;
  StatsRecorder recorder;
  for (int s = 0; s < 12; ++s) recorder.recordWrite(at(1, 1), "a", 1, 10, s * 1000);
  db.persist(recorder);
  const HeatGrid grid = gridOf(db, tableOf(1, {region(1, "", "")}), request(KeyAxis::kRegions, {0, 10000}, 3));
  EXPECT_EQ(grid.columnMillis, 3334);
  EXPECT_EQ(grid.window.fromMillis, 0);
  EXPECT_EQ(grid.window.toMillis, 10002);
  EXPECT_DOUBLE_EQ(gridTotal(grid), 10.0);  // seconds 0 ... 9, not 10 or 11
  EXPECT_NEAR(grid.at(0, 0), 3.334, 1e-9);  // seconds 0, 1, 2 and 334 ms of second 3
}

// --- Equal key counts -------------------------------------------------------------

TEST(HeatGrid, EqualKeyCountsPutEachColumnsLoadInTheBucketOfAMonotonicKeyFront) {
  StatsDb db;
  StatsRecorder recorder;
  // Second s writes rows 100s ... 100s + 99, five times each: a front moving
  // through the key space, crossing from region 1 into region 2 at row 500.
  for (int s = 0; s < 10; ++s)
    for (int i = 0; i < 500; ++i) {
      const int row = s * 100 + i % 100;
      recorder.recordWrite(at(1, row < 500 ? 1 : 2), rowKey(row), 1, 10, s * 1000 + i);
    }
  db.persist(recorder);
  stats::TableContext table = tableOf(1, {region(1, "", rowKey(500)), region(2, rowKey(500), "")});
  table.keys = keysOf(rows(1000));
  const HeatGrid grid = gridOf(db, table, request(KeyAxis::kEqualKeyCounts, {0, 10000}, 10, 10));
  ASSERT_EQ(grid.buckets.size(), 10u);
  EXPECT_EQ(grid.buckets[0].startRow, "");
  for (size_t b = 1; b < 10; ++b) EXPECT_EQ(grid.buckets[b].startRow, rowKey(static_cast<int>(b) * 100)) << b;
  EXPECT_EQ(grid.buckets[9].endRow, "");
  EXPECT_EQ(grid.buckets[3].label, "row000300");
  for (size_t s = 0; s < 10; ++s)
    for (size_t b = 0; b < 10; ++b) EXPECT_NEAR(grid.at(b, s), b == s ? 500.0 : 0.0, 1e-9) << "bucket " << b << " column " << s;
  EXPECT_NEAR(grid.maxValue, 500.0, 1e-9);
}

TEST(HeatGrid, EqualKeyCountsAddUpPerRegionAndSecondToTheExactCounters) {
  StatsDb db;
  StatsRecorder recorder(11);
  std::mt19937 rng(5);
  // Exact totals per second: operations (also per region), bytes written, cells read.
  std::vector<double> operations(6), bytesWritten(6), cellsRead(6);
  std::vector<std::vector<double>> regionOperations(6, std::vector<double>(4));
  for (int i = 0; i < 12000; ++i) {
    const auto s = static_cast<size_t>(i / 2000);
    const int row = static_cast<int>(rng() % 1000);
    const size_t regionId = row < 300 ? 1 : row < 700 ? 2 : 3;
    const uint64_t cells = 1 + rng() % 4;
    if (rng() % 4 == 0) {
      // A scan of 10 rows keeping 2 of them (row and its pair: the same region).
      const std::string a = rowKey(row);
      const std::string b = rowKey(row ^ 1);
      const std::string_view sample[] = {a, b};
      recorder.recordReads(at(1, static_cast<int64_t>(regionId)), 10, cells * 10, cells * 100, sample,
                           static_cast<int64_t>(s) * 1000 + i % 1000);
      operations[s] += 10;
      regionOperations[s][regionId] += 10;
      cellsRead[s] += static_cast<double>(cells * 10);
    } else {
      recorder.recordWrite(at(1, static_cast<int64_t>(regionId)), rowKey(row), cells, cells * 30,
                           static_cast<int64_t>(s) * 1000 + i % 1000);
      operations[s] += 1;
      regionOperations[s][regionId] += 1;
      bytesWritten[s] += static_cast<double>(cells * 30);
    }
  }
  db.persist(recorder);
  stats::TableContext table =
      tableOf(1, {region(1, "", rowKey(300)), region(2, rowKey(300), rowKey(700)), region(3, rowKey(700), "")});
  table.keys = keysOf(rows(1000));
  for (auto [metric, expected] : {std::pair{LoadMetric::kOperations, &operations},
                                  std::pair{LoadMetric::kBytesWritten, &bytesWritten},
                                  std::pair{LoadMetric::kCellsRead, &cellsRead}}) {
    const HeatGrid grid = gridOf(db, table, request(KeyAxis::kEqualKeyCounts, {0, 6000}, 6, 20, metric));
    ASSERT_EQ(grid.buckets.size(), 20u);
    for (size_t s = 0; s < 6; ++s)
      EXPECT_NEAR(columnTotal(grid, s), (*expected)[s], 1e-9 * (*expected)[s]) << loadMetricName(metric) << " " << s;
    for (double v : grid.values) EXPECT_GE(v, 0.0);
  }
  // Buckets of 50 rows: regions end at bucket boundaries, and each one's load stays in its buckets.
  const HeatGrid grid = gridOf(db, table, request(KeyAxis::kEqualKeyCounts, {0, 6000}, 6, 20));
  ASSERT_EQ(grid.buckets[6].startRow, rowKey(300));
  ASSERT_EQ(grid.buckets[14].startRow, rowKey(700));
  auto sum = [&](size_t from, size_t to, size_t column) {
    double total = 0;
    for (size_t b = from; b < to; ++b) total += grid.at(b, column);
    return total;
  };
  for (size_t s = 0; s < 6; ++s) {
    EXPECT_NEAR(sum(0, 6, s), regionOperations[s][1], 1e-9 * operations[s]) << s;
    EXPECT_NEAR(sum(6, 14, s), regionOperations[s][2], 1e-9 * operations[s]) << s;
    EXPECT_NEAR(sum(14, 20, s), regionOperations[s][3], 1e-9 * operations[s]) << s;
  }
}

TEST(HeatGrid, AHotRowShowsInOneBucket) {
  StatsDb db;
  StatsRecorder recorder(3);
  std::mt19937 rng(8);
  for (int i = 0; i < 5000; ++i) {
    const std::string row = rng() % 10 < 9 ? rowKey(555) : rowKey(static_cast<int>(rng() % 1000));
    const std::string_view sample[] = {row};
    recorder.recordReads(at(1, 1), 1, 1, 10, sample, i / 5);
  }
  db.persist(recorder);
  stats::TableContext table = tableOf(1, {region(1, "", "")});
  table.keys = keysOf(rows(1000));
  const HeatGrid grid = gridOf(db, table, request(KeyAxis::kEqualKeyCounts, {0, 1000}, 1, 10, LoadMetric::kReads));
  ASSERT_EQ(grid.buckets.size(), 10u);
  EXPECT_NEAR(gridTotal(grid), 5000.0, 1e-6);
  EXPECT_GT(grid.at(5, 0) / 5000.0, 0.85);
  EXPECT_LT(grid.at(5, 0) / 5000.0, 0.97);
  for (size_t b = 0; b < 10; ++b) {
    if (b == 5) continue;
    EXPECT_LT(grid.at(b, 0) / 5000.0, 0.05) << b;
  }
  EXPECT_EQ(grid.maxValue, grid.at(5, 0));
}

// Gets (a sample each) in rows 0-99 and scans (two sample rows standing for
// fifty rows each) in rows 900-999 fill one reservoir: the scans' samples
// are kept more often, and weighing each by the probability it was kept
// gives both their true shares of the reads, a third and two thirds.
TEST(HeatGrid, GetsAndScansSharingASecondArePlacedByTheRowsTheyStandFor) {
  StatsDb db;
  StatsRecorder recorder(17);
  std::mt19937 rng(2);
  for (int i = 0; i < 2000; ++i) {
    const std::string row = rowKey(static_cast<int>(rng() % 100));
    const std::string_view sample[] = {row};
    recorder.recordReads(at(1, 1), 1, 1, 10, sample, i / 3);
    if (i % 50 == 0) {
      const std::string a = rowKey(900 + static_cast<int>(rng() % 100));
      const std::string b = rowKey(900 + static_cast<int>(rng() % 100));
      const std::string_view rows2[] = {a, b};
      recorder.recordReads(at(1, 1), 100, 100, 1000, rows2, i / 3);
    }
  }
  db.persist(recorder);
  stats::TableContext table = tableOf(1, {region(1, "", "")});
  table.keys = keysOf(rows(1000));
  const HeatGrid grid = gridOf(db, table, request(KeyAxis::kEqualKeyCounts, {0, 1000}, 1, 10, LoadMetric::kReads));
  EXPECT_NEAR(gridTotal(grid), 6000.0, 1e-6);
  EXPECT_NEAR(grid.at(0, 0) / 6000.0, 1.0 / 3.0, 0.05);
  EXPECT_NEAR(grid.at(9, 0) / 6000.0, 2.0 / 3.0, 0.05);
}

TEST(HeatGrid, LoadWithoutSamplesSpreadsEvenlyOverTheBucketsOfItsRegion) {
  StatsDb db;
  StatsRecorder recorder;
  recorder.recordReads(at(1, 2), 100, 100, 1000, {}, 0);  // a scan that kept no rows
  db.persist(recorder);
  stats::TableContext table = tableOf(1, {region(1, "", rowKey(500)), region(2, rowKey(500), "")});
  table.keys = keysOf(rows(1000));
  const HeatGrid grid = gridOf(db, table, request(KeyAxis::kEqualKeyCounts, {0, 1000}, 1, 10));
  for (size_t b = 0; b < 10; ++b) EXPECT_NEAR(grid.at(b, 0), b < 5 ? 0.0 : 20.0, 1e-9) << b;
}

// The same ten seconds on one region: few keys and operations, then a
// hundred times the keys and cells and ten times the operations.
uint64_t statRowsFor(int storedKeys, int operationsPerSecond, uint64_t cellsPerWrite, KeyAxis axis) {
  StatsDb db;
  StatsRecorder recorder;
  for (int s = 0; s < 10; ++s)
    for (int i = 0; i < operationsPerSecond; ++i)
      recorder.recordWrite(at(1, 1), rowKey(i % storedKeys), cellsPerWrite, cellsPerWrite * 20, s * 1000 + i % 1000);
  db.persist(recorder);
  stats::TableContext table = tableOf(1, {region(1, "", "")});
  table.keys = keysOf(rows(storedKeys), cellsPerWrite);
  return gridOf(db, table, request(axis, {0, 10000}, 10, 20)).statRowsRead;
}

TEST(HeatGrid, StatRowsReadDoNotGrowWithTheKeysCellsOrOperationsStored) {
  const uint64_t small = statRowsFor(1000, 500, 1, KeyAxis::kEqualKeyCounts);
  const uint64_t large = statRowsFor(100000, 5000, 50, KeyAxis::kEqualKeyCounts);
  EXPECT_EQ(small, large);
  // One counter row and one sample set per second, and full reservoirs.
  EXPECT_EQ(large, 10u + 10u + 10u * stats::kReservoirCapacity);
  EXPECT_EQ(statRowsFor(1000, 500, 1, KeyAxis::kRegions), 10u);
  EXPECT_EQ(statRowsFor(100000, 5000, 50, KeyAxis::kRegions), 10u);
}

// --- Schema components and the salt -----------------------------------------------

Bytes encoded(const KeySchema& schema, const KeyTuple& tuple) {
  Result<Bytes> key = encodeKey(schema, tuple);
  EXPECT_TRUE(key.isOk()) << key.status().toString();
  return key.isOk() ? *key : Bytes();
}

TEST(HeatGrid, FoldingTheSaltLinesUpTheMonotonicFrontsOfEverySaltBucket) {
  const std::string text = "salt:salt(4, ts) | ts:i64";
  const KeySchema schema = *KeySchema::parse(text);
  StatsDb db;
  StatsRecorder recorder;
  std::vector<std::string> keys;
  for (int64_t ts = 0; ts < 1000; ++ts) keys.push_back(encoded(schema, {std::monostate{}, ts}));
  // A region per salt bucket; second s writes ts 100s ... 100s + 99 (three times each).
  for (int s = 0; s < 10; ++s)
    for (int i = 0; i < 300; ++i) {
      const std::string& key = keys[static_cast<size_t>(s * 100 + i % 100)];
      recorder.recordWrite(at(1, 1 + static_cast<uint8_t>(key[0])), key, 1, 10, s * 1000 + i);
    }
  db.persist(recorder);
  stats::TableContext table = tableOf(
      1, {region(1, "", "\x01"), region(2, "\x01", "\x02"), region(3, "\x02", "\x03"), region(4, "\x03", "")}, text);
  std::sort(keys.begin(), keys.end());
  table.keys = keysOf(keys);

  HeatGridRequest folded = request(KeyAxis::kSchemaComponent, {0, 10000}, 10, 10);
  folded.foldSalt = true;
  const HeatGrid grid = gridOf(db, table, folded);
  ASSERT_EQ(grid.buckets.size(), 10u);
  EXPECT_FALSE(grid.buckets[1].keyRange);
  EXPECT_EQ(grid.buckets[1].label, "ts=100");
  for (size_t s = 0; s < 10; ++s) EXPECT_NEAR(grid.at(s, s), 300.0, 1e-9) << s;

  // Unfolded, every salt bucket's front is a different key range.
  const HeatGrid plain = gridOf(db, table, request(KeyAxis::kEqualKeyCounts, {0, 10000}, 10, 10));
  for (size_t s = 0; s < 10; ++s) EXPECT_GE(nonZeroBuckets(plain, s), 4u) << s;
  EXPECT_EQ(plain.buckets[1].label.rfind("salt=", 0), 0u) << plain.buckets[1].label;
}

TEST(HeatGrid, ASchemaComponentMakesOneBucketPerValueOrRunsOfValues) {
  const std::string text = "user:utf8 | ts:i64";
  const KeySchema schema = *KeySchema::parse(text);
  StatsDb db;
  StatsRecorder recorder;
  std::vector<std::string> keys;
  for (const char* user : {"alice", "bob", "carol"})
    for (int64_t ts = 0; ts < 100; ++ts) keys.push_back(encoded(schema, {std::string(user), ts}));
  for (int i = 0; i < 140; ++i) recorder.recordWrite(at(1, 1), keys[static_cast<size_t>(i % 100)], 1, 10, 0);
  for (int i = 0; i < 60; ++i) recorder.recordWrite(at(1, 1), keys[static_cast<size_t>(100 + i)], 1, 10, 0);
  db.persist(recorder);
  stats::TableContext table = tableOf(1, {region(1, "", "")}, text);
  table.keys = keysOf(keys);

  HeatGridRequest byUser = request(KeyAxis::kSchemaComponent, {0, 1000}, 1, 100);
  byUser.component = "user";
  const HeatGrid users = gridOf(db, table, byUser);
  ASSERT_EQ(users.buckets.size(), 3u);
  EXPECT_EQ(users.buckets[0].label, "user=alice");
  EXPECT_EQ(users.buckets[2].label, "user=carol");
  EXPECT_TRUE(users.buckets[1].keyRange);
  EXPECT_NEAR(users.at(0, 0), 140.0, 1e-9);
  EXPECT_NEAR(users.at(1, 0), 60.0, 1e-9);
  EXPECT_NEAR(users.at(2, 0), 0.0, 1e-9);

  HeatGridRequest byTs = request(KeyAxis::kSchemaComponent, {0, 1000}, 1, 10);
  byTs.component = "ts";
  const HeatGrid times = gridOf(db, table, byTs);
  ASSERT_EQ(times.buckets.size(), 10u);
  EXPECT_FALSE(times.buckets[0].keyRange);
  EXPECT_EQ(times.buckets[0].label, "ts=0 \u2026 9");
  EXPECT_NEAR(times.at(0, 0), 20.0 + 10.0, 1e-9);  // alice 0-9 twice (140 = 100 + 40), bob 0-9 once
  EXPECT_NEAR(gridTotal(times), 200.0, 1e-9);
}

TEST(KeyLabels, DecodeByTheSchemaWithTimesAndShowWhatDoesNotFitEscaped) {
  const KeySchema schema = *KeySchema::parse("salt:salt(8, user) | user:utf8 | ts:i64");
  const Bytes key = encoded(schema, {std::monostate{}, std::string("alice"), int64_t{1795169100000}});
  const uint64_t salt = std::get<uint64_t>(decodeKey(schema, key).values[0]);
  const stats::KeyLabeler labeler(schema);
  EXPECT_EQ(labeler.row(key), "salt=" + std::to_string(salt) + " \u203a user=alice \u203a ts=2026-11-20 10:05:00");
  EXPECT_EQ(labeler.row(key, 1), "user=alice \u203a ts=2026-11-20 10:05:00");
  // Cut inside ts: the rest of the bytes, escaped.
  EXPECT_EQ(labeler.row(key.substr(0, key.size() - 5)),
            "salt=" + std::to_string(salt) + " \u203a user=alice \u203a \\x80\\x00\\x01");
  EXPECT_EQ(stats::KeyLabeler(std::nullopt).row(std::string("a\x00z", 3)), "a\\x00z");
}

// --- Bad requests ---------------------------------------------------------------------

TEST(HeatGrid, BadRequestsAreInvalidArgumentsThatSayWhy) {
  StatsDb db;
  const stats::TableContext plain = tableOf(1, {region(1, "", "")});
  const stats::TableContext salted = tableOf(1, {region(1, "", "")}, "salt:salt(4, ts) | ts:i64");
  const stats::TableContext broken = tableOf(1, {region(1, "", "")}, "ts:int64");
  auto expectInvalid = [&](const stats::TableContext& table, const HeatGridRequest& r, const std::string& says) {
    const Status s = statusOf(db, table, r);
    EXPECT_EQ(s.code(), Status::Code::kInvalidArgument) << s.toString();
    EXPECT_NE(s.message().find(says), std::string::npos) << s.message() << " lacks " << says;
  };
  expectInvalid(plain, request(KeyAxis::kRegions, {0, 1000}, 0), "timeColumns");
  expectInvalid(plain, request(KeyAxis::kRegions, {0, 1000}, 2001), "timeColumns");
  expectInvalid(plain, request(KeyAxis::kEqualKeyCounts, {0, 1000}, 10, 0), "keyBuckets");
  expectInvalid(plain, request(KeyAxis::kEqualKeyCounts, {}, 10), "finite");
  expectInvalid(plain, request(KeyAxis::kEqualKeyCounts, {0, std::numeric_limits<int64_t>::max()}, 10), "finite");
  expectInvalid(plain, request(KeyAxis::kEqualKeyCounts, {std::numeric_limits<int64_t>::min(), 0}, 10), "finite");
  expectInvalid(plain, request(KeyAxis::kEqualKeyCounts, {5000, 5000}, 10), "empty");
  expectInvalid(plain, request(KeyAxis::kEqualKeyCounts, {0, 1000}, 10, 10, static_cast<LoadMetric>(99)), "metric");
  expectInvalid(plain, request(static_cast<KeyAxis>(42), {0, 1000}, 10), "axis");

  HeatGridRequest byComponent = request(KeyAxis::kSchemaComponent, {0, 1000}, 10);
  byComponent.component = "ts";
  expectInvalid(plain, byComponent, "needs a key schema");
  expectInvalid(broken, byComponent, "does not parse");
  byComponent.component = "user";
  expectInvalid(salted, byComponent, "unknown key-schema component 'user'");
  byComponent.component = "";
  expectInvalid(salted, byComponent, "name the key-schema component");

  HeatGridRequest fold = request(KeyAxis::kEqualKeyCounts, {0, 1000}, 10);
  fold.foldSalt = true;
  expectInvalid(plain, fold, "foldSalt needs a key schema");
  expectInvalid(tableOf(1, {region(1, "", "")}, "ts:i64 | salt:salt(4, ts)"), fold, "starts with a salt");
  fold.axis = KeyAxis::kRegions;
  expectInvalid(salted, fold, "not by region");

  // A schema that does not parse only loses the labels where none is needed.
  EXPECT_TRUE(statusOf(db, broken, request(KeyAxis::kEqualKeyCounts, {0, 1000}, 10)).isOk());
}

TEST(HeatGrid, AnEmptyTableAndWindowGiveAZeroGridOfOneBucket) {
  StatsDb db;
  const HeatGrid grid = gridOf(db, tableOf(1, {region(1, "", "")}), request(KeyAxis::kEqualKeyCounts, {0, 5000}, 5));
  ASSERT_EQ(grid.buckets.size(), 1u);
  EXPECT_EQ(grid.values, std::vector<double>(5, 0.0));
  EXPECT_EQ(grid.maxValue, 0.0);
}

}  // namespace
}  // namespace keyscope::test
