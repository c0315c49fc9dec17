// Helpers for engine tests: a workspace in a fresh temporary directory, and
// one-line put/delete/get/scan wrappers so each assertion reads as a sentence.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "keyscope/filter.h"
#include "keyscope/workspace.h"

namespace keyscope::test {

// A temporary directory removed with the object.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::filesystem::path& path() const { return m_path; }
  std::string file(const std::string& name) const { return (m_path / name).string(); }

 private:
  std::filesystem::path m_path;
};

// "ts:value" per cell, e.g. {"5:a", "3:b"}; markers as "ts:DeleteColumn".
std::vector<std::string> describe(const std::vector<Cell>& cells);
// "row/f:q@ts=value" per cell.
std::vector<std::string> describeFull(const std::vector<Cell>& cells);

class EngineFixture {
 public:
  explicit EngineFixture(const OpenOptions& options = {});
  Workspace& ws() { return *m_ws; }
  void reopen();
  void close() { m_ws.reset(); }  // ws() is gone until reopen()
  std::string path() const { return m_dir.file("test.ksw"); }

  void createTable(const std::string& table, std::vector<FamilyOptions> families);
  void put(const std::string& table, const std::string& row, const std::string& column, int64_t ts,
           const std::string& value);
  void putNow(const std::string& table, const std::string& row, const std::string& column, const std::string& value);
  void deleteCells(const std::string& table, const std::string& row, DeleteScope scope, const std::string& column,
                   int64_t ts = kLatestTimestamp);
  void deleteRow(const std::string& table, const std::string& row, int64_t ts = kLatestTimestamp);
  std::vector<Cell> get(const std::string& table, GetOptions options);
  std::vector<Cell> getColumn(const std::string& table, const std::string& row, const std::string& column,
                              int32_t versions = 1, TimeRange range = {});
  std::vector<RowResult> scan(const std::string& table, const ScanOptions& options);
  std::vector<std::string> scanRows(const std::string& table, const ScanOptions& options);
  // Every cell of every row the scan returns, in order.
  std::vector<Cell> scanCells(const std::string& table, const ScanOptions& options);
  // A raw scan of every version of the whole table (markers included).
  std::vector<Cell> rawCells(const std::string& table, TimeRange range = {});
  void deleteSpecs(const std::string& table, const std::string& row, std::vector<DeleteSpec> specs);
  size_t storeFileCount(const std::string& table);
  // The clock, fixed.
  void setClock(int64_t nowMillis) { m_ws->setClock(nowMillis); }
  void flush(const std::string& table);
  void majorCompact(const std::string& table);
  void createTableWithSplits(const std::string& table, std::vector<FamilyOptions> families,
                             const std::vector<Bytes>& splits);

 private:
  TempDir m_dir;
  OpenOptions m_options;
  std::unique_ptr<Workspace> m_ws;
};

// "f:q" -> {family, qualifier}; "f" -> whole family.
ColumnSelector column(const std::string& spec);

// A family with HBase's defaults, then chained settings:
//   familyOf("f").versions(3).ttl(10).keepDeleted(KeepDeletedCells::kTrue)
struct FamilyBuilder {
  FamilyOptions options;
  FamilyBuilder& versions(int32_t n) { options.maxVersions = n; return *this; }
  FamilyBuilder& minVersions(int32_t n) { options.minVersions = n; return *this; }
  FamilyBuilder& ttl(int64_t seconds) { options.ttlSeconds = seconds; return *this; }
  FamilyBuilder& keepDeleted(KeepDeletedCells k) { options.keepDeletedCells = k; return *this; }
  FamilyBuilder& compression(Compression c) { options.compression = c; return *this; }
  FamilyBuilder& bloom(BloomType b) { options.bloomFilter = b; return *this; }
  FamilyBuilder& blockSize(uint32_t bytes) { options.blockSize = bytes; return *this; }
  operator FamilyOptions() const { return options; }  // NOLINT: implicit by design
};
FamilyBuilder familyOf(const std::string& name);

// Where a test's cells live when it reads them. A body writes in two phases
// and calls StorageCase::afterPhase(1) and afterPhase(2); the read result of a
// rule that flushing and compacting must not change is the same in each.
enum class Storage : uint8_t {
  kMemstore,       // nothing flushed
  kFlushed,        // both phases in one store file
  kFlushedTwice,   // one store file per phase
  kMajorCompacted, // two store files, then a major compaction
  kSplit,          // two store files, then split into daughters (at the mid key and at "m")
};

struct StorageCase {
  Compression compression = Compression::kNone;
  uint32_t blockSize = 65536;
  Storage storage = Storage::kMemstore;

  // Applies this case's compression and block size to a family.
  FamilyOptions apply(FamilyOptions family) const;
  std::string name() const;
};

// Every combination: {NONE, ZSTD} x {1 KiB, 64 KiB} x every Storage.
std::vector<StorageCase> allStorageCases();

// The fixture of TEST_P bodies over allStorageCases(). Background compaction
// is off so the store files are exactly the ones the phases made.
class StorageTest : public ::testing::TestWithParam<StorageCase> {
 protected:
  StorageTest();
  EngineFixture& fx() { return *m_fx; }
  // Creates `table` with the case's compression and block size on every family.
  void createTable(const std::string& table, std::vector<FamilyOptions> families);
  // Flushes/compacts `table` as the case says after write phase 1 or 2.
  void afterPhase(const std::string& table, int phase);

 private:
  std::unique_ptr<EngineFixture> m_fx;
};

std::string storageCaseName(const ::testing::TestParamInfo<StorageCase>& info);
// gtest prints a failing case's parameter with this.
void PrintTo(const StorageCase& c, std::ostream* os);

#define KEYSCOPE_STORAGE_CASES(Suite) \
  INSTANTIATE_TEST_SUITE_P(AllStorage, Suite, ::testing::ValuesIn(::keyscope::test::allStorageCases()), \
                           ::keyscope::test::storageCaseName)

// 8-byte big-endian two's complement, as HBase's Bytes.toBytes(long).
Bytes longBytes(int64_t value);
int64_t longValue(BytesView bytes);

}  // namespace keyscope::test
