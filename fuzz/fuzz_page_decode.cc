// libFuzzer target: the page decoder - decodeStoredBlock and the store file
// reader's cell decoding (engine/store_file.h, layouts in store_file_format.h).
//
// Input: byte 0 picks the mode (bits 0-1) and options (bits 2-7):
//   0  the rest is one stored block as is (the fuzzer mostly meets the checksum)
//   1  the same with its checksum recomputed by the harness, so the header,
//      decompression and sizes are reached (bit 7: seeded as format 3 seeds
//      a file's first block, else with 0)
//   2  the rest describes cells, written by StoreFileWriter into pages
//      (bits 2 and 7: format 4, bit 2 alone: format 1, bit 7 alone: format 2,
//      neither: the newest format; bit 3: zstd; bit 4: ROWCOL bloom; bits 5-6:
//      BLOCKSIZE, and the newest format's page size), then damaged by edits that
//      follow the cells (see applyEdit) with every checksum recomputed, and
//      read back
//   3  the same, with the edits made to the decompressed entries and the
//      block compressed again, so they reach the cell decoding through zstd
//
// Checks: no crash or out-of-bounds read (ASan/UBSan); a block that decodes
// has exactly the raw size asked for, and an uncompressed one is its payload;
// a failure always says why. An undamaged file reads back exactly the cells
// written, and every key seeks to itself. A damaged file either fails
// verify() with a Corruption naming the store file, or reads as a valid file
// should: its cell count, first and last keys, keys well formed and strictly
// increasing, every key found again by seek; iteration always ends.
#include <xxhash.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/block_dictionary.h"
#include "engine/internal_key.h"
#include "engine/store_file.h"
#include "engine/store_file_format.h"
#include "keyscope/bytes.h"
#include "keyscope/cell.h"
#include "fuzz_input.h"

namespace {

namespace engine = keyscope::engine;
namespace fmt = keyscope::engine::format;
using keyscope::BytesView;

constexpr int64_t kFileId = 7;

using keyscope::fuzz::fail;
using keyscope::fuzz::Input;

// Writes the block's checksum as the writer does, with the seed of its place.
void sealBlock(std::string* block, uint64_t seed) {
  fmt::storeBigEndian64(block->data(), XXH3_64bits_withSeed(block->data() + fmt::kChecksumSize,
                                                            block->size() - fmt::kChecksumSize, seed));
}

// Modes 0 and 1: one stored block straight into decodeStoredBlock.
void decodeOneBlock(std::string stored, bool fixChecksum, bool indexDisagrees, uint64_t seed) {
  uint32_t headerRaw = 0;
  if (stored.size() >= fmt::kBlockHeaderSize) {
    if (fixChecksum) sealBlock(&stored, seed);
    headerRaw = fmt::loadBigEndian32(stored.data() + fmt::kChecksumSize + 1);
  }
  // The index's raw size is checked against kMaxBlockRawSize when the file's
  // metadata is decoded, before any block is read: the same holds here.
  uint32_t expectedRaw = indexDisagrees ? headerRaw + 1 : headerRaw;
  if (expectedRaw > fmt::kMaxBlockRawSize) expectedRaw = fmt::kMaxBlockRawSize;
  std::string raw;
  std::string error;
  if (!engine::decodeStoredBlock(stored, expectedRaw, &raw, &error, nullptr, seed)) {
    if (error.empty()) fail("decodeStoredBlock failed without saying why");
    return;
  }
  if (raw.size() != expectedRaw) fail("decoded block of " + std::to_string(raw.size()) + " bytes, asked for " +
                                      std::to_string(expectedRaw));
  if (stored[fmt::kChecksumSize] == 0 && BytesView(raw) != BytesView(stored).substr(fmt::kBlockHeaderSize))
    fail("an uncompressed block decoded to other bytes than its payload");
}

struct Entry {
  std::string key;
  std::string value;
};

// Cells from the input: per cell a flags byte (type, timestamp width), a row,
// a qualifier, a timestamp and a value. Sorted by key, one entry per key.
std::vector<Entry> readEntries(Input& in) {
  static const keyscope::CellType kTypes[] = {keyscope::CellType::kPut, keyscope::CellType::kDelete,
                                              keyscope::CellType::kDeleteFamilyVersion,
                                              keyscope::CellType::kDeleteColumn, keyscope::CellType::kDeleteFamily};
  const size_t count = in.byte() % 64 + 1;
  std::vector<Entry> entries;
  for (size_t i = 0; i < count && !in.empty(); ++i) {
    const uint8_t flags = in.byte();
    const std::string row = in.bytes(in.byte() % 24);
    const std::string qualifier = in.bytes(in.byte() % 16);
    int64_t ts = in.byte();
    if ((flags & 0x80) != 0) ts = (ts << 40) | (int64_t{in.u16()} << 16) | in.u16();
    // A value of up to 199 input bytes, or 1-56 KiB of filler: larger than
    // a block, and than small pages.
    const uint8_t length = in.byte();
    std::string value = length < 200 ? in.bytes(length) : std::string(size_t{length - 199u} << 10, 'v');
    entries.push_back({engine::internalKey(row, qualifier, ts, kTypes[(flags & 0x7f) % 5]), std::move(value)});
  }
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.key < b.key; });
  entries.erase(std::unique(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.key == b.key; }),
                entries.end());
  return entries;
}

// Pages in memory: the writer's sink and the reader's source.
class MemoryPages final : public engine::PageSink, public engine::PageSource {
 public:
  keyscope::Status writePage(int64_t, uint32_t pageNo, BytesView data) override {
    pages[pageNo].assign(data);
    return keyscope::Status::ok();
  }
  keyscope::Status readRange(int64_t, uint32_t pageNo, uint32_t offset, uint32_t length, std::string* out) override {
    out->clear();
    const auto page = pages.find(pageNo);
    // As SqlitePageSource says of a missing row.
    if (page == pages.end()) return keyscope::Status::corruption("page " + std::to_string(pageNo) + " is missing");
    if (offset <= page->second.size()) out->assign(page->second, offset, length);  // short when cut off
    return keyscope::Status::ok();
  }
  std::map<uint32_t, std::string> pages;
};

// One edit of the blocks (their stored bytes, or their entries when
// `entries`): a selector byte (block number and what to do), an offset, data.
//   xor       flips bits of one byte
//   set       writes one byte
//   cut       truncates the block at the offset
//   splice    overwrites from the offset with up to 32 input bytes
void applyEdit(Input& in, std::vector<std::string>& blocks) {
  const uint8_t selector = in.byte();
  std::string& block = blocks[(selector >> 2) % blocks.size()];
  const size_t offset = block.empty() ? 0 : in.u16() % block.size();
  switch (selector & 3) {
    case 0: if (!block.empty()) block[offset] = static_cast<char>(block[offset] ^ (in.byte() | 1)); break;
    case 1: if (!block.empty()) block[offset] = static_cast<char>(in.byte()); break;
    case 2: block.resize(offset); break;
    case 3: {
      const std::string data = in.bytes(in.byte() % 33);
      if (block.size() < offset + data.size()) block.resize(offset + data.size());
      block.replace(offset, data.size(), data);
      break;
    }
  }
}

// The block's stored form: header, payload (zstd when `compress` and smaller), checksum.
// compressor: null for a raw block, else it compresses (against the file's
// dictionary when it has one).
std::string encodeBlock(const std::string& raw, engine::BlockCompressor* compressor, uint64_t seed) {
  std::string block(fmt::kBlockHeaderSize, '\0');
  bool compressed = false;
  if (compressor != nullptr) {
    std::string out, error;
    if (compressor->compress(raw, 1, &out, &error) && out.size() < raw.size()) {
      block += out;
      compressed = true;
    }
  }
  if (!compressed) block += raw;
  block[fmt::kChecksumSize] = static_cast<char>(compressed ? fmt::BlockCompression::kZstd : fmt::BlockCompression::kNone);
  const auto rawSize = static_cast<uint32_t>(raw.size());
  for (size_t i = 0; i < 4; ++i) block[fmt::kChecksumSize + 1 + i] = static_cast<char>(rawSize >> (24 - 8 * i));
  sealBlock(&block, seed);
  return block;
}

std::string show(BytesView key) { return keyscope::toHex(key.substr(0, 64)); }

// Reads the whole file through a fresh iterator: the keys it yields (or the
// status that stopped it). Iteration must end.
keyscope::Status readKeys(const engine::StoreFileReader& reader, engine::PageSource* pages, size_t bound,
                          std::vector<std::string>* keys, std::vector<std::string>* values = nullptr) {
  auto it = reader.newIterator(engine::ReadContext{pages, nullptr, true});
  for (it->seekToFirst(); it->valid(); it->next()) {
    if (keys->size() > bound) fail("the iterator does not end");
    keys->emplace_back(it->key());
    if (values != nullptr) values->emplace_back(it->value());
  }
  return it->status();
}

// Every key seeks to itself; and a bound at a row's start seeks to the
// previous row's first key (seekToLastRowBefore).
void checkSeeks(const engine::StoreFileReader& reader, engine::PageSource* pages, const std::vector<std::string>& keys) {
  auto it = reader.newIterator(engine::ReadContext{pages, nullptr, true});
  std::string previousRow, previousRowFirstKey;
  for (const std::string& key : keys) {
    it->seek(key);
    if (!it->valid() || it->key() != BytesView(key))
      fail("seek(" + show(key) + ") lands on " + (it->valid() ? show(it->key()) : "nothing: " + it->status().toString()));
    const std::string row = key.substr(0, engine::escapedRowLength(key));
    if (row != previousRow) {
      if (!previousRow.empty()) {
        it->seekToLastRowBefore(row);
        if (!it->valid() || it->key() != BytesView(previousRowFirstKey))
          fail("seekToLastRowBefore(" + show(row) + ") lands on " + (it->valid() ? show(it->key()) : "nothing"));
      }
      previousRow = row;
      previousRowFirstKey = key;
    }
  }
  it->seek(std::string(keyscope::kMaxRowKeySize + 1, '\xff'));
  if (it->valid()) fail("a seek past every key finds " + show(it->key()));
}

void writeAndRead(Input& in, uint8_t mode, bool editEntries) {
  static const uint32_t kPageSizes[] = {1, 64, 4096, 65536};
  // Format 5: from blocks crossing many pages to pages of many blocks.
  static const uint32_t kPageBytes[] = {97, 1000, fmt::kLeafPageBytes, 65536};
  engine::StoreFileOptions options;
  const bool bit2 = (mode & 0x04) != 0;
  const bool bit7 = (mode & 0x80) != 0;
  options.format = bit2 && bit7 ? fmt::kMetaFormatDictionary
                   : bit2       ? fmt::kMetaFormatPlainBlocks
                   : bit7       ? fmt::kMetaFormatRestartBlocks
                                : fmt::kMetaFormatNewest;
  options.pageBytes = kPageBytes[(mode >> 5) & 3];
  options.compression = (mode & 0x08) != 0 ? keyscope::Compression::kZstd : keyscope::Compression::kNone;
  options.bloom = (mode & 0x10) != 0 ? keyscope::BloomType::kRowCol : keyscope::BloomType::kRow;
  options.pageSize = kPageSizes[(mode >> 5) & 3];
  options.zstdLevel = 1;
  // Small enough that a few blocks train a dictionary (format 4 with zstd).
  options.dictionaryTrainBytes = 4096;

  const std::vector<Entry> entries = readEntries(in);
  if (entries.empty()) return;
  MemoryPages pages;
  engine::StoreFileWriter writer(kFileId, options, &pages);
  for (const Entry& e : entries) {
    if (keyscope::Status s = writer.add(e.key, e.value); !s) fail("the writer refuses a valid entry: " + s.toString());
  }
  auto written = writer.finish();
  if (!written) fail("the writer cannot finish: " + written.status().toString());
  engine::StoreFileMeta meta = std::move(written).value();
  // The metadata goes through its own encoding, as the catalog keeps it.
  auto decoded = engine::StoreFileMeta::decode(meta.encode());
  if (!decoded) fail("the writer's metadata does not decode: " + decoded.status().toString());
  meta = std::move(decoded).value();
  const auto dictionary =
      meta.dictionary.empty() ? nullptr : engine::DecompressionDictionary::load(meta.dictionary);
  if (!meta.dictionary.empty() && dictionary == nullptr) fail("the writer's dictionary does not load");
  engine::BlockCompressor compressor;
  if (!meta.dictionary.empty() && !compressor.useDictionary(meta.dictionary, options.zstdLevel))
    fail("the writer's dictionary does not compress");
  const bool zstd = options.compression == keyscope::Compression::kZstd;

  // The blocks as stored, or decoded when the edits go to their entries.
  std::vector<std::string> blocks;
  size_t rawTotal = 0;
  const auto seedOf = [&](size_t blockNo) { return engine::blockChecksumSeed(meta.format, kFileId, blockNo); };
  for (size_t b = 0; b < meta.blocks.size(); ++b) {
    const engine::BlockHandle& h = meta.blocks[b];
    std::string stored;
    if (keyscope::Status s = engine::readStoredBlock(pages, kFileId, meta, b, &stored); !s)
      fail("a block as written does not read: " + s.toString());
    if (!editEntries) {
      blocks.push_back(std::move(stored));
      continue;
    }
    std::string raw, error;
    if (!engine::decodeStoredBlock(stored, h.rawSize, &raw, &error, nullptr, seedOf(b), dictionary.get()))
      fail("a block as written does not decode: " + error);
    blocks.push_back(std::move(raw));
  }
  const bool damaged = !in.empty();
  for (int edits = 0; !in.empty() && edits < 64; ++edits) applyEdit(in, blocks);

  // Pages again from the (edited) blocks, the index following their sizes:
  // the blocks' own pages (formats 1 to 4), or one stream cut into pages of
  // pageBytes (format 5).
  pages.pages.clear();
  engine::BlockIndex index;
  std::string stream;
  for (size_t b = 0; b < blocks.size(); ++b) {
    engine::BlockHandle h = meta.blocks[b];
    std::string stored = editEntries
                             ? encodeBlock(blocks[b], zstd ? &compressor : nullptr, seedOf(b))
                             : std::move(blocks[b]);
    if (!editEntries && stored.size() >= fmt::kBlockHeaderSize) sealBlock(&stored, seedOf(b));
    if (editEntries) h.rawSize = static_cast<uint32_t>(blocks[b].size());
    h.storedSize = static_cast<uint32_t>(stored.size());
    if (meta.pageBytes != 0) {
      h.pageNo = static_cast<uint32_t>(stream.size() / meta.pageBytes);
      h.offset = static_cast<uint32_t>(stream.size() % meta.pageBytes);
      stream += stored;
    } else {
      std::string& page = pages.pages[h.pageNo];
      h.offset = static_cast<uint32_t>(page.size());
      page += stored;
    }
    rawTotal += h.rawSize;
    index.add(meta.blocks.lastKey(b), h);
  }
  for (size_t at = 0; meta.pageBytes != 0 && at < stream.size(); at += meta.pageBytes) {
    pages.pages[static_cast<uint32_t>(at / meta.pageBytes)] = stream.substr(at, meta.pageBytes);
  }
  meta.blocks = std::move(index);

  const engine::StoreFileReader reader(kFileId, meta, engine::StoreFileLabel{"fuzz", 1, "d"}, nullptr);
  const keyscope::Status verified = reader.verify(&pages);
  std::vector<std::string> keys, values;
  // An entry takes at least three bytes (its three lengths).
  const keyscope::Status read = readKeys(reader, &pages, rawTotal / 3 + 1, &keys, &values);
  if (!damaged) {
    if (!verified) fail("an undamaged file does not verify: " + verified.toString());
    if (!read) fail("an undamaged file does not read: " + read.toString());
    if (keys.size() != entries.size()) fail("an undamaged file reads " + std::to_string(keys.size()) + " of " +
                                            std::to_string(entries.size()) + " cells");
    for (size_t i = 0; i < entries.size(); ++i) {
      if (keys[i] != entries[i].key || values[i] != entries[i].value) fail("cell " + std::to_string(i) + " reads back changed");
    }
    checkSeeks(reader, &pages, keys);
    return;
  }
  if (!verified) {
    if (verified.code() != keyscope::Status::Code::kCorruption ||
        verified.message().find("store file " + std::to_string(kFileId)) == std::string::npos)
      fail("verify() fails without a Corruption naming the store file: " + verified.toString());
    if (!read && read.code() != keyscope::Status::Code::kCorruption) fail("a damaged file reads with " + read.toString());
    return;
  }
  // It verified: the blocks are a valid file (the edits kept them one).
  if (!read) fail("a file that verifies does not read: " + read.toString());
  if (keys.size() != meta.cellCount) fail("a file that verifies reads " + std::to_string(keys.size()) + " cells, not " +
                                          std::to_string(meta.cellCount));
  engine::ParsedKey parsed;
  for (size_t i = 0; i < keys.size(); ++i) {
    if (!engine::parseInternalKey(keys[i], &parsed)) fail("a file that verifies yields a malformed key " + show(keys[i]));
    if (i > 0 && keys[i] <= keys[i - 1]) fail("a file that verifies yields keys out of order at " + std::to_string(i));
  }
  if (keys.front() != meta.firstKey || keys.back() != meta.lastKey) fail("a file that verifies has other first/last keys");
  checkSeeks(reader, &pages, keys);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t mode = data[0];
  Input in(data + 1, size - 1);
  switch (mode & 3) {
    case 0:
    case 1:
      decodeOneBlock(std::string(reinterpret_cast<const char*>(data + 1), size - 1), (mode & 3) == 1,
                     (mode & 0x04) != 0,
                     (mode & 0x80) != 0 ? engine::blockChecksumSeed(fmt::kMetaFormatPlacedChecksums, kFileId, 0) : 0);
      break;
    case 2: writeAndRead(in, mode, false); break;
    case 3: writeAndRead(in, mode, true); break;
  }
  return 0;
}
