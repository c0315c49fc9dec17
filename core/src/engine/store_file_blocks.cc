// A store file's blocks as stored: their checksums, their compression
// (zstd, whole or in frames against the file's dictionary) and their reads
// from the page source. Layouts: store_file_format.h.
#include "engine/store_file.h"

#include <zstd.h>

#include <algorithm>
#include <memory>

#include "engine/block_dictionary.h"
#include "engine/store_file_format.h"
#include "engine/store_file_internal.h"
#include "keyscope/read_report.h"

namespace keyscope::engine {

namespace fmt = format;
using store_file_detail::checksumOf;

namespace {

struct ZstdDCtxDeleter {
  void operator()(ZSTD_DCtx* c) const { ZSTD_freeDCtx(c); }
};

// One decompression context per thread: creating one costs ~100 KiB of
// allocation, too much for every point read's iterator.
ZSTD_DCtx* threadDCtx() {
  thread_local std::unique_ptr<ZSTD_DCtx, ZstdDCtxDeleter> ctx(ZSTD_createDCtx());
  return ctx.get();
}

// One zstd frame into out[0, rawSize), against the file's dictionary when
// it has one. False with *error set unless it decodes to exactly rawSize.
bool decodeZstd(BytesView frame, char* out, uint32_t rawSize, const DecompressionDictionary* dictionary,
                std::string* error) {
  const size_t n = dictionary != nullptr
                       ? dictionary->decompress(threadDCtx(), frame, out, rawSize)
                       : ZSTD_decompressDCtx(threadDCtx(), out, rawSize, frame.data(), frame.size());
  if (ZSTD_isError(n)) {
    *error = std::string("zstd: ") + ZSTD_getErrorName(n);
    return false;
  }
  if (n != rawSize) {
    *error = "zstd frame decompressed to " + std::to_string(n) + " bytes, not " + std::to_string(rawSize);
    return false;
  }
  return true;
}

}  // namespace

bool FrameTable::parse(BytesView stored, uint32_t blockRawSize, std::string* error) {
  m_frames.clear();
  m_keys.clear();
  m_stored = stored;
  fmt::Reader r(stored.substr(std::min(stored.size(), fmt::kBlockHeaderSize)));
  uint32_t count = 0;
  // A frame takes at least two bytes of the table.
  if (!r.varint32(&count) || count == 0 || count > r.remaining() / 2) {
    *error = "bad frame count";
    return false;
  }
  m_frames.resize(count);
  uint64_t raw = 0;
  uint64_t storedBytes = 0;
  for (Frame& f : m_frames) {
    if (!r.varint32(&f.storedSize) || !r.varint32(&f.rawSize) || f.rawSize == 0) {
      *error = "bad frame table";
      return false;
    }
    f.rawOffset = static_cast<uint32_t>(raw);
    raw += f.rawSize;
    storedBytes += f.storedSize;
  }
  if (raw != blockRawSize) {
    *error = "the frames hold " + std::to_string(raw) + " raw bytes, the block " + std::to_string(blockRawSize);
    return false;
  }
  for (uint32_t i = 0; i + 1 < count; ++i) {
    uint32_t shared = 0;
    BytesView suffix;
    // The key before, frame i - 1's, is the last one in m_keys.
    const size_t previousStart = i < 2 ? 0 : m_frames[i - 2].keyEnd;
    const size_t previousLength = m_keys.size() - previousStart;
    if (!r.varint32(&shared) || !r.lengthPrefixed(&suffix) || shared > previousLength) {
      *error = "bad last key of frame " + std::to_string(i);
      return false;
    }
    const size_t start = m_keys.size();
    m_keys.append(m_keys, previousStart, shared);
    m_keys.append(suffix);
    if (i > 0 && lastKey(i - 1) >= BytesView(m_keys).substr(start)) {
      *error = "the frames' last keys are out of order at frame " + std::to_string(i);
      return false;
    }
    m_frames[i].keyEnd = static_cast<uint32_t>(m_keys.size());
  }
  if (!r.ok() || storedBytes != r.remaining()) {
    *error = "the frames do not fill the block";
    return false;
  }
  uint32_t offset = static_cast<uint32_t>(r.position() - stored.data());
  for (Frame& f : m_frames) {
    f.storedOffset = offset;
    offset += f.storedSize;
  }
  return true;
}

BytesView FrameTable::lastKey(size_t i) const {
  const size_t start = i == 0 ? 0 : m_frames[i - 1].keyEnd;
  return BytesView(m_keys).substr(start, m_frames[i].keyEnd - start);
}

size_t FrameTable::find(BytesView target) const {
  size_t i = 0;
  while (i + 1 < m_frames.size() && lastKey(i) < target) ++i;
  return i;
}

bool FrameTable::decode(size_t i, char* out, const DecompressionDictionary* dictionary, std::string* error) const {
  const Frame& f = m_frames[i];
  if (!decodeZstd(m_stored.substr(f.storedOffset, f.storedSize), out, f.rawSize, dictionary, error)) {
    *error = "frame " + std::to_string(i) + ": " + *error;
    return false;
  }
  return true;
}

uint64_t blockChecksumSeed(uint8_t format, int64_t fileId, size_t blockNo) {
  if (format < fmt::kMetaFormatPlacedChecksums) return 0;
  char place[16];
  fmt::storeBigEndian64(place, static_cast<uint64_t>(fileId));
  fmt::storeBigEndian64(place + 8, blockNo);
  return checksumOf(place, sizeof place);
}

bool checkStoredBlock(BytesView stored, uint32_t expectedRaw, uint64_t checksumSeed, std::string* error) {
  if (stored.size() < fmt::kBlockHeaderSize) {
    *error = "block of " + std::to_string(stored.size()) + " bytes is shorter than its header";
    return false;
  }
  const uint64_t want = fmt::loadBigEndian64(stored.data());
  const uint64_t got =
      checksumOf(stored.data() + fmt::kChecksumSize, stored.size() - fmt::kChecksumSize, checksumSeed);
  if (want != got) {
    *error = "block checksum mismatch";
    return false;
  }
  const uint32_t rawSize = fmt::loadBigEndian32(stored.data() + fmt::kChecksumSize + 1);
  if (rawSize != expectedRaw) {
    *error = "block header says " + std::to_string(rawSize) + " raw bytes, the index " +
             std::to_string(expectedRaw);
    return false;
  }
  return true;
}

fmt::BlockCompression storedCompression(BytesView stored) {
  return static_cast<fmt::BlockCompression>(stored[fmt::kChecksumSize]);
}

bool decodeStoredBlock(BytesView stored, uint32_t expectedRaw, std::string* raw, std::string* error,
                       ReadReport* report, uint64_t checksumSeed, const DecompressionDictionary* dictionary) {
  if (!checkStoredBlock(stored, expectedRaw, checksumSeed, error)) return false;
  const auto compression = static_cast<uint8_t>(stored[fmt::kChecksumSize]);
  const uint32_t rawSize = expectedRaw;
  const BytesView payload = stored.substr(fmt::kBlockHeaderSize);
  switch (static_cast<fmt::BlockCompression>(compression)) {
    case fmt::BlockCompression::kNone:
      if (payload.size() != rawSize) {
        *error = "uncompressed block holds " + std::to_string(payload.size()) + " bytes, not " +
                 std::to_string(rawSize);
        return false;
      }
      raw->assign(payload);
      return true;
    case fmt::BlockCompression::kZstd: {
      raw->resize(rawSize);
      if (!decodeZstd(payload, raw->data(), rawSize, dictionary, error)) return false;
      if (report != nullptr) report->bytesDecompressed += rawSize;
      return true;
    }
    case fmt::BlockCompression::kZstdFrames: {
      // One table per thread: a scan decodes a block at every step.
      thread_local FrameTable frames;
      if (!frames.parse(stored, rawSize, error)) return false;
      raw->resize(rawSize);
      for (size_t i = 0; i < frames.size(); ++i) {
        if (!frames.decode(i, raw->data() + frames.rawOffset(i), dictionary, error)) return false;
      }
      if (report != nullptr) report->bytesDecompressed += rawSize;
      return true;
    }
  }
  *error = "unknown block compression " + std::to_string(compression);
  return false;
}

Status readStoredBlock(PageSource& pages, int64_t fileId, const StoreFileMeta& meta, size_t blockNo,
                       std::string* out) {
  const BlockHandle& h = meta.blocks[blockNo];
  if (meta.pageBytes == 0 || uint64_t{h.offset} + h.storedSize <= meta.pageBytes) {
    return pages.readRange(fileId, h.pageNo, h.offset, h.storedSize, out);
  }
  // Format 5: the block runs on from its page into the next ones. The
  // pieces' buffer is kept per thread: a quarter of a get's reads from
  // storage cross a page, and allocated it each time.
  out->clear();
  out->reserve(h.storedSize);
  thread_local std::string piece;
  uint32_t pageNo = h.pageNo;
  uint32_t offset = h.offset;
  uint32_t left = h.storedSize;
  while (left > 0) {
    const uint32_t length = std::min(left, meta.pageBytes - offset);
    if (Status s = pages.readRange(fileId, pageNo, offset, length, &piece); !s) return s;
    out->append(piece);
    left -= length;
    offset = 0;
    ++pageNo;
  }
  return Status::ok();
}

}  // namespace keyscope::engine
