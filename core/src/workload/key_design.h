// Key design models: the row keys (and the scans and split points) of each
// KeyDesign (keyscope/workload.h), encoded with the design's key schema so
// that what is written is exactly what the schema decodes.
//
// A model is immutable once made; writeKey and scanRanges draw only from the
// Rng they are given (the client's), so the keys are a pure function of the
// run's options and the client's turn. Thread-safe to share across threads
// with one Rng per thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "keyscope/bytes.h"
#include "keyscope/key_codec.h"
#include "keyscope/key_schema.h"
#include "keyscope/status.h"
#include "keyscope/workload.h"
#include "workload/workload_rng.h"

namespace keyscope::workload {

// What the run will be, as far as the keys care.
struct RunPlan {
  int64_t startMillis = kDefaultStartMillis;
  int64_t endMillis = kDefaultStartMillis;  // the last planned operation's time
  uint64_t operations = 0;                  // planned
  uint64_t puts = 0;                        // expected, by the mix
  uint32_t clients = 1;
  uint32_t scanRows = 20;
};

// One put's (or one read's) circumstances.
struct KeyContext {
  int64_t nowMillis = 0;
  uint64_t event = 0;   // puts generated in the run before this one
  uint32_t client = 0;
  uint64_t step = 0;    // puts this client generated before this one
};

// [start, stop); an empty stop is the end of the table.
struct ScanRange {
  Bytes start;
  Bytes stop;
};

// How far back "recent" reaches for the designs whose reads ask for the
// latest events: one statistics bucket.
constexpr int64_t kRecentMillis = 1000;

class KeyDesignModel {
 public:
  virtual ~KeyDesignModel() = default;
  const KeySchema& schema() const { return m_schema; }
  std::string schemaText() const { return m_schema.toString(); }

  virtual Result<Bytes> writeKey(const KeyContext& ctx, Rng& rng) const = 0;
  // The ranges one scan operation reads (each up to the run's scanRows):
  // what a reader of this design asks for at ctx's moment.
  virtual Result<std::vector<ScanRange>> scanRanges(const KeyContext& ctx, Rng& rng) const = 0;
  // Up to regions - 1 ascending, distinct, non-empty split keys that cut
  // the planned run's keys into about equal parts (fewer when the design
  // has fewer natural boundaries, as a salt of N buckets has N).
  virtual Result<std::vector<Bytes>> splitPoints(uint32_t regions) const = 0;

 protected:
  explicit KeyDesignModel(KeySchema schema) : m_schema(std::move(schema)) {}
  // encodeKey with the component named in errors already.
  Result<Bytes> encode(const KeyTuple& tuple) const;
  // Concatenated component encodings, no derivation: keys and prefixes a
  // derived component would refuse (one salt bucket at another field's time).
  Result<Bytes> encodeRaw(const KeyTuple& tuple) const;

 private:
  KeySchema m_schema;
};

// InvalidArgument names the option at fault.
Result<std::unique_ptr<KeyDesignModel>> makeKeyDesign(const KeyDesignOptions& options, const RunPlan& plan);

// The schema design (schema_design.cc).
Result<std::unique_ptr<KeyDesignModel>> makeSchemaDesign(const KeyDesignOptions& options, const RunPlan& plan);

// Helpers the models share.
// "user0042": prefix plus the index zero-padded to the digits of count - 1 (at least 4).
std::string entityName(const std::string& prefix, uint64_t index, uint64_t count);
// The smallest key greater than every key starting with `prefix`; empty
// when there is none (all 0xFF).
Bytes prefixEnd(BytesView prefix);
// n - 1 two-byte keys cutting [00 00, ff ff] evenly: for uniformly spread keys.
std::vector<Bytes> evenByteSplits(uint32_t regions);
// A fixed permutation of [0, n): where the Zipf design puts rank `index`.
uint64_t scatter(uint64_t index, uint64_t n);
// The salt value md5-derived as a salt component computes it: u32be(md5(h)[0..4]) mod buckets.
uint64_t saltBucket(BytesView hashed, uint32_t buckets);

}  // namespace keyscope::workload
