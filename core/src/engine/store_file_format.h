// The on-disk layout of store files: blocks, pages, the metadata blob and the
// bloom filter, plus the small encode/decode helpers they share (varints,
// big-endian integers). Everything here is persisted in workspaces: a change
// is a new format version, never an edit of an existing one.
//
// Pure functions and constants; thread-safe.
//
// ## Blocks
//
// A block holds consecutive entries of about kBlockTarget raw bytes (a single
// entry larger than that gets a block of its own: a cell is never split). It
// is compressed and checksummed on its own, so a point read fetches and
// decompresses one block, not a whole page.
//
//   OFFSET  SIZE  DESCRIPTION                  (integers big-endian)
//        0     8  XXH3-64 of bytes [8, end of block), seeded (format 3)
//                 with where the block belongs, else with 0
//        8     1  compression: 0 none, 1 zstd, 2 zstd frames (format 6)
//                 -- DO NOT CHANGE: stored on disk
//        9     4  raw size: payload bytes after decompression
//       13     *  payload: the raw entries, or one zstd frame of them
//
// A block is stored compressed only when zstd makes it smaller; otherwise the
// payload is the raw entries and the compression byte is 0.
//
// The raw entries, one after another, each prefix-compressed against the
// previous key of the same block (the first entry of a block has shared = 0,
// so every block decodes on its own):
//
//   varint32 shared        bytes of the previous key this key starts with
//   varint32 unshared      bytes of key that follow
//   varint32 valueLength
//   byte[unshared]         key suffix
//   byte[valueLength]      value
//
// Keys are internal keys (internal_key.h), strictly increasing.
//
// Format 2 (the metadata's format version) ends every block's raw payload
// with a restart array, as LevelDB's blocks do, so a seek binary-searches
// the restart keys and then walks at most kRestartInterval entries:
//
//   entries               as above; the restart entries are stored with
//                         shared = 0 (this writer makes every
//                         kRestartInterval-th entry one, from entry 0; a
//                         reader takes the array as it is)
//   be32 restart[n]       offset of each of those entries in the payload
//   be32 n                n >= 1; restart[0] = 0, strictly increasing
//
// Format 1 blocks are the entries alone; both are read.
//
// Format 3 blocks are format 2 blocks whose checksum is seeded with the
// block's place: seed = XXH3-64 (seed 0) of be64 fileId, be64 blockNo (the
// block's number in the file's index, from 0). A page row that SQLite hands
// back for the wrong page id (a damaged B-tree key) then fails its
// checksum instead of passing for the block that was asked for.
//
// Format 4 files are format 3 files that may carry a zstd dictionary in
// their metadata (zstd's dictionary format, as ZDICT trains it). When they
// do, every zstd block of the file is one frame compressed against it, with
// no dictionary id in the frame header: the file names its dictionary. The
// writer trains it on the file's first kDictionaryTrainBytes of raw blocks,
// so a file smaller than that has none. Dictionaries matter for small
// blocks: zstd starts each frame knowing nothing, and a 4 KiB block is too
// short to learn the data's repeats and symbol statistics; the dictionary
// supplies both (measured on the benchmark's cells: blocks 10% smaller,
// decompression about 15% faster).
//
// ## Pages
//
// A page is a concatenation of whole blocks with no header or padding:
//
//   block 0 | block 1 | ... | block k-1
//
// Blocks are added to a page until its raw size (sum of the blocks' raw
// sizes) could pass the page size with one more block, so a page holds about
// pageSize raw bytes (the family's BLOCKSIZE, HBase's 64 KiB by default).
// When pageSize <= kBlockTarget a page is exactly one block. Pages are
// numbered from 0 and stored as rows of the `pages` table (sqlite_pages.h).
// Error messages number a block within its page ("page 7, block 3" is the
// fourth block of page 7); the page cache numbers blocks across the file.
//
// Format 5 files cut pages by stored size instead. The file's blocks, back to
// back, are one byte stream, and page p holds the stream's bytes
// [p * pageBytes, (p + 1) * pageBytes), the last page the rest. A block
// therefore may begin in one page and end in the next (or run on through
// several, for a block larger than a page). Its index entry gives the page
// it begins in and its offset there (offset < pageBytes). The writer uses
// kLeafPageBytes, the largest row SQLite keeps whole in one leaf page of the
// workspace's 8 KiB pages: a point read then costs one leaf page read, or two
// when its block crosses a page boundary, where a page row of format 4 (about
// 28 KiB stored at the default BLOCKSIZE) sits mostly in a chain of overflow
// pages that SQLite walks from its start to reach a block. Cutting rows at
// block boundaries instead would leave the tail of nearly every leaf unused.
// BLOCKSIZE then only caps the block size, as min(kBlockTarget, BLOCKSIZE).
//
// ## Framed blocks (format 6)
//
// A format-6 block compressed with zstd is cut into frames of about
// kFrameTarget raw bytes, each its own zstd frame against the file's
// dictionary, so a get decodes the one frame its key is in: about a third of
// the block. Frames are cut between entries; the first entry of every frame
// is a restart entry (shared = 0, listed in the restart array), so a frame's
// entries decode on their own, and the frames' raw bytes back to back are
// the block's raw payload exactly as format 5 has it (the last frame ends
// with the restart array). The stored block:
//
//   OFFSET  SIZE  DESCRIPTION
//        0     8  XXH3-64 of bytes [8, end of block), seeded with its place
//        8     1  compression: 2 (zstd frames)
//        9     4  raw size: the frames' raw sizes summed
//       13     *  varint32 n, the number of frames (>= 1)
//                 n times: varint32 storedSize, varint32 rawSize
//                 n - 1 times, the last key of each frame but the last
//                   (the last frame's is the block's, in the index),
//                   prefix-compressed against the one before:
//                   varint32 shared, varint32 unshared, byte[unshared]
//                 the n frames, back to back
//
// The frames' literals are stored raw (zstd's literal compression off):
// zstd 1.5.4 codes a short literal section against a dictionary's Huffman
// table in one stream, which decodes serially: all the Huffman-coded frames
// of a block (what a scan decodes) took about 40% longer than the block as
// one frame.
// Raw literals decode as fast as the whole block did and cost about 7% more
// bytes, which the 64 KiB dictionary and a major compaction's level 6 win
// back in part (the performance history, 2026-11-30).
//
// A format-6 block that zstd does not make smaller is stored whole and
// uncompressed (compression 0), as in format 5.
//
// ## Metadata (StoreFileMeta::encode), stored in the catalog
//
//   OFFSET  SIZE  DESCRIPTION
//        0     8  XXH3-64 (seed 0) of bytes [8, end), big-endian
//        8     1  format version: 1 to 6   -- DO NOT CHANGE: stored on disk
//        9     *  fields, in this order:
//                   varint64 cellCount
//                   varint64 deleteMarkerCount
//                   varint64 rawBytes
//                   varint64 storedBytes
//                   varint32 pageCount
//                   be64     minTimestamp (two's complement)
//                   be64     maxTimestamp
//                   u8       bloomType: 0 none, 1 row, 2 rowcol (options.h BloomType)
//                   varint32 bloom length, then the bloom bytes
//                   varint32 firstKey length, then firstKey
//                   varint32 lastKey length, then lastKey
//                   format 4 and later: varint32 dictionary length (0: none),
//                     then the zstd dictionary
//                   format 5 and later: varint32 pageBytes (>= 1), the size of
//                     every page but the last
//                   block index: varint32 block count, then per block
//                     varint32 shared     bytes shared with the previous block's lastKey
//                     varint32 unshared   then that many bytes of lastKey
//                     varint32 pageNo
//                     varint32 offset     within the page (format 5: where the
//                                         block begins in pageNo; < pageBytes)
//                     varint32 storedSize header + payload
//                     varint32 rawSize    payload after decompression
//
// indexBytes is not stored: it is the size of the encoded block index. decode()
// checks every length, that the index is ordered, contiguous and consistent
// with the counters, so a damaged or hostile blob is a Corruption, never a
// crash or an out-of-range read later.
//
// ## Bloom filter (bloom_filter.h)
//
//   byte[m/8]  bit array, bit i is byte i/8, mask 1 << (i%8)
//   u8         k, the number of probes (1..30)
//
// Probe j of key x sets bit (h1 + j*h2) mod m where h = XXH3-64(x) (seed 0),
// h1 = h mod 2^32, h2 = h div 2^32 -- DO NOT CHANGE: stored on disk.
// ROW filters hold rowStartKey(row); ROWCOL filters hold
// columnStartKey(row, qualifier).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "engine/big_endian.h"

namespace keyscope::engine::format {

// Why 4 KiB: a measured prototype spent ~70 us decompressing a whole 64 KiB
// page per point-read miss (~1 us/KiB), so a 4 KiB block costs a few us. It is
// RocksDB's default block size (the benchmark peer), and the block index
// stays at about one key per 4 KiB of data, which a desktop keeps in memory.
constexpr uint32_t kBlockTarget = 4096;

constexpr size_t kChecksumSize = 8;
constexpr size_t kBlockHeaderSize = 13;  // checksum + compression byte + raw size

// Stored in block headers: DO NOT CHANGE the values.
enum class BlockCompression : uint8_t { kNone = 0, kZstd = 1, kZstdFrames = 2 };

// Stored in the metadata blob: DO NOT CHANGE the values. New files are
// written in the newest format.
constexpr uint8_t kMetaFormatPlainBlocks = 1;    // blocks hold entries only
constexpr uint8_t kMetaFormatRestartBlocks = 2;  // blocks end with a restart array
constexpr uint8_t kMetaFormatPlacedChecksums = 3;  // format 2, checksums seeded with the block's place
constexpr uint8_t kMetaFormatDictionary = 4;  // format 3, plus a zstd dictionary per file
constexpr uint8_t kMetaFormatLeafPages = 5;   // format 4, pages cut to pageBytes stored bytes
constexpr uint8_t kMetaFormatFramedBlocks = 6;  // format 5, zstd blocks cut into frames
constexpr uint8_t kMetaFormatNewest = kMetaFormatFramedBlocks;

// Format 6: raw bytes of a block's frames (the last takes what is left).
// Measured on the benchmark's blocks (about 3 frames a 4 KiB block): one
// frame decodes in about 40% of the whole block's time.
constexpr uint32_t kFrameTarget = 1400;

// The page size format-5 writers cut to: SQLite stores a row of a table
// B-tree whole in its leaf when the row's payload is at most the page's
// usable size minus 35 bytes (SQLite's file format, "B-tree Cell Format"),
// 8157 bytes in the workspace's 8 KiB pages (catalog.cc). The payload is the
// row's record: 4 bytes of header (its length, a NULL for page_id, which is
// the rowid, and the BLOB's serial type) and the page's bytes. A row of this
// size fills its leaf: one leaf holds one page. Workspaces with other SQLite
// page sizes read the same files, with overflow pages or leaf room to spare.
constexpr uint32_t kLeafPageBytes = 8192 - 35 - 4;
// Largest pageBytes a reader accepts: offsets within a page stay far from
// 32-bit overflow, as pageSize's 1 GiB clamp keeps them in older formats.
constexpr uint32_t kMaxPageBytes = 1u << 30;

// A format-4 writer compressing with zstd trains the file's dictionary on its
// first blocks, up to this many raw bytes (held uncompressed until then).
// Measured on the benchmark's cells: 256 KiB trains in ~7 ms and compresses
// the rest of a file as well as 4 MiB of samples does.
constexpr uint32_t kDictionaryTrainBytes = 256 * 1024;
// Largest dictionary trained for blocks. 16 KiB got within 0.5% of 32 KiB's
// ratio; the dictionary is kept in memory with the file's index while the
// file is open.
constexpr uint32_t kDictionaryMaxBytes = 16 * 1024;
// Largest dictionary a format-6 file may carry, and what a major compaction
// trains: frames of about 1.4 KiB lean on it more than whole blocks do (on
// the benchmark's blocks at level 6, 2% fewer bytes than 32 KiB).
constexpr uint32_t kFramedDictionaryMaxBytes = 64 * 1024;

// Entries between restart points in blocks this build writes: a seek walks
// at most this many. Each restart costs 4 bytes and an unshared key: with
// the benchmark's 20-byte keys, 16 grew a compacted file 2.4% (past the
// size target), 32 about half that, and a 4 KiB block holds ~70 entries.
constexpr uint32_t kRestartInterval = 32;

// Largest raw block the reader will allocate for. A block holds at most one
// entry bigger than kBlockTarget, and an entry is bounded by the write limits
// (options.h: 10 MiB values, 32 KiB rows, 64 KiB qualifiers), so 64 MiB is
// ample; a header claiming more is corrupt.
constexpr uint32_t kMaxBlockRawSize = 64u << 20;

constexpr size_t kMaxVarint32Size = 5;
constexpr size_t kMaxVarint64Size = 10;

// --- big-endian fixed-width integers ---

inline void putBigEndian32(std::string* out, uint32_t v) {
  const char buf[4] = {static_cast<char>(v >> 24), static_cast<char>(v >> 16),
                       static_cast<char>(v >> 8), static_cast<char>(v)};
  out->append(buf, 4);
}

using engine::loadBigEndian32;
using engine::loadBigEndian64;
using engine::storeBigEndian64;

inline void putBigEndian64(std::string* out, uint64_t v) {
  char buf[8];
  storeBigEndian64(buf, v);
  out->append(buf, sizeof buf);
}

// --- varints (LEB128: 7 bits per byte, low groups first) ---

inline size_t varintLength(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

// Writes v at p; returns the byte after it. REQUIRES: room for varintLength(v).
inline char* encodeVarint64(char* p, uint64_t v) {
  auto* out = reinterpret_cast<unsigned char*>(p);
  while (v >= 0x80) {
    *out++ = static_cast<unsigned char>(v | 0x80);
    v >>= 7;
  }
  *out++ = static_cast<unsigned char>(v);
  return reinterpret_cast<char*>(out);
}

inline void putVarint64(std::string* out, uint64_t v) {
  char buf[kMaxVarint64Size];
  out->append(buf, static_cast<size_t>(encodeVarint64(buf, v) - buf));
}

inline void putVarint32(std::string* out, uint32_t v) { putVarint64(out, v); }

// Parses a varint at [p, limit). Returns the byte after it, or nullptr when it
// is cut short, longer than its type allows, or overflows it.
inline const char* decodeVarint64(const char* p, const char* limit, uint64_t* v) {
  uint64_t result = 0;
  for (unsigned shift = 0; shift <= 63 && p < limit; shift += 7) {
    const auto byte = static_cast<uint8_t>(*p++);
    if (shift == 63 && byte > 1) return nullptr;
    result |= uint64_t{byte & 0x7fu} << shift;
    if ((byte & 0x80) == 0) {
      *v = result;
      return p;
    }
  }
  return nullptr;
}

inline const char* decodeVarint32(const char* p, const char* limit, uint32_t* v) {
  if (p < limit && static_cast<uint8_t>(*p) < 0x80) {  // the common one-byte case
    *v = static_cast<uint8_t>(*p);
    return p + 1;
  }
  uint32_t result = 0;
  for (unsigned shift = 0; shift <= 28 && p < limit; shift += 7) {
    const auto byte = static_cast<uint8_t>(*p++);
    if (shift == 28 && byte > 0x0f) return nullptr;
    result |= uint32_t{byte & 0x7fu} << shift;
    if ((byte & 0x80) == 0) {
      *v = result;
      return p;
    }
  }
  return nullptr;
}

// A cursor over an encoded blob whose every read is bounds-checked: after the
// first failed read ok() is false and later reads fail too.
class Reader {
 public:
  explicit Reader(std::string_view data) : m_p(data.data()), m_limit(data.data() + data.size()) {}

  bool ok() const { return m_ok; }
  size_t remaining() const { return static_cast<size_t>(m_limit - m_p); }
  const char* position() const { return m_p; }

  bool varint32(uint32_t* v) { return check(m_ok && (m_p = decodeVarint32(m_p, m_limit, v)) != nullptr); }
  bool varint64(uint64_t* v) { return check(m_ok && (m_p = decodeVarint64(m_p, m_limit, v)) != nullptr); }
  bool u8(uint8_t* v) {
    if (!check(m_ok && remaining() >= 1)) return false;
    *v = static_cast<uint8_t>(*m_p++);
    return true;
  }
  bool be64(uint64_t* v) {
    if (!check(m_ok && remaining() >= 8)) return false;
    *v = loadBigEndian64(m_p);
    m_p += 8;
    return true;
  }
  bool bytes(size_t n, std::string_view* v) {
    if (!check(m_ok && remaining() >= n)) return false;
    *v = std::string_view(m_p, n);
    m_p += n;
    return true;
  }
  // A varint32 length and that many bytes.
  bool lengthPrefixed(std::string_view* v) {
    uint32_t n = 0;
    return varint32(&n) && bytes(n, v);
  }

 private:
  bool check(bool good) {
    if (!good) {
      m_ok = false;
      m_p = m_limit;  // decodeVarint may have left nullptr behind
    }
    return m_ok;
  }
  const char* m_p;
  const char* m_limit;
  bool m_ok = true;
};

}  // namespace keyscope::engine::format
