// The key-space histogram: stored data by prefix or schema component, with
// skew figures over every group and the smallest merged into "other".
#include <gtest/gtest.h>

#include "keyscope/key_codec.h"
#include "stats/stats_queries.h"
#include "stats_test_util.h"

namespace keyscope::test {
namespace {

KeyHistogram histogramOf(const stats::TableContext& table, const KeyHistogramRequest& request) {
  Result<KeyHistogram> h = stats::computeKeyHistogram(table, request);
  EXPECT_TRUE(h.isOk()) << h.status().toString();
  return h.isOk() ? std::move(h).value() : KeyHistogram{};
}

// Prefixes a ... e holding 1, 2, 3, 4 and 100 cells.
stats::TableContext skewedTable() {
  stats::TableContext table = tableOf(1, {region(1, "", "")});
  table.keys = {{"a1", 1, 10}, {"b1", 1, 10}, {"b2", 1, 10}, {"c1", 3, 30}, {"d1", 2, 20},
                {"d2", 2, 20}, {"e1", 60, 600}, {"e2", 40, 400}};
  return table;
}

TEST(KeyHistogram, GroupsByPrefixInKeyOrderWithTheLargestShareAndQuartiles) {
  const KeyHistogram h = histogramOf(skewedTable(), {1, "", 256});
  ASSERT_EQ(h.buckets.size(), 5u);
  EXPECT_EQ(h.buckets[0].prefix, "a");
  EXPECT_EQ(h.buckets[4].prefix, "e");
  EXPECT_EQ(h.buckets[4].label, "e");
  EXPECT_EQ(h.buckets[4].cells, 100u);
  EXPECT_EQ(h.buckets[4].bytes, 1000u);
  EXPECT_EQ(h.totalCells, 110u);
  EXPECT_EQ(h.totalBytes, 1100u);
  EXPECT_DOUBLE_EQ(h.largestShare, 100.0 / 110.0);
  EXPECT_DOUBLE_EQ(h.quartiles[0], 2.0);
  EXPECT_DOUBLE_EQ(h.quartiles[1], 3.0);
  EXPECT_DOUBLE_EQ(h.quartiles[2], 4.0);
  EXPECT_TRUE(h.sampled);
  // Two bytes: every key its own group.
  EXPECT_EQ(histogramOf(skewedTable(), {2, "", 256}).buckets.size(), 8u);
}

TEST(KeyHistogram, TheSmallestGroupsBeyondMaxBucketsMergeIntoOtherAndSkewCountsThemAll) {
  const KeyHistogram h = histogramOf(skewedTable(), {1, "", 3});
  ASSERT_EQ(h.buckets.size(), 3u);
  EXPECT_EQ(h.buckets[0].prefix, "d");  // the two largest, in key order
  EXPECT_EQ(h.buckets[1].prefix, "e");
  EXPECT_EQ(h.buckets[2].label, "other (3 groups)");
  EXPECT_EQ(h.buckets[2].cells, 6u);
  EXPECT_EQ(h.totalCells, 110u);
  EXPECT_DOUBLE_EQ(h.quartiles[1], 3.0);  // over the five groups, not the three buckets
}

TEST(KeyHistogram, GroupsBySchemaComponentValueWithUndecodableKeysApart) {
  const std::string text = "user:utf8 | ts:i64";
  const KeySchema schema = *KeySchema::parse(text);
  stats::TableContext table = tableOf(1, {region(1, "", "")}, text);
  for (const char* user : {"bob", "alice"})
    for (int64_t ts = 0; ts < 3; ++ts)
      table.keys.push_back({*encodeKey(schema, {std::string(user), ts}), user[0] == 'a' ? 5u : 1u, 50});
  table.keys.push_back({"\xff\xff", 7, 70});
  std::sort(table.keys.begin(), table.keys.end(), [](const auto& a, const auto& b) { return a.row < b.row; });
  const KeyHistogram h = histogramOf(table, {1, "user", 256});
  ASSERT_EQ(h.buckets.size(), 3u);
  EXPECT_EQ(h.buckets[0].label, "alice");
  EXPECT_EQ(h.buckets[0].cells, 15u);
  EXPECT_EQ(h.buckets[0].prefix, *encodeComponent(schema[0], std::string("alice")));
  EXPECT_EQ(h.buckets[1].label, "bob");
  EXPECT_EQ(h.buckets[1].cells, 3u);
  EXPECT_EQ(h.buckets[2].label, "(does not decode)");
  EXPECT_EQ(h.buckets[2].cells, 7u);
  EXPECT_DOUBLE_EQ(h.largestShare, 15.0 / 25.0);
}

TEST(KeyHistogram, BadRequestsAreInvalidArgumentsThatSayWhy) {
  const stats::TableContext plain = skewedTable();
  stats::TableContext schemed = skewedTable();
  schemed.keySchema = "user:utf8 | ts:i64";
  auto expectInvalid = [](const stats::TableContext& table, const KeyHistogramRequest& r, const std::string& says) {
    const Status s = stats::computeKeyHistogram(table, r).status();
    EXPECT_EQ(s.code(), Status::Code::kInvalidArgument) << s.toString();
    EXPECT_NE(s.message().find(says), std::string::npos) << s.message() << " lacks " << says;
  };
  expectInvalid(plain, {0, "", 256}, "prefixLength");
  expectInvalid(plain, {5000, "", 256}, "prefixLength");
  expectInvalid(plain, {1, "", 0}, "maxBuckets");
  expectInvalid(plain, {1, "user", 256}, "needs a key schema");
  expectInvalid(schemed, {1, "host", 256}, "unknown key-schema component 'host'");
  // An empty table is a histogram of nothing, not an error.
  const KeyHistogram empty = histogramOf(tableOf(1, {region(1, "", "")}), {1, "", 256});
  EXPECT_TRUE(empty.buckets.empty());
  EXPECT_EQ(empty.largestShare, 0.0);
}

}  // namespace
}  // namespace keyscope::test
