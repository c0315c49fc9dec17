// Status and Result<T>: the error currency of the core API.
#include "keyscope/status.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace keyscope {
namespace {

TEST(Status, DefaultIsOk) {
  const Status status;
  EXPECT_TRUE(status.isOk());
  EXPECT_TRUE(static_cast<bool>(status));
  EXPECT_EQ(status.code(), Status::Code::kOk);
  EXPECT_EQ(status.message(), "");
  EXPECT_EQ(status.toString(), "OK");
  EXPECT_TRUE(Status::ok().isOk());
}

TEST(Status, EachFactoryCarriesItsCodeAndMessage) {
  const struct {
    Status status;
    Status::Code code;
    const char* name;
  } cases[] = {
      {Status::notFound("m"), Status::Code::kNotFound, "NotFound"},
      {Status::invalidArgument("m"), Status::Code::kInvalidArgument, "InvalidArgument"},
      {Status::corruption("m"), Status::Code::kCorruption, "Corruption"},
      {Status::ioError("m"), Status::Code::kIOError, "IOError"},
      {Status::cancelled("m"), Status::Code::kCancelled, "Cancelled"},
      {Status::busy("m"), Status::Code::kBusy, "Busy"},
  };
  for (const auto& c : cases) {
    EXPECT_FALSE(c.status.isOk());
    EXPECT_FALSE(static_cast<bool>(c.status));
    EXPECT_EQ(c.status.code(), c.code);
    EXPECT_EQ(c.status.message(), "m");
    EXPECT_STREQ(codeName(c.code), c.name);
  }
  EXPECT_STREQ(codeName(Status::Code::kOk), "OK");
}

TEST(Status, ToStringIsCodeColonMessage) {
  EXPECT_EQ(Status::invalidArgument("column 7: unknown type 'int'").toString(),
            "InvalidArgument: column 7: unknown type 'int'");
  EXPECT_EQ(Status::corruption("block checksum mismatch").toString(), "Corruption: block checksum mismatch");
}

TEST(Status, CodesKeepTheirStoredValues) {
  // Append only: codes are shown to users and stored in logs.
  EXPECT_EQ(static_cast<int>(Status::Code::kOk), 0);
  EXPECT_EQ(static_cast<int>(Status::Code::kNotFound), 1);
  EXPECT_EQ(static_cast<int>(Status::Code::kInvalidArgument), 2);
  EXPECT_EQ(static_cast<int>(Status::Code::kCorruption), 3);
  EXPECT_EQ(static_cast<int>(Status::Code::kIOError), 4);
  EXPECT_EQ(static_cast<int>(Status::Code::kCancelled), 5);
  EXPECT_EQ(static_cast<int>(Status::Code::kBusy), 6);
}

TEST(Result, HoldsAValue) {
  Result<std::string> r(std::string("key"));
  ASSERT_TRUE(r.isOk());
  EXPECT_TRUE(static_cast<bool>(r));
  EXPECT_EQ(r.value(), "key");
  EXPECT_EQ(*r, "key");
  EXPECT_EQ(r->size(), 3u);
  EXPECT_TRUE(r.status().isOk());
}

TEST(Result, HoldsAnError) {
  Result<int> r(Status::notFound("no such table"));
  EXPECT_FALSE(r.isOk());
  EXPECT_FALSE(static_cast<bool>(r));
  EXPECT_EQ(r.status().code(), Status::Code::kNotFound);
  EXPECT_EQ(r.status().message(), "no such table");
}

TEST(Result, MovesOutMoveOnlyValues) {
  Result<std::unique_ptr<int>> r(std::make_unique<int>(7));
  std::unique_ptr<int> p = std::move(r).value();
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(*p, 7);
}

// A value taken through the dereference operators of a non-const Result is
// moved, not copied: `std::move(**meta)` copied a written store file's block
// index and bloom filter where it meant to move them. A unique_ptr does not
// compile unless the operators move.
TEST(Result, DereferenceMovesOutOfANonConstResult) {
  Result<std::unique_ptr<int>> r(std::make_unique<int>(7));
  std::unique_ptr<int> p = std::move(*r);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(*p, 7);
  EXPECT_EQ(r.value(), nullptr);  // moved from

  Result<std::unique_ptr<int>> nested(std::make_unique<int>(8));
  std::unique_ptr<int> q = *std::move(nested);
  EXPECT_EQ(*q, 8);

  Result<std::string> s(std::string("a"));
  s->append("b");
  EXPECT_EQ(*s, "ab");
}

TEST(Result, ValueIsMutableInPlace) {
  Result<std::string> r(std::string("a"));
  r.value() += "b";
  EXPECT_EQ(*r, "ab");
}

}  // namespace
}  // namespace keyscope
