// One writer, several readers, with flushes and compactions running: every
// get and every scanned row is a consistent snapshot, and readers never see
// data go missing.
#include <atomic>
#include <thread>

#include "engine_test_util.h"

namespace keyscope::test {
namespace {

constexpr int kRows = 64;

// Each batch writes generation g into both columns of one row, and the
// generation counter row; a consistent reader sees a == b in every row.
TEST(Concurrency, ReadersSeeConsistentRowsWhileWritesFlushAndCompact) {
  EngineFixture fx;
  TableOptions table;
  table.name = "t";
  table.memstoreFlushSize = 64 << 10;  // flush (and compact) often
  FamilyOptions f;
  f.name = "d";
  f.compression = Compression::kZstd;
  f.blockSize = 4096;
  table.families = {f};
  ASSERT_TRUE(fx.ws().createTable(table).isOk());

  std::atomic<bool> stop{false};
  std::atomic<int> generationsWritten{0};
  std::atomic<int> failures{0};
  std::thread writer([&] {
    const std::string padding(200, 'x');
    for (int g = 1; !stop.load(); ++g) {
      const std::string row = "row" + std::to_string(g % kRows + 100);
      const std::string value = std::to_string(g) + padding;
      Put put{row, {{"d", "a", kLatestTimestamp, value}, {"d", "b", kLatestTimestamp, value}}};
      if (!fx.ws().put("t", put).isOk()) ++failures;
      generationsWritten.store(g);
      if (g % 500 == 0 && !fx.ws().compact("t", g % 1500 == 0).isOk()) ++failures;
    }
  });

  std::vector<std::thread> readers;
  std::atomic<int> inconsistent{0};
  std::atomic<long> rowsChecked{0};
  for (int r = 0; r < 3; ++r) {
    readers.emplace_back([&, r] {
      while (!stop.load()) {
        if (r == 0) {
          ScanOptions scan;
          auto scanner = fx.ws().scan("t", scan);
          if (!scanner) { ++failures; continue; }
          RowResult row;
          std::string previous;
          while ((*scanner)->next(&row)) {
            if (row.cells.size() != 2 || row.cells[0].value != row.cells[1].value || row.row <= previous) ++inconsistent;
            previous = row.row;
            ++rowsChecked;
          }
          if (!(*scanner)->status().isOk()) ++failures;
        } else {
          for (int i = 0; i < kRows; ++i) {
            GetOptions get;
            get.row = "row" + std::to_string(i + 100);
            auto result = fx.ws().get("t", get);
            if (!result) { ++failures; continue; }
            const auto& cells = result->cells;
            if (cells.empty()) continue;  // not written yet
            if (cells.size() != 2 || cells[0].value != cells[1].value) ++inconsistent;
            ++rowsChecked;
          }
        }
      }
    });
  }
  while (generationsWritten.load() < 6000) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  stop.store(true);
  writer.join();
  for (auto& t : readers) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(inconsistent.load(), 0);
  EXPECT_GT(rowsChecked.load(), 1000);
  ASSERT_TRUE(fx.ws().waitForBackgroundWork().isOk());

  // Afterwards every row holds its last generation, flushed or not.
  auto files = fx.ws().storeFiles("t");
  ASSERT_TRUE(files.isOk());
  EXPECT_GT(files->size(), 0u) << "the test meant to run flushes";
  const int last = generationsWritten.load();
  for (int g = last - kRows + 1; g <= last; ++g) {
    const auto cells = fx.getColumn("t", "row" + std::to_string(g % kRows + 100), "d:a");
    ASSERT_EQ(cells.size(), 1u);
    EXPECT_EQ(cells[0].value.substr(0, cells[0].value.find('x')), std::to_string(g));
  }
}

// The same with regions splitting and merging all the while (a third thread
// splits at a moving row and merges neighbours): rows stay consistent, a
// full scan never misses a row once every row is written, and nothing is
// lost at the end.
TEST(Concurrency, ReadersAndTheWriterCarryOnWhileRegionsSplitAndMerge) {
  EngineFixture fx;
  TableOptions table;
  table.name = "t";
  table.memstoreFlushSize = 64 << 10;
  table.splitPolicy = SplitPolicy::kDisabled;  // the maintainer thread decides
  FamilyOptions f;
  f.name = "d";
  table.families = {f};
  ASSERT_TRUE(fx.ws().createTable(table).isOk());

  std::atomic<bool> stop{false};
  std::atomic<int> generationsWritten{0};
  std::atomic<int> failures{0};
  std::atomic<int> splits{0}, merges{0};
  std::thread writer([&] {
    const std::string padding(100, 'x');
    for (int g = 1; !stop.load(); ++g) {
      const std::string row = "row" + std::to_string(g % kRows + 100);
      const std::string value = std::to_string(g) + padding;
      Put put{row, {{"d", "a", kLatestTimestamp, value}, {"d", "b", kLatestTimestamp, value}}};
      if (!fx.ws().put("t", put).isOk()) ++failures;
      generationsWritten.store(g);
    }
  });
  std::thread maintainer([&] {
    for (int i = 0; !stop.load(); ++i) {
      if (i % 3 != 2) {
        auto made = fx.ws().split("t", Bytes("row" + std::to_string(100 + (i * 7) % kRows)));
        if (made) ++splits;
        else if (made.status().message().find("daughter would be empty") == std::string::npos) ++failures;
      } else {
        auto regions = fx.ws().regions("t");
        if (!regions) { ++failures; continue; }
        if (regions->size() < 2) continue;
        const size_t at = static_cast<size_t>(i) % (regions->size() - 1);
        auto merged = fx.ws().mergeRegions((*regions)[at].id, (*regions)[at + 1].id);
        if (merged) ++merges;
        else if (merged.status().code() != Status::Code::kNotFound) ++failures;
      }
    }
  });
  std::atomic<int> inconsistent{0}, missing{0};
  std::atomic<long> scans{0};
  std::vector<std::thread> readers;
  for (int r = 0; r < 2; ++r) {
    readers.emplace_back([&, r] {
      while (!stop.load()) {
        const bool allWritten = generationsWritten.load() > kRows;
        if (r == 0) {
          auto scanner = fx.ws().scan("t", ScanOptions{});
          if (!scanner) { ++failures; continue; }
          RowResult row;
          std::string previous;
          int rows = 0;
          std::string seen;
          while ((*scanner)->next(&row)) {
            seen += row.row.substr(3) + " ";
            if (row.cells.size() != 2 || row.cells[0].value != row.cells[1].value || row.row <= previous) ++inconsistent;
            previous = row.row;
            ++rows;
          }
          if (!(*scanner)->status().isOk()) {
            ++failures;
            ADD_FAILURE() << (*scanner)->status().toString();
          }
          if (allWritten && rows != kRows) {
            ++missing;
            ADD_FAILURE() << "a full scan returned " << rows << " rows: " << seen << " regions visited "
                          << (*scanner)->report().regionsVisited;
          }
          ++scans;
        } else {
          for (int i = 0; i < kRows; ++i) {
            GetOptions get;
            get.row = "row" + std::to_string(i + 100);
            auto result = fx.ws().get("t", get);
            if (!result) { ++failures; continue; }
            if (result->cells.empty()) {
              if (allWritten) {
                ++missing;
                ADD_FAILURE() << "a get of " << get.row << " found nothing";
              }
              continue;
            }
            if (result->cells.size() != 2 || result->cells[0].value != result->cells[1].value) ++inconsistent;
          }
        }
      }
    });
  }
  while ((splits.load() < 30 || merges.load() < 10 || generationsWritten.load() < 3000) && failures.load() == 0)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  stop.store(true);
  writer.join();
  maintainer.join();
  for (auto& t : readers) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(inconsistent.load(), 0);
  EXPECT_EQ(missing.load(), 0);
  EXPECT_GT(scans.load(), 5);
  ASSERT_TRUE(fx.ws().waitForBackgroundWork().isOk());
  const int last = generationsWritten.load();
  for (int g = last - kRows + 1; g <= last; ++g) {
    const auto cells = fx.getColumn("t", "row" + std::to_string(g % kRows + 100), "d:a");
    ASSERT_EQ(cells.size(), 1u);
    EXPECT_EQ(cells[0].value.substr(0, cells[0].value.find('x')), std::to_string(g));
  }
  fx.reopen();
  for (int g = last - kRows + 1; g <= last; ++g) {
    const auto cells = fx.getColumn("t", "row" + std::to_string(g % kRows + 100), "d:a");
    ASSERT_EQ(cells.size(), 1u);
    EXPECT_EQ(cells[0].value.substr(0, cells[0].value.find('x')), std::to_string(g));
  }
}

}  // namespace
}  // namespace keyscope::test
