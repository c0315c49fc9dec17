// Bloom filters: never a false negative, about 1% false positives at 10 bits
// per key, and a stored layout that does not drift.
#include "engine/bloom_filter.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "engine/internal_key.h"
#include "keyscope/bytes.h"

namespace keyscope::engine {
namespace {

std::string randomKey(std::mt19937_64& rng) {
  std::string key(rng() % 24, '\0');
  for (char& c : key) c = static_cast<char>(rng() & 0xff);
  return key;
}

TEST(Bloom, HashIsXxh3WithSeedZero) {
  // Golden values: the hash is part of every stored filter.
  EXPECT_EQ(bloomHash(""), 0x2d06800538d394c2ull);
  EXPECT_EQ(bloomHash("keyscope"), 0x751f95e30bf7bcdaull);
}

TEST(Bloom, StoredLayoutIsStable) {
  BloomFilterBuilder builder;
  builder.addKey("a");
  builder.addKey("b");
  builder.addKey("c");
  // 64 bits (the minimum) then the probe count 7.
  EXPECT_EQ(toHex(builder.finish()), "0a8828a888a2a08007");
}

TEST(Bloom, HasNoFalseNegatives) {
  std::mt19937_64 rng(7);
  std::vector<std::string> keys = {"", std::string(1, '\0'), "\xff", rowStartKey(""), rowStartKey(std::string("\x00\xff", 2))};
  for (int i = 0; i < 20000; ++i) keys.push_back(randomKey(rng));
  BloomFilterBuilder builder;
  for (const auto& k : keys) builder.addKey(k);
  const std::string filter = builder.finish();
  ASSERT_TRUE(bloomWellFormed(filter));
  for (const auto& k : keys) EXPECT_TRUE(bloomMayContain(filter, k)) << toHex(k);
}

TEST(Bloom, FalsePositiveRateIsAboutOnePercent) {
  BloomFilterBuilder builder;
  for (int i = 0; i < 10000; ++i) builder.addKey(rowStartKey("present-" + std::to_string(i)));
  const std::string filter = builder.finish();
  // About 10 bits per key.
  EXPECT_EQ(filter.size(), 10000 * 10 / 8 + 1);
  int falsePositives = 0;
  const int probes = 100000;
  for (int i = 0; i < probes; ++i) falsePositives += bloomMayContain(filter, rowStartKey("absent-" + std::to_string(i)));
  const double rate = static_cast<double>(falsePositives) / probes;
  EXPECT_LT(rate, 0.02);
  EXPECT_GT(rate, 0.001);  // a filter that says "no" to everything would pass the line above
}

TEST(Bloom, SmallFilterStillRulesKeysOut) {
  BloomFilterBuilder builder;
  builder.addKey("only");
  const std::string filter = builder.finish();
  EXPECT_TRUE(bloomMayContain(filter, "only"));
  int falsePositives = 0;
  for (int i = 0; i < 1000; ++i) falsePositives += bloomMayContain(filter, "other" + std::to_string(i));
  EXPECT_LT(falsePositives, 50);
}

TEST(Bloom, MalformedFilterAnswersMaybe) {
  for (const std::string& filter : {std::string(), std::string(1, '\x07'), std::string("\x00\x00", 2),
                                   std::string("\x00\x1f", 2)}) {
    EXPECT_FALSE(bloomWellFormed(filter)) << toHex(filter);
    EXPECT_TRUE(bloomMayContain(filter, "anything")) << toHex(filter);
  }
}

}  // namespace
}  // namespace keyscope::engine
