// Byte order versus value order, per component (see key_order.h).
#include "keyscope/key_order.h"

namespace keyscope {

namespace {

bool isSignedInt(ComponentType t) {
  return t == ComponentType::kInt8 || t == ComponentType::kInt16 || t == ComponentType::kInt32 ||
         t == ComponentType::kInt64;
}

// A pair of values whose HBase Bytes.toBytes encodings sort against their
// value order, when the component's layout has one.
std::optional<OrderBreak> counterexample(const KeyComponent& c) {
  if (c.encoding != Encoding::kHBaseBytes) return std::nullopt;  // sorted encoding: order kept
  OrderBreak brk;
  if (isSignedInt(c.type)) {
    brk.smaller = int64_t{-1};
    brk.larger = int64_t{0};
    brk.explanation = "negative " + c.typeText() +
                      " values sort after positive ones: Bytes.toBytes keeps the two's complement sign bit";
  } else if (c.type == ComponentType::kFloat32 || c.type == ComponentType::kFloat64) {
    brk.smaller = -1.0;
    brk.larger = 1.0;
    brk.explanation = "negative " + c.typeText() +
                      " values sort after positive ones, and among themselves in reverse (-2 after -1): "
                      "raw IEEE bits are sign and magnitude";
  } else {
    return std::nullopt;  // unsigned, bytes, bool (00 < ff), last-place strings: order kept
  }
  auto a = encodeComponent(c, brk.smaller);
  auto b = encodeComponent(c, brk.larger);
  // Report only what the bytes really show.
  if (!a || !b || !(*b < *a)) return std::nullopt;
  brk.smallerBytes = *a;
  brk.largerBytes = *b;
  return brk;
}

}  // namespace

ByteOrderReport checkByteOrder(const KeySchema& schema) {
  ByteOrderReport report;
  for (size_t i = 0; i < schema.size(); ++i) {
    if (auto brk = counterexample(schema[i])) {
      brk->component = i;
      report.breaks.push_back(std::move(*brk));
    }
  }
  report.preservesOrder = report.breaks.empty();
  return report;
}

}  // namespace keyscope
