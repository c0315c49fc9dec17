// compareKeys, keysEqual, sharedPrefixLength and orderPrefix against std::string_view's own
// comparison (memcmp order, a prefix first), on keys that share prefixes of
// every length and hold bytes above 0x7f and zeros, where a signed or
// length-blind comparison goes wrong.
#include "engine/key_compare.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace keyscope::engine {
namespace {

int sign(int c) { return (c > 0) - (c < 0); }

// Keys of 0 to 40 bytes, most of them extending or varying another one, so
// that pairs share prefixes across the eight-byte steps.
std::vector<std::string> keysSharingPrefixes(size_t count, uint32_t seed) {
  std::mt19937 rng(seed);
  const std::string alphabet("\x00\x01\x7f\x80\xfe\xff" "ab", 8);
  std::vector<std::string> keys{""};
  while (keys.size() < count) {
    std::string key = keys[rng() % keys.size()];
    key.resize(std::min<size_t>(key.size(), rng() % 41));  // keep a prefix of it
    const size_t extra = rng() % 12;
    for (size_t i = 0; i < extra && key.size() < 40; ++i) key.push_back(alphabet[rng() % alphabet.size()]);
    keys.push_back(std::move(key));
  }
  return keys;
}

TEST(KeyCompare, AgreesWithStringViewCompare) {
  const std::vector<std::string> keys = keysSharingPrefixes(600, 7);
  size_t longCommonPrefixes = 0;
  for (const std::string& a : keys) {
    for (const std::string& b : keys) {
      const BytesView x(a);
      const BytesView y(b);
      ASSERT_EQ(compareKeys(x, y), sign(x.compare(y))) << toHex(x) << " vs " << toHex(y);
      ASSERT_EQ(keysEqual(x, y), x == y) << toHex(x) << " vs " << toHex(y);
      size_t common = 0;
      while (common < a.size() && common < b.size() && a[common] == b[common]) ++common;
      ASSERT_EQ(sharedPrefixLength(x, y), common) << toHex(x) << " vs " << toHex(y);
      if (common >= 8 && a != b) ++longCommonPrefixes;
    }
  }
  // The data reach the comparison's word-by-word part.
  EXPECT_GT(longCommonPrefixes, 1000u);
}

TEST(KeyCompare, BytesAboveSevenFSortAfterLowerOnes) {
  // Equal first words: the difference lies in the second word, or in the
  // tail after it.
  EXPECT_LT(compareKeys(std::string(8, 'k') + "\x7f", std::string(8, 'k') + "\x80"), 0);
  EXPECT_GT(compareKeys(std::string(9, 'k') + "\xff" + std::string(7, 'z'), std::string(9, 'k') + "\x01"), 0);
  EXPECT_LT(compareKeys(std::string(16, 'k') + "\x01", std::string(16, 'k') + "\xff"), 0);
  // A key that is a prefix of another comes first, across a word boundary.
  EXPECT_LT(compareKeys(std::string(8, '\0'), std::string(9, '\0')), 0);
  EXPECT_GT(compareKeys(std::string(17, 'k'), std::string(16, 'k')), 0);
  EXPECT_EQ(compareKeys("", ""), 0);
}

TEST(KeyCompare, OrderPrefixNeverContradictsTheKeysOrder) {
  const std::vector<std::string> keys = keysSharingPrefixes(600, 11);
  size_t decided = 0;
  for (const std::string& a : keys) {
    for (const std::string& b : keys) {
      const uint64_t pa = orderPrefix(a);
      const uint64_t pb = orderPrefix(b);
      if (pa == pb) continue;
      ++decided;
      ASSERT_EQ(pa < pb, BytesView(a) < BytesView(b)) << toHex(a) << " vs " << toHex(b);
    }
  }
  EXPECT_GT(decided, keys.size() * keys.size() / 2);
  // A short key and the same bytes followed by zeros: equal prefixes, which
  // leave the order to the whole keys.
  EXPECT_EQ(orderPrefix(std::string("ab", 2)), orderPrefix(std::string("ab\0\0", 4)));
  EXPECT_EQ(orderPrefix(std::string("\x01\x02\x03\x04\x05\x06\x07\x08\x09", 9)), 0x0102030405060708ull);
}

}  // namespace
}  // namespace keyscope::engine
