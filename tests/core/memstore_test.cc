// The memstore's skiplist against a reference ordering: entries added in key
// order (each after the last, one comparison), in reverse, at random, in
// ordered runs that jump back, and in sorted batches of random keys (each
// search starting where the one before ended), then iterated in full and
// sought at random, must come out in internal-key order, newest first among
// equal keys and each key once.
#include "engine/memstore.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "engine/internal_key.h"

namespace keyscope::engine {
namespace {

std::string rowName(int row) {
  char name[16];
  std::snprintf(name, sizeof name, "r%06d", row);
  return name;
}

std::string keyOf(int row, int64_t ts) { return internalKey(rowName(row), "q", ts, CellType::kPut); }

// Adds `rows` (a row number each, in the order given) and checks the
// iteration and seeks against a std::map of the same keys.
void checkAgainstReference(const std::vector<int>& rows) {
  Memstore memstore;
  std::map<std::string, std::string> reference;  // internal key -> newest value
  uint64_t mvcc = 0;
  for (const int row : rows) {
    const std::string key = keyOf(row, 7);
    const std::string value = "v" + std::to_string(++mvcc);
    memstore.add(key, value, mvcc);
    reference[key] = value;  // a later add of the same key is newer
  }
  ASSERT_EQ(memstore.entryCount(), rows.size());
  ASSERT_TRUE(memstore.levelsInOrder());

  auto it = memstore.newIterator(mvcc);
  std::vector<std::pair<std::string, std::string>> seen;
  for (it->seekToFirst(); it->valid(); it->next()) seen.emplace_back(std::string(it->key()), std::string(it->value()));
  const std::vector<std::pair<std::string, std::string>> expected(reference.begin(), reference.end());
  ASSERT_EQ(seen, expected);

  std::mt19937 random(7);
  const int most = rows.empty() ? 1 : *std::max_element(rows.begin(), rows.end()) + 2;
  for (int i = 0; i < 1000; ++i) {
    const std::string target = rowStartKey(rowName(static_cast<int>(random() % static_cast<unsigned>(most))));
    it->seek(target);
    const auto want = reference.lower_bound(target);
    if (want == reference.end()) {
      EXPECT_FALSE(it->valid()) << "seek past the end";
    } else {
      ASSERT_TRUE(it->valid());
      EXPECT_EQ(std::string(it->key()), want->first);
    }
  }
}

TEST(Memstore, KeyOrderStaysOrdered) {
  std::vector<int> rows;
  for (int i = 0; i < 5000; ++i) rows.push_back(i);
  checkAgainstReference(rows);
}

TEST(Memstore, ReverseOrder) {
  std::vector<int> rows;
  for (int i = 3000; i-- > 0;) rows.push_back(i);
  checkAgainstReference(rows);
}

TEST(Memstore, RandomOrderWithRepeats) {
  std::mt19937 random(42);
  std::vector<int> rows;
  for (int i = 0; i < 5000; ++i) rows.push_back(static_cast<int>(random() % 2000));
  checkAgainstReference(rows);
}

// Ordered runs that each start below where the last ended: the append path
// and the search alternate, and a search may land in front of the tail.
TEST(Memstore, OrderedRunsThatJumpBack) {
  std::mt19937 random(3);
  std::vector<int> rows;
  for (int run = 0; run < 60; ++run) {
    int row = static_cast<int>(random() % 4000);
    for (int i = 0; i < 80; ++i) rows.push_back(row += 1 + static_cast<int>(random() % 3));
  }
  checkAgainstReference(rows);
}

// How the workspace applies a batch: its keys sorted, so each search starts
// from the entry added before, climbing as many levels as the gap to the
// next key needs. Random keys over a large store leave gaps of every size;
// a key repeated in a batch comes again with a higher mvcc, which sorts
// before the entry just added.
TEST(Memstore, SortedBatchesOfRandomKeysWithRepeats) {
  std::mt19937 random(11);
  std::vector<int> rows;
  for (int batch = 0; batch < 60; ++batch) {
    std::vector<int> keys;
    for (int i = 0; i < 300; ++i) keys.push_back(static_cast<int>(random() % 50000));
    std::sort(keys.begin(), keys.end());
    rows.insert(rows.end(), keys.begin(), keys.end());
  }
  checkAgainstReference(rows);
}

// The same key written again is newer (a higher mvcc sorts first): it goes
// in front of the tail, never after it, and the iteration yields it.
TEST(Memstore, TheSameKeyAgainGoesInFrontOfTheTail) {
  Memstore memstore;
  memstore.add(keyOf(1, 7), "old", 1);
  memstore.add(keyOf(1, 7), "new", 2);
  memstore.add(keyOf(2, 7), "two", 3);
  auto it = memstore.newIterator(3);
  it->seekToFirst();
  ASSERT_TRUE(it->valid());
  EXPECT_EQ(std::string(it->value()), "new");
  it->next();
  ASSERT_TRUE(it->valid());
  EXPECT_EQ(std::string(it->value()), "two");
  it->next();
  EXPECT_FALSE(it->valid());
  // Read at the first write, the old value.
  auto old = memstore.newIterator(1);
  old->seekToFirst();
  ASSERT_TRUE(old->valid());
  EXPECT_EQ(std::string(old->value()), "old");
}

}  // namespace
}  // namespace keyscope::engine
