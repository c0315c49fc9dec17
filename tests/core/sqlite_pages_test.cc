// Store-file pages in SQLite: writes, byte-range reads through one reused
// BLOB handle, missing pages, file deletes, and snapshot visibility. Real
// SQLite files in a temporary directory.
#include "engine/sqlite_pages.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace keyscope::engine {
namespace {

class SqlitePagesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string dir = ::testing::TempDir() + "keyscope-pages-XXXXXX";
    ASSERT_NE(mkdtemp(dir.data()), nullptr);
    m_dir = dir;
    m_db = openConnection();
    exec(m_db, "PRAGMA journal_mode=WAL");
    exec(m_db, kPagesTableDdl);
  }
  void TearDown() override {
    m_source.reset();
    m_sink.reset();
    sqlite3_close(m_db);
    std::filesystem::remove_all(m_dir);
  }

  sqlite3* openConnection() {
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open_v2((m_dir + "/ws.sqlite").c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                              nullptr),
              SQLITE_OK);
    return db;
  }
  static void exec(sqlite3* db, const char* sql) {
    char* error = nullptr;
    EXPECT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, &error), SQLITE_OK) << sql << ": " << (error ? error : "");
    sqlite3_free(error);
  }
  int64_t countRows(const char* where) {
    sqlite3_stmt* stmt = nullptr;
    const std::string sql = std::string("SELECT count(*) FROM pages WHERE ") + where;
    EXPECT_EQ(sqlite3_prepare_v2(m_db, sql.c_str(), -1, &stmt, nullptr), SQLITE_OK);
    EXPECT_EQ(sqlite3_step(stmt), SQLITE_ROW);
    const int64_t n = sqlite3_column_int64(stmt, 0);
    sqlite3_finalize(stmt);
    return n;
  }
  static std::string pageBytes(int64_t fileId, uint32_t pageNo, size_t size) {
    std::string bytes(size, '\0');
    for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<char>((static_cast<size_t>(fileId) * 31 + pageNo * 7 + i) & 0xff);
    return bytes;
  }
  void writePages(int64_t fileId, uint32_t count, size_t size = 5000) {
    for (uint32_t p = 0; p < count; ++p) ASSERT_TRUE(sink().writePage(fileId, p, pageBytes(fileId, p, size)).isOk());
  }
  SqlitePageSink& sink() {
    if (!m_sink) m_sink = std::make_unique<SqlitePageSink>(m_db);
    return *m_sink;
  }
  SqlitePageSource& source() {
    if (!m_source) m_source = std::make_unique<SqlitePageSource>(m_db);
    return *m_source;
  }

  std::string m_dir;
  sqlite3* m_db = nullptr;
  std::unique_ptr<SqlitePageSink> m_sink;
  std::unique_ptr<SqlitePageSource> m_source;
};

TEST(SqlitePages, PageRowIdPacksFileAndPage) {
  EXPECT_EQ(pageRowId(0, 0), 0);
  EXPECT_EQ(pageRowId(12, 7), 12 * 1048576 + 7);
  EXPECT_EQ(pageRowId(kMaxStoreFileId, kMaxPagesPerFile - 1), INT64_MAX);
}

TEST_F(SqlitePagesTest, ReadsTheRangesThatWereWritten) {
  writePages(1, 3);
  writePages(2, 2);
  std::string out;
  // Hop between pages and files so the handle is reopened and reused.
  const struct {
    int64_t file;
    uint32_t page, offset, length;
  } reads[] = {{1, 0, 0, 5000}, {1, 0, 4000, 1000}, {2, 1, 10, 20}, {1, 2, 4999, 1},
               {1, 2, 0, 0},    {2, 0, 123, 456},   {1, 0, 17, 3}};
  for (const auto& r : reads) {
    ASSERT_TRUE(source().readRange(r.file, r.page, r.offset, r.length, &out).isOk());
    EXPECT_EQ(out, pageBytes(r.file, r.page, 5000).substr(r.offset, r.length));
  }
}

TEST_F(SqlitePagesTest, MissingPageIsCorruptionNamingIt) {
  writePages(12, 7);
  std::string out;
  const Status s = source().readRange(12, 7, 0, 1, &out);
  EXPECT_EQ(s.code(), Status::Code::kCorruption);
  EXPECT_EQ(s.message(), "page 7 of store file 12 is missing");
  // The source still works afterwards.
  EXPECT_TRUE(source().readRange(12, 6, 0, 10, &out).isOk());
}

TEST_F(SqlitePagesTest, RangePastThePageEndIsCorruption) {
  writePages(3, 1, 100);
  std::string out;
  const Status s = source().readRange(3, 0, 90, 11, &out);
  EXPECT_EQ(s.code(), Status::Code::kCorruption);
  EXPECT_NE(s.message().find("page 0 of store file 3"), std::string::npos) << s.toString();
}

TEST_F(SqlitePagesTest, DeleteRemovesOnlyThatFilesPages) {
  writePages(11, 3);
  writePages(12, 4);
  writePages(13, 2);
  std::string out;
  ASSERT_TRUE(source().readRange(12, 1, 0, 10, &out).isOk());  // a handle open on a row about to go
  ASSERT_TRUE(deleteStoreFilePages(m_db, 12).isOk());
  EXPECT_EQ(countRows("1"), 5);
  EXPECT_EQ(source().readRange(12, 1, 0, 10, &out).code(), Status::Code::kCorruption);
  EXPECT_TRUE(source().readRange(11, 2, 0, 10, &out).isOk());
  EXPECT_TRUE(source().readRange(13, 0, 0, 10, &out).isOk());
  EXPECT_EQ(out, pageBytes(13, 0, 10));
}

TEST_F(SqlitePagesTest, LimitsAreInvalidArguments) {
  EXPECT_EQ(sink().writePage(1, kMaxPagesPerFile, "x").code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(sink().writePage(-1, 0, "x").code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(sink().writePage(kMaxStoreFileId + 1, 0, "x").code(), Status::Code::kInvalidArgument);
  EXPECT_TRUE(sink().writePage(kMaxStoreFileId, kMaxPagesPerFile - 1, "x").isOk());
  std::string out;
  EXPECT_TRUE(source().readRange(kMaxStoreFileId, kMaxPagesPerFile - 1, 0, 1, &out).isOk());
  EXPECT_EQ(out, "x");
}

TEST_F(SqlitePagesTest, WritingAPageTwiceFails) {
  writePages(4, 1);
  EXPECT_FALSE(sink().writePage(4, 0, "again").isOk());
  EXPECT_TRUE(sink().writePage(4, 1, "next").isOk());  // the statement is still usable
}

TEST_F(SqlitePagesTest, SeesPagesAnotherConnectionCommittedAfterItsSnapshot) {
  writePages(1, 1);
  std::string out;
  ASSERT_TRUE(source().readRange(1, 0, 0, 10, &out).isOk());  // holds a snapshot now
  sqlite3* writer = openConnection();
  {
    SqlitePageSink otherSink(writer);
    ASSERT_TRUE(otherSink.writePage(2, 0, pageBytes(2, 0, 300)).isOk());
  }
  sqlite3_close(writer);
  ASSERT_TRUE(source().readRange(2, 0, 0, 300, &out).isOk());
  EXPECT_EQ(out, pageBytes(2, 0, 300));
}

TEST_F(SqlitePagesTest, ReleaseEndsTheReadTransaction) {
  writePages(1, 1);
  std::string out;
  ASSERT_TRUE(source().readRange(1, 0, 0, 10, &out).isOk());
  source().release();
  // With no statement active the connection is back in autocommit with no
  // read transaction: a checkpoint can complete.
  int logFrames = -1;
  int checkpointed = -1;
  ASSERT_EQ(sqlite3_wal_checkpoint_v2(m_db, nullptr, SQLITE_CHECKPOINT_TRUNCATE, &logFrames, &checkpointed),
            SQLITE_OK);
  ASSERT_TRUE(source().readRange(1, 0, 5, 10, &out).isOk());
  EXPECT_EQ(out, pageBytes(1, 0, 5000).substr(5, 10));
}

}  // namespace
}  // namespace keyscope::engine
