// StoreFileReader: a store file's reader with its iterator (gets read a frame
// of a framed block, scans read whole blocks ahead on the decode pool), and
// verify(). The writer, the metadata and the blocks as stored have files of
// their own (store_file_writer.cc, store_file_meta.cc, store_file_blocks.cc).
// Layouts: store_file_format.h.
#include "engine/store_file.h"

#include <algorithm>
#include <cassert>
#include <limits>

#include "engine/block_decode_pool.h"
#include "engine/block_dictionary.h"
#include "engine/bloom_filter.h"
#include "engine/internal_key.h"
#include "engine/key_compare.h"
#include "engine/page_cache.h"
#include "engine/short_bytes.h"
#include "engine/store_file_format.h"
#include "engine/store_file_internal.h"

namespace keyscope::engine {

namespace fmt = format;
using store_file_detail::withContext;

namespace {

// Walks the entries of one decoded block. The key is rebuilt in one reused
// buffer; the value points into the block.
class BlockCursor {
 public:
  enum class Step { kEntry, kEnd, kError };

  // Positions before the block's first entry. A format-2 block's restart
  // array is checked (in bounds, ascending, from 0) and kept; false with
  // *error set when it is damaged.
  bool reset(BytesView block, uint8_t format, std::string* error) {
    m_begin = block.data();
    m_next = block.data();
    m_limit = block.data() + block.size();
    m_key.clear();
    m_restarts = nullptr;
    m_restartCount = 0;
    if (format < fmt::kMetaFormatRestartBlocks) return true;
    if (block.size() < 4) {
      *error = "block of " + std::to_string(block.size()) + " bytes has no restart count";
      return false;
    }
    const uint32_t count = fmt::loadBigEndian32(m_limit - 4);
    const size_t arrayBytes = size_t{count} * 4;
    if (count == 0 || arrayBytes > block.size() - 4) {
      *error = "bad restart count " + std::to_string(count);
      return false;
    }
    m_limit -= 4 + arrayBytes;
    m_restarts = m_limit;
    m_restartCount = count;
    const auto entryBytes = static_cast<size_t>(m_limit - m_begin);
    uint32_t previous = 0;
    for (uint32_t i = 0; i < count; ++i) {
      const uint32_t offset = restart(i);
      if ((i == 0 && offset != 0) || (i > 0 && offset <= previous) || offset >= entryBytes) {
        *error = "restart " + std::to_string(i) + " at offset " + std::to_string(offset) + " is out of place";
        return false;
      }
      previous = offset;
    }
    return true;
  }
  bool atStart() const { return m_next == m_begin; }
  // Offset of the next entry to parse.
  size_t offset() const { return static_cast<size_t>(m_next - m_begin); }
  uint32_t restartCount() const { return m_restartCount; }
  uint32_t restart(uint32_t i) const { return fmt::loadBigEndian32(m_restarts + size_t{i} * 4); }

  // With a restart array: moves to the last restart whose key is < target
  // when that is ahead of the position (*jumped; the next step() parses
  // it, the current entry is gone), so a seek walks at most
  // kRestartInterval entries. False with *error set when a restart entry is
  // damaged.
  bool skipToRestartBefore(BytesView target, bool* jumped, std::string* error) {
    *jumped = false;
    if (m_restartCount == 0) return true;
    // Invariant: restart lo's key < target (or lo = 0), hi's key >= target.
    uint32_t lo = 0;
    uint32_t hi = m_restartCount;
    while (hi - lo > 1) {
      const uint32_t mid = lo + (hi - lo) / 2;
      BytesView key;
      if (!restartKey(mid, &key, error)) return false;
      if (key < target) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    const char* at = m_begin + restart(lo);
    if (at > m_next) {
      m_next = at;
      m_key.clear();
      *jumped = true;
    }
    return true;
  }
  bool atEnd() const { return m_next == m_limit; }
  const std::string& key() const { return m_key; }
  BytesView value() const { return m_value; }
  // Bytes the current key shares with the one before it in the block.
  size_t shared() const { return m_shared; }

  // The key stored whole at restart i (its entry has shared = 0).
  bool restartKey(uint32_t i, BytesView* key, std::string* error) const {
    const char* p = m_begin + restart(i);
    uint32_t shared = 0;
    uint32_t unshared = 0;
    uint32_t valueLength = 0;
    if ((p = fmt::decodeVarint32(p, m_limit, &shared)) == nullptr ||
        (p = fmt::decodeVarint32(p, m_limit, &unshared)) == nullptr ||
        (p = fmt::decodeVarint32(p, m_limit, &valueLength)) == nullptr || shared != 0 ||
        unshared > static_cast<size_t>(m_limit - p)) {
      *error = "bad entry at restart " + std::to_string(i);
      return false;
    }
    *key = BytesView(p, unshared);
    return true;
  }

  // Parses the entry after the current one. kError sets *error.
  Step step(std::string* error) {
    const char* p = m_next;
    if (p == m_limit) return Step::kEnd;
    uint32_t shared = 0;
    uint32_t unshared = 0;
    uint32_t valueLength = 0;
    if ((p = fmt::decodeVarint32(p, m_limit, &shared)) == nullptr ||
        (p = fmt::decodeVarint32(p, m_limit, &unshared)) == nullptr ||
        (p = fmt::decodeVarint32(p, m_limit, &valueLength)) == nullptr) {
      *error = "bad varint in the entry at offset " + std::to_string(m_next - m_begin);
      return Step::kError;
    }
    if (shared > m_key.size()) {
      *error = "entry at offset " + std::to_string(m_next - m_begin) + " shares " + std::to_string(shared) +
               " bytes with a key of " + std::to_string(m_key.size());
      return Step::kError;
    }
    const auto left = static_cast<size_t>(m_limit - p);
    if (unshared > left || valueLength > left - unshared) {
      *error = "truncated entry at offset " + std::to_string(m_next - m_begin);
      return Step::kError;
    }
    m_shared = shared;
    // Keys of a block mostly have one length, so the resize rarely does
    // anything; the shared prefix stays in place.
    m_key.resize(size_t{shared} + unshared);
    copyBytes(m_key.data() + shared, p, unshared);
    m_value = BytesView(p + unshared, valueLength);
    m_next = p + unshared + valueLength;
    return Step::kEntry;
  }

 private:
  const char* m_begin = nullptr;
  const char* m_next = nullptr;
  const char* m_limit = nullptr;
  std::string m_key;
  BytesView m_value;
  size_t m_shared = 0;
  const char* m_restarts = nullptr;  // format 2: the restart array, else null
  uint32_t m_restartCount = 0;
};

}  // namespace

// ---------------------------------------------------------------------------
// StoreFileReader

namespace {

// The stored bytes of a block an iterator reads itself are needed only until
// the block is decoded, so one buffer per thread serves every iterator. A
// get's iterator had a buffer of its own: a fresh allocation of the stored
// block's ~2 KiB for each get that missed the cache, past malloc's per-thread
// cache of small sizes. A buffer that a large block grew past
// kKeptStoredBytes is let go at the next read.
std::string& storedScratch() {
  constexpr size_t kKeptStoredBytes = 64 * 1024;
  thread_local std::string buffer;
  if (buffer.capacity() > kKeptStoredBytes) std::string().swap(buffer);
  return buffer;
}

}  // namespace

// What every reader of one store file shares: its metadata (the block index
// and the bloom filter with it). Not in an anonymous namespace:
// StoreFileState refers to it.
struct StoreFileContents {
  explicit StoreFileContents(StoreFileMeta m)
      : meta(std::move(m)),
        // decode() refused a dictionary zstd cannot load; null here then
        // means out of memory, which the first block read reports.
        dictionary(meta.dictionary.empty() ? nullptr : DecompressionDictionary::load(meta.dictionary)) {}
  StoreFileMeta meta;
  std::unique_ptr<const DecompressionDictionary> dictionary;
};

struct StoreFileState {
  StoreFileState(int64_t id, std::shared_ptr<const StoreFileContents> shared, StoreFileLabel l, PageCache* c)
      : fileId(id), contents(std::move(shared)), label(std::move(l)), cache(c) {}
  // The references below point into `contents`: a copy is made from the
  // parts (StoreFileReader's relabelling constructor), never member-wise.
  StoreFileState(const StoreFileState&) = delete;
  StoreFileState& operator=(const StoreFileState&) = delete;

  int64_t fileId;
  std::shared_ptr<const StoreFileContents> contents;
  StoreFileLabel label;
  PageCache* cache;
  const StoreFileMeta& meta = contents->meta;
  const DecompressionDictionary* dictionary = contents->dictionary.get();

  // "table 't', region 3, family 'd', store file 12, page 7, block 3"; a
  // block that runs on into later pages (format 5) names them: "pages 7-8".
  std::string where(size_t blockNo) const {
    const BlockHandle& h = meta.blocks[blockNo];
    size_t first = blockNo;
    while (first > 0 && meta.blocks[first - 1].pageNo == h.pageNo) --first;
    const uint64_t lastPage = meta.pageBytes != 0 && h.storedSize != 0
                                  ? h.pageNo + (uint64_t{h.offset} + h.storedSize - 1) / meta.pageBytes
                                  : h.pageNo;
    const std::string pages = lastPage == h.pageNo
                                  ? "page " + std::to_string(h.pageNo)
                                  : "pages " + std::to_string(h.pageNo) + "-" + std::to_string(lastPage);
    return name() + ", " + pages + ", block " + std::to_string(blockNo - first);
  }
  // "table 't', region 3, family 'd', store file 12"
  std::string name() const {
    return "table '" + label.table + "', region " + std::to_string(label.regionId) + ", family '" + label.family +
           "', store file " + std::to_string(fileId);
  }

  // The decoded block: from the cache when allowed and present, else read,
  // checked and decompressed (and cached when context.fillCache).
  Status loadBlock(size_t blockNo, const ReadContext& context, bool useCache, std::string* scratch,
                   PageCache::Block* out) const {
    PageCache::Form form = PageCache::Form::kDecoded;
    PageCache::Block cached =
        useCache && cache != nullptr ? cache->lookup(fileId, static_cast<uint32_t>(blockNo), &form) : nullptr;
    ReadReport* report = context.report;
    if (cached) countCacheHit(report);
    if (cached && form == PageCache::Form::kDecoded) {
      *out = std::move(cached);
      return Status::ok();
    }
    // Kept as stored (already checked), or read now.
    if (!cached) {
      if (Status s = fetchStored(blockNo, context.pages, scratch); !s) return s;
      countStorageRead(blockNo, report);
    }
    std::shared_ptr<std::string> block = newBlock(blockNo);
    std::string error;
    if (!decodeStoredBlock(cached ? BytesView(*cached) : BytesView(*scratch), meta.blocks[blockNo].rawSize,
                           block.get(), &error, report, blockChecksumSeed(meta.format, fileId, blockNo),
                           dictionary)) {
      return Status::corruption(where(blockNo) + ": " + error);
    }
    *out = std::move(block);
    if (!cached) keep(blockNo, context, useCache, *scratch, *out);
    return Status::ok();
  }

  // For a get: the block as the cache holds it (*form says how), else read
  // and checked, and kept as stored when it is framed (decoded when it is
  // not: a block stored whole has nothing smaller to decode).
  Status loadForPoint(size_t blockNo, const ReadContext& context, PageCache::Block* out,
                      PageCache::Form* form) const {
    ReadReport* report = context.report;
    if (cache != nullptr) {
      *out = cache->lookup(fileId, static_cast<uint32_t>(blockNo), form);
      if (*out) {
        countCacheHit(report);
        return Status::ok();
      }
    }
    // Read straight into a buffer the cache can keep, when there is a cache.
    std::shared_ptr<std::string> storedBlock =
        cache != nullptr ? cache->newStored(meta.blocks[blockNo].storedSize) : nullptr;
    std::string& stored = storedBlock != nullptr ? *storedBlock : storedScratch();
    if (Status s = fetchStored(blockNo, context.pages, &stored); !s) return s;
    countStorageRead(blockNo, report);
    const uint32_t rawSize = meta.blocks[blockNo].rawSize;
    const uint64_t seed = blockChecksumSeed(meta.format, fileId, blockNo);
    std::string error;
    if (!checkStoredBlock(stored, rawSize, seed, &error)) return Status::corruption(where(blockNo) + ": " + error);
    if (storedCompression(stored) == fmt::BlockCompression::kZstdFrames) {
      *form = PageCache::Form::kStored;
      *out = storedBlock != nullptr ? std::move(storedBlock) : std::make_shared<const std::string>(stored);
      if (context.fillCache && cache != nullptr) {
        cache->insert(fileId, static_cast<uint32_t>(blockNo), *out, PageCache::Form::kStored);
      }
      return Status::ok();
    }
    std::shared_ptr<std::string> block = newBlock(blockNo);
    if (!decodeStoredBlock(stored, rawSize, block.get(), &error, report, seed, dictionary)) {
      return Status::corruption(where(blockNo) + ": " + error);
    }
    *form = PageCache::Form::kDecoded;
    *out = std::move(block);
    keep(blockNo, context, true, stored, *out);
    return Status::ok();
  }

  void countStorageRead(size_t blockNo, ReadReport* report) const {
    if (report == nullptr) return;
    ++report->pagesRead;
    report->bytesReadFromStorage += meta.blocks[blockNo].storedSize;
  }

  // A buffer for the block's raw bytes, sized, taken from the cache's spares
  // when there is a cache.
  std::shared_ptr<std::string> newBlock(size_t blockNo) const {
    const uint32_t rawSize = meta.blocks[blockNo].rawSize;
    return cache != nullptr ? cache->newBlock(rawSize) : std::make_shared<std::string>(rawSize, '\0');
  }

  // The block from the cache, when reads may use it and it is there
  // (*form says whether decoded or as stored).
  bool lookupCached(size_t blockNo, bool useCache, PageCache::Block* out, PageCache::Form* form) const {
    if (!useCache || cache == nullptr) return false;
    *out = cache->lookup(fileId, static_cast<uint32_t>(blockNo), form);
    return *out != nullptr;
  }
  static void countCacheHit(ReadReport* report) {
    if (report == nullptr) return;
    ++report->pagesRead;
    ++report->pageCacheHits;
  }
  // Caches a block just read from storage: a framed block (format 6) as
  // stored, by gets and scans alike, any other decoded. One form for framed
  // blocks keeps the cache's memory in buffers of one size: a scan that
  // cached blocks decoded, 4 KiB each, where gets had kept them as stored,
  // about 2 KiB, freed buffers malloc could not reuse for the new ones, and
  // paid for fresh memory at every step (prefix scans after gets ran 28%
  // slower than with blocks cached as stored, in keyscope-read-probe reads).
  void keep(size_t blockNo, const ReadContext& context, bool useCache, BytesView stored,
            const PageCache::Block& decoded) const {
    if (!useCache || !context.fillCache || cache == nullptr) return;
    if (storedCompression(stored) == fmt::BlockCompression::kZstdFrames) {
      cache->insert(fileId, static_cast<uint32_t>(blockNo), cache->copyStored(stored), PageCache::Form::kStored);
    } else {
      cache->insert(fileId, static_cast<uint32_t>(blockNo), decoded);
    }
  }

  // The block's stored bytes, as the index places them, into *stored.
  Status fetchStored(size_t blockNo, PageSource* pages, std::string* stored) const {
    const BlockHandle& h = meta.blocks[blockNo];
    if (pages == nullptr) return Status::invalidArgument(where(blockNo) + ": no page source");
    if (Status s = readStoredBlock(*pages, fileId, meta, blockNo, stored); !s) {
      return withContext(s, where(blockNo));
    }
    if (stored->size() != h.storedSize) {
      return Status::corruption(where(blockNo) + ": short read of " + std::to_string(stored->size()) + " bytes");
    }
    if (!meta.dictionary.empty() && dictionary == nullptr) {
      return Status::ioError(where(blockNo) + ": out of memory for the file's compression dictionary");
    }
    return Status::ok();
  }

  // What a pool thread needs to fetch the block with `fetcher` into the
  // buffer `stored` and decode it.
  BlockDecodeInput decodeInput(size_t blockNo, std::string stored, const StoredBlockFetcher* fetcher) const {
    BlockDecodeInput input;
    input.stored = std::move(stored);
    input.fetcher = fetcher;
    input.blockNo = blockNo;
    input.rawSize = meta.blocks[blockNo].rawSize;
    input.block = newBlock(blockNo);
    input.checksumSeed = blockChecksumSeed(meta.format, fileId, blockNo);
    input.dictionary = dictionary;
    input.keepAlive = contents;
    return input;
  }

  // The block a pool thread decoded (or is decoding) for a readahead,
  // counted and kept as loadBlock() would have. A job whose fetch failed
  // leaves *out empty, for the reader's own read to meet and report.
  // storedWasCached: the job decoded a block the cache held as stored.
  Status takeDecoded(size_t blockNo, const ReadContext& context, bool useCache, BlockDecodeJob& job,
                     bool storedWasCached, PageCache::Block* out, std::string* storedBuffer) const {
    std::string error;
    uint64_t bytesDecompressed = 0;
    const bool ok = job.take(out, &error, &bytesDecompressed, storedBuffer);
    if (!job.fetchStatus()) return Status::ok();
    if (ReadReport* report = context.report) {
      if (storedWasCached) {
        countCacheHit(report);
      } else {
        countStorageRead(blockNo, report);
      }
      report->bytesDecompressed += bytesDecompressed;
    }
    if (!ok) return Status::corruption(where(blockNo) + ": " + error);
    if (!storedWasCached) keep(blockNo, context, useCache, *storedBuffer, *out);
    return Status::ok();
  }
};

struct StoreFileReader::Impl : StoreFileState {
  using StoreFileState::StoreFileState;
};

namespace {


// The iterator is the fetcher of its readahead jobs: the pool's thread reads
// their stored bytes through ReadContext::readaheadPages.
class StoreFileIterator final : public InternalIterator, private StoredBlockFetcher {
 public:
  StoreFileIterator(const StoreFileState* file, const ReadContext& context) : m_file(file), m_context(context) {
    assert(m_context.readahead == nullptr || m_context.readaheadPages != nullptr);
    if (m_context.readaheadPages == nullptr) m_context.readahead = nullptr;  // no pages for the pool to read
  }
  ~StoreFileIterator() override {
    for (AheadBlock& ahead : m_ahead) {
      if (ahead.job) ahead.job->cancelAndWait();  // a running job still reads through this iterator
    }
  }
  StoreFileIterator(const StoreFileIterator&) = delete;
  StoreFileIterator& operator=(const StoreFileIterator&) = delete;

  bool valid() const override { return m_valid; }
  BytesView key() const override {
    assert(m_valid);
    return m_cursor.key();
  }
  BytesView value() const override {
    assert(m_valid);
    return m_cursor.value();
  }
  Status status() const override { return m_status; }

  void seekToFirst() override {
    m_valid = false;
    if (!m_status || !openUnitFor(0, {})) return;
    m_valid = stepInBlock();
  }

  void seek(BytesView target) override {
    m_valid = false;
    if (!m_status) return;
    const size_t blockNo = m_file->meta.blocks.find(target);
    if (blockNo == m_file->meta.blocks.size()) return;
    // The frame of the block already held that the target is in (a get's
    // framed block), else none.
    const size_t frameNo =
        blockNo == m_blockNo && m_block && m_frameNo != kWholeBlock ? m_frames.find(target) : kWholeBlock;
    // Moving forward within the block or frame already held (a merge's
    // reseek to the next column): carry on from the current entry.
    const bool forward = blockNo == m_blockNo && m_block && frameNo == m_frameNo && !m_cursor.atStart() &&
                         BytesView(m_cursor.key()) <= target;
    if (!forward) {
      const bool opened = frameNo != kWholeBlock ? openFrame(frameNo) : openUnitFor(blockNo, target);
      if (!opened) return;
    }
    // Jump to the last restart before the target when it lies ahead (a
    // format-2 block); the walk below then covers a few entries at most.
    bool jumped = false;
    if (std::string error; !m_cursor.skipToRestartBefore(target, &jumped, &error)) {
      fail(Status::corruption(m_file->where(m_blockNo) + ": " + error));
      return;
    }
    if ((!forward || jumped) && !stepInBlock()) return;
    // Scan for the first key >= target, tracking lcp = the length of the
    // common prefix of the current key and target, so most entries are
    // decided by their shared length alone: with key < target differing at
    // lcp, a next key sharing more than lcp bytes with it is still < target,
    // and one sharing fewer is > target.
    // A restart entry stores shared = 0 whatever it has in common with the
    // key before it, so there lcp is measured afresh.
    size_t lcp = sharedPrefixLength(m_cursor.key(), target);
    while (!atOrAfter(m_cursor.key(), lcp, target)) {
      if (!stepInBlock()) return;
      const size_t shared = m_cursor.shared();
      if (shared == 0) {
        lcp = sharedPrefixLength(m_cursor.key(), target);
        continue;
      }
      if (shared > lcp) continue;
      if (shared < lcp) {
        break;
      }
      lcp += sharedPrefixLength(BytesView(m_cursor.key()).substr(lcp), target.substr(lcp));
    }
    m_valid = true;
  }

  void seekToLastRowBefore(BytesView bound) override {
    m_valid = false;
    if (!m_status) return;
    const auto& blocks = m_file->meta.blocks;
    // The last entry < bound is in block b (before the first entry >= bound)
    // or, when block b has none, the last entry of block b-1.
    const size_t blockNo = m_file->meta.blocks.find(bound);
    bool found = false;
    if (blockNo < blocks.size()) {
      if (!openBlock(blockNo)) return;
      while (stepInBlock() && BytesView(m_cursor.key()) < bound) {
        m_before.assign(m_cursor.key());
        found = true;
      }
      if (!m_status) return;
    }
    if (!found) {
      if (blockNo == 0) return;
      m_before.assign(blocks.lastKey(blockNo - 1));
    }
    const size_t rowLength = escapedRowLength(m_before);
    if (rowLength == 0) {
      fail(Status::corruption(m_file->where(found ? blockNo : blockNo - 1) + ": a key without a row"));
      return;
    }
    m_before.resize(rowLength);
    seek(m_before);
  }

  void next() override {
    assert(m_valid);
    if (m_cursor.atEnd()) {
      m_valid = false;
      if (m_frameNo != kWholeBlock && m_frameNo + 1 < m_frames.size()) {
        if (!openFrame(m_frameNo + 1)) return;
      } else if (m_blockNo + 1 == m_file->meta.blocks.size() || !openUnitFor(m_blockNo + 1, {})) {
        return;
      }
    }
    m_valid = stepInBlock();
  }

 private:
  // key >= target, given that their common prefix is lcp bytes long.
  static bool atOrAfter(BytesView key, size_t lcp, BytesView target) {
    if (lcp == target.size()) return true;
    if (lcp == key.size()) return false;
    return static_cast<uint8_t>(key[lcp]) > static_cast<uint8_t>(target[lcp]);
  }

  void fail(Status s) {
    m_valid = false;
    m_status = std::move(s);
  }

  // Point reads (no readahead) of a framed file read frames: a get decodes
  // the one frame its key is in, and the cache keeps the block as stored.
  bool pointReads() const {
    return m_context.readahead == nullptr && m_file->meta.format >= fmt::kMetaFormatFramedBlocks;
  }

  // Makes the part of block blockNo that holds target current (for point
  // reads of a framed block, the frame; else the whole block), positioned
  // before its first entry. An empty target: the block's first part.
  bool openUnitFor(size_t blockNo, BytesView target) {
    if (!pointReads()) return openBlock(blockNo);
    m_block.reset();
    m_frameNo = kWholeBlock;
    m_blockNo = blockNo;
    PageCache::Form form = PageCache::Form::kDecoded;
    if (Status s = m_file->loadForPoint(blockNo, m_context, &m_block, &form); !s) {
      fail(std::move(s));
      return false;
    }
    if (form == PageCache::Form::kDecoded) return resetCursor(blockNo);
    if (std::string error; !m_frames.parse(*m_block, m_file->meta.blocks[blockNo].rawSize, &error)) {
      fail(Status::corruption(m_file->where(blockNo) + ": " + error));
      return false;
    }
    return openFrame(target.empty() ? 0 : m_frames.find(target));
  }

  // Decodes frame frameNo of the framed block held as stored and makes it
  // current, positioned before its first entry.
  bool openFrame(size_t frameNo) {
    m_frameNo = frameNo;
    const uint32_t rawSize = m_frames.rawSize(frameNo);
    m_frameRaw.resize(rawSize);
    std::string error;
    if (!m_frames.decode(frameNo, m_frameRaw.data(), m_file->dictionary, &error)) {
      fail(Status::corruption(m_file->where(m_blockNo) + ": " + error));
      return false;
    }
    if (m_context.report != nullptr) m_context.report->bytesDecompressed += rawSize;
    BytesView entries(m_frameRaw);
    // The last frame ends with the block's restart array, which a frame's
    // walk does not need.
    if (frameNo + 1 == m_frames.size()) {
      const uint32_t count = rawSize >= 4 ? fmt::loadBigEndian32(m_frameRaw.data() + rawSize - 4) : 0;
      if (count == 0 || (uint64_t{count} + 1) * 4 > rawSize) {
        fail(Status::corruption(m_file->where(m_blockNo) + ": bad restart count " + std::to_string(count)));
        return false;
      }
      entries = entries.substr(0, rawSize - (size_t{count} + 1) * 4);
    }
    // The frame's entries alone: no restart array to check.
    std::string unused;
    m_cursor.reset(entries, fmt::kMetaFormatPlainBlocks, &unused);
    return true;
  }

  bool resetCursor(size_t blockNo) {
    if (std::string error; !m_cursor.reset(*m_block, m_file->meta.format, &error)) {
      fail(Status::corruption(m_file->where(blockNo) + ": " + error));
      return false;
    }
    return true;
  }

  // The key the current block or frame must end with.
  BytesView unitLastKey() const {
    if (m_frameNo != kWholeBlock && m_frameNo + 1 < m_frames.size()) return m_frames.lastKey(m_frameNo);
    return m_file->meta.blocks.lastKey(m_blockNo);
  }

  // Makes blockNo the current block, decoded whole, positioned before its
  // first entry.
  bool openBlock(size_t blockNo) {
    if (blockNo != m_blockNo || !m_block || m_frameNo != kWholeBlock) {
      m_frameNo = kWholeBlock;
      const bool first = m_blockNo == kNoBlock;
      const bool inOrder = m_block && blockNo == m_blockNo + 1;
      m_block.reset();  // let the cache free the old one if it was evicted
      m_blockNo = blockNo;
      Status s = takeReadahead(blockNo);
      // A scan's first block: the blocks after it are handed to the pool
      // before it is read, so they decode while this one does.
      if (s && m_context.readahead != nullptr && first) readAhead();
      if (s && !m_block) s = m_file->loadBlock(blockNo, m_context, true, &storedScratch(), &m_block);
      if (!s) {
        fail(std::move(s));
        return false;
      }
      if (m_context.readahead != nullptr && inOrder) readAhead();
    }
    return resetCursor(blockNo);
  }

  // Parses the next entry of the current block. At the block's end (which a
  // caller only reaches when the index promised more) or on damage: false,
  // with a Corruption status.
  bool stepInBlock() {
    std::string error;
    switch (m_cursor.step(&error)) {
      case BlockCursor::Step::kEntry:
        if (m_cursor.atEnd() && BytesView(m_cursor.key()) != unitLastKey()) {
          error = m_frameNo != kWholeBlock && m_frameNo + 1 < m_frames.size()
                      ? "frame " + std::to_string(m_frameNo) + "'s last key is not the one in its table"
                      : "the block's last key is not the one in the index";
          break;
        }
        return true;
      case BlockCursor::Step::kEnd:
        error = "the block ends before the key its index promises";
        break;
      case BlockCursor::Step::kError:
        break;
    }
    fail(Status::corruption(m_file->where(m_blockNo) + ": " + error));
    return false;
  }

  // Readahead: the blocks after the current one, fetched and handed to the
  // decode pool once the iterator has moved on to the next block in order
  // (a scan; a seek elsewhere cancels them). Kept few: a pool thread only
  // has to stay a block ahead, and a scan that stops early wastes them.
  static constexpr size_t kReadaheadBlocks = 4;
  struct AheadBlock {
    size_t blockNo;
    PageCache::Block cached;               // found decoded in the cache, or
    std::shared_ptr<BlockDecodeJob> job;   // being decoded
    bool storedWasCached = false;          // the job's stored bytes came from the cache
  };

  void readAhead() {
    const size_t blockCount = m_file->meta.blocks.size();
    while (m_ahead.size() < kReadaheadBlocks) {
      const size_t next = m_ahead.empty() ? m_blockNo + 1 : m_ahead.back().blockNo + 1;
      if (next >= blockCount) return;
      // Block `next` starts after the last key of the one before it.
      const BytesView end = m_context.readaheadEnd;
      if (!end.empty() && m_file->meta.blocks.lastKey(next - 1) >= end) return;
      AheadBlock ahead{next, nullptr, nullptr};
      PageCache::Form form = PageCache::Form::kDecoded;
      if (!m_file->lookupCached(next, true, &ahead.cached, &form) || form == PageCache::Form::kStored) {
        // The job fetches the stored bytes too, on the pool's thread, unless
        // a get left them in the cache; a failed fetch is left for
        // openBlock() to meet and report.
        std::string stored;
        if (!m_spareBuffers.empty()) {
          stored.swap(m_spareBuffers.back());
          m_spareBuffers.pop_back();
        }
        ahead.storedWasCached = ahead.cached != nullptr;
        if (ahead.storedWasCached) stored.assign(*ahead.cached);
        ahead.cached.reset();
        ahead.job = m_context.readahead->submit(
            m_file->decodeInput(next, std::move(stored), ahead.storedWasCached ? nullptr : this));
      }
      m_ahead.push_back(std::move(ahead));
    }
  }

  // Makes a block read ahead the current one, when blockNo is one; drops the
  // blocks read ahead that the iterator has passed over.
  Status takeReadahead(size_t blockNo) {
    while (!m_ahead.empty() && m_ahead.front().blockNo < blockNo) dropFirstAhead();
    if (m_ahead.empty()) return Status::ok();
    if (m_ahead.front().blockNo != blockNo) {
      while (!m_ahead.empty()) dropFirstAhead();
      return Status::ok();
    }
    decodeQueuedBehindWhileWaiting();
    AheadBlock ahead = std::move(m_ahead.front());
    m_ahead.erase(m_ahead.begin());
    if (ahead.cached) {
      StoreFileState::countCacheHit(m_context.report);
      m_block = std::move(ahead.cached);
      return Status::ok();
    }
    std::string buffer;
    Status s = m_file->takeDecoded(blockNo, m_context, true, *ahead.job, ahead.storedWasCached, &m_block, &buffer);
    m_spareBuffers.push_back(std::move(buffer));
    return s;
  }

  // While a pool thread is still decoding the block the reader wants next,
  // the reader decodes the blocks queued behind it instead of waiting.
  // Which thread paces a scan depends on the machine: the reader when its
  // work on a block's cells takes longer than a decode, else the pool's
  // thread. This way the reader does not idle while the pool is behind.
  void decodeQueuedBehindWhileWaiting() {
    const BlockDecodeJob* wanted = m_ahead.front().job.get();
    if (wanted == nullptr) return;
    for (size_t i = 1; i < m_ahead.size() && wanted->running(); ++i) {
      if (m_ahead[i].job) m_ahead[i].job->runIfUnclaimed();
    }
  }

  void dropFirstAhead() {
    if (m_ahead.front().job) m_ahead.front().job->cancelAndWait();
    m_ahead.erase(m_ahead.begin());
  }

  // StoredBlockFetcher, for a readahead job on a pool thread.
  Status fetchStored(size_t blockNo, std::string* stored) const override {
    return m_file->fetchStored(blockNo, m_context.readaheadPages, stored);
  }

  const StoreFileState* m_file;
  ReadContext m_context;
  // At most kReadaheadBlocks, oldest first. A vector, as an empty one (a
  // get's) allocates nothing, where a std::deque allocates on construction.
  std::vector<AheadBlock> m_ahead;
  std::vector<std::string> m_spareBuffers;  // stored bytes' buffers back from the pool, for reuse
  PageCache::Block m_block;  // decoded, or (a framed block's frame current) as stored
  static constexpr size_t kNoBlock = std::numeric_limits<size_t>::max();
  size_t m_blockNo = kNoBlock;
  // The frame m_cursor walks in m_frameRaw, or kWholeBlock when it walks
  // m_block decoded.
  static constexpr size_t kWholeBlock = std::numeric_limits<size_t>::max();
  size_t m_frameNo = kWholeBlock;
  FrameTable m_frames;  // m_block's, when a frame is current
  std::string m_frameRaw;
  BlockCursor m_cursor;
  bool m_valid = false;
  Status m_status;
  std::string m_before;   // seekToLastRowBefore's key and row
};

}  // namespace

StoreFileReader::StoreFileReader(int64_t fileId, StoreFileMeta meta, StoreFileLabel label, PageCache* cache)
    : m_impl(std::make_unique<Impl>(fileId, std::make_shared<const StoreFileContents>(std::move(meta)),
                                    std::move(label), cache)) {}

StoreFileReader::StoreFileReader(const StoreFileReader& other, StoreFileLabel label)
    : m_impl(std::make_unique<Impl>(other.m_impl->fileId, other.m_impl->contents, std::move(label),
                                    other.m_impl->cache)) {}

StoreFileReader::~StoreFileReader() = default;

int64_t StoreFileReader::id() const { return m_impl->fileId; }
const StoreFileMeta& StoreFileReader::meta() const { return m_impl->meta; }
const StoreFileLabel& StoreFileReader::label() const { return m_impl->label; }
const DecompressionDictionary* StoreFileReader::dictionary() const { return m_impl->dictionary; }

bool StoreFileReader::mayContainRow(BytesView rowKey) const {
  const StoreFileMeta& m = m_impl->meta;
  return m.bloomType != BloomType::kRow || bloomMayContain(m.bloom, rowKey);
}

bool StoreFileReader::mayContainColumn(BytesView columnKey) const {
  const StoreFileMeta& m = m_impl->meta;
  switch (m.bloomType) {
    case BloomType::kNone:
      return true;
    case BloomType::kRow: {
      const size_t rowLength = escapedRowLength(columnKey);
      return rowLength == 0 || bloomMayContain(m.bloom, columnKey.substr(0, rowLength));
    }
    case BloomType::kRowCol:
      return bloomMayContain(m.bloom, columnKey);
  }
  return true;
}

std::unique_ptr<InternalIterator> StoreFileReader::newIterator(const ReadContext& context) const {
  return std::make_unique<StoreFileIterator>(m_impl.get(), context);
}

Status StoreFileReader::verify(PageSource* pages, std::optional<uint32_t>* damagedPage) const {
  const Impl& f = *m_impl;
  const StoreFileMeta& m = f.meta;
  const ReadContext context{pages, nullptr, false};
  std::string scratch;
  std::string previous;
  std::string error;
  BlockCursor cursor;
  FrameTable frames;
  uint64_t cells = 0;
  uint64_t markers = 0;
  int64_t minTs = std::numeric_limits<int64_t>::max();
  int64_t maxTs = std::numeric_limits<int64_t>::min();
  for (size_t b = 0; b < m.blocks.size(); ++b) {
    PageCache::Block block;
    if (damagedPage != nullptr) *damagedPage = m.blocks[b].pageNo;  // reset when all is well
    // Straight from storage: checking the cache would check nothing stored.
    if (Status s = f.loadBlock(b, context, false, &scratch, &block); !s) return s;
    const auto bad = [&](const std::string& what) { return Status::corruption(f.where(b) + ": " + what); };
    if (!cursor.reset(*block, m.format, &error)) return bad(error);
    if (cursor.atEnd()) return bad("empty block");
    // A framed block: each frame after the first begins at a restart entry,
    // and the table's last key of the frame before is the entry before it.
    // (scratch holds the block as stored: loadBlock() read it.)
    const bool framed = storedCompression(scratch) == fmt::BlockCompression::kZstdFrames;
    if (framed && !frames.parse(scratch, m.blocks[b].rawSize, &error)) return bad(error);
    size_t nextFrame = 1;
    // Format 2: every restart the block lists is the start of an entry that
    // holds its whole key (the interval between them is the writer's choice).
    uint32_t entry = 0;
    uint32_t nextRestart = 0;
    while (!cursor.atEnd()) {
      const size_t offset = cursor.offset();
      if (framed && nextFrame < frames.size() && frames.rawOffset(nextFrame) <= offset) {
        const std::string frame = "frame " + std::to_string(nextFrame);
        if (frames.rawOffset(nextFrame) != offset) return bad(frame + " does not begin at an entry");
        if (previous != frames.lastKey(nextFrame - 1)) {
          return bad("frame " + std::to_string(nextFrame - 1) + "'s last key is not the one in its table");
        }
        ++nextFrame;
      }
      if (cursor.step(&error) != BlockCursor::Step::kEntry) return bad(error);
      if (framed && nextFrame > 1 && frames.rawOffset(nextFrame - 1) == offset && cursor.shared() != 0) {
        return bad("frame " + std::to_string(nextFrame - 1) + " begins with a key it does not hold whole");
      }
      if (nextRestart < cursor.restartCount() && cursor.restart(nextRestart) <= offset) {
        if (cursor.restart(nextRestart) != offset) return bad("restart " + std::to_string(nextRestart) + " is not at an entry");
        if (cursor.shared() != 0) return bad("the entry at restart " + std::to_string(nextRestart) + " shares a prefix");
        ++nextRestart;
      }
      ++entry;
      const std::string& key = cursor.key();
      ParsedKey parsed;
      if (!parseInternalKey(key, &parsed)) return bad("a malformed key at entry " + std::to_string(cells));
      if (cells > 0 && key <= previous) return bad("keys out of order at entry " + std::to_string(cells));
      if (cells == 0 && key != m.firstKey) return bad("the first key is not the one in the metadata");
      bool inBloom = true;
      if (m.bloomType == BloomType::kRow) inBloom = bloomMayContain(m.bloom, parsed.rowEscaped);
      if (m.bloomType == BloomType::kRowCol) inBloom = bloomMayContain(m.bloom, parsed.columnPrefix());
      if (!inBloom) return bad("the bloom filter misses entry " + std::to_string(cells));
      ++cells;
      if (parsed.type != CellType::kPut) ++markers;
      minTs = std::min(minTs, parsed.timestamp);
      maxTs = std::max(maxTs, parsed.timestamp);
      previous.assign(key);
    }
    if (BytesView(previous) != m.blocks.lastKey(b)) return bad("the block's last key is not the one in the index");
    if (nextRestart != cursor.restartCount())
      return bad("restart " + std::to_string(nextRestart) + " lies past the block's entries");
    if (framed && nextFrame != frames.size()) return bad("frame " + std::to_string(nextFrame) + " lies past the block's entries");
  }
  if (damagedPage != nullptr) damagedPage->reset();
  const std::string name = f.name();
  if (cells != m.cellCount || markers != m.deleteMarkerCount) {
    return Status::corruption(name + ": holds " + std::to_string(cells) + " cells (" + std::to_string(markers) +
                              " markers), the metadata says " + std::to_string(m.cellCount) + " (" +
                              std::to_string(m.deleteMarkerCount) + ")");
  }
  if (minTs != m.minTimestamp || maxTs != m.maxTimestamp) {
    return Status::corruption(name + ": the time range is not the one in the metadata");
  }
  return Status::ok();
}

}  // namespace keyscope::engine

