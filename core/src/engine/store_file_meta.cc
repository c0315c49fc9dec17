// StoreFileMeta's encoding: the metadata blob a store file keeps in the
// catalog (store_file_format.h).
#include "engine/store_file.h"

#include <algorithm>
#include <limits>

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

namespace store_file_detail {

void appendIndex(std::string* out, const BlockIndex& blocks) {
  fmt::putVarint32(out, static_cast<uint32_t>(blocks.size()));
  BytesView previous;
  for (size_t i = 0; i < blocks.size(); ++i) {
    const BlockHandle& b = blocks[i];
    const BytesView lastKey = blocks.lastKey(i);
    const size_t shared = sharedPrefixLength(previous, lastKey);
    fmt::putVarint32(out, static_cast<uint32_t>(shared));
    fmt::putVarint32(out, static_cast<uint32_t>(lastKey.size() - shared));
    out->append(lastKey.substr(shared));
    fmt::putVarint32(out, b.pageNo);
    fmt::putVarint32(out, b.offset);
    fmt::putVarint32(out, b.storedSize);
    fmt::putVarint32(out, b.rawSize);
    previous = lastKey;
  }
}

}  // namespace store_file_detail

// ---------------------------------------------------------------------------
// StoreFileMeta

std::string StoreFileMeta::encode() const {
  std::string out(fmt::kChecksumSize, '\0');
  out.push_back(static_cast<char>(format));
  fmt::putVarint64(&out, cellCount);
  fmt::putVarint64(&out, deleteMarkerCount);
  fmt::putVarint64(&out, rawBytes);
  fmt::putVarint64(&out, storedBytes);
  fmt::putVarint32(&out, pageCount);
  fmt::putBigEndian64(&out, static_cast<uint64_t>(minTimestamp));
  fmt::putBigEndian64(&out, static_cast<uint64_t>(maxTimestamp));
  out.push_back(static_cast<char>(bloomType));
  fmt::putVarint32(&out, static_cast<uint32_t>(bloom.size()));
  out.append(bloom);
  fmt::putVarint32(&out, static_cast<uint32_t>(firstKey.size()));
  out.append(firstKey);
  fmt::putVarint32(&out, static_cast<uint32_t>(lastKey.size()));
  out.append(lastKey);
  if (format >= fmt::kMetaFormatDictionary) {
    fmt::putVarint32(&out, static_cast<uint32_t>(dictionary.size()));
    out.append(dictionary);
  }
  if (format >= fmt::kMetaFormatLeafPages) fmt::putVarint32(&out, pageBytes);
  appendIndex(&out, blocks);
  fmt::storeBigEndian64(out.data(), checksumOf(out.data() + fmt::kChecksumSize, out.size() - fmt::kChecksumSize));
  return out;
}

Result<StoreFileMeta> StoreFileMeta::decode(BytesView encoded) {
  const auto bad = [](const std::string& what) { return Status::corruption("store file metadata: " + what); };
  if (encoded.size() < fmt::kChecksumSize + 1) {
    return bad("only " + std::to_string(encoded.size()) + " bytes");
  }
  if (fmt::loadBigEndian64(encoded.data()) !=
      checksumOf(encoded.data() + fmt::kChecksumSize, encoded.size() - fmt::kChecksumSize)) {
    return bad("checksum mismatch");
  }
  const auto version = static_cast<uint8_t>(encoded[fmt::kChecksumSize]);
  if (version < fmt::kMetaFormatPlainBlocks || version > fmt::kMetaFormatNewest)
    return bad("unknown format version " + std::to_string(version));

  StoreFileMeta m;
  m.format = version;
  fmt::Reader r(encoded.substr(fmt::kChecksumSize + 1));
  uint64_t minTs = 0;
  uint64_t maxTs = 0;
  uint8_t bloomType = 0;
  BytesView bloom;
  BytesView firstKey;
  BytesView lastKey;
  if (!(r.varint64(&m.cellCount) && r.varint64(&m.deleteMarkerCount) && r.varint64(&m.rawBytes) &&
        r.varint64(&m.storedBytes) && r.varint32(&m.pageCount) && r.be64(&minTs) && r.be64(&maxTs) &&
        r.u8(&bloomType) && r.lengthPrefixed(&bloom) && r.lengthPrefixed(&firstKey) &&
        r.lengthPrefixed(&lastKey))) {
    return bad("truncated header fields");
  }
  m.minTimestamp = static_cast<int64_t>(minTs);
  m.maxTimestamp = static_cast<int64_t>(maxTs);
  if (m.cellCount == 0) return bad("no cells");
  if (m.deleteMarkerCount > m.cellCount) return bad("more delete markers than cells");
  if (m.minTimestamp < 0 || m.minTimestamp > m.maxTimestamp) return bad("bad time range");
  if (bloomType > static_cast<uint8_t>(BloomType::kRowCol)) {
    return bad("unknown bloom type " + std::to_string(bloomType));
  }
  m.bloomType = static_cast<BloomType>(bloomType);
  if (m.bloomType == BloomType::kNone ? !bloom.empty() : !bloomWellFormed(bloom)) return bad("bad bloom filter");
  ParsedKey parsed;
  if (!parseInternalKey(firstKey, &parsed) || !parseInternalKey(lastKey, &parsed) || lastKey < firstKey) {
    return bad("bad key range");
  }
  m.bloom.assign(bloom);
  m.firstKey.assign(firstKey);
  m.lastKey.assign(lastKey);
  if (version >= fmt::kMetaFormatDictionary) {
    BytesView dictionary;
    if (!r.lengthPrefixed(&dictionary)) return bad("truncated dictionary");
    const size_t maxBytes =
        version >= fmt::kMetaFormatFramedBlocks ? fmt::kFramedDictionaryMaxBytes : fmt::kDictionaryMaxBytes;
    if (dictionary.size() > maxBytes ||
        (!dictionary.empty() && DecompressionDictionary::load(dictionary) == nullptr)) {
      return bad("bad compression dictionary");
    }
    m.dictionary.assign(dictionary);
  }
  if (version >= fmt::kMetaFormatLeafPages) {
    if (!r.varint32(&m.pageBytes)) return bad("truncated page size");
    if (m.pageBytes == 0 || m.pageBytes > fmt::kMaxPageBytes) {
      return bad("bad page size " + std::to_string(m.pageBytes));
    }
  }

  const char* indexStart = r.position();
  uint32_t blockCount = 0;
  // Each block takes at least 6 bytes, which bounds the reservation below.
  if (!r.varint32(&blockCount) || blockCount == 0 || blockCount > r.remaining() / 6) {
    return bad("bad block count");
  }
  // The suffixes bound the keys from below; shrinkToFit() trims the rest.
  m.blocks.reserve(blockCount, r.remaining());
  uint64_t raw = 0;
  uint64_t stored = 0;
  std::string key;
  for (uint32_t i = 0; i < blockCount; ++i) {
    const auto badBlock = [&](const char* what) {
      return bad("block " + std::to_string(i) + " of the index: " + what);
    };
    uint32_t shared = 0;
    BytesView suffix;
    BlockHandle h;
    if (!r.varint32(&shared) || !r.lengthPrefixed(&suffix) || !r.varint32(&h.pageNo) ||
        !r.varint32(&h.offset) || !r.varint32(&h.storedSize) || !r.varint32(&h.rawSize)) {
      return badBlock("truncated");
    }
    if (shared > key.size()) return badBlock("bad shared length");
    key.resize(shared);
    key.append(suffix);
    const BlockHandle* previous = i == 0 ? nullptr : &m.blocks.back();
    if (previous != nullptr && BytesView(key) <= m.blocks.lastKey(i - 1)) return badBlock("keys out of order");
    if (m.blocks.keyBytes() + key.size() > BlockIndex::kMaxKeyBytes) return badBlock("keys too long in all");
    // Blocks fill pages in order, back to back; from format 5 as one stream
    // cut into pages of pageBytes.
    bool contiguous = false;
    if (m.pageBytes != 0) {
      const uint64_t start = uint64_t{h.pageNo} * m.pageBytes + h.offset;
      contiguous = h.offset < m.pageBytes && start == stored;
    } else if (previous == nullptr) {
      contiguous = h.pageNo == 0 && h.offset == 0;
    } else if (h.pageNo == previous->pageNo) {
      contiguous = uint64_t{h.offset} == uint64_t{previous->offset} + previous->storedSize;
    } else {
      contiguous = uint64_t{h.pageNo} == uint64_t{previous->pageNo} + 1 && h.offset == 0;
    }
    if (!contiguous) return badBlock("not contiguous with the block before");
    if (h.storedSize < fmt::kBlockHeaderSize || h.rawSize > fmt::kMaxBlockRawSize ||
        h.storedSize - fmt::kBlockHeaderSize > h.rawSize ||
        uint64_t{h.offset} + h.storedSize > std::numeric_limits<uint32_t>::max()) {
      return badBlock("bad sizes");
    }
    raw += h.rawSize;
    stored += h.storedSize;
    m.blocks.add(key, h);
  }
  m.blocks.shrinkToFit();
  if (!r.ok() || r.remaining() != 0) return bad("bytes after the block index");
  if (m.blocks.lastKey(0) < BytesView(m.firstKey) || m.blocks.lastKey(m.blocks.size() - 1) != BytesView(m.lastKey)) {
    return bad("the block index does not match the key range");
  }
  // Format 5: the last page is the one the stream's last byte is in.
  const uint64_t lastPage = m.pageBytes != 0 ? (stored - 1) / m.pageBytes : m.blocks.back().pageNo;
  if (raw != m.rawBytes || stored != m.storedBytes || lastPage + 1 != m.pageCount) {
    return bad("the block index does not match the sizes");
  }
  m.indexBytes = static_cast<uint64_t>(encoded.data() + encoded.size() - indexStart);
  return m;
}
}  // namespace keyscope::engine
