// Key designs: the documented schemas, golden keys (cross-checked against an
// independent model of the simulator's random source and of md5 salts), keys
// that decode with the design's schema, reproducibility by seed, and split
// points.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "keyscope/key_codec.h"
#include "keyscope/key_schema.h"
#include "md5_digest.h"
#include "workload/key_design.h"
#include "workload_test_util.h"

namespace keyscope::test {
namespace {

using ::testing::ElementsAre;

std::string schemaOf(KeyDesignOptions keys) {
  Result<std::string> schema = keyDesignSchema(keys);
  EXPECT_TRUE(schema.isOk()) << schema.status().toString();
  return schema ? *schema : std::string();
}

KeyDesignOptions design(KeyDesign d) {
  KeyDesignOptions o;
  o.design = d;
  return o;
}

TEST(KeyDesignSchema, EveryDesignStatesItsDocumentedSchema) {
  EXPECT_EQ(schemaOf(design(KeyDesign::kMonotonic)), "ts:i64 | event:u64");
  EXPECT_EQ(schemaOf(design(KeyDesign::kSequence)), "seq:u64");
  EXPECT_EQ(schemaOf(design(KeyDesign::kSalted)), "salt:salt(8, ts) | ts:i64 | event:u64");
  EXPECT_EQ(schemaOf(design(KeyDesign::kFieldSwapped)), "metric:utf8 | ts:i64 | event:u64");
  EXPECT_EQ(schemaOf(design(KeyDesign::kHashed)), "hash:md5(4, entity) | entity:utf8 | ts:i64 | event:u64");
  EXPECT_EQ(schemaOf(design(KeyDesign::kUniform)), "key:u64");
  EXPECT_EQ(schemaOf(design(KeyDesign::kZipf)), "entity:utf8 | ts:i64 | event:u64");
  EXPECT_EQ(schemaOf(design(KeyDesign::kLockstep)), "row:u64 | client:u16");
}

TEST(KeyDesignSchema, SaltVariantsNameTheirBucketsSourceAndFormat) {
  KeyDesignOptions o = design(KeyDesign::kSalted);
  o.saltBuckets = 16;
  o.saltSource = SaltSource::kEntity;
  EXPECT_EQ(schemaOf(o), "salt:salt(16, entity) | ts:i64 | entity:utf8 | event:u64");
  o.saltFormat = SaltFormat::kHex;
  EXPECT_EQ(schemaOf(o), "salt:bytes(2) | ts:i64 | entity:utf8 | event:u64");
}

TEST(KeyDesignSchema, BadOptionsNameTheOption) {
  KeyDesignOptions o = design(KeyDesign::kSalted);
  o.saltBuckets = 0;
  EXPECT_EQ(keyDesignSchema(o).status().message(), "salt buckets: 0 is out of range (1 to 256: the salt is one byte)");
  o.saltBuckets = 257;
  EXPECT_FALSE(keyDesignSchema(o).isOk());
  KeyDesignOptions z = design(KeyDesign::kZipf);
  z.zipfExponent = 0;
  EXPECT_NE(keyDesignSchema(z).status().message().find("zipf exponent"), std::string::npos);
  KeyDesignOptions e = design(KeyDesign::kHashed);
  e.entities = 0;
  EXPECT_NE(keyDesignSchema(e).status().message().find("entities"), std::string::npos);
  KeyDesignOptions m = design(KeyDesign::kMonotonic);
  m.keySchema = "a:u8";
  EXPECT_NE(keyDesignSchema(m).status().message().find("schema design"), std::string::npos);
}

// 2024-01-01T00:00:00Z is 0x18CC251F400 ms: as a sorted i64, 80 00 01 8c c2 51 f4 00.
TEST(KeyDesignGolden, MonotonicLeadsWithTheSimulatedTime) {
  EXPECT_THAT(firstKeysHex(singleClient(KeyDesign::kMonotonic), 3),
              ElementsAre("8000018cc251f4000000000000000000", "8000018cc251f4010000000000000001",
                          "8000018cc251f4020000000000000002"));
}

TEST(KeyDesignGolden, SequenceCountsUp) {
  EXPECT_THAT(firstKeysHex(singleClient(KeyDesign::kSequence), 3),
              ElementsAre("0000000000000000", "0000000000000001", "0000000000000002"));
}

// Salt byte: u32be(md5(Bytes.toBytes(ts))[0..4]) mod 8 (Python's hashlib agrees: 7, 1, 2).
TEST(KeyDesignGolden, SaltedPutsMd5OfTheTimeModBucketsInFront) {
  const std::vector<std::string> keys = firstKeysHex(singleClient(KeyDesign::kSalted), 3);
  EXPECT_THAT(keys, ElementsAre("078000018cc251f4000000000000000000", "018000018cc251f4010000000000000001",
                                "028000018cc251f4020000000000000002"));
  for (size_t k = 0; k < 3; ++k) {
    Bytes ts(8, '\0');
    const uint64_t v = static_cast<uint64_t>(kDefaultStartMillis) + k;
    for (int i = 0; i < 8; ++i) ts[static_cast<size_t>(i)] = static_cast<char>(v >> (56 - 8 * i));
    const Md5Digest d = md5(ts);
    const uint32_t head = (uint32_t{d[0]} << 24) | (uint32_t{d[1]} << 16) | (uint32_t{d[2]} << 8) | d[3];
    EXPECT_EQ(keys[k].substr(0, 2), toHex(Bytes(1, static_cast<char>(head % 8)))) << k;
  }
}

TEST(KeyDesignGolden, HexSaltByEntityIsTwoDigitsOfTheEntitysBucket) {
  WorkloadOptions o = singleClient(KeyDesign::kSalted);
  o.keys.saltSource = SaltSource::kEntity;
  o.keys.saltFormat = SaltFormat::kHex;
  // "03" | ts | "user0897" | event 0; md5("user0897") mod 8 = 3.
  EXPECT_THAT(firstKeysHex(o, 1), ElementsAre("30338000018cc251f400757365723038393700010000000000000000"));
}

// The users and metrics come from client 0's splitmix64 stream seeded
// splitmix64(1 ^ 0xd1b54a32d192ed03); each put draws the entity, then 7 words
// for its 100-byte value (a Python model of the same arithmetic gives these).
TEST(KeyDesignGolden, HashedPutsMd5OfTheUserInFront) {
  EXPECT_THAT(firstKeysHex(singleClient(KeyDesign::kHashed), 3),
              ElementsAre("46a43d2b757365723038393700018000018cc251f4000000000000000000",
                          "dafd441e757365723434303200018000018cc251f4010000000000000001",
                          "c2cf5458757365723436303000018000018cc251f4020000000000000002"));
  const Md5Digest d = md5("user0897");
  EXPECT_EQ(toHex(Bytes(reinterpret_cast<const char*>(d.data()), 4)), "46a43d2b");
}

TEST(KeyDesignGolden, FieldSwappedPutsTheMetricBeforeTheTime) {
  WorkloadOptions o = singleClient(KeyDesign::kFieldSwapped);
  o.keys.entities = 16;
  EXPECT_THAT(firstKeysHex(o, 3), ElementsAre("6d65747269633030303100018000018cc251f4000000000000000000",
                                              "6d65747269633030303200018000018cc251f4010000000000000001",
                                              "6d65747269633030303800018000018cc251f4020000000000000002"));
}

TEST(KeyDesignGolden, UniformKeysAreRandomWords) {
  EXPECT_THAT(firstKeysHex(singleClient(KeyDesign::kUniform), 3),
              ElementsAre("92e5b929d9a8e421", "673cc37d2af80cf2", "81c9affff8e109f8"));
}

TEST(KeyDesignGolden, LockstepClientsWriteTheSameRowInTurn) {
  WorkloadOptions o = singleClient(KeyDesign::kLockstep);
  o.clients = 3;
  EXPECT_THAT(firstKeysHex(o, 4), ElementsAre("00000000000000000000", "00000000000000000001",
                                              "00000000000000000002", "00000000000000010000"));
}

TEST(KeyDesignKeys, EveryDesignsKeysDecodeWithItsSchema) {
  for (KeyDesign d : keyDesigns()) {
    if (d == KeyDesign::kSchema) continue;
    WorkloadOptions o = singleClient(d);
    o.clients = 4;
    Result<KeySchema> schema = KeySchema::parse(schemaOf(o.keys));
    ASSERT_TRUE(schema.isOk()) << keyDesignName(d);
    Result<std::vector<Bytes>> keys = previewKeys(o, 200);
    ASSERT_TRUE(keys.isOk()) << keyDesignName(d) << ": " << keys.status().toString();
    ASSERT_EQ(keys->size(), 200u);
    for (const Bytes& key : *keys) {
      const DecodedKey decoded = decodeKey(*schema, key);
      ASSERT_TRUE(decoded.ok()) << keyDesignName(d) << ": " << decoded.error->toString(*schema);
      ASSERT_EQ(decoded.values.size(), schema->size());
    }
  }
}

TEST(KeyDesignKeys, TheSameSeedGivesTheSameKeysAndAnotherSeedOthers) {
  for (KeyDesign d : {KeyDesign::kHashed, KeyDesign::kUniform, KeyDesign::kZipf, KeyDesign::kFieldSwapped}) {
    WorkloadOptions o = singleClient(d);
    o.clients = 5;
    o.batchSize = 7;
    o.seed = 42;
    const std::vector<std::string> a = firstKeysHex(o, 100);
    EXPECT_EQ(a, firstKeysHex(o, 100)) << keyDesignName(d);
    o.seed = 43;
    EXPECT_NE(a, firstKeysHex(o, 100)) << keyDesignName(d);
  }
}

TEST(KeyDesignKeys, MonotonicKeysOnlyGrowInOperationOrder) {
  WorkloadOptions o = singleClient(KeyDesign::kMonotonic);
  o.clients = 8;
  Result<std::vector<Bytes>> keys = previewKeys(o, 1000);
  ASSERT_TRUE(keys.isOk());
  for (size_t i = 1; i < keys->size(); ++i) ASSERT_LT((*keys)[i - 1], (*keys)[i]) << i;
}

TEST(KeyDesignKeys, ZipfSkewsTowardsAFewUsers) {
  WorkloadOptions o = singleClient(KeyDesign::kZipf);
  Result<std::vector<Bytes>> keys = previewKeys(o, 20000);
  ASSERT_TRUE(keys.isOk());
  std::map<Bytes, int> perUser;
  for (const Bytes& key : *keys) ++perUser[key.substr(0, 10)];  // "user0000\0\1"
  int top = 0;
  for (const auto& [user, n] : perUser) top = std::max(top, n);
  // s = 1.1 over 10,000 users: the most popular has 1 / H(10000, 1.1) = 15% of the events.
  EXPECT_GT(top, 20000 * 13 / 100);
  EXPECT_LT(top, 20000 * 17 / 100);
  EXPECT_GT(perUser.size(), 1000u);
}

TEST(KeyDesignKeys, ZipfScattersThePopularUsersOverTheKeySpace) {
  for (uint64_t n : {1u, 2u, 3u, 16u, 1000u, 10007u}) {
    std::set<uint64_t> seen;
    for (uint64_t i = 0; i < n; ++i) seen.insert(workload::scatter(i, n));
    EXPECT_EQ(seen.size(), n) << n;
    EXPECT_LT(*seen.rbegin(), n) << n;
  }
  // The ten most popular of 10,000 users fall in at least six of eight key ranges.
  std::set<uint64_t> ranges;
  for (uint64_t rank = 0; rank < 10; ++rank) ranges.insert(workload::scatter(rank, 10000) * 8 / 10000);
  EXPECT_GE(ranges.size(), 6u);
}

TEST(KeyDesignKeys, SaltedSpreadsOverEveryBucket) {
  WorkloadOptions o = singleClient(KeyDesign::kSalted);
  Result<std::vector<Bytes>> keys = previewKeys(o, 8000);
  ASSERT_TRUE(keys.isOk());
  std::map<uint8_t, int> perBucket;
  for (const Bytes& key : *keys) ++perBucket[static_cast<uint8_t>(key[0])];
  ASSERT_EQ(perBucket.size(), 8u);
  for (const auto& [bucket, n] : perBucket) EXPECT_NEAR(n, 1000, 150) << int{bucket};
}

workload::RunPlan planOf(uint64_t operations) {
  workload::RunPlan plan;
  plan.operations = plan.puts = operations;
  plan.endMillis = plan.startMillis + static_cast<int64_t>(operations) - 1;
  plan.clients = 8;
  return plan;
}

std::vector<Bytes> splitsOf(KeyDesignOptions keys, uint32_t regions, uint64_t operations = 100000) {
  Result<std::unique_ptr<workload::KeyDesignModel>> model = workload::makeKeyDesign(keys, planOf(operations));
  EXPECT_TRUE(model.isOk());
  if (!model) return {};
  Result<std::vector<Bytes>> points = (*model)->splitPoints(regions);
  EXPECT_TRUE(points.isOk());
  return points ? *points : std::vector<Bytes>();
}

TEST(KeyDesignSplits, SaltedSplitsAtTheBuckets) {
  std::vector<std::string> hex;
  for (const Bytes& k : splitsOf(design(KeyDesign::kSalted), 8)) hex.push_back(toHex(k));
  EXPECT_THAT(hex, ElementsAre("01", "02", "03", "04", "05", "06", "07"));
  // More regions than buckets: only the bucket boundaries.
  EXPECT_EQ(splitsOf(design(KeyDesign::kSalted), 20).size(), 7u);
}

TEST(KeyDesignSplits, LockstepSplitsTheRowsTheClientsWillReach) {
  // 100,000 puts by 8 clients: rows 0 .. 12,499, cut in ten.
  std::vector<Bytes> points = splitsOf(design(KeyDesign::kLockstep), 10);
  ASSERT_EQ(points.size(), 9u);
  EXPECT_EQ(toHex(points[0]), "00000000000004e2");  // row 1,250
  EXPECT_EQ(toHex(points[8]), "0000000000002bf2");  // row 11,250
}

TEST(KeyDesignSplits, EveryDesignsSplitPointsAscendAndAreDistinct) {
  for (KeyDesign d : keyDesigns()) {
    if (d == KeyDesign::kSchema) continue;
    KeyDesignOptions keys = design(d);
    if (d == KeyDesign::kFieldSwapped) keys.entities = 16;
    const std::vector<Bytes> points = splitsOf(keys, 8);
    EXPECT_GE(points.size(), 7u) << keyDesignName(d);
    for (size_t i = 0; i < points.size(); ++i) {
      EXPECT_FALSE(points[i].empty()) << keyDesignName(d);
      if (i > 0) {
        EXPECT_LT(points[i - 1], points[i]) << keyDesignName(d);
      }
    }
    EXPECT_TRUE(splitsOf(keys, 1).empty()) << keyDesignName(d);
  }
}

}  // namespace
}  // namespace keyscope::test
