// The batch API's JSON form of filters: every accepted form, the canonical
// output, round trips through JSON and the filter language, and errors that
// name the field.
#include <gtest/gtest.h>

#include "filter/filter_json.h"
#include "filter_test_driver.h"
#include "keyscope/filter.h"

namespace keyscope {
namespace {

using namespace std::string_literals;
using test::put;

// filterFromJson's filter in the filter language, or "error: ...".
std::string fromJson(std::string_view json) {
  auto f = filterFromJson(json);
  return f ? (*f)->toString() : "error: " + f.status().message();
}

::testing::AssertionResult rejected(std::string_view json, std::string_view fragment) {
  auto f = filterFromJson(json);
  if (f) return ::testing::AssertionFailure() << json << " was accepted as " << (*f)->toString();
  if (f.status().code() != Status::Code::kInvalidArgument ||
      f.status().message().find(fragment) == std::string::npos) {
    return ::testing::AssertionFailure() << json << ": \"" << f.status().message() << "\" lacks \"" << fragment << "\"";
  }
  return ::testing::AssertionSuccess();
}

TEST(FilterJson, ReadsTheDocumentedExample) {
  EXPECT_EQ(fromJson(R"({"type":"SingleColumnValueFilter","family":"f","qualifier":"q","op":"EQUAL",
                         "comparator":"binary:abc","filter_if_missing":true,"latest_version_only":true})"),
            "SingleColumnValueFilter ('f', 'q', =, 'binary:abc', true, true)");
  EXPECT_EQ(fromJson(R"({"type":"SingleColumnValueFilter","family":"f","qualifier":"q","op":"<=","comparator":"binary:1"})"),
            "SingleColumnValueFilter ('f', 'q', <=, 'binary:1')");
}

TEST(FilterJson, ByteArgumentsTakeEveryForm) {
  EXPECT_EQ(fromJson(R"({"type":"PrefixFilter","prefix":"r\u00e9"})"), "PrefixFilter ('r\xc3\xa9')");
  EXPECT_EQ(fromJson(R"({"type":"PrefixFilter","prefix":{"hex":"00ff"}})"), "PrefixFilter ('\x00\xff')"s);
  EXPECT_EQ(fromJson(R"({"type":"PrefixFilter","prefix":{"long":1}})"), "PrefixFilter ('\0\0\0\0\0\0\0\x01')"s);
  EXPECT_EQ(fromJson(R"({"type":"PrefixFilter","prefix":{"int":-2}})"), "PrefixFilter ('\xff\xff\xff\xfe')"s);
  EXPECT_EQ(fromJson(R"({"type":"ValueFilter","op":"GREATER","comparator":{"type":"binary","value":{"long":5}}})"),
            "ValueFilter (>, 'binary:\0\0\0\0\0\0\0\x05')"s);
  EXPECT_EQ(fromJson(R"({"type":"ColumnPaginationFilter","limit":3,"column_offset":{"hex":"61"}})"),
            "ColumnPaginationFilter (3, 'a')");
}

TEST(FilterJson, ListsWrappersAndFilterLanguageStrings) {
  EXPECT_EQ(fromJson(R"j({"type":"FilterList","operator":"MUST_PASS_ONE","filters":[
                          {"type":"PrefixFilter","prefix":"a"},
                          {"type":"FilterList","operator":"MUST_PASS_ALL","filters":[
                             {"type":"KeyOnlyFilter"}, "PageFilter (3)"]}]})j"),
            "(PrefixFilter ('a') OR (KeyOnlyFilter () AND PageFilter (3)))");
  EXPECT_EQ(fromJson(R"({"type":"SkipFilter","filter":{"type":"WhileMatchFilter","filter":{"type":"FirstKeyOnlyFilter"}}})"),
            "SKIP WHILE FirstKeyOnlyFilter ()");
  EXPECT_EQ(fromJson(R"j("PrefixFilter ('a') AND KeyOnlyFilter ()")j"), "(PrefixFilter ('a') AND KeyOnlyFilter ())");
  EXPECT_EQ(fromJson(R"({"type":"ColumnRangeFilter","min_column":"b"})"), "ColumnRangeFilter ('b', true, '', false)");
  EXPECT_EQ(fromJson(R"({"type":"DependentColumnFilter","family":"f","qualifier":"d","op":"!=","comparator":"binary:x"})"),
            "DependentColumnFilter ('f', 'd', false, !=, 'binary:x')");
  EXPECT_EQ(fromJson(R"({"type":"TimestampsFilter","timestamps":[5,1,5],"can_hint":true})"), "TimestampsFilter (1, 5, true)");
}

TEST(FilterJson, CanonicalJsonNamesEveryField) {
  auto f = parseFilter("SingleColumnValueExcludeFilter ('f', 'q', !=, 'substring:ab')").value();
  EXPECT_EQ(filter::filterToJson(*f),
            R"({"type":"SingleColumnValueExcludeFilter","family":"f","qualifier":"q","op":"NOT_EQUAL",)"
            R"("comparator":"substring:ab","filter_if_missing":false,"latest_version_only":true})");
  auto bin = parseFilter("RowFilter (<, 'binary:\x00\xff') AND PrefixFilter ('\xfe')"s).value();
  EXPECT_EQ(filter::filterToJson(*bin),
            R"({"type":"FilterList","operator":"MUST_PASS_ALL","filters":[)"
            R"({"type":"RowFilter","op":"LESS","comparator":{"type":"binary","value":{"hex":"00ff"}}},)"
            R"({"type":"PrefixFilter","prefix":{"hex":"fe"}}]})");
}

// Language -> filter -> JSON -> filter: the same language text, the same JSON,
// and the same cells.
TEST(FilterJson, RoundTripsEveryFilterThroughJson) {
  const char* texts[] = {
      "PrefixFilter ('r\xff')", "ColumnPrefixFilter ('b')", "MultipleColumnPrefixFilter ('b', 'a')",
      "QualifierFilter (>, 'binary:a')", "ValueFilter (=, 'regexstring:v[0-9]')", "RowFilter (<=, 'binaryprefix:r2')",
      "FamilyFilter (!=, 'substring:G')", "SingleColumnValueFilter ('f', 'a', =, 'binary:v1', true, false)",
      "SingleColumnValueExcludeFilter ('f', 'a', <, 'binary:v9')", "KeyOnlyFilter (true)", "FirstKeyOnlyFilter ()",
      "PageFilter (2)", "ColumnCountGetFilter (1)", "ColumnPaginationFilter (1, 1)", "ColumnPaginationFilter (2, 'b')",
      "ColumnRangeFilter ('a', false, 'c', true)", "ColumnRangeFilter ('', true, '', false)", "InclusiveStopFilter ('r2')",
      "TimestampsFilter (1, 3, true)", "DependentColumnFilter ('f', 'a', true)",
      "DependentColumnFilter ('f', 'a', false, >=, 'binary:v2')", "SKIP ValueFilter (!=, 'binary:v3')",
      "WHILE RowFilter (<, 'binary:r3')", "((PrefixFilter ('r1') OR PrefixFilter ('r3')) AND SKIP KeyOnlyFilter ())",
  };
  std::vector<Cell> cells;
  for (int r = 1; r <= 3; ++r) {
    for (const char* q : {"a", "b", "c"}) {
      for (int ts = 1; ts <= 2; ++ts) cells.push_back(put("r" + std::to_string(r), "f", q, ts, "v" + std::to_string(r + ts)));
    }
  }
  for (const char* text : texts) {
    auto f = parseFilter(text);
    ASSERT_TRUE(f.isOk()) << text << ": " << f.status().toString();
    const std::string json = filter::filterToJson(**f);
    auto back = filterFromJson(json);
    ASSERT_TRUE(back.isOk()) << json << ": " << back.status().toString();
    EXPECT_EQ((*back)->toString(), (*f)->toString()) << json;
    EXPECT_EQ(filter::filterToJson(**back), json);
    EXPECT_EQ(test::shown(test::drive(**back, cells)), test::shown(test::drive(**f, cells))) << text;
  }
}

TEST(FilterJson, ErrorsNameTheField) {
  EXPECT_TRUE(rejected("{", "not valid JSON"));
  EXPECT_TRUE(rejected("42", "filter: expected a filter object or filter-language string"));
  EXPECT_TRUE(rejected(R"({"prefix":"a"})", "filter: expected a \"type\""));
  EXPECT_TRUE(rejected(R"({"type":"NoSuchFilter"})", "type: unknown filter 'NoSuchFilter'"));
  EXPECT_TRUE(rejected(R"({"type":"PrefixFilter"})", "prefix: missing"));
  EXPECT_TRUE(rejected(R"({"type":"PrefixFilter","prefix":"a","prefx":"b"})", "prefx: unknown field for PrefixFilter"));
  EXPECT_TRUE(rejected(R"({"type":"PrefixFilter","prefix":7})", "prefix: expected bytes"));
  EXPECT_TRUE(rejected(R"({"type":"PrefixFilter","prefix":{"hex":"0"}})", "prefix.hex: expected an even number of hex digits"));
  EXPECT_TRUE(rejected(R"({"type":"PrefixFilter","prefix":{"int":2147483648}})", "out of range for a 32-bit int"));
  EXPECT_TRUE(rejected(R"({"type":"PrefixFilter","prefix":{"long":1.5}})", "expected an integer for \"long\""));
  EXPECT_TRUE(rejected(R"({"type":"ValueFilter","op":"NO_OP","comparator":"binary:a"})", "op: expected LESS"));
  EXPECT_TRUE(rejected(R"({"type":"ValueFilter","op":"=","comparator":"bin:a"})", "comparator: unknown comparator type"));
  EXPECT_TRUE(rejected(R"({"type":"ValueFilter","op":"<","comparator":"regexstring:a"})", "op: a regexstring: comparator"));
  EXPECT_TRUE(rejected(R"({"type":"ValueFilter","op":"=","comparator":{"type":"binary"}})", "comparator.value: missing"));
  EXPECT_TRUE(rejected(R"({"type":"ValueFilter","op":"=","comparator":{"type":"binary","value":"a","x":1}})",
                       "comparator.x: unknown field"));
  EXPECT_TRUE(rejected(R"({"type":"PageFilter","page_size":-1})", "page_size: expected an integer in [0,"));
  EXPECT_TRUE(rejected(R"({"type":"PageFilter","page_size":"5"})", "page_size: expected an integer"));
  EXPECT_TRUE(rejected(R"({"type":"ColumnPaginationFilter","limit":1})", "exactly one of \"offset\" and \"column_offset\""));
  EXPECT_TRUE(rejected(R"({"type":"ColumnPaginationFilter","limit":1,"offset":0,"column_offset":"a"})", "exactly one"));
  EXPECT_TRUE(rejected(R"({"type":"KeyOnlyFilter","len_as_val":1})", "len_as_val: expected true or false"));
  EXPECT_TRUE(rejected(R"({"type":"TimestampsFilter","timestamps":[1,-1]})", "timestamps[1]: expected a timestamp >= 0"));
  EXPECT_TRUE(rejected(R"({"type":"MultipleColumnPrefixFilter","prefixes":["a","a"]})", "prefixes[1]: prefixes must be distinct"));
  EXPECT_TRUE(rejected(R"({"type":"DependentColumnFilter","family":"f","qualifier":"q","op":"="})", "both \"op\" and \"comparator\""));
  EXPECT_TRUE(rejected(R"({"type":"FilterList","operator":"AND","filters":[]})", "operator: expected \"MUST_PASS_ALL\""));
  EXPECT_TRUE(rejected(R"({"type":"FilterList","operator":"MUST_PASS_ALL","filters":[]})", "filters: expected a non-empty array"));
  EXPECT_TRUE(rejected(R"({"type":"FilterList","operator":"MUST_PASS_ALL","filters":[{"type":"KeyOnlyFilter"},
                          {"type":"ValueFilter","op":"=","comparator":"x"}]})",
                       "filters[1].comparator: comparator 'x' lacks a type"));
  EXPECT_TRUE(rejected(R"({"type":"SkipFilter","filter":{"type":"PrefixFilter"}})", "filter.prefix: missing"));
  EXPECT_TRUE(rejected(R"({"type":"SkipFilter","filter":"PrefixFilter ('a'"})", "filter: column 18: expected ','"));
  EXPECT_TRUE(rejected(R"({"type":"WhileMatchFilter","filter":{"type":"KeyOnlyFilter"},"extra":1})",
                       "extra: unknown field for WhileMatchFilter"));
}

TEST(FilterJson, DeepNestingIsRefused) {
  std::string deep;
  for (int i = 0; i < 70; ++i) deep += R"({"type":"SkipFilter","filter":)";
  deep += R"({"type":"KeyOnlyFilter"})" + std::string(70, '}');
  EXPECT_TRUE(rejected(deep, "nested deeper than 64"));
  EXPECT_TRUE(rejected(std::string(100000, '['), "nested deeper than 64"));
  std::string ok;
  for (int i = 0; i < 60; ++i) ok += R"({"type":"SkipFilter","filter":)";
  ok += R"({"type":"KeyOnlyFilter"})" + std::string(60, '}');
  EXPECT_TRUE(filterFromJson(ok).isOk());
}

}  // namespace
}  // namespace keyscope
