// Comparison of internal keys for the engine's hot loops: the memstore's
// skip list search, the sort of a batch's cells, the merge of memstore
// segments and store files; and the shared prefix that store-file blocks
// and log records code each key against. Internal keys are a few dozen bytes long;
// compared inline, eight bytes at a time as big-endian integers, they cost
// less than a call to memcmp did (17% of the writer's time in a
// random-order load went to memcmp).
//
// Pure functions; thread-safe.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

#include "engine/big_endian.h"
#include "keyscope/bytes.h"

namespace keyscope::engine {

// The first eight bytes of `key` as a big-endian integer, zero-padded when
// the key is shorter. Ordering keys by it never contradicts a.compare(b):
// where two prefixes differ, the keys differ in the same direction (a
// short key's padding, zero, is no byte's superior). Equal prefixes decide
// nothing.
inline uint64_t orderPrefix(BytesView key) {
  if (key.size() >= 8) return loadBigEndian64(key.data());
  char padded[8] = {};
  if (!key.empty()) std::memcpy(padded, key.data(), key.size());
  return loadBigEndian64(padded);
}

// The sign of a.compare(b) (memcmp order, a prefix first), as -1, 0 or 1,
// eight bytes at a time: internal keys are a few dozen bytes, and those of
// neighbouring cells share their row's first bytes.
inline int compareKeys(BytesView a, BytesView b) {
  const size_t n = a.size() < b.size() ? a.size() : b.size();
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const uint64_t x = loadBigEndian64(a.data() + i);
    const uint64_t y = loadBigEndian64(b.data() + i);
    if (x != y) return x < y ? -1 : 1;
  }
  for (; i < n; ++i) {
    const auto x = static_cast<uint8_t>(a[i]);
    const auto y = static_cast<uint8_t>(b[i]);
    if (x != y) return x < y ? -1 : 1;
  }
  return (a.size() > b.size()) - (a.size() < b.size());
}

inline bool keysEqual(BytesView a, BytesView b) {
  return a.size() == b.size() && compareKeys(a, b) == 0;
}

// Length of the common prefix of a and b, eight bytes at a time: what a
// prefix-compressed entry (a block's, a log record's) shares with the one
// before it.
inline size_t sharedPrefixLength(BytesView a, BytesView b) {
  const size_t n = a.size() < b.size() ? a.size() : b.size();
  size_t i = 0;
  if constexpr (std::endian::native == std::endian::little) {
    for (; i + 8 <= n; i += 8) {
      uint64_t x = 0;
      uint64_t y = 0;
      std::memcpy(&x, a.data() + i, 8);
      std::memcpy(&y, b.data() + i, 8);
      if (x != y) return i + static_cast<size_t>(std::countr_zero(x ^ y)) / 8;
    }
  }
  while (i < n && a[i] == b[i]) ++i;
  return i;
}

}  // namespace keyscope::engine
