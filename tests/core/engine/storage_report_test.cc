// Workspace::storageReport: exact bytes per category on hand-counted cells,
// totals that match the store files, the HBase KeyValue sizes, the what-ifs
// (checked against a table really written with the changed keys), memstore
// data, sampling and cancel.
#include <gtest/gtest.h>

#include "engine_test_util.h"
#include "keyscope/cancel_token.h"
#include "keyscope/storage_report.h"

namespace keyscope::test {
namespace {

using C = StorageCategory;

StorageReport reportOf(Workspace& ws, const std::string& table, const StorageReportOptions& options = {}) {
  Result<StorageReport> report = ws.storageReport(table, options);
  EXPECT_TRUE(report.isOk()) << report.status().toString();
  return report.isOk() ? *report : StorageReport{};
}

std::string be64(uint64_t v) {
  std::string out;
  for (int b = 7; b >= 0; --b) out.push_back(static_cast<char>((v >> (8 * b)) & 0xff));
  return out;
}

TEST(StorageReport, CountsEveryByteOfHandCountedCells) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("measurements").bloom(BloomType::kNone)});
  fx.put("t", "r1", "measurements:a", 5, "xyz");
  fx.put("t", "r1", "measurements:bb", 5, "12");
  fx.put("t", "r2", "measurements:a", 7, "v");
  fx.flush("t");

  const StorageSlice s = reportOf(fx.ws(), "t").total;
  // One block of three entries, keys esc(row) esc(qualifier) ~ts ~type:
  //   r1 00 01 | a 00 01  | 9   shared 0: stores "r1", "a", 9; value "xyz"
  //   r1 00 01 | bb 00 01 | 9   shared 4 ("r1" 00 01): stores "bb", 9; value "12"
  //   r2 00 01 | a 00 01  | 9   shared 1 ("r"): stores "2", "a", 9; value "v"
  EXPECT_EQ(s.cells, 3u);
  EXPECT_EQ(s.raw[C::kRowKey], 3u);
  EXPECT_EQ(s.raw[C::kFamily], 0u);  // a store file holds one family: no cell stores its name
  EXPECT_EQ(s.raw[C::kQualifier], 4u);
  EXPECT_EQ(s.raw[C::kTimestamp], 27u);
  EXPECT_EQ(s.raw[C::kValue], 6u);
  // 3 x 3 one-byte varints, terminators 00 01 (row: 2 + 0 + 2, qualifier:
  // 3 x 2) and the restart array (one restart + its count, 4 bytes each).
  EXPECT_EQ(s.raw[C::kFraming], 9u + 4u + 6u + 8u);
  EXPECT_EQ(s.prefixSharedBytes, 5u);
  EXPECT_EQ(s.raw.total(), s.rawBytes);
  EXPECT_EQ(s.bloomBytes, 0u);
  EXPECT_GT(s.pageIndexBytes, 0u);

  // As HBase KeyValues: 11 bytes of lengths, then row, family, qualifier,
  // timestamp + type and value, per cell.
  EXPECT_EQ(s.hbase[C::kRowKey], 6u);
  EXPECT_EQ(s.hbase[C::kFamily], 36u);
  EXPECT_EQ(s.hbase[C::kQualifier], 4u);
  EXPECT_EQ(s.hbase[C::kTimestamp], 27u);
  EXPECT_EQ(s.hbase[C::kValue], 6u);
  EXPECT_EQ(s.hbase[C::kFraming], 33u);
  EXPECT_EQ(s.hbaseShortFamily, 112u - 3u * 11u);

  const std::vector<StorageWhatIf> whatIfs = storageWhatIfs(s, {"measurements"});
  ASSERT_EQ(whatIfs.size(), 2u);
  EXPECT_EQ(whatIfs[0].change, "family 'measurements' → 'm'");
  EXPECT_EQ(whatIfs[0].keyscopeAfter, whatIfs[0].keyscopeBefore);
  EXPECT_EQ(whatIfs[0].hbaseBefore, 112u);
  EXPECT_EQ(whatIfs[0].hbaseAfter, 79u);
  EXPECT_EQ(percentChange(112, 79), "-29%");
  EXPECT_EQ(s.cellsWithBinaryKey, 0u);  // "r1", "r2": no number to shorten
  EXPECT_EQ(whatIfs[1].hbaseAfter, whatIfs[1].hbaseBefore);

  // (6 row + 36 family + 4 qualifier + 27 timestamp + 33 framing) / 6 value = 17.7
  EXPECT_NEAR(hbaseOverheadRatio(s), 106.0 / 6.0, 1e-9);
  EXPECT_NEAR(overheadRatio(s), static_cast<double>(s.keyscopeTotal() - 6) / 6.0, 1e-9);
  EXPECT_NE(overheadSentence(s).find("For every byte of value, "), std::string::npos);
}

TEST(StorageReport, BinaryKeyOfTurnsNumbersAndTimestampsIntoIntegers) {
  // 2024-03-01T00:15:00Z is 1,709,252,100 s after the epoch.
  EXPECT_EQ(binaryKeyOf("device-000042|2024-03-01T00:15:00.000Z"),
            std::optional<Bytes>(std::string("device-\0\0\0\x2a|", 12) + be64(1709252100000ull)));
  EXPECT_EQ(binaryKeyOf("user-12345678901"), std::optional<Bytes>("user-" + be64(12345678901ull)));
  EXPECT_EQ(binaryKeyOf("r1"), std::nullopt);    // a short number costs no more as text
  EXPECT_EQ(binaryKeyOf("1234"), std::nullopt);  // 4 digits: as long as an int
  EXPECT_EQ(binaryKeyOf(std::string("ab\x00" "12345", 8)), std::nullopt);  // not text
  EXPECT_EQ(binaryKeyOf(""), std::nullopt);
}

TEST(StorageReport, BinaryKeyWhatIfMatchesTheTableWrittenThatWay) {
  EngineFixture fx;
  fx.createTable("text", {familyOf("d")});
  fx.createTable("binary", {familyOf("d")});
  for (int device = 1; device <= 10; ++device) {
    for (int minute = 0; minute < 3; ++minute) {
      char row[64];
      std::snprintf(row, sizeof row, "device-%06d|2024-03-01T00:%02d:00.000Z", device, minute * 15);
      const std::optional<Bytes> binary = binaryKeyOf(row);
      ASSERT_TRUE(binary.has_value()) << row;
      for (const std::string q : {"temperature", "humidity"}) {
        fx.put("text", row, "d:" + q, 1000 + minute, "21.5");
        fx.put("binary", *binary, "d:" + q, 1000 + minute, "21.5");
      }
    }
  }
  fx.flush("text");
  fx.flush("binary");
  const StorageSlice text = reportOf(fx.ws(), "text").total;
  const StorageSlice binary = reportOf(fx.ws(), "binary").total;
  EXPECT_EQ(text.cells, 60u);
  EXPECT_EQ(text.cellsWithBinaryKey, 60u);
  // HBase stores the full row per cell: 38 - 20 = 18 bytes fewer each.
  EXPECT_EQ(text.hbaseBinaryKey, text.hbase.total() - 60u * 18u);
  EXPECT_EQ(text.hbaseBinaryKey, binary.hbase.total());
  // Keyscope's figure re-encodes the keys block by block with the same
  // prefix compression and restart points: in one block, exactly the bytes
  // the binary table really has.
  ASSERT_EQ(text.blocks, 1u);
  ASSERT_EQ(binary.blocks, 1u);
  EXPECT_EQ(text.keyscopeBinaryKey, binary.raw.total());
  EXPECT_LT(text.keyscopeBinaryKey, text.raw.total());

  const std::vector<StorageWhatIf> whatIfs = storageWhatIfs(text, {"d"});
  EXPECT_EQ(whatIfs[0].change, "family 'd' is one letter already");
  EXPECT_EQ(whatIfs[0].hbaseAfter, whatIfs[0].hbaseBefore);
  EXPECT_EQ(whatIfs[1].hbaseAfter, text.hbaseBinaryKey);
  EXPECT_EQ(whatIfs[1].keyscopeAfter, text.keyscopeTotal() - text.raw.total() + text.keyscopeBinaryKey);
}

TEST(StorageReport, TotalsMatchTheStoreFilesAcrossRegionsAndCompression) {
  EngineFixture fx;
  fx.createTableWithSplits("t", {familyOf("a").compression(Compression::kZstd).blockSize(4096), familyOf("bb")},
                           {"row-0500"});
  for (int i = 0; i < 1000; ++i) {
    char row[16];
    std::snprintf(row, sizeof row, "row-%04d", i);
    fx.put("t", row, "a:q", 1, std::string(40, static_cast<char>('a' + i % 3)));
    fx.put("t", row, "bb:long_qualifier", 1, std::to_string(i * 7919));
  }
  fx.flush("t");
  const StorageReport report = reportOf(fx.ws(), "t");
  ASSERT_EQ(report.slices.size(), 4u);  // 2 families x 2 regions
  ASSERT_EQ(report.families.size(), 2u);
  ASSERT_EQ(report.regions.size(), 2u);
  Result<std::vector<StoreFileInfo>> files = fx.ws().storeFiles("t");
  ASSERT_TRUE(files.isOk());
  uint64_t raw = 0, stored = 0, cells = 0;
  for (const StoreFileInfo& f : *files) {
    raw += f.rawBytes;
    stored += f.storedBytes;
    cells += f.cells;
    const StorageSlice slice = report.scope(f.family, f.regionId);
    EXPECT_EQ(slice.raw.total(), f.rawBytes) << f.family << " " << f.regionId;
    EXPECT_EQ(slice.storedBytes, f.storedBytes);
    EXPECT_EQ(slice.stored.total() + slice.blockHeaderBytes, f.storedBytes);
  }
  EXPECT_EQ(report.total.raw.total(), raw);
  EXPECT_EQ(report.total.storedBytes, stored);
  EXPECT_EQ(report.total.cells, cells);
  EXPECT_EQ(report.total.cells, 2000u);
  EXPECT_FALSE(report.sampled);
  EXPECT_EQ(report.cellsRead, 2000u);
  EXPECT_LT(report.families[0].storedBytes, report.families[0].rawBytes);  // zstd on repeated values
  EXPECT_LT(report.compressibility[0][static_cast<size_t>(C::kValue)], 0.5);
  EXPECT_EQ(report.compressibility[1][static_cast<size_t>(C::kValue)], 1.0);  // NONE: stored as it is
  EXPECT_EQ(report.families[1].hbase[C::kFamily], 1000u * 2u);
}

TEST(StorageReport, MemstoreDataIsReportedApartUntilFlushed) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("f")});
  fx.put("t", "r1", "f:q", 1, "value");
  StorageReport report = reportOf(fx.ws(), "t");
  EXPECT_EQ(report.total.cells, 0u);
  EXPECT_EQ(report.total.storeFiles, 0u);
  EXPECT_GT(report.total.memstoreBytes, 0u);
  EXPECT_EQ(overheadSentence(report.total), "No cells in store files yet.");
  fx.flush("t");
  report = reportOf(fx.ws(), "t");
  EXPECT_EQ(report.total.cells, 1u);
  EXPECT_EQ(report.total.memstoreBytes, 0u);
}

TEST(StorageReport, SamplesBlocksWhenCappedAndSaysSo) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("f").blockSize(4096)});
  for (int i = 0; i < 2000; ++i) fx.put("t", "row-" + std::to_string(100000 + i), "f:q", 1, std::string(30, 'v'));
  fx.flush("t");
  StorageReportOptions options;
  options.maxCells = 200;
  uint64_t lastDone = 0, lastTotal = 0;
  options.progress = [&](uint64_t done, uint64_t total) {
    lastDone = done;
    lastTotal = total;
  };
  const StorageReport report = reportOf(fx.ws(), "t", options);
  EXPECT_TRUE(report.sampled);
  EXPECT_LT(report.cellsRead, 2000u);
  EXPECT_EQ(report.total.cells, 2000u);  // from the files' metadata
  EXPECT_EQ(lastDone, lastTotal);
  EXPECT_GT(lastTotal, 1u);
  // Scaled up by the files' real raw bytes: within rounding of them.
  EXPECT_NEAR(static_cast<double>(report.total.raw.total()), static_cast<double>(report.total.rawBytes), 8.0);
}

TEST(StorageReport, CancelledAndUnknownTablesAreErrors) {
  EngineFixture fx;
  fx.createTable("t", {familyOf("f")});
  fx.put("t", "r", "f:q", 1, "v");
  fx.flush("t");
  CancelToken cancel;
  cancel.cancel();
  StorageReportOptions options;
  options.cancel = &cancel;
  Result<StorageReport> report = fx.ws().storageReport("t", options);
  ASSERT_FALSE(report.isOk());
  EXPECT_EQ(report.status().code(), Status::Code::kCancelled);
  report = fx.ws().storageReport("nope");
  ASSERT_FALSE(report.isOk());
  EXPECT_EQ(report.status().code(), Status::Code::kNotFound);
}

}  // namespace
}  // namespace keyscope::test
