// Helpers shared by the CSV reader and writer tests.
#pragma once

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "keyscope/csv.h"

namespace keyscope::test {

using Records = std::vector<std::vector<std::string>>;

// Every record of `text`, or a test failure at the first error.
inline Records readAll(const std::string& text, CsvDialect dialect = {}) {
  std::istringstream in(text);
  CsvReader reader(in, dialect);
  CsvRecord record;
  Records out;
  for (;;) {
    Result<bool> got = reader.next(&record);
    if (!got) {
      ADD_FAILURE() << got.status().toString();
      return out;
    }
    if (!*got) return out;
    out.push_back(record.fields);
  }
}

}  // namespace keyscope::test
