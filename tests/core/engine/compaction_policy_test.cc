// Which store files a minor compaction merges: HBase's ratio-based selection,
// except that the engine leaves alone a run of files whose key ranges do not
// overlap (a key-ordered load flushes such files; merging them only rewrites
// them), while asked-for compactions and crowded stores merge as before.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/compactor.h"
#include "engine_test_util.h"

namespace keyscope::test {
namespace {

using engine::CompactionCandidate;
using engine::kCompactionMaxFiles;
using engine::selectMinorCompaction;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

// Equal-sized files, oldest first, each over the key range given.
struct Files {
  std::vector<std::string> keys;  // first, last, first, last, ...
  std::vector<CompactionCandidate> candidates(bool withRanges = true) const {
    std::vector<CompactionCandidate> out;
    for (size_t i = 0; i + 1 < keys.size(); i += 2) {
      CompactionCandidate c{i / 2, 1000, {}, {}};
      if (withRanges) {
        c.firstKey = keys[i];
        c.lastKey = keys[i + 1];
      }
      out.push_back(c);
    }
    return out;
  }
};

TEST(CompactionPolicy, OverlappingFilesAreMerged) {
  const Files files{{"a", "m", "c", "p", "b", "z"}};
  EXPECT_THAT(selectMinorCompaction(files.candidates(), true), ElementsAre(0, 1, 2));
}

TEST(CompactionPolicy, FilesOfDisjointKeyRangesAreLeftAlone) {
  const Files files{{"a", "c", "g", "k", "d", "f"}};  // disjoint, in no particular order
  EXPECT_THAT(selectMinorCompaction(files.candidates(), true), IsEmpty());
}

TEST(CompactionPolicy, TouchingKeyRangesOverlap) {
  const Files files{{"a", "c", "c", "k", "m", "p"}};  // the first two share key "c"
  EXPECT_THAT(selectMinorCompaction(files.candidates(), true), ElementsAre(0, 1, 2));
}

TEST(CompactionPolicy, DisjointFilesAreMergedWhenTheCompactionWasAskedFor) {
  const Files files{{"a", "c", "d", "f", "g", "k"}};
  EXPECT_THAT(selectMinorCompaction(files.candidates(), false), ElementsAre(0, 1, 2));
}

TEST(CompactionPolicy, DisjointFilesAreMergedOnceTheStoreHoldsTooMany) {
  Files files;
  for (size_t i = 0; i <= kCompactionMaxFiles; ++i) {
    files.keys.push_back("k" + std::to_string(10 + 2 * i));
    files.keys.push_back("k" + std::to_string(11 + 2 * i));
  }
  EXPECT_THAT(selectMinorCompaction(files.candidates(), true), ::testing::SizeIs(kCompactionMaxFiles));
}

TEST(CompactionPolicy, FilesOfUnknownKeyRangesCountAsOverlapping) {
  const Files files{{"a", "c", "d", "f", "g", "k"}};
  EXPECT_THAT(selectMinorCompaction(files.candidates(false), true), ElementsAre(0, 1, 2));
}

// The same through the engine's background compactions.
class BackgroundCompactionTest : public ::testing::Test {
 protected:
  BackgroundCompactionTest() {
    TableOptions table;
    table.name = "t";
    table.families = {familyOf("f").options};
    table.maxFileSize = 1ull << 40;  // one region throughout
    const Status s = fx.ws().createTable(table);
    EXPECT_TRUE(s) << s.toString();
  }

  // Ten rows "<prefix>0".."<prefix>9", then a flush: one store file.
  void flushRows(const std::string& prefix) {
    for (int i = 0; i < 10; ++i) fx.put("t", prefix + std::to_string(i), "f:q", 1, "v");
    fx.flush("t");
    ASSERT_TRUE(fx.ws().waitForBackgroundWork());
  }

  EngineFixture fx;
};

TEST_F(BackgroundCompactionTest, KeyOrderedFlushesStayAsTheyAreUntilOneOverlapsThem) {
  for (const char* prefix : {"row1", "row2", "row3", "row4"}) flushRows(prefix);
  EXPECT_EQ(fx.storeFileCount("t"), 4u) << "four disjoint files: nothing to gain from merging them";
  flushRows("row");  // "row0".."row9": row1 to row4 sort among the others
  EXPECT_EQ(fx.storeFileCount("t"), 1u) << "an overlapping file makes the run worth merging";
  EXPECT_EQ(fx.scanRows("t", ScanOptions{}).size(), 50u);
}

TEST_F(BackgroundCompactionTest, AnAskedForMinorCompactionMergesDisjointFilesToo) {
  for (const char* prefix : {"row1", "row2", "row3"}) flushRows(prefix);
  ASSERT_EQ(fx.storeFileCount("t"), 3u);
  ASSERT_TRUE(fx.ws().compact("t", false));
  EXPECT_EQ(fx.storeFileCount("t"), 1u);
  EXPECT_EQ(fx.scanRows("t", ScanOptions{}).size(), 30u);
}

}  // namespace
}  // namespace keyscope::test
