// Table notes: the description and example commands a table carries for the
// GUI - kept by create and alter, persisted in the catalog, and read from
// workspaces written before tables had examples.
#include <sqlite3.h>

#include "engine_test_util.h"
#include "older_formats.h"

namespace keyscope::test {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

TableOptions notedTable(const std::string& name) {
  TableOptions t;
  t.name = name;
  t.families = {familyOf("v")};
  t.description = "Visits keyed cookie + reverse timestamp: the newest visit sorts first.";
  t.exampleCommands = {"scan 'visits', {ROWPREFIXFILTER => 'c0000042', LIMIT => 1}",
                       "count 'visits'"};
  return t;
}

std::unique_ptr<Workspace> openOrFail(const std::string& path) {
  Result<std::unique_ptr<Workspace>> ws = Workspace::open(path);
  EXPECT_TRUE(ws.isOk()) << ws.status().message();
  if (!ws.isOk()) return nullptr;
  return std::move(ws).value();
}

// Runs one SQL statement on a closed workspace file, as an older or a
// damaged build might have left it.
void rewriteCatalog(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* error = nullptr;
  const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
  EXPECT_EQ(rc, SQLITE_OK) << (error ? error : "");
  sqlite3_free(error);
  sqlite3_close(db);
}

TEST(TableNotes, DescriptionAndExamplesSurviveReopenAndAlter) {
  EngineFixture fx;
  ASSERT_TRUE(fx.ws().createTable(notedTable("visits")).isOk());
  EXPECT_EQ(fx.ws().describeTable("visits")->exampleCommands, notedTable("visits").exampleCommands);
  fx.reopen();
  Result<TableOptions> described = fx.ws().describeTable("visits");
  ASSERT_TRUE(described.isOk());
  EXPECT_EQ(described->description, notedTable("visits").description);
  EXPECT_EQ(described->exampleCommands, notedTable("visits").exampleCommands);

  TableOptions changed = *described;
  changed.exampleCommands = {"get 'visits', 'x'"};
  changed.description = "changed";
  ASSERT_TRUE(fx.ws().alterTable(changed).isOk());
  fx.reopen();
  EXPECT_THAT(fx.ws().describeTable("visits")->exampleCommands, ElementsAre("get 'visits', 'x'"));
  EXPECT_EQ(fx.ws().describeTable("visits")->description, "changed");
}

TEST(TableNotes, ExamplesKeepTheirOrderQuotesAndNonAsciiText) {
  EngineFixture fx;
  TableOptions t = notedTable("t");
  t.exampleCommands = {"put 't', \"r\\x00\", 'v:q', 'it''s'", "", "scan 't' # café ✓", "count 't'"};
  ASSERT_TRUE(fx.ws().createTable(t).isOk());
  fx.reopen();
  EXPECT_EQ(fx.ws().describeTable("t")->exampleCommands, t.exampleCommands);
}

TEST(TableNotes, AWorkspaceWrittenBeforeExamplesExistedOpensWithNone) {
  TempDir dir;
  const std::string path = dir.file("old.ksw");
  {
    std::unique_ptr<Workspace> ws = openOrFail(path);
    ASSERT_NE(ws, nullptr);
    ASSERT_TRUE(ws->createTable(notedTable("visits")).isOk());
    ASSERT_TRUE(ws->put("visits", {"r", {{"v", "q", 5, "x"}}}).isOk());
  }
  // An older build wrote the options without the "examples" key (and
  // without a checksum).
  downgradeToFormat3(path);
  rewriteCatalog(path, "UPDATE tables SET options = json_remove(options, '$.examples')");
  std::unique_ptr<Workspace> ws = openOrFail(path);
  ASSERT_NE(ws, nullptr);
  Result<TableOptions> described = ws->describeTable("visits");
  ASSERT_TRUE(described.isOk());
  EXPECT_THAT(described->exampleCommands, IsEmpty());
  EXPECT_EQ(described->description, notedTable("visits").description);
  GetOptions get;
  get.row = "r";
  Result<GetResult> got = ws->get("visits", get);
  ASSERT_TRUE(got.isOk());
  EXPECT_THAT(describe(got->cells), ElementsAre("5:x"));
}

TEST(TableNotes, ExamplesOfTheWrongTypeInTheCatalogAreCorruptionNotACrash) {
  TempDir dir;
  const std::string path = dir.file("bad.ksw");
  {
    std::unique_ptr<Workspace> ws = openOrFail(path);
    ASSERT_NE(ws, nullptr);
    ASSERT_TRUE(ws->createTable(notedTable("visits")).isOk());
  }
  downgradeToFormat3(path);
  rewriteCatalog(path, "UPDATE tables SET options = json_set(options, '$.examples', json('[1, 2]'))");
  Result<std::unique_ptr<Workspace>> ws = Workspace::open(path);
  ASSERT_FALSE(ws.isOk());
  EXPECT_EQ(ws.status().code(), Status::Code::kCorruption);
  EXPECT_THAT(ws.status().message(), HasSubstr("table options"));
}

TEST(TableNotes, TextThatIsNotUtf8IsRefusedWithItsPlace) {
  EngineFixture fx;
  TableOptions t = notedTable("t");
  t.description = "bad \xff byte";
  Status s = fx.ws().createTable(t);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("DESCRIPTION is not UTF-8 text (byte 4)"));
  t = notedTable("t");
  t.exampleCommands.push_back("scan '\xc3'");
  s = fx.ws().createTable(t);
  EXPECT_THAT(s.message(), HasSubstr("example 3 is not UTF-8"));
  ASSERT_TRUE(fx.ws().createTable(notedTable("t")).isOk());
  t = notedTable("t");
  t.keySchema = "\x80";
  EXPECT_THAT(fx.ws().alterTable(t).message(), HasSubstr("KEY_SCHEMA is not UTF-8"));
  EXPECT_EQ(fx.ws().describeTable("t")->exampleCommands, notedTable("t").exampleCommands);
}

}  // namespace
}  // namespace keyscope::test
