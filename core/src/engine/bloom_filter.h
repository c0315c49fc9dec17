// Bloom filters over byte strings, as stored in store file metadata: about 10
// bits per key and 7 probes (~1% false positives), double hashing over XXH3.
// A filter may answer "maybe" for a key never added; it never answers "no"
// for one that was. The byte layout is tabled in store_file_format.h.
//
// Threads: a BloomFilterBuilder is used by one thread; bloomMayContain is a
// pure function over immutable bytes, safe from any thread.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "keyscope/bytes.h"

namespace keyscope::engine {

// XXH3-64 with seed 0: the hash every stored filter was built with.
uint64_t bloomHash(BytesView key);

class BloomFilterBuilder {
 public:
  // 10 bits per key: ~0.8% false positives with 7 probes, 1.25 bytes per row.
  static constexpr int kDefaultBitsPerKey = 10;

  explicit BloomFilterBuilder(int bitsPerKey = kDefaultBitsPerKey);

  void addKey(BytesView key) { addHash(bloomHash(key)); }
  // Adds a key by its bloomHash (lets a writer hash once and drop repeats).
  void addHash(uint64_t hash) { m_hashes.push_back(hash); }
  size_t keyCount() const { return m_hashes.size(); }

  // The filter over every key added so far (keys added twice count once for
  // sizing only if the caller drops the repeat). At least 64 bits, so a small
  // filter still rules keys out.
  std::string finish() const;

 private:
  int m_bitsPerKey;
  std::vector<uint64_t> m_hashes;
};

// False only when `key` was certainly not added to `filter`. A filter that is
// malformed (empty, or a probe count outside 1..30) answers true: it can rule
// nothing out.
bool bloomMayContain(BytesView filter, BytesView key);
bool bloomMayContainHash(BytesView filter, uint64_t hash);

// True when `filter` has the layout of store_file_format.h.
bool bloomWellFormed(BytesView filter);

}  // namespace keyscope::engine
