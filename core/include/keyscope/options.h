// Options: table and family descriptors, time ranges, and the options of
// writes, gets and scans. Plain values; the defaults are HBase 2.x's own
// (HBASE-SEMANTICS.md B2, B5) unless a comment says why Keyscope differs.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "keyscope/bytes.h"
#include "keyscope/status.h"

namespace keyscope {

class Filter;

// Stored in table descriptors: DO NOT CHANGE the values.
enum class KeepDeletedCells : uint8_t { kFalse = 0, kTrue = 1, kTtl = 2 };
enum class Compression : uint8_t { kNone = 0, kZstd = 1 };
enum class BloomType : uint8_t { kNone = 0, kRow = 1, kRowCol = 2 };

// HConstants.FOREVER: a TTL of Integer.MAX_VALUE seconds never expires.
constexpr int64_t kTtlForever = std::numeric_limits<int32_t>::max();

struct FamilyOptions {
  std::string name;
  int32_t maxVersions = 1;          // VERSIONS
  int32_t minVersions = 0;          // MIN_VERSIONS (with a TTL; must be < VERSIONS)
  int64_t ttlSeconds = kTtlForever; // TTL
  KeepDeletedCells keepDeletedCells = KeepDeletedCells::kFalse;
  Compression compression = Compression::kNone;
  BloomType bloomFilter = BloomType::kRow;
  // BLOCKSIZE, HBase's unit of a point read. Store files read in blocks of
  // min(4 KiB, BLOCKSIZE) raw bytes whatever it is: a smaller BLOCKSIZE
  // makes smaller blocks, a larger one changes nothing (store_file_format.h).
  uint32_t blockSize = 65536;

  bool operator==(const FamilyOptions&) const = default;
};

// Limits enforced on every write (HBASE-SEMANTICS.md B9: HBase's
// hbase.client.keyvalue.maxsize is 10 MB; a row key is at most Short.MAX_VALUE).
constexpr size_t kMaxRowKeySize = 32767;
constexpr size_t kMaxTableNameSize = 255;
constexpr size_t kMaxFamilyNameSize = 200;
constexpr size_t kMaxQualifierSize = 65535;
constexpr size_t kMaxValueSize = 10 * 1024 * 1024;

// The most of one row a get, or a scan without a batch, returns at once
// (HBase's hbase.table.max.rowsize, RowTooBigException). A result is held in
// memory whole, and every cell of it costs about 150 bytes besides its own
// bytes (a Cell's strings, the vector slot): a million cells is about 150 MB,
// and 256 MiB of cell bytes (a quarter of HBase's 1 GiB default: a desktop
// holds the result, and the GUI shows it) about as much again. A larger row
// is an InvalidArgument naming the row; a scan with a batch (cells per
// result) reads it in parts.
constexpr uint64_t kMaxRowResultCells = 1'000'000;
constexpr uint64_t kMaxRowResultBytes = uint64_t{256} << 20;

// The limits above, per workspace (OpenOptions): the bytes of a cell are its
// row, family, qualifier and value plus 8 for the timestamp.
struct RowResultLimits {
  uint64_t maxCells = kMaxRowResultCells;
  uint64_t maxBytes = kMaxRowResultBytes;
};

// When a region splits by size (HBASE-SEMANTICS.md B7). Stored in table
// descriptors by name.
enum class SplitPolicy : uint8_t {
  // Split when a store passes min(MAX_FILESIZE, 2 x MEMSTORE_FLUSHSIZE x n^3),
  // n = regions of the table on the region's server (HBase 0.94-1.x's default).
  kIncreasingToUpperBound,
  kConstantSize,  // split when a store passes MAX_FILESIZE (+-12.5% jitter, as HBase)
  kStepping,      // 2 x MEMSTORE_FLUSHSIZE while n == 1, then MAX_FILESIZE (HBase 2's default)
  kDisabled,      // never by size; split and pre-split still work
};
const char* splitPolicyName(SplitPolicy policy);  // HBase's class name, e.g. "ConstantSizeRegionSplitPolicy"
// Accepts HBase's class names, with or without the package, and the short
// forms "constant", "increasing", "stepping", "disabled".
std::optional<SplitPolicy> parseSplitPolicy(std::string_view name);

struct TableOptions {
  std::string name;
  std::vector<FamilyOptions> families;  // kept sorted by name
  // A memstore holding more than this many bytes is flushed to store files.
  // 16 MiB rather than HBase's 128 MiB: a desktop workspace holds several
  // tables and sample data, and smaller flushes show store files sooner.
  uint64_t memstoreFlushSize = 16ull << 20;
  // MAX_FILESIZE: the stored (compressed) size of a store past which a
  // region splits. 64 MiB rather than HBase's 10 GiB, so that sample data on
  // a laptop splits visibly: with the 16 MiB flush size the increasing policy
  // splits a table's first region at 32 MiB and every later one at 64 MiB.
  uint64_t maxFileSize = 64ull << 20;
  SplitPolicy splitPolicy = SplitPolicy::kIncreasingToUpperBound;
  std::string keySchema;                // optional row-key schema (docs/KEY-SCHEMAS.md)
  std::string description;              // free text shown by the GUI
  // Shell commands that show what the table is for (docs/SHELL.md syntax, one
  // statement each), listed by describe and offered by the GUI. Kept as given.
  std::vector<std::string> exampleCommands;

  const FamilyOptions* family(std::string_view familyName) const;
  bool operator==(const TableOptions&) const = default;
};

// The store size past which a region of `table` splits by its policy, when
// its server holds `regionsOnServer` regions of the table (HBASE-SEMANTICS.md
// B7). The constant policy's jitter is not included. UINT64_MAX: never.
uint64_t regionSplitSize(const TableOptions& table, uint64_t regionsOnServer);

// Checks names, ranges and the MIN_VERSIONS < VERSIONS rule; InvalidArgument
// names the family and option at fault.
Status validateTableOptions(const TableOptions& options);

// [min, max): min inclusive, max exclusive (HBase's TimeRange).
struct TimeRange {
  int64_t min = 0;
  int64_t max = std::numeric_limits<int64_t>::max();

  static TimeRange at(int64_t ts) { return {ts, ts == std::numeric_limits<int64_t>::max() ? ts : ts + 1}; }
  bool isAllTime() const { return min == 0 && max == std::numeric_limits<int64_t>::max(); }
  bool contains(int64_t ts) const { return ts >= min && ts < max; }
  bool operator==(const TimeRange&) const = default;
};
// InvalidArgument for negative bounds or max < min.
Status validateTimeRange(const TimeRange& range);

// HBase's Durability. USE_DEFAULT resolves to kSyncWal.
enum class Durability : uint8_t {
  kSkipWal,   // no log record: lost on a crash until the next flush
  kAsyncWal,  // acknowledged at once; the log record commits within about a second
  kSyncWal,   // acknowledged after the log record commits (survives a process crash)
  kFsyncWal,  // acknowledged after the log record commits and is fsynced
};

struct WriteOptions {
  Durability durability = Durability::kSyncWal;
};

// A column named in a get or scan: a whole family, or one qualifier of it.
struct ColumnSelector {
  std::string family;
  std::optional<Bytes> qualifier;  // nullopt: every column of the family
};

// What a get and a scan share.
struct ReadOptions {
  std::vector<ColumnSelector> columns;  // empty: every family
  TimeRange timeRange;                  // TIMERANGE; TIMESTAMP t is TimeRange::at(t)
  std::map<std::string, TimeRange> familyTimeRanges;  // setColumnFamilyTimeRange
  int32_t maxVersions = 1;              // capped by each family's VERSIONS unless raw
  std::shared_ptr<const Filter> filter; // cloned per read: filters are stateful
  int32_t maxResultsPerFamily = -1;     // per row and family, after filters; -1: no cap
  int32_t rowOffsetPerFamily = 0;
  bool cacheBlocks = true;              // CACHE_BLOCKS: keep pages read in the page cache
  // The "now" TTLs are judged against, for what-if reads; nullopt: the
  // workspace clock. Changes nothing stored and nothing else's clock.
  std::optional<int64_t> now;
};

struct GetOptions : ReadOptions {
  Bytes row;
};

struct ScanOptions : ReadOptions {
  Bytes startRow;            // empty: unbounded
  bool startInclusive = true;
  Bytes stopRow;             // empty: unbounded
  bool stopInclusive = false;
  bool reversed = false;     // start is then the high end, stop the low end
  bool raw = false;          // markers, deleted and expired cells too
  int64_t limit = -1;        // rows; -1: no limit
  int32_t batch = -1;        // cells per result; a row may span results; -1: whole rows

  // setRowPrefixFilter: start = prefix, stop = the closest row after every
  // row that starts with prefix (none when prefix is all 0xFF).
  void setRowPrefix(BytesView prefix);
};

}  // namespace keyscope
