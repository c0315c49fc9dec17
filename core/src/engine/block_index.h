// A store file's block index in memory: where each block lives and the last
// key it holds. The keys sit back to back in one buffer, so an open file
// costs one allocation for all of them instead of a heap string per block,
// and a seek's binary search walks two dense arrays, its first probes staying
// in the CPU cache. (Its on-disk form is the metadata's prefix-compressed
// index, store_file_format.h.)
//
// Beside each key it keeps the key's first 16 bytes as two big-endian
// integers side by side (its head), and find() compares those, reading a
// key only when they are equal. Its binary search called memcmp on every
// key it probed, spread over the buffer: 5.4% of the samples in a profile of
// the benchmark's gets (about 30,000 blocks a file), and gets read 2-3%
// faster with the first 8 bytes compared as an integer. Those 8 bytes are a
// row's metric, entity and the high half of its hour in the benchmark's
// keys, the same for every block of a series, so the search's last probes
// still read keys (memcmp was 3% of a get's time, most of it waiting for
// the key's cache line); 16 bytes reach into the qualifier.
//
// Threads: built by one thread; immutable and shareable once built.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "engine/big_endian.h"
#include "keyscope/bytes.h"

namespace keyscope::engine {

// Where one block lives.
struct BlockHandle {
  uint32_t pageNo = 0;
  uint32_t offset = 0;      // within the page
  uint32_t storedSize = 0;  // header + payload as stored
  uint32_t rawSize = 0;     // entries before compression
};

class BlockIndex {
 public:
  // The keys of one index are held in a buffer addressed by 32-bit offsets.
  static constexpr uint64_t kMaxKeyBytes = UINT32_MAX;

  void reserve(size_t blocks, size_t keyBytes) {
    m_heads.reserve(blocks);
    m_handles.reserve(blocks);
    m_keyEnds.reserve(blocks);
    m_keys.reserve(keyBytes);
  }
  // REQUIRES: keyBytes() + lastKey.size() <= kMaxKeyBytes.
  void add(BytesView lastKey, const BlockHandle& handle) {
    m_keys.append(lastKey);
    m_heads.push_back(headOf(lastKey));
    m_keyEnds.push_back(static_cast<uint32_t>(m_keys.size()));
    m_handles.push_back(handle);
  }
  // Frees the spare capacity a writer's growth left behind.
  void shrinkToFit() {
    m_keys.shrink_to_fit();
    m_heads.shrink_to_fit();
    m_keyEnds.shrink_to_fit();
    m_handles.shrink_to_fit();
  }

  size_t size() const { return m_handles.size(); }
  bool empty() const { return m_handles.empty(); }
  uint64_t keyBytes() const { return m_keys.size(); }

  const BlockHandle& operator[](size_t i) const { return m_handles[i]; }
  const BlockHandle& front() const { return m_handles.front(); }
  const BlockHandle& back() const { return m_handles.back(); }

  BytesView lastKey(size_t i) const {
    const uint32_t begin = i == 0 ? 0 : m_keyEnds[i - 1];
    return BytesView(m_keys.data() + begin, m_keyEnds[i] - begin);
  }

  // The first block whose last key is >= target; size() when none is.
  size_t find(BytesView target) const {
    const Head targetHead = headOf(target);
    size_t lo = 0;
    size_t hi = m_keyEnds.size();
    while (lo < hi) {
      const size_t mid = lo + (hi - lo) / 2;
      const Head& head = m_heads[mid];
      const bool before = head.first != targetHead.first     ? head.first < targetHead.first
                          : head.second != targetHead.second ? head.second < targetHead.second
                                                             : lastKey(mid) < target;
      if (before) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

 private:
  // A key's first 16 bytes, zero-padded, as two big-endian integers. Two
  // keys whose heads differ compare as their heads do: the first byte that
  // differs is a byte of both, or a zero of padding past the end of the
  // shorter, which is then a prefix of the other, and so the smaller key.
  struct Head {
    uint64_t first = 0;   // bytes [0, 8)
    uint64_t second = 0;  // bytes [8, 16)
  };
  static Head headOf(BytesView key) {
    char bytes[16] = {};
    if (!key.empty()) std::memcpy(bytes, key.data(), std::min<size_t>(key.size(), sizeof bytes));
    return {loadBigEndian64(bytes), loadBigEndian64(bytes + 8)};
  }

  std::string m_keys;
  std::vector<Head> m_heads;         // headOf(key i), one probe's two words in one cache line
  std::vector<uint32_t> m_keyEnds;   // key i is [m_keyEnds[i-1], m_keyEnds[i])
  std::vector<BlockHandle> m_handles;
};

}  // namespace keyscope::engine
