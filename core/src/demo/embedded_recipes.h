// The demo recipe files compiled into core (generated from resources/demo by
// core/cmake/embed_demo_recipes.cmake). Constant data; thread-safe.
#pragma once

#include <cstddef>

namespace keyscope::demo::detail {

struct EmbeddedFile {
  const char* name;  // "03_web_visits.hbase"
  const char* data;  // the file's bytes (not NUL-terminated for the reader: use size)
  size_t size;
};

extern const EmbeddedFile kRecipeFiles[];
extern const size_t kRecipeFileCount;

}  // namespace keyscope::demo::detail
