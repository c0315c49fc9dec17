// StorageReport: where a table's bytes go, per family and region, read from
// its store files cell by cell (Workspace::storageReport computes it).
//
// Raw bytes are the store files' block payloads after decompression, split
// by what each byte encodes (the block layout is in
// core/src/engine/store_file_format.h, the key layout in internal_key.h):
//   row key      the row's own bytes, as stored (keys are prefix-compressed
//                against the previous key of their block, so a row repeated
//                by the next cell mostly costs nothing: see prefixSharedBytes)
//   family       always 0: a store file holds one family, so no cell stores
//                its family's name (the name lives once in the catalog)
//   qualifier    the qualifier's own bytes, as stored
//   timestamp    the 8-byte timestamp and 1-byte type, as stored
//   value        the value bytes
//   framing      per-entry lengths (three varints), the key escapes and field
//                terminators (00 01), and each block's restart array
// The categories of a store file sum to its rawBytes exactly. Page index
// and bloom filter bytes are the store files' metadata, kept beside the
// pages; block headers (13 bytes per block) are part of the stored bytes.
//
// Stored bytes: blocks are compressed as a whole, so no byte of the stored
// total belongs to one category. `stored` attributes the files' real
// compressed payload to the categories in proportion to each category's
// compressibility alone: a sample of each category's bytes compressed
// separately with zstd (level kCompressibilityLevel). An estimate, labelled
// as one wherever it is shown; the totals are exact.
//
// HBase: the same cells as HBase KeyValues (4-byte key length, 4-byte value
// length, 2-byte row length, row, 1-byte family length, family, qualifier,
// 8-byte timestamp, 1-byte type, value), before HFile compression or block
// encoding: where a long family name or a string key really costs.
//
// What-ifs, from the real cells: the family renamed to one letter, and the
// row key with its decimal numbers and ISO-8601 timestamps as binary
// integers (binaryKeyOf), in both formats. Keyscope's figure re-encodes the
// keys with the same prefix compression and restart points, block by block.
//
// Plain values; thread-safe to share once built.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "keyscope/bytes.h"

namespace keyscope {

class CancelToken;

enum class StorageCategory : uint8_t { kRowKey, kFamily, kQualifier, kTimestamp, kValue, kFraming };
constexpr size_t kStorageCategoryCount = 6;
// "row key", "family name", "qualifier", "timestamp + type", "value", "framing".
const char* storageCategoryName(StorageCategory category);

// Why level 3: the level a major compaction writes with (flushes use 1).
constexpr int kCompressibilityLevel = 3;

struct ByteBreakdown {
  std::array<uint64_t, kStorageCategoryCount> bytes{};

  uint64_t& operator[](StorageCategory c) { return bytes[static_cast<size_t>(c)]; }
  uint64_t operator[](StorageCategory c) const { return bytes[static_cast<size_t>(c)]; }
  uint64_t total() const;
  uint64_t nonValue() const { return total() - (*this)[StorageCategory::kValue]; }
  ByteBreakdown& operator+=(const ByteBreakdown& other);
};

// One family in one region, or a sum of them (a family over all regions, a
// region over all families, the whole table).
struct StorageSlice {
  std::string family;    // empty in a sum over families
  int64_t regionId = 0;  // 0 in a sum over regions
  uint64_t storeFiles = 0;
  uint64_t blocks = 0;
  uint64_t cells = 0;

  ByteBreakdown raw;               // Keyscope's block payloads
  uint64_t prefixSharedBytes = 0;  // key bytes the prefix compression did not store
  uint64_t rawBytes = 0;           // the files' metadata: equals raw.total() unless sampled
  uint64_t storedBytes = 0;        // pages as stored (block headers included)
  uint64_t blockHeaderBytes = 0;
  uint64_t pageIndexBytes = 0;
  uint64_t bloomBytes = 0;
  uint64_t dictionaryBytes = 0;    // the files' zstd dictionaries, kept with their metadata
  ByteBreakdown stored;            // the compressed payload attributed by compressibility
  uint64_t memstoreBytes = 0;      // written but not yet in store files (not counted above)

  ByteBreakdown hbase;             // the same cells as HBase KeyValues

  // What-ifs: the totals after the change (raw, before compression).
  uint64_t hbaseShortFamily = 0;      // family renamed to one letter
  uint64_t keyscopeBinaryKey = 0;     // row keys as binaryKeyOf makes them
  uint64_t hbaseBinaryKey = 0;
  uint64_t cellsWithBinaryKey = 0;    // cells whose row key binaryKeyOf changes

  // Keyscope's raw total with the page index and bloom filters.
  uint64_t keyscopeTotal() const { return raw.total() + pageIndexBytes + bloomBytes; }
  StorageSlice& operator+=(const StorageSlice& other);
};

struct StorageReportOptions {
  // Read at most about this many cells (0: all): beyond it every k-th block
  // is read and the counts are scaled up by the files' real raw bytes.
  uint64_t maxCells = 0;
  const CancelToken* cancel = nullptr;                                  // may be null
  std::function<void(uint64_t blocksDone, uint64_t blocksTotal)> progress;  // worker thread
};

struct StorageReport {
  std::string table;
  std::vector<StorageSlice> slices;  // family x region, by family then region
  std::vector<StorageSlice> families;
  std::vector<StorageSlice> regions;
  StorageSlice total;
  // Each category's compressed size / raw size in the sample (1 when the
  // family is not compressed), per family in the order of `families`.
  std::vector<std::array<double, kStorageCategoryCount>> compressibility;
  bool sampled = false;
  uint64_t cellsRead = 0;

  // The sum for one family and/or region (empty / 0: all).
  StorageSlice scope(const std::string& family, int64_t regionId) const;
};

// The row key with its decimal numbers and ISO-8601 timestamps as binary
// integers, for keys that are printable ASCII text: an ISO timestamp
// (2024-03-01T00:15:00.000Z) becomes 8 bytes (epoch milliseconds); a run of
// digits longer than its binary form becomes a big-endian integer of 4 bytes
// (5 to 9 digits) or 8 bytes (10 to 19); everything else, separators
// included, stays. nullopt when nothing changes.
std::optional<Bytes> binaryKeyOf(BytesView row);

// "for every byte of value, 3.2 bytes of coordinates and framing" (Keyscope's
// raw format; page index and bloom filter included).
std::string overheadSentence(const StorageSlice& slice);
// Coordinates-to-value ratio: every byte that is not a value / value bytes
// (0 when there are no value bytes).
double overheadRatio(const StorageSlice& slice);
double hbaseOverheadRatio(const StorageSlice& slice);

struct StorageWhatIf {
  std::string change;       // "family 'measurements' → 'm'"
  uint64_t keyscopeBefore = 0, keyscopeAfter = 0;
  uint64_t hbaseBefore = 0, hbaseAfter = 0;
  std::string explanation;  // why the two formats differ
};
// The what-ifs of a slice, from its fields above. `family` names the family
// for the rename (empty: the slice spans families; each family is renamed).
std::vector<StorageWhatIf> storageWhatIfs(const StorageSlice& slice, const std::vector<std::string>& familyNames);
// "-31%" / "+4%" / "-0%": the change from before to after.
std::string percentChange(uint64_t before, uint64_t after);

}  // namespace keyscope
