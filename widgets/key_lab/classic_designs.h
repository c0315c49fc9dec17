// The classic row-key designs of docs/KEY-SCHEMAS.md, each with an example
// tuple, for the key lab's "load a design" menu. Constant data; thread-safe.
#pragma once

#include <span>

namespace keyscope {

struct ClassicDesign {
  const char* title;         // "field swap: metric before time"
  const char* schema;        // "metric:utf8 | ts:i64"
  const char* exampleTuple;  // JSON as key_json.h reads it: ["cpu.load", 1700000000000]
};

std::span<const ClassicDesign> classicDesigns();

}  // namespace keyscope
