// LeasedPageSource: its readahead view reads the same pages as the owner,
// and never leaves a connection (a SQLite snapshot) borrowed that the owner
// had given back. (That the two never use the connection at once is watched
// in connection_use_test.cc.)
#include "engine/reader_pool.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "engine/catalog.h"
#include "engine/sqlite_pages.h"
#include "engine_test_util.h"

namespace keyscope::engine {
namespace {

constexpr int64_t kFile = 5;

// Whether the source has a connection borrowed.
bool holdsConnection(const LeasedPageSource& source) {
  return source.heldLongerThan(std::chrono::steady_clock::duration(-1));
}

class ReaderPoolTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto catalog = Catalog::open(m_dir.file("w.keyscope"), /*createIfMissing=*/true);
    ASSERT_TRUE(catalog.isOk()) << catalog.status().toString();
    m_catalog = std::move(catalog).value();
    SqlitePageSink sink(m_catalog->db());
    for (uint32_t page = 0; page < 4; ++page) {
      const Status s = sink.writePage(kFile, page, pageBytes(page));
      ASSERT_TRUE(s.isOk()) << s.toString();
    }
    m_pool = std::make_unique<ReaderPool>(m_catalog.get());
  }
  void TearDown() override { m_pool.reset(); }  // before the catalog

  static std::string pageBytes(uint32_t page) { return std::string(1000, static_cast<char>('a' + page)); }

  test::TempDir m_dir;
  std::unique_ptr<Catalog> m_catalog;
  std::unique_ptr<ReaderPool> m_pool;
};

TEST_F(ReaderPoolTest, AReadaheadReadGivesBackAConnectionTheOwnerDidNotHold) {
  LeasedPageSource source(m_pool.get());
  std::string out;
  ASSERT_TRUE(source.readahead()->readRange(kFile, 1, 10, 20, &out).isOk());
  EXPECT_EQ(out, pageBytes(1).substr(10, 20));
  EXPECT_FALSE(holdsConnection(source)) << "an idle owner would hold a snapshot its readahead took";

  // While the owner holds one, its readahead reads through it and leaves it held.
  ASSERT_TRUE(source.readRange(kFile, 2, 0, 5, &out).isOk());
  EXPECT_EQ(out, pageBytes(2).substr(0, 5));
  ASSERT_TRUE(holdsConnection(source));
  ASSERT_TRUE(source.readahead()->readRange(kFile, 3, 0, 5, &out).isOk());
  EXPECT_EQ(out, pageBytes(3).substr(0, 5));
  EXPECT_TRUE(holdsConnection(source));
  source.release();
  EXPECT_FALSE(holdsConnection(source));
}

}  // namespace
}  // namespace keyscope::engine
