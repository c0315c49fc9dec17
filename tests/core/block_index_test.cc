// The in-memory block index: keys packed back to back must each come back
// whole, and find() must land on the block a seek reads first.
#include "engine/block_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace keyscope::engine {
namespace {

BlockHandle at(uint32_t pageNo, uint32_t offset) {
  BlockHandle h;
  h.pageNo = pageNo;
  h.offset = offset;
  h.storedSize = 100 + offset;
  h.rawSize = 200 + offset;
  return h;
}

TEST(BlockIndexTest, KeepsEachBlocksLastKeyAndHandle) {
  BlockIndex index;
  index.add("apple", at(0, 0));
  index.add("", at(0, 1));  // an empty key has a place of its own
  index.add("banana split", at(1, 2));
  index.shrinkToFit();
  ASSERT_EQ(index.size(), 3u);
  EXPECT_EQ(index.lastKey(0), "apple");
  EXPECT_EQ(index.lastKey(1), "");
  EXPECT_EQ(index.lastKey(2), "banana split");
  EXPECT_EQ(index.keyBytes(), 17u);
  EXPECT_EQ(index[2].pageNo, 1u);
  EXPECT_EQ(index[2].offset, 2u);
  EXPECT_EQ(index[2].storedSize, 102u);
  EXPECT_EQ(index[2].rawSize, 202u);
  EXPECT_EQ(&index.back(), &index[2]);
  EXPECT_EQ(&index.front(), &index[0]);
}

TEST(BlockIndexTest, FindsTheFirstBlockWhoseLastKeyIsAtOrPastTheTarget) {
  BlockIndex index;
  EXPECT_EQ(index.find("a"), 0u) << "an empty index has no block to find";
  for (const char* key : {"b", "d", "f", "h"}) index.add(key, at(0, 0));
  EXPECT_EQ(index.find(""), 0u);
  EXPECT_EQ(index.find(BytesView()), 0u) << "an empty view with no data behind it";
  EXPECT_EQ(index.find("a"), 0u);
  EXPECT_EQ(index.find("b"), 0u) << "a block's own last key is in it";
  EXPECT_EQ(index.find(std::string("b\0", 2)), 1u);
  EXPECT_EQ(index.find("c"), 1u);
  EXPECT_EQ(index.find("d"), 1u);
  EXPECT_EQ(index.find("e"), 2u);
  EXPECT_EQ(index.find("h"), 3u);
  EXPECT_EQ(index.find("i"), 4u) << "past every block";
}

TEST(BlockIndexTest, KeysWithSharedPrefixesAndZeroBytesStayApart) {
  BlockIndex index;
  const std::string a("row\0\x01", 5), b("row\0\x02", 5), c("row\x01", 4);
  index.add(a, at(0, 0));
  index.add(b, at(0, 1));
  index.add(c, at(0, 2));
  EXPECT_EQ(index.lastKey(0), a);
  EXPECT_EQ(index.lastKey(1), b);
  EXPECT_EQ(index.lastKey(2), c);
  EXPECT_EQ(index.find(std::string("row\0\x01\x00", 6)), 1u);
  EXPECT_EQ(index.find(std::string("row\0", 4)), 0u);
}

// The first block whose last key is >= each of 20,000 targets drawn by
// randomTarget, against std::lower_bound over the whole keys.
void expectFindAgreesWithLowerBound(std::vector<std::string> keys, const std::function<std::string()>& randomTarget) {
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  BlockIndex index;
  for (const std::string& key : keys) index.add(key, at(0, 0));
  for (int i = 0; i < 20000; ++i) {
    const std::string target = randomTarget();
    const auto expected = std::lower_bound(keys.begin(), keys.end(), target) - keys.begin();
    ASSERT_EQ(index.find(target), static_cast<size_t>(expected)) << testing::PrintToString(target);
  }
}

TEST(BlockIndexTest, KeysSharingTheirFirst16BytesAreToldApartByTheRest) {
  // A few 14-byte stems and tails of 0 to 6 bytes, zero bytes among them:
  // most keys share their 16-byte head with others, or end inside it, and
  // find() must then compare the whole keys.
  std::mt19937 random(11);
  const char alphabet[] = {'\0', '\x01', '\xff'};
  const std::string stems[] = {std::string(14, '\0'), std::string(14, 'k'), std::string(13, 'k') + '\0',
                               std::string("metric\0\0\x01entity", 14)};
  auto randomKey = [&] {
    std::string key = stems[random() % 4].substr(0, 10 + random() % 5);
    for (size_t tail = random() % 7; tail > 0; --tail) key += alphabet[random() % 3];
    return key;
  };
  std::vector<std::string> keys;
  for (int i = 0; i < 2000; ++i) keys.push_back(randomKey());
  expectFindAgreesWithLowerBound(std::move(keys), randomKey);
}

TEST(BlockIndexTest, FindAgreesWithABinarySearchOfTheWholeKeys) {
  // Keys of 0 to 20 bytes from a three-letter alphabet with zero bytes in
  // it: many share their first 8 bytes, and many are prefixes of others,
  // the cases where find() must look past the integers it compares first.
  std::mt19937 random(7);
  const char alphabet[] = {'\0', '\x01', '\xff'};
  auto randomKey = [&] {
    std::string key(random() % 21, '\0');
    for (char& c : key) c = alphabet[random() % 3];
    return key;
  };
  std::vector<std::string> keys;
  for (int i = 0; i < 2000; ++i) keys.push_back(randomKey());
  expectFindAgreesWithLowerBound(std::move(keys), randomKey);
}

}  // namespace
}  // namespace keyscope::engine
