// The workload's options: design names, the operation mix, option checks,
// presets, the schedule's arithmetic, the summary intervals and the verdict.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "workload/operation_stream.h"
#include "workload/workload_summary.h"
#include "workload_test_util.h"

namespace keyscope::test {
namespace {

using ::testing::HasSubstr;

TEST(WorkloadNames, EveryDesignNameParsesBack) {
  for (KeyDesign d : keyDesigns()) EXPECT_EQ(parseKeyDesign(keyDesignName(d)), d) << keyDesignName(d);
  EXPECT_EQ(parseKeyDesign("opentsdb"), KeyDesign::kFieldSwapped);
  EXPECT_EQ(parseKeyDesign("lock-step"), KeyDesign::kLockstep);
  EXPECT_EQ(parseKeyDesign("Monotonic"), std::nullopt);
}

TEST(OperationMix, ParsesWeightsAndLeavesOutKindsAtZero) {
  Result<OperationMix> mix = parseOperationMix("put=90, get=8,scan=2");
  ASSERT_TRUE(mix.isOk());
  EXPECT_EQ(mix->put, 90);
  EXPECT_EQ(mix->get, 8);
  EXPECT_EQ(mix->scan, 2);
  EXPECT_EQ(operationMixText(*mix), "put=90%,get=8%,scan=2%");
  mix = parseOperationMix("get=0.25");
  ASSERT_TRUE(mix.isOk());
  EXPECT_EQ(mix->put, 0);
  EXPECT_EQ(operationMixText(*mix), "get=100%");
}

TEST(OperationMix, BadItemsSayWhichAndWhy) {
  EXPECT_EQ(parseOperationMix("put").status().message(), "mix item 'put': write KIND=WEIGHT, KIND put, get or scan");
  EXPECT_EQ(parseOperationMix("put=1,delete=2").status().message(),
            "mix item 'delete=2': unknown kind 'delete' (put, get, scan)");
  EXPECT_EQ(parseOperationMix("put=-1").status().message(), "mix item 'put=-1': the weight is a number, 0 or more");
  EXPECT_EQ(parseOperationMix("put=1,put=2").status().message(), "mix item 'put=2': put is given twice");
  EXPECT_EQ(parseOperationMix("put=0").status().message(), "mix: the weights add up to 0");
  EXPECT_FALSE(parseOperationMix("").isOk());
}

WorkloadOptions valid() {
  WorkloadOptions o;
  o.table = "t";
  return o;
}

std::string errorWith(void (*change)(WorkloadOptions&)) {
  WorkloadOptions o = valid();
  change(o);
  return validateWorkloadOptions(o).message();
}

TEST(WorkloadOptionsCheck, TheDefaultsAreValid) { EXPECT_TRUE(validateWorkloadOptions(valid()).isOk()); }

TEST(WorkloadOptionsCheck, EachBadOptionIsNamed) {
  EXPECT_EQ(errorWith([](WorkloadOptions& o) { o.table.clear(); }), "the table name is empty");
  EXPECT_EQ(errorWith([](WorkloadOptions& o) { o.clients = 10001; }), "clients: 10001 is out of range (1 to 10,000)");
  EXPECT_EQ(errorWith([](WorkloadOptions& o) { o.mix = OperationMix{0, 0, 0}; }), "mix: the weights add up to 0");
  EXPECT_THAT(errorWith([](WorkloadOptions& o) { o.rate = 0; }), HasSubstr("rate:"));
  EXPECT_THAT(errorWith([](WorkloadOptions& o) { o.rate = -5; }), HasSubstr("rate:"));
  EXPECT_THAT(errorWith([](WorkloadOptions& o) { o.operations = 0; }), HasSubstr("operations: 0 is out of range"));
  EXPECT_THAT(errorWith([](WorkloadOptions& o) { o.durationMillis = 0; }), HasSubstr("duration"));
  EXPECT_THAT(errorWith([](WorkloadOptions& o) { o.batchSize = 0; }), HasSubstr("batch: 0"));
  EXPECT_THAT(errorWith([](WorkloadOptions& o) { o.valueBytes = 2u << 20; }), HasSubstr("value size"));
  EXPECT_THAT(errorWith([](WorkloadOptions& o) { o.scanRows = 0; }), HasSubstr("scan rows"));
  EXPECT_THAT(errorWith([](WorkloadOptions& o) { o.intervals = 0; }), HasSubstr("intervals"));
  EXPECT_THAT(errorWith([](WorkloadOptions& o) { o.servers = 0; }), HasSubstr("servers: 0"));
  EXPECT_THAT(errorWith([](WorkloadOptions& o) { o.startMillis = -1; }), HasSubstr("start"));
  EXPECT_THAT(errorWith([](WorkloadOptions& o) { o.newTable.preSplitRegions = 0; }), HasSubstr("pre-split"));
  EXPECT_THAT(errorWith([](WorkloadOptions& o) {
                o.keys.design = KeyDesign::kSalted;
                o.keys.saltBuckets = 0;
              }),
              HasSubstr("salt buckets"));
}

TEST(WorkloadPresets, EachPresetIsValidAndSetsItsDesign) {
  ASSERT_EQ(workloadPresets().size(), 7u);
  for (const WorkloadPreset& p : workloadPresets()) {
    WorkloadOptions o = valid();
    o.seed = 7;
    ASSERT_TRUE(applyWorkloadPreset(p.name, &o).isOk()) << p.name;
    EXPECT_TRUE(validateWorkloadOptions(o).isOk()) << p.name;
    EXPECT_EQ(o.table, "t");
    EXPECT_EQ(o.seed, 7u);
    EXPECT_EQ(o.operations, 100000u) << p.name;
    EXPECT_FALSE(p.description.empty());
  }
  WorkloadOptions o = valid();
  ASSERT_TRUE(applyWorkloadPreset("salted", &o).isOk());
  EXPECT_EQ(o.keys.design, KeyDesign::kSalted);
  EXPECT_EQ(o.newTable.preSplitRegions, 8u);
  ASSERT_TRUE(applyWorkloadPreset("lockstep", &o).isOk());
  EXPECT_EQ(o.keys.design, KeyDesign::kLockstep);
  EXPECT_EQ(o.newTable.preSplitRegions, 10u);
  EXPECT_EQ(applyWorkloadPreset("nope", &o).message(),
            "unknown preset 'nope' (presets: lockstep, monotonic, salted, field-swapped, hashed, zipf, uniform)");
}

TEST(WorkloadSchedule, OperationKRunsAtStartPlusKOverTheRate) {
  WorkloadOptions o = valid();
  o.rate = 300;
  o.durationMillis = 1000;
  const workload::Schedule s = workload::Schedule::of(o, 5000);
  EXPECT_EQ(s.operations, 300u);
  EXPECT_EQ(s.timeOf(0), 5000);
  EXPECT_EQ(s.timeOf(1), 5003);  // 3.33 ms, floored
  EXPECT_EQ(s.timeOf(299), 5996);
  o.rate.reset();
  o.durationMillis.reset();
  EXPECT_EQ(workload::Schedule::of(o, 0).operations, kDefaultOperations);
}

TEST(SummaryIntervals, WholeSecondsCoveringTheRun) {
  workload::IntervalPlan p = workload::planIntervals(kDefaultStartMillis, kDefaultStartMillis + 99999, 10);
  EXPECT_EQ(p.count, 10u);
  EXPECT_EQ(p.intervalMillis, 10000);
  EXPECT_EQ(p.window.fromMillis, kDefaultStartMillis);
  EXPECT_EQ(p.window.toMillis, kDefaultStartMillis + 100000);
  // Shorter than the intervals asked for: one per second.
  p = workload::planIntervals(kDefaultStartMillis + 500, kDefaultStartMillis + 3200, 10);
  EXPECT_EQ(p.count, 4u);
  EXPECT_EQ(p.intervalMillis, 1000);
  EXPECT_EQ(p.window.fromMillis, kDefaultStartMillis);
}

IntervalLoad interval(uint64_t writes, double share) {
  IntervalLoad l;
  l.writes = writes;
  l.hottestServer = 0;
  l.hottestServerShare = share;
  return l;
}

TEST(WorkloadVerdict, NamesTheHotIntervals) {
  std::vector<IntervalLoad> loads(10, interval(1000, 1.0));
  loads[3].hottestServerShare = 0.975;
  loads[7].hottestServerShare = 0.6;
  EXPECT_EQ(workload::verdictLine(loads, LoadMetric::kWrites, 4),
            "hottest server took 97% of writes in 9 of 10 intervals: a write hotspot");
  for (size_t i = 2; i < 10; ++i) loads[i].hottestServerShare = 0.5;
  EXPECT_EQ(workload::verdictLine(loads, LoadMetric::kWrites, 4),
            "hottest server took 100% of writes in 2 of 10 intervals: a hotspot part of the time");
}

TEST(WorkloadVerdict, SaysWhenTheLoadIsSpread) {
  std::vector<IntervalLoad> loads(10, interval(1000, 0.25));
  loads[4].hottestServerShare = 0.301;
  loads[9].writes = 0;  // an empty interval does not count
  EXPECT_EQ(workload::verdictLine(loads, LoadMetric::kWrites, 4),
            "hottest server took at most 31% of writes in any of 9 intervals (an even share over 4 servers is "
            "25%): writes spread");
  loads[4].hottestServerShare = 0.6;
  EXPECT_EQ(workload::verdictLine(loads, LoadMetric::kWrites, 4),
            "hottest server took at most 60% of writes in any of 9 intervals (an even share over 4 servers is "
            "25%): writes uneven");
  EXPECT_EQ(workload::verdictLine({}, LoadMetric::kReads, 4), "no reads were recorded, so there is no verdict");
}

}  // namespace
}  // namespace keyscope::test
