// The key-design advisor: each warning code fires for a design that should
// trigger it, names the guilty component, and stays quiet for a good design.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "keyscope/key_advisor.h"
#include "test_util.h"

namespace keyscope {
namespace {

using namespace test::values;

std::vector<Advice> adviceFor(const std::string& text, const std::vector<Bytes>& samples = {}) {
  return adviseKeyDesign(test::schemaOf(text), samples);
}

const Advice* find(const std::vector<Advice>& advice, const std::string& code) {
  auto it = std::find_if(advice.begin(), advice.end(), [&](const Advice& a) { return a.code == code; });
  return it == advice.end() ? nullptr : &*it;
}

bool fires(const std::vector<Advice>& advice, const std::string& code) { return find(advice, code) != nullptr; }

std::string codes(const std::vector<Advice>& advice) {
  std::string out;
  for (const Advice& a : advice) out += a.code + " ";
  return out.empty() ? "(none)" : out;
}

// Encoded sample keys, in the order given.
std::vector<Bytes> samplesOf(const std::string& text, const std::vector<KeyTuple>& tuples) {
  const KeySchema schema = test::schemaOf(text);
  std::vector<Bytes> out;
  for (const KeyTuple& t : tuples) out.push_back(test::encodeOk(schema, t));
  return out;
}

TEST(KeyAdvisor, TimestampLeadIsMonotonic) {
  const auto advice = adviceFor("ts:i64 | user:utf8");
  const Advice* a = find(advice, "monotonic-lead");
  ASSERT_NE(a, nullptr) << codes(advice);
  EXPECT_EQ(a->component, 0u);
  EXPECT_EQ(a->severity, AdviceSeverity::kWarning);
  EXPECT_FALSE(a->message.empty());
}

TEST(KeyAdvisor, IncreasingSamplesInTheLeadAreMonotonic) {
  std::vector<KeyTuple> tuples;
  for (uint64_t n = 1; n <= 200; ++n) tuples.push_back({u(1000 + n * 7)});
  const auto advice = adviceFor("id:u64", samplesOf("id:u64", tuples));
  const Advice* a = find(advice, "monotonic-lead");
  ASSERT_NE(a, nullptr) << codes(advice);
  EXPECT_EQ(a->component, 0u);
}

TEST(KeyAdvisor, SaltedTimestampFansOutInsteadOfBeingMonotonic) {
  const auto advice = adviceFor("salt:salt(16, ts) | ts:i64");
  const Advice* a = find(advice, "salt-fan-out");
  ASSERT_NE(a, nullptr) << codes(advice);
  EXPECT_EQ(a->component, 0u);
  EXPECT_FALSE(fires(advice, "monotonic-lead")) << codes(advice);
}

TEST(KeyAdvisor, SaltSpreadsRisingSampleTimestamps) {
  // The same writes, in time order: a timestamp lead rises with every key; a
  // salt over it scatters the lead bytes, so the samples show no front.
  std::vector<KeyTuple> plain, salted;
  for (int n = 0; n < 64; ++n) {
    plain.push_back({i(1700000000000 + n * 1000)});
    salted.push_back({test::absent(), i(1700000000000 + n * 1000)});
  }
  EXPECT_TRUE(fires(adviceFor("when:i64", samplesOf("when:i64", plain)), "monotonic-lead"));
  const auto advice = adviceFor("s:salt(8, when) | when:i64", samplesOf("s:salt(8, when) | when:i64", salted));
  EXPECT_FALSE(fires(advice, "monotonic-lead")) << codes(advice);
}

TEST(KeyAdvisor, HashedLeadFansOut) {
  const auto advice = adviceFor("user:md5(8) | ts:revts hbase");
  EXPECT_TRUE(fires(advice, "salt-fan-out")) << codes(advice);
  EXPECT_FALSE(fires(advice, "monotonic-lead")) << codes(advice);
}

TEST(KeyAdvisor, NumericStringSamplesAreNumbersStoredAsText) {
  std::vector<KeyTuple> tuples;
  for (int n : {9, 10, 12345, 987654321, 42, 100000, 7}) tuples.push_back({s(std::to_string(n))});
  const auto advice = adviceFor("id:utf8", samplesOf("id:utf8", tuples));
  const Advice* a = find(advice, "number-as-string");
  ASSERT_NE(a, nullptr) << codes(advice);
  EXPECT_EQ(a->component, 0u);
}

TEST(KeyAdvisor, TextSamplesAreNotNumbers) {
  std::vector<KeyTuple> tuples;
  for (const char* name : {"alice", "bob", "carol", "dave"}) tuples.push_back({s(name)});
  const auto advice = adviceFor("id:utf8", samplesOf("id:utf8", tuples));
  EXPECT_FALSE(fires(advice, "number-as-string")) << codes(advice);
}

TEST(KeyAdvisor, WideFixedComponentIsOversized) {
  const auto advice = adviceFor("x:bytes(64)");
  const Advice* a = find(advice, "oversized");
  ASSERT_NE(a, nullptr) << codes(advice);
  EXPECT_EQ(a->component, 0u);
}

TEST(KeyAdvisor, LongSampleKeysAreOversized) {
  std::vector<KeyTuple> tuples;
  for (int n = 0; n < 20; ++n) tuples.push_back({s("user-" + std::to_string(n) + std::string(300, 'x'))});
  const auto advice = adviceFor("name:utf8", samplesOf("name:utf8", tuples));
  EXPECT_TRUE(fires(advice, "oversized")) << codes(advice);
}

TEST(KeyAdvisor, HbaseSignedIntegerBreaksByteOrder) {
  const auto advice = adviceFor("user:utf8 | x:i64 hbase");
  const Advice* a = find(advice, "byte-order");
  ASSERT_NE(a, nullptr) << codes(advice);
  EXPECT_EQ(a->component, 1u);
}

TEST(KeyAdvisor, GoodDesignGetsNoWarning) {
  for (const char* text : {"user:utf8 | ts:revts", "user:utf8 | ts:i64", "metric:u32 | hour:u32 | tags:bytes"}) {
    const auto advice = adviceFor(text);
    for (const char* code : {"monotonic-lead", "byte-order", "number-as-string", "oversized", "salt-fan-out"}) {
      EXPECT_FALSE(fires(advice, code)) << text << ": " << codes(advice);
    }
  }
  std::vector<KeyTuple> tuples;
  for (const char* name : {"carol", "alice", "dave", "bob"}) tuples.push_back({s(name), i(1700000000000)});
  const auto advice = adviceFor("user:utf8 | ts:revts", samplesOf("user:utf8 | ts:revts", tuples));
  EXPECT_EQ(codes(advice), "(none)");
}

TEST(KeyAdvisor, ExplainSaysWhetherByteOrderIsPreserved) {
  const std::string good = explainKeySchema(test::schemaOf("user:utf8 | ts:revts"));
  EXPECT_NE(good.find("byte order: preserves value order"), std::string::npos) << good;
  const std::string bad = explainKeySchema(test::schemaOf("user:utf8 | x:i64 hbase"));
  EXPECT_NE(bad.find("byte order: BROKEN"), std::string::npos) << bad;
  EXPECT_NE(bad.find("'x'"), std::string::npos) << bad;
}

TEST(KeyAdvisor, ExplainListsEveryComponentAndTheWarnings) {
  const std::string text = explainKeySchema(test::schemaOf("ts:i64 | user:utf8"));
  EXPECT_NE(text.find("ts"), std::string::npos) << text;
  EXPECT_NE(text.find("user"), std::string::npos) << text;
  EXPECT_NE(text.find("monotonic-lead"), std::string::npos) << text;
}

}  // namespace
}  // namespace keyscope
