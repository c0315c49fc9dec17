// Does a schema's byte order equal its value order?
//
// Keyscope's sorted encoding always does. HBase's Bytes.toBytes layout does
// not for signed integers and floats (negatives sort after positives, and
// negative floats in reverse). This module says which component breaks the
// order and proves it with a concrete pair of values whose encodings sort the
// wrong way (each pair is checked by actually encoding it).
// Pure functions; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "keyscope/bytes.h"
#include "keyscope/key_codec.h"
#include "keyscope/key_schema.h"

namespace keyscope {

struct OrderBreak {
  size_t component = 0;
  ComponentValue smaller;  // compares less by value...
  ComponentValue larger;
  Bytes smallerBytes;      // ...yet its encoding sorts after larger's
  Bytes largerBytes;
  std::string explanation;  // "negative i64 values sort after positive ones"
};

struct ByteOrderReport {
  bool preservesOrder = true;
  std::vector<OrderBreak> breaks;  // one per offending component
};

ByteOrderReport checkByteOrder(const KeySchema& schema);

}  // namespace keyscope
