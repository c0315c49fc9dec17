// StoreFileWriter: entries into blocks, blocks (compressed, checksummed,
// in frames for a file read for long) into pages. Layouts:
// store_file_format.h.
#include "engine/store_file.h"

#include <algorithm>

#include "engine/block_dictionary.h"
#include "engine/bloom_filter.h"
#include "engine/internal_key.h"
#include "engine/key_compare.h"
#include "engine/store_file_format.h"
#include "engine/store_file_internal.h"

namespace keyscope::engine {

namespace fmt = format;
using store_file_detail::appendIndex;
using store_file_detail::checksumOf;
using store_file_detail::withContext;

// ---------------------------------------------------------------------------
// StoreFileWriter

struct StoreFileWriter::Impl {
  Impl(int64_t id, const StoreFileOptions& opts, PageSink* s)
      : fileId(id),
        options(opts),
        sink(s),
        // Pages of 1 byte (one cell each) work; above 1 GiB page offsets
        // would no longer fit their 32 bits.
        pageSize(std::clamp<uint32_t>(opts.pageSize, 1, 1u << 30)),
        blockTarget(std::min(fmt::kBlockTarget, pageSize)) {
    // Only the known formats are written; anything else gets the newest.
    meta.format = opts.format >= fmt::kMetaFormatPlainBlocks && opts.format <= fmt::kMetaFormatNewest
                      ? opts.format
                      : fmt::kMetaFormatNewest;
    block.reserve(blockTarget + 64);
    if (meta.format >= fmt::kMetaFormatLeafPages) {
      meta.pageBytes = std::clamp<uint32_t>(opts.pageBytes, 1, fmt::kMaxPageBytes);
      page.reserve(std::min<size_t>(meta.pageBytes + blockTarget + 256, 1u << 20));
    } else {
      page.reserve(std::min<size_t>(pageSize + 256, 1u << 20));
    }
    // Blocks wait for the dictionary only when there will be one to train.
    awaitingDictionary = meta.format >= fmt::kMetaFormatDictionary && options.compression == Compression::kZstd;
    framed = meta.format >= fmt::kMetaFormatFramedBlocks && options.compression == Compression::kZstd;
  }

  std::string name() const { return "store file " + std::to_string(fileId); }

  Status fail(Status s) {
    status = s;
    return s;
  }

  // Where a block's frames after the first begin, and the last key of every
  // frame but the last (format 6).
  struct FrameCuts {
    std::vector<uint32_t> starts;
    std::vector<std::string> lastKeys;
  };

  Status flushBlock();
  Status storeBlock(BytesView raw, BytesView blockLastKey, const FrameCuts& frameCuts);
  bool compressFrames(BytesView raw, const FrameCuts& frameCuts, std::string* error);
  std::unique_ptr<BlockCompressor> newCompressor() const;
  Status storePendingBlocks();
  Status flushPage();
  Status writeFullPages();

  int64_t fileId;
  StoreFileOptions options;
  PageSink* sink;
  uint32_t pageSize;
  uint32_t blockTarget;  // min(kBlockTarget, pageSize): a small page is one block

  std::string block;  // raw entries of the open block
  std::vector<uint32_t> restarts;  // format 2: offsets of its restart entries
  uint32_t sinceRestart = 0;       // entries of the block since its last restart
  bool framed = false;             // format 6 with zstd: blocks are cut into frames
  size_t frameStart = 0;           // where the open block's last frame begins
  FrameCuts cuts;                  // the open block's frames
  std::string lastKey;
  size_t lastRowLength = 0;     // esc(row) of lastKey
  size_t lastColumnLength = 0;  // esc(row) esc(qualifier) of lastKey
  std::string page;             // stored bytes of the open page (format 5: may pass pageBytes until cut)
  uint64_t pageRaw = 0;         // their raw size
  uint32_t pageNo = 0;
  std::string compressed;
  std::string frames;  // format 6: a block's compressed frames, back to back
  std::unique_ptr<BlockCompressor> compressor;
  // Format 4 with zstd: finished raw blocks and their last keys, held until
  // the dictionary is trained on them (awaitingDictionary).
  struct PendingBlock {
    std::string raw;
    std::string lastKey;
    FrameCuts cuts;
  };
  std::vector<PendingBlock> pending;
  uint64_t pendingRaw = 0;
  bool awaitingDictionary = false;
  BloomFilterBuilder bloom;
  StoreFileMeta meta;
  uint64_t rawSoFar = 0;
  Status status;  // the first sink or compression failure; sticky
  bool finished = false;
};

Status StoreFileWriter::Impl::flushBlock() {
  if (meta.format >= fmt::kMetaFormatRestartBlocks) {
    for (uint32_t offset : restarts) fmt::putBigEndian32(&block, offset);
    fmt::putBigEndian32(&block, static_cast<uint32_t>(restarts.size()));
  }
  restarts.clear();
  sinceRestart = 0;
  frameStart = 0;
  if (!awaitingDictionary) {
    const Status s = storeBlock(block, lastKey, cuts);
    block.clear();
    cuts.starts.clear();
    cuts.lastKeys.clear();
    return s;
  }
  pendingRaw += block.size();
  pending.push_back({std::move(block), lastKey, std::move(cuts)});
  block = std::string();
  block.reserve(blockTarget + 64);
  cuts = FrameCuts();
  if (pendingRaw >= options.dictionaryTrainBytes) return storePendingBlocks();
  return Status::ok();
}

// Trains the dictionary on the held blocks when there are enough of them
// (else the file has none), then stores them.
Status StoreFileWriter::Impl::storePendingBlocks() {
  awaitingDictionary = false;
  if (pendingRaw >= options.dictionaryTrainBytes) {
    std::vector<BytesView> samples;
    samples.reserve(pending.size());
    for (const PendingBlock& p : pending) samples.emplace_back(p.raw);
    const size_t maxBytes = std::min<size_t>(
        options.dictionaryMaxBytes,
        framed ? fmt::kFramedDictionaryMaxBytes : fmt::kDictionaryMaxBytes);
    std::string dictionary = trainBlockDictionary(samples, maxBytes, options.zstdLevel);
    if (!dictionary.empty()) {
      compressor = newCompressor();
      // A dictionary zstd will not take leaves the file without one.
      if (compressor->useDictionary(dictionary, options.zstdLevel)) meta.dictionary = std::move(dictionary);
      else compressor.reset();
    }
  }
  for (const PendingBlock& p : pending) {
    if (Status s = storeBlock(p.raw, p.lastKey, p.cuts); !s) return s;
  }
  pending.clear();
  pending.shrink_to_fit();
  pendingRaw = 0;
  return Status::ok();
}

std::unique_ptr<BlockCompressor> StoreFileWriter::Impl::newCompressor() const {
  auto made = std::make_unique<BlockCompressor>();
  // A zstd that will not leave literals raw still writes good frames.
  if (framed) made->leaveLiteralsRaw();
  return made;
}

// Format 6: the frame table and the frames of one raw block into
// `compressed` (store_file_format.h); false with *error set when zstd fails.
bool StoreFileWriter::Impl::compressFrames(BytesView raw, const FrameCuts& frameCuts, std::string* error) {
  const size_t count = frameCuts.starts.size() + 1;
  std::string table;
  fmt::putVarint32(&table, static_cast<uint32_t>(count));
  frames.clear();
  for (size_t i = 0; i < count; ++i) {
    const size_t begin = i == 0 ? 0 : frameCuts.starts[i - 1];
    const size_t end = i + 1 < count ? frameCuts.starts[i] : raw.size();
    if (!compressor->compress(raw.substr(begin, end - begin), options.zstdLevel, &compressed, error)) return false;
    fmt::putVarint32(&table, static_cast<uint32_t>(compressed.size()));
    fmt::putVarint32(&table, static_cast<uint32_t>(end - begin));
    frames.append(compressed);
  }
  BytesView previous;
  for (const std::string& key : frameCuts.lastKeys) {
    const size_t shared = sharedPrefixLength(previous, key);
    fmt::putVarint32(&table, static_cast<uint32_t>(shared));
    fmt::putVarint32(&table, static_cast<uint32_t>(key.size() - shared));
    table.append(key, shared);
    previous = key;
  }
  compressed = std::move(table);
  compressed.append(frames);
  return true;
}

// Compresses one finished raw block into the open page and indexes it.
Status StoreFileWriter::Impl::storeBlock(BytesView raw, BytesView blockLastKey, const FrameCuts& frameCuts) {
  const auto rawSize = static_cast<uint32_t>(raw.size());
  const size_t start = page.size();
  page.append(fmt::kBlockHeaderSize, '\0');
  auto compression = fmt::BlockCompression::kNone;
  if (options.compression == Compression::kZstd) {
    if (!compressor) compressor = newCompressor();
    std::string error;
    const bool compressedOk = framed ? compressFrames(raw, frameCuts, &error)
                                     : compressor->compress(raw, options.zstdLevel, &compressed, &error);
    if (!compressedOk) return fail(Status::ioError(name() + ": " + error));
    if (compressed.size() < rawSize) {
      page.append(compressed);
      compression = framed ? fmt::BlockCompression::kZstdFrames : fmt::BlockCompression::kZstd;
    }
  }
  if (compression == fmt::BlockCompression::kNone) page.append(raw);
  char* header = page.data() + start;
  header[fmt::kChecksumSize] = static_cast<char>(compression);
  for (int i = 0; i < 4; ++i) {
    header[fmt::kChecksumSize + 1 + static_cast<size_t>(i)] = static_cast<char>(rawSize >> (24 - 8 * i));
  }
  const size_t storedSize = page.size() - start;
  if (meta.blocks.keyBytes() + blockLastKey.size() > BlockIndex::kMaxKeyBytes) {
    return fail(Status::invalidArgument(name() + ": the block index's keys would pass 4 GiB"));
  }
  const uint64_t seed = blockChecksumSeed(meta.format, fileId, meta.blocks.size());
  fmt::storeBigEndian64(header, checksumOf(header + fmt::kChecksumSize, storedSize - fmt::kChecksumSize, seed));

  BlockHandle handle;
  handle.pageNo = pageNo;
  handle.offset = static_cast<uint32_t>(start);
  handle.storedSize = static_cast<uint32_t>(storedSize);
  handle.rawSize = rawSize;
  meta.blocks.add(blockLastKey, handle);
  meta.rawBytes += rawSize;
  if (meta.pageBytes != 0) return writeFullPages();
  pageRaw += rawSize;
  // Close the page when one more full block could take it past pageSize.
  if (pageRaw + blockTarget > pageSize) return flushPage();
  return Status::ok();
}

// Format 5: writes every full page the open page's bytes hold and keeps the
// rest open, so the next block begins within the open page.
Status StoreFileWriter::Impl::writeFullPages() {
  size_t written = 0;
  while (page.size() - written >= meta.pageBytes) {
    const BytesView full(page.data() + written, meta.pageBytes);
    if (Status s = sink->writePage(fileId, pageNo, full); !s) return fail(withContext(s, name()));
    meta.storedBytes += meta.pageBytes;
    ++pageNo;
    written += meta.pageBytes;
  }
  page.erase(0, written);
  return Status::ok();
}

Status StoreFileWriter::Impl::flushPage() {
  if (page.empty()) return Status::ok();
  if (Status s = sink->writePage(fileId, pageNo, page); !s) return fail(withContext(s, name()));
  meta.storedBytes += page.size();
  ++pageNo;
  page.clear();
  pageRaw = 0;
  return Status::ok();
}

StoreFileWriter::StoreFileWriter(int64_t fileId, const StoreFileOptions& options, PageSink* sink)
    : m_impl(std::make_unique<Impl>(fileId, options, sink)) {}

StoreFileWriter::~StoreFileWriter() = default;

uint64_t StoreFileWriter::rawBytesSoFar() const { return m_impl->rawSoFar; }

Status StoreFileWriter::add(BytesView key, BytesView value) {
  Impl& w = *m_impl;
  if (!w.status) return w.status;
  if (w.finished) return Status::invalidArgument(w.name() + ": add() after finish()");
  ParsedKey parsed;
  if (!parseInternalKey(key, &parsed)) {
    return Status::invalidArgument(w.name() + ": entry " + std::to_string(w.meta.cellCount) +
                                   " is not a well-formed internal key");
  }
  const bool first = w.meta.cellCount == 0;
  const size_t common = first ? 0 : sharedPrefixLength(w.lastKey, key);
  if (!first && (common == key.size() ||
                 (common < w.lastKey.size() && static_cast<uint8_t>(key[common]) < byteAt(w.lastKey, common)))) {
    return Status::invalidArgument(w.name() + ": entry " + std::to_string(w.meta.cellCount) +
                                   " does not sort after the one before");
  }
  const auto entrySize = [&](size_t s) {
    return fmt::varintLength(s) + fmt::varintLength(key.size() - s) + fmt::varintLength(value.size()) +
           key.size() - s + value.size();
  };
  // The reader refuses blocks above kMaxBlockRawSize: never write one.
  if (entrySize(0) > fmt::kMaxBlockRawSize) {
    return Status::invalidArgument(w.name() + ": entry " + std::to_string(w.meta.cellCount) + " is too large");
  }
  // Format 2: every kRestartInterval-th entry of a block is a restart (a
  // whole key), and the block ends with the restart array and its count.
  // Format 6: an entry that begins a frame is a restart too, and the count
  // starts again from it.
  const bool restartsOn = w.meta.format >= fmt::kMetaFormatRestartBlocks;
  const auto startsFrame = [&] { return w.framed && !w.block.empty() && w.block.size() - w.frameStart >= fmt::kFrameTarget; };
  const auto isRestart = [&] {
    return restartsOn && (w.sinceRestart % fmt::kRestartInterval == 0 || startsFrame());
  };
  const auto trailerBytes = [&] { return restartsOn ? 4 * (w.restarts.size() + (isRestart() ? 1 : 0)) + 4 : 0; };
  size_t shared = w.block.empty() || isRestart() ? 0 : common;
  size_t size = entrySize(shared);
  if (!w.block.empty() && w.block.size() + size + trailerBytes() > w.blockTarget) {
    if (Status s = w.flushBlock(); !s) return s;
    shared = 0;
    size = entrySize(0);
  }
  // Raw bytes so far include the trailer as it grows: a new block's count,
  // then 4 bytes per restart.
  if (restartsOn && w.block.empty()) w.rawSoFar += 4;
  if (isRestart()) {
    if (startsFrame()) {
      w.cuts.starts.push_back(static_cast<uint32_t>(w.block.size()));
      w.cuts.lastKeys.push_back(w.lastKey);
      w.frameStart = w.block.size();
    }
    w.restarts.push_back(static_cast<uint32_t>(w.block.size()));
    w.rawSoFar += 4;
    w.sinceRestart = 0;
  }
  ++w.sinceRestart;
  char header[3 * fmt::kMaxVarint32Size];
  char* p = fmt::encodeVarint64(header, shared);
  p = fmt::encodeVarint64(p, key.size() - shared);
  p = fmt::encodeVarint64(p, value.size());
  w.block.append(header, static_cast<size_t>(p - header));
  w.block.append(key.data() + shared, key.size() - shared);
  w.block.append(value.data(), value.size());
  w.rawSoFar += size;

  // Bloom keys: a row (or column) is added once, at its first entry.
  const size_t rowLength = parsed.rowEscaped.size();
  const size_t columnLength = rowLength + parsed.qualifierEscaped.size();
  if (w.options.bloom == BloomType::kRow) {
    if (first || rowLength != w.lastRowLength || common < rowLength) w.bloom.addKey(key.substr(0, rowLength));
  } else if (w.options.bloom == BloomType::kRowCol) {
    if (first || columnLength != w.lastColumnLength || common < columnLength) {
      w.bloom.addKey(key.substr(0, columnLength));
    }
  }

  StoreFileMeta& m = w.meta;
  if (first) {
    m.firstKey.assign(key);
    m.minTimestamp = parsed.timestamp;
    m.maxTimestamp = parsed.timestamp;
  } else {
    m.minTimestamp = std::min(m.minTimestamp, parsed.timestamp);
    m.maxTimestamp = std::max(m.maxTimestamp, parsed.timestamp);
  }
  ++m.cellCount;
  if (parsed.type != CellType::kPut) ++m.deleteMarkerCount;
  w.lastKey.assign(key);
  w.lastRowLength = rowLength;
  w.lastColumnLength = columnLength;
  return Status::ok();
}

Result<StoreFileMeta> StoreFileWriter::finish() {
  Impl& w = *m_impl;
  if (!w.status) return w.status;
  if (w.finished) return Status::invalidArgument(w.name() + ": finish() called twice");
  if (w.meta.cellCount == 0) return Status::invalidArgument(w.name() + ": a store file needs at least one cell");
  if (!w.block.empty()) {
    if (Status s = w.flushBlock(); !s) return s;
  }
  if (w.awaitingDictionary) {
    if (Status s = w.storePendingBlocks(); !s) return s;
  }
  if (Status s = w.flushPage(); !s) return s;
  w.finished = true;
  StoreFileMeta& m = w.meta;
  m.pageCount = w.pageNo;
  m.lastKey = w.lastKey;
  m.bloomType = w.options.bloom;
  if (m.bloomType != BloomType::kNone) m.bloom = w.bloom.finish();
  m.blocks.shrinkToFit();
  std::string index;
  appendIndex(&index, m.blocks);
  m.indexBytes = index.size();
  return std::move(m);
}
}  // namespace keyscope::engine
