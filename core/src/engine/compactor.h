// Writing store files: the shared core of flushes and compactions. Reads an
// ordered source (a memstore, or several store files merged), keeps what the
// family's rules keep (QueryMatcher in minor or major compaction mode), and
// writes the survivors as a new store file.
// Not thread-safe; runs on the workspace's background thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <vector>

#include "engine/internal_iterator.h"
#include "engine/query_matcher.h"
#include "engine/store_file.h"

namespace keyscope::engine {

struct CompactionInput {
  InternalIterator* source = nullptr;
  const FamilyOptions* family = nullptr;
  MatchMode mode = MatchMode::kMinorCompaction;  // flushes use the minor rules too
  // The output is read for long: a major compaction's, or a split's rewrite
  // of one (writeStoreFile chooses its blocks and compression by it).
  bool lasting = false;
  int64_t now = 0;
  // When it turns true the write stops with Status::cancelled (looked at
  // every kGiveUpCheckInterval entries); nullptr: never.
  const std::atomic<bool>* giveUp = nullptr;
};

constexpr uint64_t kGiveUpCheckInterval = 1024;

// The written file's metadata, or nullopt when nothing survived (no file).
Result<std::optional<StoreFileMeta>> writeStoreFile(const CompactionInput& input, int64_t fileId, PageSink* sink);

// Store files as the compaction policy sees them: oldest first.
struct CompactionCandidate {
  size_t index = 0;       // caller's index
  uint64_t storedBytes = 0;
  BytesView firstKey;     // the file's key range; empty: unknown (overlapping any)
  BytesView lastKey;
};

constexpr size_t kCompactionMinFiles = 3;   // hbase.hstore.compaction.min
constexpr size_t kCompactionMaxFiles = 10;  // hbase.hstore.compaction.max
constexpr double kCompactionRatio = 1.2;    // hbase.hstore.compaction.ratio

// HBase's ratio-based minor selection: the oldest run of at least
// kCompactionMinFiles files in which the oldest is no bigger than the ratio
// times the sum of the others. Empty when nothing qualifies.
//
// leaveDisjointRuns: a run whose files' key ranges do not overlap is passed
// over while the store holds at most kCompactionMaxFiles files. Merging such
// files gains a get nothing (the key ranges already rule out all but one)
// and rewrites every byte: a key-ordered load flushes exactly such files.
// RocksDB moves them to the next level without rewriting for the same reason.
std::vector<size_t> selectMinorCompaction(const std::vector<CompactionCandidate>& oldestFirst,
                                          bool leaveDisjointRuns = false);

}  // namespace keyscope::engine
