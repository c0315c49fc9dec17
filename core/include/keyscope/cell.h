// Cells: HBase's unit of data. A cell is (row, family, qualifier, timestamp,
// type, value); rows, qualifiers and values are arbitrary bytes. Plain values,
// safe to copy and to hand between threads.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "keyscope/bytes.h"

namespace keyscope {

// HBase's KeyValue.Type codes. Stored in store files and the log:
// DO NOT CHANGE the values.
enum class CellType : uint8_t {
  kPut = 4,
  kDelete = 8,               // one version: exactly this timestamp
  kDeleteFamilyVersion = 10, // every column of the family at exactly this timestamp
  kDeleteColumn = 12,        // every version of the column at or below this timestamp
  kDeleteFamily = 14,        // every column of the family at or below this timestamp
};

// "Put", "Delete", "DeleteFamilyVersion", "DeleteColumn", "DeleteFamily".
const char* cellTypeName(CellType type);
bool isDeleteType(CellType type);
// True for the two markers that carry an empty qualifier and apply to a whole family.
bool isFamilyDeleteType(CellType type);

// HConstants.LATEST_TIMESTAMP: in a mutation, "the server assigns now". Stored
// cells always carry a real timestamp in [0, kLatestTimestamp).
constexpr int64_t kLatestTimestamp = std::numeric_limits<int64_t>::max();

struct Cell {
  Bytes row;
  std::string family;
  Bytes qualifier;
  int64_t timestamp = 0;
  CellType type = CellType::kPut;
  Bytes value;

  bool operator==(const Cell&) const = default;
};

}  // namespace keyscope
