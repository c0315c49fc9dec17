// The memstore against a reference ordering: entries added in key order
// (each after the last, one comparison), in reverse, at random, in ordered
// runs that jump back, and in sorted batches of random keys (each search
// starting where the one before ended), then iterated in full and sought at
// random, must come out in internal-key order, newest first among equal keys
// and each key once - in one skip list, and frozen into segments of a few
// entries (a key's versions then spread over several).
#include "engine/memstore.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <thread>
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
// iteration and seeks against a std::map of the same keys, in a memstore
// whose skip lists freeze every segmentEntries adds.
void checkAgainstReference(const std::vector<int>& rows, size_t segmentEntries) {
  Memstore memstore(nullptr, segmentEntries);
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
  ASSERT_EQ(memstore.frozenSegmentCount(), rows.empty() ? 0 : (rows.size() - 1) / segmentEntries);

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
      EXPECT_EQ(std::string(it->value()), want->second);
    }
  }
  // A get's iterator, given its row, leaves out the segments whose filter
  // rules the row out: never one that holds it.
  for (int i = 0; i < std::min(most, 1000); ++i) {
    const int row = most <= 1000 ? i : static_cast<int>(random() % static_cast<unsigned>(most));
    const std::string rowKey = rowStartKey(rowName(row));
    auto get = memstore.newIterator(mvcc, rowKey);
    get->seek(rowKey);
    const auto want = reference.lower_bound(rowKey);
    const bool present = want != reference.end() && want->first.compare(0, rowKey.size(), rowKey) == 0;
    if (!present) {
      EXPECT_TRUE(!get->valid() || get->key().substr(0, rowKey.size()) != BytesView(rowKey));
      continue;
    }
    ASSERT_TRUE(get->valid()) << rowName(row);
    EXPECT_EQ(std::string(get->key()), want->first);
    EXPECT_EQ(std::string(get->value()), want->second);
  }
  // Reversed scans start at the last row before a bound.
  for (int i = 0; i < 200; ++i) {
    const std::string bound = rowStartKey(rowName(static_cast<int>(random() % static_cast<unsigned>(most))));
    it->seekToLastRowBefore(bound);
    auto want = reference.lower_bound(bound);
    if (want == reference.begin()) {
      EXPECT_FALSE(it->valid()) << "no row before the bound";
    } else {
      --want;
      ASSERT_TRUE(it->valid());
      EXPECT_EQ(std::string(it->key()), want->first);
    }
  }
}

void checkAgainstReference(const std::vector<int>& rows) {
  for (const size_t segmentEntries : {Memstore::kDefaultSegmentEntries, size_t{1}, size_t{7}, size_t{64}}) {
    SCOPED_TRACE("segments of " + std::to_string(segmentEntries) + " entries");
    checkAgainstReference(rows, segmentEntries);
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

// A key written again and again lands in a new segment each time: the
// newest visible write wins at every read point, as in one skip list, and a
// reader that took its iterator before later segments were frozen still
// reads what it saw.
TEST(Memstore, AKeysVersionsInManySegmentsReadAsInOne) {
  Memstore memstore(nullptr, 3);
  uint64_t mvcc = 0;
  memstore.add(keyOf(5, 7), "five", ++mvcc);
  for (int round = 1; round <= 10; ++round) {
    memstore.add(keyOf(1, 7), "one@" + std::to_string(round), ++mvcc);
    memstore.add(keyOf(2, round), "two@" + std::to_string(round), ++mvcc);
  }
  ASSERT_GE(memstore.frozenSegmentCount(), 6u);
  ASSERT_TRUE(memstore.levelsInOrder());
  auto early = memstore.newIterator(mvcc);
  for (uint64_t readPoint = 1; readPoint <= mvcc; ++readPoint) {
    // Round r wrote row 1 at mvcc 2r and row 2 at 2r + 1.
    const int oneRounds = static_cast<int>(readPoint / 2);
    const int twoRounds = static_cast<int>((readPoint - 1) / 2);
    std::vector<std::string> seen;
    auto it = memstore.newIterator(readPoint);
    for (it->seekToFirst(); it->valid(); it->next()) seen.emplace_back(it->value());
    std::vector<std::string> want;
    if (oneRounds > 0) want.push_back("one@" + std::to_string(oneRounds));
    // Row 2's cells have distinct timestamps: every visible one, newest first.
    for (int round = twoRounds; round >= 1; --round) want.push_back("two@" + std::to_string(round));
    want.push_back("five");
    EXPECT_EQ(seen, want) << "read point " << readPoint;
  }
  // Later adds freeze more segments; the iterator taken before reads on.
  for (int round = 11; round <= 20; ++round) memstore.add(keyOf(1, 7), "one@" + std::to_string(round), ++mvcc);
  early->seek(rowStartKey(rowName(1)));
  ASSERT_TRUE(early->valid());
  EXPECT_EQ(std::string(early->value()), "one@10");
  auto late = memstore.newIterator(mvcc);
  late->seek(rowStartKey(rowName(1)));
  ASSERT_TRUE(late->valid());
  EXPECT_EQ(std::string(late->value()), "one@20");
  late->next();
  ASSERT_TRUE(late->valid());
  EXPECT_EQ(std::string(late->value()), "two@10");
}

// Gets leave out most segments: a row written once is in one of many
// segments, and its get reads the active skip list and about that one.
TEST(Memstore, AGetReadsOnlyTheSegmentsThatMayHoldItsRow) {
  Memstore memstore(nullptr, 100);
  uint64_t mvcc = 0;
  for (int row = 0; row < 5000; ++row) memstore.add(keyOf((row * 7919) % 5000, 7), "v" + rowName(row), ++mvcc);
  ASSERT_EQ(memstore.frozenSegmentCount(), 49u);
  int searched = 0;
  for (int row = 0; row < 5000; ++row) {
    const std::string rowKey = rowStartKey(rowName(row));
    auto get = memstore.newIterator(mvcc, rowKey);
    // Entries the iterator yields: those of the segments it merges.
    int entries = 0;
    for (get->seekToFirst(); get->valid(); get->next()) ++entries;
    searched += entries;
    get->seek(rowKey);
    ASSERT_TRUE(get->valid());
    EXPECT_EQ(std::string(get->key()), keyOf(row, 7));
  }
  // Every segment holds 100 rows: with ~1% false positives a get merges the
  // one segment holding its row and about half a wrong one (plus the active
  // skip list's up to 100 entries), far from all 5,000 entries.
  EXPECT_LT(searched / 5000, 400);
}

// One writer adds while readers iterate and get, and skip lists freeze into
// segments under them: a reader at read point p sees exactly the p entries
// added up to it, in order, and a get finds any of them. (Run under
// ThreadSanitizer too.)
TEST(Memstore, ReadersIterateAndGetWhileTheWriterFreezesSegments) {
  constexpr int kEntries = 40000;
  constexpr size_t kSegmentEntries = 128;
  Memstore memstore(nullptr, kSegmentEntries);
  std::vector<int> order(kEntries);
  for (int i = 0; i < kEntries; ++i) order[static_cast<size_t>(i)] = (i * 7919) % kEntries;
  std::atomic<uint64_t> published{0};
  std::atomic<bool> failed{false};
  std::atomic<int> started{0};
  std::thread writer([&] {
    while (started.load() < 2) std::this_thread::yield();  // adds begin once both readers run
    for (int i = 0; i < kEntries; ++i) {
      memstore.add(keyOf(order[static_cast<size_t>(i)], 7), "v", static_cast<uint64_t>(i) + 1);
      published.store(static_cast<uint64_t>(i) + 1, std::memory_order_release);
    }
  });
  auto reader = [&](unsigned seed) {
    std::mt19937 random(seed);
    ++started;
    while (!failed.load() && published.load(std::memory_order_acquire) < kEntries) {
      const uint64_t readPoint = published.load(std::memory_order_acquire);
      auto it = memstore.newIterator(readPoint);
      uint64_t seen = 0;
      std::string last;
      for (it->seekToFirst(); it->valid(); it->next()) {
        if (!last.empty() && !(last < std::string(it->key()))) failed.store(true);
        last.assign(it->key());
        ++seen;
      }
      if (seen != readPoint) failed.store(true);
      if (readPoint == 0) continue;
      const int row = order[random() % readPoint];
      const std::string rowKey = rowStartKey(rowName(row));
      auto get = memstore.newIterator(readPoint, rowKey);
      get->seek(rowKey);
      if (!get->valid() || std::string(get->key()) != keyOf(row, 7)) failed.store(true);
    }
  };
  std::thread first(reader, 1);
  std::thread second(reader, 2);
  writer.join();
  first.join();
  second.join();
  EXPECT_FALSE(failed.load());
  EXPECT_EQ(memstore.frozenSegmentCount(), (kEntries - 1) / kSegmentEntries);
}

}  // namespace
}  // namespace keyscope::engine
