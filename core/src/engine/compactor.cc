#include "engine/compactor.h"

#include <algorithm>
#include <string>

#include "engine/internal_key.h"
#include "engine/short_bytes.h"
#include "engine/store_file_format.h"

namespace keyscope::engine {

Result<std::optional<StoreFileMeta>> writeStoreFile(const CompactionInput& input, int64_t fileId, PageSink* sink) {
  const FamilyOptions& family = *input.family;
  MatcherSettings settings;
  settings.mode = input.mode;
  settings.family = &family;
  settings.oldestUnexpiredTs = family.ttlSeconds >= kTtlForever ? INT64_MIN : input.now - family.ttlSeconds * 1000;
  InternalIterator& it = *input.source;
  ParsedKey parsed;
  if (input.mode == MatchMode::kMajorCompaction && family.keepDeletedCells != KeepDeletedCells::kFalse) {
    // Store files keep no EARLIEST_PUT_TS, so one extra pass over the input
    // finds it; only major compactions of KEEP_DELETED_CELLS families pay.
    int64_t earliestPut = INT64_MAX;  // no put: every kept marker goes
    for (it.seekToFirst(); it.valid(); it.next()) {
      if (!parseInternalKey(it.key(), &parsed))
        return Status::corruption("store file " + std::to_string(fileId) + ": malformed key in its input");
      if (parsed.type == CellType::kPut) earliestPut = std::min(earliestPut, parsed.timestamp);
    }
    if (Status s = it.status(); !s) return s;
    settings.earliestPutTs = earliestPut;
  }
  QueryMatcher matcher(std::move(settings));

  StoreFileOptions options;
  options.compression = family.compression;
  options.bloom = family.bloomFilter;
  options.pageSize = family.blockSize;
  // What a flush or minor compaction writes is rewritten by a later
  // compaction, so it is compressed at level 1 (on the benchmark's 4 KiB
  // blocks with their dictionary: 23.7 against 30 µs a block at level 3, for
  // 3.5% more bytes; levels -1 and -3, faster still, grow the files 16% and
  // 25%, which costs more in SQLite than it saves: docs/PERFORMANCE-HISTORY.md);
  // a major compaction's output is what stays, at zstd's default level 3 (as
  // RocksDB's separate bottommost-level compression does).
  //
  // A file read for long (input.lasting: a major compaction's, or a split's
  // rewrite of one) has framed blocks (format 6), which gets read a frame at
  // a time, at level 6 with a 64 KiB dictionary: their raw literals cost
  // bytes that the level and the dictionary win back in part (the
  // benchmark's blocks: 7.4% more than format 5 at level 3, compressed at
  // about half the speed; docs/PERFORMANCE-HISTORY.md). Flushes and minor
  // compactions keep format 5's whole blocks: their files are rewritten
  // soon, and frames' larger files would cost a load more in SQLite.
  if (input.lasting) {
    options.format = format::kMetaFormatFramedBlocks;
    options.zstdLevel = 6;
    options.dictionaryMaxBytes = format::kFramedDictionaryMaxBytes;
  } else {
    options.format = format::kMetaFormatLeafPages;
    options.zstdLevel = 1;
  }
  StoreFileWriter writer(fileId, options, sink);
  bool wroteAny = false;

  std::string row, skipPrefix;
  uint64_t entries = 0;
  it.seekToFirst();
  while (it.valid()) {
    if (input.giveUp != nullptr && ++entries % kGiveUpCheckInterval == 0 && input.giveUp->load(std::memory_order_relaxed))
      return Status::cancelled("store file " + std::to_string(fileId) + ": its write was given up");
    const BytesView key = it.key();
    if (!skipPrefix.empty() && startsWithBytes(key, skipPrefix)) {
      it.next();
      continue;
    }
    skipPrefix.clear();
    if (!parseInternalKey(key, &parsed)) return Status::corruption("store file " + std::to_string(fileId) + ": malformed key in its input");
    if (!startsWithBytes(key, row) || row.empty()) {
      row.assign(parsed.rowEscaped.data(), parsed.rowEscaped.size());
      matcher.reset();
    }
    const MatchCode code = matcher.match(parsed, nullptr, nullptr);
    if (isInclude(code)) {
      if (Status s = writer.add(key, it.value()); !s) return s;
      wroteAny = true;
    }
    switch (code) {
      case MatchCode::kSeekNextColumn:
      case MatchCode::kIncludeAndSeekNextColumn:
        skipPrefix.assign(parsed.columnPrefix().data(), parsed.columnPrefix().size());
        break;
      case MatchCode::kSeekNextRow:
      case MatchCode::kIncludeAndSeekNextRow:
        skipPrefix = row;
        break;
      default:
        break;
    }
    it.next();
  }
  if (Status s = it.status(); !s) return s;
  if (!wroteAny) return std::optional<StoreFileMeta>();
  Result<StoreFileMeta> meta = writer.finish();
  if (!meta) return meta.status();
  return std::optional<StoreFileMeta>(std::move(meta).value());
}

namespace {

// Whether no two of the files [begin, end) share a key.
bool keyRangesDisjoint(std::vector<CompactionCandidate>::const_iterator begin,
                       std::vector<CompactionCandidate>::const_iterator end) {
  std::vector<const CompactionCandidate*> byFirstKey;
  for (auto it = begin; it != end; ++it) {
    if (it->firstKey.empty() || it->lastKey.empty()) return false;
    byFirstKey.push_back(&*it);
  }
  std::sort(byFirstKey.begin(), byFirstKey.end(),
            [](const CompactionCandidate* a, const CompactionCandidate* b) { return a->firstKey < b->firstKey; });
  for (size_t i = 1; i < byFirstKey.size(); ++i) {
    if (byFirstKey[i]->firstKey <= byFirstKey[i - 1]->lastKey) return false;
  }
  return true;
}

}  // namespace

std::vector<size_t> selectMinorCompaction(const std::vector<CompactionCandidate>& oldestFirst,
                                          bool leaveDisjointRuns) {
  const size_t n = oldestFirst.size();
  const bool mayLeave = leaveDisjointRuns && n <= kCompactionMaxFiles;
  for (size_t start = 0; start + kCompactionMinFiles <= n; ++start) {
    const size_t end = std::min(n, start + kCompactionMaxFiles);
    uint64_t newer = 0;
    for (size_t i = start + 1; i < end; ++i) newer += oldestFirst[i].storedBytes;
    if (static_cast<double>(oldestFirst[start].storedBytes) <= kCompactionRatio * static_cast<double>(newer)) {
      if (mayLeave && keyRangesDisjoint(oldestFirst.begin() + static_cast<std::ptrdiff_t>(start),
                                        oldestFirst.begin() + static_cast<std::ptrdiff_t>(end)))
        continue;
      std::vector<size_t> selected;
      for (size_t i = start; i < end; ++i) selected.push_back(oldestFirst[i].index);
      return selected;
    }
  }
  return {};
}

}  // namespace keyscope::engine
