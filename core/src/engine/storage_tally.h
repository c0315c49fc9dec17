// StorageTally: splits decoded store-file blocks into the byte categories of
// storage_report.h, cell by cell, and computes the HBase KeyValue sizes and
// the what-ifs of the same cells. Used by WorkspaceImpl::storageReport.
//
// Not thread-safe: one tally per store being read.
#pragma once

#include <array>
#include <string>
#include <unordered_map>

#include "keyscope/bytes.h"
#include "keyscope/status.h"
#include "keyscope/storage_report.h"

namespace keyscope::engine {

class StorageTally {
 public:
  // Why 256 KiB: enough of each category for zstd to find its patterns,
  // small enough that compressing six samples per family takes milliseconds.
  static constexpr size_t kSampleBytes = 256 * 1024;

  explicit StorageTally(std::string family) : m_family(std::move(family)) {}

  // Adds one decoded block (the raw payload; store_file_format.h) to *slice:
  // categories, cells, the HBase sizes and the what-ifs. Corruption when the
  // entries do not parse.
  Status addBlock(BytesView raw, uint8_t format, StorageSlice* slice);

  // Each category's compressed size / raw size over the samples kept so far
  // (zstd at kCompressibilityLevel; 1 for an empty sample).
  std::array<double, kStorageCategoryCount> compressibility() const;

 private:
  void sample(StorageCategory category, BytesView bytes);
  const std::string& binaryKey(BytesView row, bool* changed);

  std::string m_family;
  std::array<std::string, kStorageCategoryCount> m_samples;
  std::string m_key;             // the current entry's full key
  std::string m_whatIfKey;       // its key re-encoded with binaryKeyOf's row
  std::string m_previousWhatIfKey;
  std::string m_row;             // scratch for unescaping
  std::string m_lastRow;         // the last row binaryKey() converted, and its result
  std::string m_lastBinaryRow;
  bool m_lastChanged = false;
  bool m_haveLast = false;
};

}  // namespace keyscope::engine
