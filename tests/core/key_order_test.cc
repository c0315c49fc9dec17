// checkByteOrder: sorted layouts always preserve value order; HBase's
// Bytes.toBytes layout of signed integers and floats does not, and the report
// proves it with a pair whose bytes really sort the wrong way.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "keyscope/key_order.h"
#include "test_util.h"

namespace keyscope {
namespace {

ByteOrderReport reportFor(const std::string& text) { return checkByteOrder(test::schemaOf(text)); }

bool preservesOrder(const std::string& text) {
  const ByteOrderReport report = reportFor(text);
  return report.preservesOrder && report.breaks.empty();
}

// The break for `component` is a real counterexample: the values are in
// order, the bytes are what the component encodes them to, and they sort the
// other way.
::testing::AssertionResult isRealCounterexample(const KeySchema& schema, const OrderBreak& br) {
  const KeyComponent& c = schema[br.component];
  auto smallerBytes = encodeComponent(c, br.smaller);
  auto largerBytes = encodeComponent(c, br.larger);
  if (!smallerBytes || !largerBytes) return ::testing::AssertionFailure() << "values do not encode";
  if (*smallerBytes != br.smallerBytes || *largerBytes != br.largerBytes) {
    return ::testing::AssertionFailure() << "bytes in the report are not the encodings";
  }
  KeySchema one = test::schemaOf(c.name + ":" + c.typeText());  // the same type, sorted layout
  if (compareTuples(one, {br.smaller}, {br.larger}) >= 0) {
    return ::testing::AssertionFailure() << test::describe(br.smaller) << " is not less than " << test::describe(br.larger);
  }
  if (test::byteOrder(br.smallerBytes, br.largerBytes) <= 0) {
    return ::testing::AssertionFailure() << toHex(br.smallerBytes) << " does sort before " << toHex(br.largerBytes);
  }
  if (br.explanation.empty()) return ::testing::AssertionFailure() << "no explanation";
  return ::testing::AssertionSuccess();
}

TEST(KeyOrder, SortedLayoutsPreserveValueOrder) {
  EXPECT_TRUE(preservesOrder("a:i64 | b:f64 desc | c:utf8 | d:bytes desc | e:bool | f:i8"));
  EXPECT_TRUE(preservesOrder("s:salt(16, ts) | ts:i64 | h:md5(4, ts) | q:quadkey | d:domain | r:revts"));
  EXPECT_TRUE(preservesOrder("a:f32 | b:i16 desc | c:bytes(4)"));
}

TEST(KeyOrder, UnsignedAndOrderKeepingHbaseLayoutsPreserveValueOrder) {
  EXPECT_TRUE(preservesOrder("a:u8 hbase | b:u16 hbase | c:u32 hbase | d:u64 hbase"));
  EXPECT_TRUE(preservesOrder("a:bool hbase | b:revts hbase | c:quadkey hbase | d:bytes(3) hbase | e:utf8 hbase"));
}

TEST(KeyOrder, HbaseI64BreaksOrderWithARealCounterexample) {
  const KeySchema schema = test::schemaOf("x:i64 hbase");
  const ByteOrderReport report = checkByteOrder(schema);
  EXPECT_FALSE(report.preservesOrder);
  ASSERT_EQ(report.breaks.size(), 1u);
  EXPECT_EQ(report.breaks[0].component, 0u);
  EXPECT_TRUE(isRealCounterexample(schema, report.breaks[0]));
}

TEST(KeyOrder, HbaseF64BreaksOrderWithARealCounterexample) {
  const KeySchema schema = test::schemaOf("x:f64 hbase");
  const ByteOrderReport report = checkByteOrder(schema);
  EXPECT_FALSE(report.preservesOrder);
  ASSERT_EQ(report.breaks.size(), 1u);
  EXPECT_TRUE(isRealCounterexample(schema, report.breaks[0]));
}

TEST(KeyOrder, EachBrokenComponentIsNamedOnce) {
  const KeySchema schema = test::schemaOf("a:utf8 | b:i32 hbase | c:u32 hbase | d:f32 hbase | e:i8 hbase");
  const ByteOrderReport report = checkByteOrder(schema);
  EXPECT_FALSE(report.preservesOrder);
  std::vector<size_t> named;
  for (const OrderBreak& br : report.breaks) {
    named.push_back(br.component);
    EXPECT_TRUE(isRealCounterexample(schema, br)) << "component " << br.component;
  }
  EXPECT_EQ(named, (std::vector<size_t>{1, 3, 4}));
}

}  // namespace
}  // namespace keyscope
