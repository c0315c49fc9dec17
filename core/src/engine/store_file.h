// Store files: the immutable, sorted output of a flush or compaction for one
// region and family, stored as pages in the workspace's SQLite file.
//
// A store file is a sequence of independently compressed, checksummed blocks
// of about kBlockTarget raw bytes, so a point read decompresses one small
// block; in format 6 one frame of a block, about a third of it, while the
// cache keeps the block as stored for the next get. The blocks are stored
// in pages: leaf-sized cuts of the blocks' bytes (formats 5 and 6), or pages
// of about BLOCKSIZE raw bytes of whole blocks (formats 1 to 4). The file's
// metadata (block index, key and time range, counts, sizes, bloom filter)
// is one checksummed blob kept in the store_files table; the page layout and
// the metadata layout are tabled in store_file_format.h.
//
// The sources: store_file_writer.cc (StoreFileWriter), store_file_meta.cc
// (StoreFileMeta's encoding), store_file_blocks.cc (a block as stored: its
// checksum, compression and frames, and its read from the pages) and
// store_file.cc (StoreFileReader and its iterator).
//
// Threads: a StoreFileWriter is used by one thread. A StoreFileReader is
// immutable once opened and shared by every reader thread; each iterator
// reads pages through the PageSource of its own thread. A scan's iterator
// may hand the blocks it read ahead to a BlockDecodePool's threads to
// decompress (ReadContext::readahead); only the decoding leaves its thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <memory_resource>
#include <optional>
#include <string>
#include <vector>

#include "engine/block_index.h"
#include "engine/internal_iterator.h"
#include "engine/store_file_format.h"
#include "keyscope/bytes.h"
#include "keyscope/options.h"
#include "keyscope/read_report.h"
#include "keyscope/status.h"

namespace keyscope::engine {

class BlockDecodePool;
class DecompressionDictionary;
class PageCache;

// Where a flush or compaction writes pages (the writer's SQLite connection,
// inside its open transaction).
class PageSink {
 public:
  virtual ~PageSink() = default;
  virtual Status writePage(int64_t fileId, uint32_t pageNo, BytesView data) = 0;
};

// Where readers fetch pages or byte ranges of pages (one per thread).
class PageSource {
 public:
  virtual ~PageSource() = default;
  virtual Status readRange(int64_t fileId, uint32_t pageNo, uint32_t offset, uint32_t length,
                           std::string* out) = 0;
};

struct StoreFileOptions {
  Compression compression = Compression::kNone;
  BloomType bloom = BloomType::kRow;
  uint32_t pageSize = 65536;  // the family's BLOCKSIZE
  int zstdLevel = 3;
  // store_file_format.h kMetaFormat*: older formats are written only by tests
  // that prove they still read.
  uint8_t format = format::kMetaFormatNewest;
  // Format 4 with zstd: raw bytes of the first blocks the file's dictionary
  // is trained on; a file with fewer gets none. Tests lower it to train on
  // small files.
  uint32_t dictionaryTrainBytes = format::kDictionaryTrainBytes;
  // The most bytes of dictionary to train (at most the format's limit:
  // kDictionaryMaxBytes, from format 6 kFramedDictionaryMaxBytes).
  uint32_t dictionaryMaxBytes = format::kDictionaryMaxBytes;
  // Format 5: stored bytes per page (format::kLeafPageBytes). Tests lower it
  // so that small files have blocks crossing pages.
  uint32_t pageBytes = format::kLeafPageBytes;
};

struct StoreFileMeta {
  uint8_t format = format::kMetaFormatNewest;
  uint64_t cellCount = 0;
  uint64_t deleteMarkerCount = 0;
  uint64_t rawBytes = 0;       // block payloads before compression
  uint64_t storedBytes = 0;    // pages as stored
  uint32_t pageCount = 0;
  std::string firstKey;
  std::string lastKey;
  int64_t minTimestamp = 0;
  int64_t maxTimestamp = 0;
  BloomType bloomType = BloomType::kNone;
  std::string bloom;           // the filter's bits (store_file_format.h)
  std::string dictionary;      // format 4: the zstd dictionary of its blocks, or empty
  uint32_t pageBytes = 0;      // format 5: stored bytes of every page but the last; 0 before
  uint64_t indexBytes = 0;     // size of the encoded block index
  BlockIndex blocks;

  std::string encode() const;  // checksummed
  static Result<StoreFileMeta> decode(BytesView encoded);
};

class StoreFileWriter {
 public:
  StoreFileWriter(int64_t fileId, const StoreFileOptions& options, PageSink* sink);
  ~StoreFileWriter();
  // REQUIRES: keys strictly increasing, each a well-formed internal key.
  Status add(BytesView key, BytesView value);
  // Writes the last page and returns the metadata. REQUIRES: at least one add().
  Result<StoreFileMeta> finish();
  uint64_t rawBytesSoFar() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

// Identifies a store file to error messages: "table 't', region 3, family 'd', store file 12".
struct StoreFileLabel {
  std::string table;
  int64_t regionId = 0;
  std::string family;
};

struct ReadContext {
  PageSource* pages = nullptr;
  ReadReport* report = nullptr;   // counters bumped as pages are read; may be null
  bool fillCache = true;          // false: pages read are not added to the cache
  // Set for scans: at the first block an iterator opens, and each time it
  // moves on to the next block in order, it has this pool fetch and
  // decompress the next few meanwhile. Null: every block is read when
  // it is reached (gets, which read a block or two).
  BlockDecodePool* readahead = nullptr;
  // With readahead: the end of the keys the scan can reach (exclusive; empty:
  // none), so no block is read ahead that the scan cannot get to.
  std::string readaheadEnd = {};
  // REQUIRED with readahead: the same pages as `pages`, readable from a
  // pool thread while the reader reads `pages` (LeasedPageSource::
  // readahead()). The pool thread fetches a block's stored bytes as well
  // as decoding them: the fetches took about a seventh of a full scan's
  // reading thread, which sets the scan's pace.
  PageSource* readaheadPages = nullptr;
};

// Checks one stored block against its checksum and the raw size its index
// gives, and decompresses it into *raw. False with *error saying what is
// wrong when the block is damaged; counts the decompressed bytes in
// *report when given. checksumSeed: blockChecksumSeed() of the block;
// dictionary: StoreFileReader::dictionary() of its file. Any thread.
bool decodeStoredBlock(BytesView stored, uint32_t expectedRaw, std::string* raw, std::string* error,
                       ReadReport* report = nullptr, uint64_t checksumSeed = 0,
                       const DecompressionDictionary* dictionary = nullptr);

// Checks a stored block's checksum and that its header's raw size is the
// index's; false with *error saying what is wrong.
bool checkStoredBlock(BytesView stored, uint32_t expectedRaw, uint64_t checksumSeed, std::string* error);

// How a stored block that checkStoredBlock() passed is compressed.
format::BlockCompression storedCompression(BytesView stored);

// The frame table of a framed block (format 6, store_file_format.h), parsed
// from its stored bytes, which must outlive it (or the next parse). Reused
// from block to block: it keeps its buffers. They start in the table
// itself: a get parses one table with a fresh iterator, and a block's few
// frames and their last keys then cost it no allocation (they were 3 of a
// get's allocations, by callgrind's count of the benchmark's gets). A
// larger table spills to the heap.
class FrameTable {
 public:
  FrameTable() = default;
  // The containers allocate from m_arena, inside the table: not movable.
  FrameTable(const FrameTable&) = delete;
  FrameTable& operator=(const FrameTable&) = delete;

  // Parses the table of `stored`, a whole stored block whose compression is
  // kZstdFrames and whose raw size is blockRawSize. False with *error set
  // when the table is damaged.
  bool parse(BytesView stored, uint32_t blockRawSize, std::string* error);

  size_t size() const { return m_frames.size(); }
  uint32_t rawOffset(size_t i) const { return m_frames[i].rawOffset; }
  uint32_t rawSize(size_t i) const { return m_frames[i].rawSize; }
  // The last key of frame i. REQUIRES: i + 1 < size() (the last frame's is
  // the block's, in the index).
  BytesView lastKey(size_t i) const;
  // The first frame whose last key is >= target, else the last frame.
  size_t find(BytesView target) const;
  // Decompresses frame i into out[0, rawSize(i)); false with *error set.
  bool decode(size_t i, char* out, const DecompressionDictionary* dictionary, std::string* error) const;

 private:
  struct Frame {
    uint32_t storedOffset = 0;  // in the stored block
    uint32_t storedSize = 0;
    uint32_t rawOffset = 0;     // in the block's raw bytes
    uint32_t rawSize = 0;
    uint32_t keyEnd = 0;        // where its last key ends in m_keys
  };
  static constexpr size_t kInlineBytes = 512;  // 8 frames' entries and 256 bytes of keys, with room to grow
  BytesView m_stored;
  alignas(std::max_align_t) std::byte m_inline[kInlineBytes];
  std::pmr::monotonic_buffer_resource m_arena{m_inline, sizeof m_inline};
  std::pmr::vector<Frame> m_frames{&m_arena};
  std::pmr::string m_keys{&m_arena};  // the last keys, whole, back to back
};

// Reads the stored bytes (header and payload) of block blockNo of store file
// fileId into *out, across pages when the block crosses them (format 5).
// A Corruption names the page when a page is missing or too short.
Status readStoredBlock(PageSource& pages, int64_t fileId, const StoreFileMeta& meta, size_t blockNo,
                       std::string* out);

// The seed of block blockNo's checksum in a store file of this format
// (store_file_format.h): where the block belongs from format 3, else 0.
uint64_t blockChecksumSeed(uint8_t format, int64_t fileId, size_t blockNo);

class StoreFileReader {
 public:
  StoreFileReader(int64_t fileId, StoreFileMeta meta, StoreFileLabel label, PageCache* cache);
  // The same file under another label (a split or merge moved it to another
  // region): the metadata, index and bloom filter are shared, not copied.
  StoreFileReader(const StoreFileReader& other, StoreFileLabel label);
  ~StoreFileReader();

  int64_t id() const;
  const StoreFileMeta& meta() const;
  const StoreFileLabel& label() const;
  // The digested dictionary the file's zstd blocks were compressed against
  // (format 4), or null when they were not.
  const DecompressionDictionary* dictionary() const;

  // Bloom filter checks; true when the filter cannot rule the row/column out
  // (always true without a filter of that kind).
  // rowKey is rowStartKey(row); columnKey is columnStartKey(row, qualifier).
  bool mayContainRow(BytesView rowKey) const;
  bool mayContainColumn(BytesView columnKey) const;

  // An iterator over the file's entries. A damaged block makes status() a
  // Corruption naming the table, region, family, store file, page and block.
  std::unique_ptr<InternalIterator> newIterator(const ReadContext& context) const;

  // Reads and checks every block and the bloom filter (keyscope-cli check).
  // *damagedPage (when given) is set to the page the failing block begins
  // in (the message names every page it spans), when the failure is in one.
  Status verify(PageSource* pages, std::optional<uint32_t>* damagedPage = nullptr) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

}  // namespace keyscope::engine
