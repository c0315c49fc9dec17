// StorageTally: one block's entries, byte by byte, into storage categories.
#include "engine/storage_tally.h"

#include <zstd.h>

#include <algorithm>
#include <vector>

#include "engine/internal_key.h"
#include "engine/key_compare.h"
#include "engine/store_file_format.h"

namespace keyscope::engine {

namespace fmt = format;

namespace {

// Bytes of an escaped field (esc() of internal_key.h) that lie at key offset
// `from` or later: its own bytes, and its escapes and terminator.
struct FieldBytes {
  uint64_t data = 0;
  uint64_t framing = 0;
};

FieldBytes storedFieldBytes(BytesView escaped, size_t base, size_t from) {
  FieldBytes out;
  if (base + escaped.size() <= from) return out;  // wholly shared with the previous key
  const auto count = [&](size_t i, uint64_t* into) {
    if (base + i >= from) ++*into;
  };
  for (size_t i = 0; i < escaped.size();) {
    if (escaped[i] == '\0' && i + 1 < escaped.size()) {
      // 00 FF: an escaped 00 (a byte of the field, then an escape byte);
      // 00 01: the terminator.
      const bool escape = static_cast<uint8_t>(escaped[i + 1]) == 0xff;
      count(i, escape ? &out.data : &out.framing);
      count(i + 1, &out.framing);
      i += 2;
    } else {
      count(i, &out.data);
      ++i;
    }
  }
  return out;
}

// Bytes of the varint-framed entry of a key of keyLength sharing `shared`
// bytes with the previous key, and a value of valueLength.
uint64_t entrySize(size_t shared, size_t keyLength, size_t valueLength) {
  const size_t unshared = keyLength - shared;
  return fmt::varintLength(shared) + fmt::varintLength(unshared) + fmt::varintLength(valueLength) + unshared +
         valueLength;
}

}  // namespace

void StorageTally::sample(StorageCategory category, BytesView bytes) {
  std::string& s = m_samples[static_cast<size_t>(category)];
  if (s.size() >= kSampleBytes || bytes.empty()) return;
  s.append(bytes.data(), std::min(bytes.size(), kSampleBytes - s.size()));
}

const std::string& StorageTally::binaryKey(BytesView row, bool* changed) {
  if (!m_haveLast || BytesView(m_lastRow) != row) {
    m_haveLast = true;
    m_lastRow.assign(row);
    std::optional<Bytes> binary = binaryKeyOf(row);
    m_lastChanged = binary.has_value();
    m_lastBinaryRow = binary ? std::move(*binary) : m_lastRow;
  }
  *changed = m_lastChanged;
  return m_lastBinaryRow;
}

Status StorageTally::addBlock(BytesView raw, uint8_t format, StorageSlice* slice) {
  const auto corrupt = [](const std::string& what) { return Status::corruption("storage report: " + what); };
  size_t entriesEnd = raw.size();
  std::vector<uint32_t> restarts;
  if (format >= fmt::kMetaFormatRestartBlocks) {
    if (raw.size() < 4) return corrupt("a block too short for its restart count");
    const uint32_t n = fmt::loadBigEndian32(raw.data() + raw.size() - 4);
    if (n == 0 || n > (raw.size() - 4) / 4) return corrupt("a block's restart count is out of range");
    const size_t arrayBytes = 4 + size_t{4} * n;
    entriesEnd = raw.size() - arrayBytes;
    restarts.reserve(n);
    for (uint32_t i = 0; i < n; ++i) restarts.push_back(fmt::loadBigEndian32(raw.data() + entriesEnd + 4 * i));
    slice->raw[StorageCategory::kFraming] += arrayBytes;
    sample(StorageCategory::kFraming, raw.substr(entriesEnd));
  }
  ++slice->blocks;

  const char* const begin = raw.data();
  const char* p = begin;
  const char* const limit = begin + entriesEnd;
  size_t nextRestart = 0;
  uint64_t whatIfBlock = raw.size() - entriesEnd;  // the restart array stays as it is
  bool firstEntry = true;
  m_key.clear();
  std::string scratch;
  while (p < limit) {
    const auto offset = static_cast<uint32_t>(p - begin);
    bool restart = firstEntry;
    if (nextRestart < restarts.size() && restarts[nextRestart] == offset) {
      restart = true;
      ++nextRestart;
    }
    firstEntry = false;
    uint32_t shared = 0, unshared = 0, valueLength = 0;
    const char* q = fmt::decodeVarint32(p, limit, &shared);
    if (q != nullptr) q = fmt::decodeVarint32(q, limit, &unshared);
    if (q != nullptr) q = fmt::decodeVarint32(q, limit, &valueLength);
    if (q == nullptr) return corrupt("an entry's lengths are cut short at offset " + std::to_string(offset));
    if (shared > m_key.size() || uint64_t{unshared} + valueLength > static_cast<uint64_t>(limit - q))
      return corrupt("an entry's lengths overrun its block at offset " + std::to_string(offset));
    const auto lengthBytes = static_cast<uint64_t>(q - p);
    m_key.resize(shared);
    m_key.append(q, unshared);
    const BytesView value(q + unshared, valueLength);
    p = q + unshared + valueLength;

    ParsedKey parsed;
    if (!parseInternalKey(m_key, &parsed)) return corrupt("a malformed key at offset " + std::to_string(offset));
    const size_t rowEnd = parsed.rowEscaped.size();
    const size_t qualifierEnd = rowEnd + parsed.qualifierEscaped.size();
    const FieldBytes row = storedFieldBytes(parsed.rowEscaped, 0, shared);
    const FieldBytes qualifier = storedFieldBytes(parsed.qualifierEscaped, rowEnd, shared);
    const uint64_t trailer = m_key.size() - std::max<size_t>(shared, qualifierEnd);

    ++slice->cells;
    slice->prefixSharedBytes += shared;
    slice->raw[StorageCategory::kRowKey] += row.data;
    slice->raw[StorageCategory::kQualifier] += qualifier.data;
    slice->raw[StorageCategory::kTimestamp] += trailer;
    slice->raw[StorageCategory::kValue] += valueLength;
    slice->raw[StorageCategory::kFraming] += lengthBytes + row.framing + qualifier.framing;

    const BytesView key(m_key);
    if (shared < rowEnd) sample(StorageCategory::kRowKey, key.substr(shared, rowEnd - shared));
    if (shared < qualifierEnd)
      sample(StorageCategory::kQualifier, key.substr(std::max<size_t>(shared, rowEnd), qualifierEnd - std::max<size_t>(shared, rowEnd)));
    sample(StorageCategory::kTimestamp, key.substr(m_key.size() - trailer));
    sample(StorageCategory::kValue, value);
    sample(StorageCategory::kFraming, BytesView(p - valueLength - unshared - lengthBytes, lengthBytes));

    // The same cell as an HBase KeyValue, and the what-ifs.
    const BytesView rowBytes = unescape(parsed.rowEscaped, &m_row);
    const uint64_t rowLength = rowBytes.size();
    const uint64_t qualifierLength = unescape(parsed.qualifierEscaped, &scratch).size();
    constexpr uint64_t kKeyValueFraming = 4 + 4 + 2 + 1;  // key length, value length, row length, family length
    constexpr uint64_t kKeyValueTrailer = 8 + 1;          // timestamp, type
    ByteBreakdown& hbase = slice->hbase;
    hbase[StorageCategory::kRowKey] += rowLength;
    hbase[StorageCategory::kFamily] += m_family.size();
    hbase[StorageCategory::kQualifier] += qualifierLength;
    hbase[StorageCategory::kTimestamp] += kKeyValueTrailer;
    hbase[StorageCategory::kValue] += valueLength;
    hbase[StorageCategory::kFraming] += kKeyValueFraming;
    const uint64_t hbaseRest = kKeyValueFraming + qualifierLength + kKeyValueTrailer + valueLength;
    slice->hbaseShortFamily += hbaseRest + rowLength + std::min<uint64_t>(m_family.size(), 1);

    bool changed = false;
    const std::string& binaryRow = binaryKey(rowBytes, &changed);
    if (changed) ++slice->cellsWithBinaryKey;
    slice->hbaseBinaryKey += hbaseRest + m_family.size() + binaryRow.size();
    const std::string qualifierBytes(unescape(parsed.qualifierEscaped, &scratch));
    m_whatIfKey.clear();
    appendInternalKey(&m_whatIfKey, binaryRow, qualifierBytes, parsed.timestamp, parsed.type);
    const size_t whatIfShared = restart ? 0 : sharedPrefixLength(m_previousWhatIfKey, m_whatIfKey);
    whatIfBlock += entrySize(whatIfShared, m_whatIfKey.size(), valueLength);
    std::swap(m_previousWhatIfKey, m_whatIfKey);
  }
  if (nextRestart != restarts.size()) return corrupt("a restart lies past the block's entries");
  slice->keyscopeBinaryKey += whatIfBlock;
  return Status::ok();
}

std::array<double, kStorageCategoryCount> StorageTally::compressibility() const {
  std::array<double, kStorageCategoryCount> ratios;
  ratios.fill(1.0);
  std::string out;
  for (size_t c = 0; c < kStorageCategoryCount; ++c) {
    const std::string& s = m_samples[c];
    if (s.empty()) continue;
    out.resize(ZSTD_compressBound(s.size()));
    const size_t n = ZSTD_compress(out.data(), out.size(), s.data(), s.size(), kCompressibilityLevel);
    // A block zstd cannot shrink is stored as it is: never worse than 1.
    if (!ZSTD_isError(n)) ratios[c] = std::min(1.0, static_cast<double>(n) / static_cast<double>(s.size()));
  }
  return ratios;
}

}  // namespace keyscope::engine
