// The read path's short-string helpers against the standard library's
// answers: every length either side of the word sizes they switch on, a
// difference at every position, and copies into buffers of every state.
#include "engine/short_bytes.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace keyscope::engine {
namespace {

std::string randomBytes(std::mt19937& rng, size_t n) {
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(rng() & 0xFF);
  return s;
}

TEST(ShortBytes, EqualityAgreesWithTheLibraryAtEveryLengthAndPosition) {
  std::mt19937 rng(7);
  for (size_t n = 0; n <= 40; ++n) {
    const std::string a = randomBytes(rng, n);
    std::string b = a;
    EXPECT_TRUE(equalBytes(a, b)) << "length " << n;
    for (size_t i = 0; i < n; ++i) {
      b[i] = static_cast<char>(b[i] ^ 0x01);
      EXPECT_FALSE(equalBytes(a, b)) << "length " << n << ", differing at " << i;
      EXPECT_FALSE(equalBytes(b, a)) << "length " << n << ", differing at " << i;
      b[i] = a[i];
    }
    // A shorter or longer string with the same leading bytes.
    EXPECT_FALSE(equalBytes(a, a + "x")) << "length " << n;
    if (n > 0) {
      EXPECT_FALSE(equalBytes(a, std::string_view(a).substr(0, n - 1))) << "length " << n;
    }
  }
}

TEST(ShortBytes, PrefixTestsAgreeWithTheLibrary) {
  std::mt19937 rng(11);
  for (size_t n = 0; n <= 40; ++n) {
    const std::string s = randomBytes(rng, n);
    for (size_t k = 0; k <= n; ++k) {
      const std::string_view prefix = std::string_view(s).substr(0, k);
      EXPECT_TRUE(startsWithBytes(s, prefix)) << n << "/" << k;
      if (k > 0) {
        std::string other(prefix);
        other[k - 1] = static_cast<char>(other[k - 1] ^ 0x80);
        EXPECT_FALSE(startsWithBytes(s, other)) << n << "/" << k;
      }
    }
    EXPECT_FALSE(startsWithBytes(s, s + "y")) << "a prefix longer than the string, length " << n;
  }
}

TEST(ShortBytes, AssignmentLeavesExactlyTheSourceWhateverTheTargetHeld) {
  std::mt19937 rng(13);
  for (size_t before = 0; before <= 40; before += 3) {
    for (size_t n = 0; n <= 40; ++n) {
      std::string to = randomBytes(rng, before);
      const std::string from = randomBytes(rng, n);
      assignBytes(to, from);
      EXPECT_EQ(to, from) << "from " << before << " bytes to " << n;
      EXPECT_EQ(to.size(), n);
    }
  }
}

TEST(ShortBytes, CopiesWriteOnlyTheBytesAsked) {
  std::mt19937 rng(17);
  for (size_t n = 0; n <= 40; ++n) {
    const std::string from = randomBytes(rng, n);
    std::string to(48, '#');
    copyBytes(to.data() + 4, from.data(), n);
    EXPECT_EQ(to.substr(4, n), from) << "length " << n;
    EXPECT_EQ(to.substr(0, 4), "####") << "length " << n;
    EXPECT_EQ(to.substr(4 + n), std::string(44 - n, '#')) << "length " << n;
  }
}

}  // namespace
}  // namespace keyscope::engine
