// Big-endian loads and stores against the bytes written out by hand: the
// most significant byte first, at any alignment.
#include "engine/big_endian.h"

#include <gtest/gtest.h>

#include <string>

namespace keyscope::engine {
namespace {

TEST(BigEndian, MostSignificantByteFirstAtEveryAlignment) {
  const uint64_t value = 0x0102030405060708ull;
  const std::string bytes("\x01\x02\x03\x04\x05\x06\x07\x08", 8);
  for (size_t at = 0; at < 8; ++at) {
    std::string buffer(at + 8, '\xee');
    storeBigEndian64(buffer.data() + at, value);
    EXPECT_EQ(buffer.substr(at), bytes) << "at " << at;
    EXPECT_EQ(buffer.substr(0, at), std::string(at, '\xee'));  // nothing written before
    EXPECT_EQ(loadBigEndian64(buffer.data() + at), value);
    EXPECT_EQ(loadBigEndian32(buffer.data() + at), 0x01020304u);
  }
  // High bits, as inverted timestamps and negative counters carry them.
  std::string buffer(8, '\0');
  storeBigEndian64(buffer.data(), ~uint64_t{5});
  EXPECT_EQ(buffer, std::string("\xff\xff\xff\xff\xff\xff\xff\xfa", 8));
  EXPECT_EQ(loadBigEndian64(buffer.data()), ~uint64_t{5});
  EXPECT_EQ(loadBigEndian32("\x80\x00\x00\x01"), 0x80000001u);
}

}  // namespace
}  // namespace keyscope::engine
