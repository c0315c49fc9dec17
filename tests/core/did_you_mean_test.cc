#include "keyscope/did_you_mean.h"

#include <gtest/gtest.h>

namespace keyscope {
namespace {

TEST(EditDistance, CountsInsertionsDeletionsAndSubstitutionsButNotCase) {
  EXPECT_EQ(editDistanceIgnoringCase("", ""), 0u);
  EXPECT_EQ(editDistanceIgnoringCase("", "abc"), 3u);
  EXPECT_EQ(editDistanceIgnoringCase("max_version", "max_versions"), 1u);
  EXPECT_EQ(editDistanceIgnoringCase("sacn", "scan"), 2u);  // a transposition is two edits
  EXPECT_EQ(editDistanceIgnoringCase("LIMIT", "limit"), 0u);
  EXPECT_EQ(editDistanceIgnoringCase("kitten", "sitting"), 3u);
}

TEST(NearestName, TheNearestWithinTheEditsAllowedElseNone) {
  const std::vector<std::string_view> fields = {"op", "table", "stop_row", "stop_inclusive", "max_versions"};
  EXPECT_EQ(nearestName("max_version", fields, 2), "max_versions");
  EXPECT_EQ(nearestName("TABLE", fields, 0), "table");
  EXPECT_EQ(nearestName("stop", fields, 1), "");  // "op" is two edits away
  EXPECT_EQ(nearestName("stop", fields, 2), "op");
  EXPECT_EQ(nearestName("anything", {}, 5), "");
  // Of equally near names, the first.
  EXPECT_EQ(nearestName("ab", {"aa", "bb"}, 1), "aa");
}

}  // namespace
}  // namespace keyscope
