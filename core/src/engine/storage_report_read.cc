// WorkspaceImpl::storageReport: reads every block of a table's store files
// (straight from the pages, not the page cache, which it would flush out),
// checks and decompresses it, and tallies its cells (storage_tally.h).
//
// Threads: any; reads a snapshot of the table's store versions and takes no
// workspace lock (a file retired meanwhile stays readable while held).
#include <algorithm>
#include <cmath>

#include "engine/storage_tally.h"
#include "engine/store_file.h"
#include "engine/store_file_format.h"
#include "engine/workspace_impl.h"
#include "keyscope/cancel_token.h"

namespace keyscope::engine {

namespace fmt = format;

namespace {

uint64_t scaled(uint64_t v, double factor) { return static_cast<uint64_t>(std::llround(static_cast<double>(v) * factor)); }

void scaleBreakdown(ByteBreakdown* b, double factor) {
  for (uint64_t& v : b->bytes) v = scaled(v, factor);
}

// Scales what was tallied from a file's sampled blocks up to the whole file.
void scaleSample(StorageSlice* s, double factor) {
  scaleBreakdown(&s->raw, factor);
  scaleBreakdown(&s->hbase, factor);
  s->prefixSharedBytes = scaled(s->prefixSharedBytes, factor);
  s->hbaseShortFamily = scaled(s->hbaseShortFamily, factor);
  s->keyscopeBinaryKey = scaled(s->keyscopeBinaryKey, factor);
  s->hbaseBinaryKey = scaled(s->hbaseBinaryKey, factor);
  s->cellsWithBinaryKey = scaled(s->cellsWithBinaryKey, factor);
}

// The compressed payload (stored bytes without block headers) shared out by
// each category's compressibility alone.
void attributeStored(StorageSlice* s, const std::array<double, kStorageCategoryCount>& ratio) {
  const uint64_t payload = s->storedBytes - std::min(s->storedBytes, s->blockHeaderBytes);
  // Shares by weight (raw x compressibility), none above its raw bytes: what
  // a capped category cannot take goes to the others by their weights.
  s->stored = {};
  std::array<bool, kStorageCategoryCount> capped{};
  uint64_t left = payload;
  for (size_t round = 0; round < kStorageCategoryCount && left > 0; ++round) {
    double weights = 0;
    for (size_t c = 0; c < kStorageCategoryCount; ++c)
      if (!capped[c]) weights += static_cast<double>(s->raw.bytes[c]) * ratio[c];
    if (weights <= 0) break;
    bool cappedOne = false;
    std::array<uint64_t, kStorageCategoryCount> share{};
    for (size_t c = 0; c < kStorageCategoryCount; ++c) {
      if (capped[c]) continue;
      share[c] = static_cast<uint64_t>(static_cast<double>(left) * static_cast<double>(s->raw.bytes[c]) * ratio[c] / weights);
      if (s->stored.bytes[c] + share[c] >= s->raw.bytes[c]) {
        share[c] = s->raw.bytes[c] - s->stored.bytes[c];
        capped[c] = true;
        cappedOne = true;
      }
    }
    uint64_t given = 0;
    for (size_t c = 0; c < kStorageCategoryCount; ++c) {
      s->stored.bytes[c] += share[c];
      given += share[c];
    }
    left -= std::min(left, given);
    if (!cappedOne) break;
  }
  const uint64_t given = s->stored.total();
  size_t largest = 0;
  for (size_t c = 0; c < kStorageCategoryCount; ++c)  // the rounding goes where it stays under raw
    if (s->raw.bytes[c] - s->stored.bytes[c] > s->raw.bytes[largest] - s->stored.bytes[largest]) largest = c;
  s->stored.bytes[largest] += payload - std::min(payload, given);  // rounding: the sum is exact
}

}  // namespace

Result<StorageReport> WorkspaceImpl::storageReport(std::string_view tableName,
                                                   const StorageReportOptions& options) const {
  Result<std::shared_ptr<const Table>> found = requireTable(tableName);
  if (!found) return found.status();
  const Table& table = **found;

  // A snapshot of every store version: the files read are the ones counted.
  struct Source {
    const FamilyOptions* family;
    int64_t regionId;
    std::shared_ptr<const StoreVersion> version;
  };
  std::vector<Source> sources;
  uint64_t totalBlocks = 0, totalCells = 0;
  for (const FamilyOptions& family : table.options.families) {
    for (const auto& region : table.regions) {
      auto store = region->stores.find(family.name);
      if (store == region->stores.end()) continue;
      auto version = store->second->current();
      if (Status s = version->damage(); !s) return s;  // its bytes are unknown
      for (const auto& file : version->files) {
        totalBlocks += file->reader->meta().blocks.size();
        totalCells += file->reader->meta().cellCount;
      }
      sources.push_back({&family, region->id, std::move(version)});
    }
  }
  const uint64_t stride =
      options.maxCells == 0 || totalCells <= options.maxCells ? 1 : (totalCells + options.maxCells - 1) / options.maxCells;
  const uint64_t blocksToRead = (totalBlocks + stride - 1) / stride;

  StorageReport report;
  report.table = table.options.name;
  report.sampled = stride > 1;
  LeasedPageSource pages(m_readers.get());
  std::string stored, raw;
  uint64_t blocksDone = 0;
  size_t next = 0;
  for (const FamilyOptions& family : table.options.families) {
    StorageTally tally(family.name);
    const size_t firstSlice = report.slices.size();
    for (; next < sources.size() && sources[next].family == &family; ++next) {
      const Source& source = sources[next];
      StorageSlice slice;
      slice.family = family.name;
      slice.regionId = source.regionId;
      for (const auto& memstore : {source.version->active, source.version->flushing}) {
        if (memstore != nullptr && !memstore->empty()) slice.memstoreBytes += memstore->approximateBytes();
      }
      for (const auto& file : source.version->files) {
        const StoreFileMeta& meta = file->reader->meta();
        const std::string where = "table '" + report.table + "', region " + std::to_string(source.regionId) +
                                  ", family '" + family.name + "', store file " + std::to_string(file->reader->id());
        StorageSlice part;
        uint64_t sampledRaw = 0, sampledCells = 0;
        for (size_t b = 0; b < meta.blocks.size(); b += stride) {
          if (options.cancel != nullptr && options.cancel->cancelled())
            return Status::cancelled("the storage report was cancelled");
          const BlockHandle& block = meta.blocks[b];
          if (Status s = readStoredBlock(pages, file->reader->id(), meta, b, &stored); !s)
            return s.code() == Status::Code::kCorruption ? Status::corruption(where + ": " + s.message())
                                                         : Status::ioError(where + ": " + s.message());
          if (std::string error; !decodeStoredBlock(stored, block.rawSize, &raw, &error, nullptr,
                                                    blockChecksumSeed(meta.format, file->reader->id(), b),
                                                    file->reader->dictionary()))
            return Status::corruption(where + ", block " + std::to_string(b) + ": " + error);
          const uint64_t cellsBefore = part.cells;
          if (Status s = tally.addBlock(raw, meta.format, &part); !s)
            return Status::corruption(where + ", block " + std::to_string(b) + ": " + s.message());
          sampledRaw += block.rawSize;
          sampledCells += part.cells - cellsBefore;
          if (options.progress) options.progress(++blocksDone, blocksToRead);
        }
        report.cellsRead += sampledCells;
        if (stride > 1 && sampledRaw > 0) scaleSample(&part, static_cast<double>(meta.rawBytes) / static_cast<double>(sampledRaw));
        part.cells = meta.cellCount;
        part.blocks = meta.blocks.size();
        part.storeFiles = 1;
        part.rawBytes = meta.rawBytes;
        part.storedBytes = meta.storedBytes;
        part.blockHeaderBytes = fmt::kBlockHeaderSize * meta.blocks.size();
        part.pageIndexBytes = meta.indexBytes;
        part.bloomBytes = meta.bloom.size();
        part.dictionaryBytes = meta.dictionary.size();
        part.family = slice.family;
        part.regionId = slice.regionId;
        slice += part;
      }
      // Releases the read snapshot between stores, so checkpoints can proceed.
      pages.release();
      report.slices.push_back(std::move(slice));
    }
    std::array<double, kStorageCategoryCount> ratio;
    ratio.fill(1.0);
    if (family.compression == Compression::kZstd) ratio = tally.compressibility();
    report.compressibility.push_back(ratio);

    StorageSlice familySum;
    familySum.family = family.name;
    for (size_t i = firstSlice; i < report.slices.size(); ++i) {
      attributeStored(&report.slices[i], ratio);
      familySum += report.slices[i];
    }
    familySum.family = family.name;
    report.families.push_back(std::move(familySum));
  }
  for (const auto& region : table.regions) report.regions.push_back(report.scope({}, region->id));
  report.total = report.scope({}, 0);
  return report;
}

}  // namespace keyscope::engine
