#include "engine/block_dictionary.h"

// fastCover with fixed parameters: zdict.h's "advanced" section, exported by
// the shared libzstd as well.
#define ZDICT_STATIC_LINKING_ONLY
#include <zdict.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>

namespace keyscope::engine {

namespace {

// fastCover's segment (k) and d-mer (d) sizes. zstd's default trainer
// searches k and d (~50 ms on 256 KiB of samples); these fixed values, the
// middle of that search, trained as good a dictionary for the benchmark's
// cells in ~7 ms.
constexpr unsigned kSegmentSize = 200;
constexpr unsigned kDmerSize = 8;
// log2 of fastCover's frequency table: 2^16 entries take 384 KiB while it
// trains. zstd's default, 20, takes 6 MiB (seen as peak memory in the
// benchmark's loads) and trained no better on 256 KiB of samples.
constexpr unsigned kFrequencyLog = 16;

}  // namespace

std::string trainBlockDictionary(const std::vector<BytesView>& rawBlocks, size_t maxBytes, int level) {
  std::string samples;
  std::vector<size_t> sizes;
  sizes.reserve(rawBlocks.size());
  for (BytesView block : rawBlocks) {
    samples += block;
    sizes.push_back(block.size());
  }
  // A dictionary as large as its samples would only restate them.
  maxBytes = std::min(maxBytes, samples.size() / 4);
  if (maxBytes < 256 || sizes.empty()) return {};
  ZDICT_fastCover_params_t params;
  std::memset(&params, 0, sizeof params);
  params.k = kSegmentSize;
  params.d = kDmerSize;
  params.f = kFrequencyLog;
  params.accel = 1;
  params.zParams.compressionLevel = level;
  std::string dictionary(maxBytes, '\0');
  const size_t n = ZDICT_trainFromBuffer_fastCover(dictionary.data(), dictionary.size(), samples.data(),
                                                   sizes.data(), static_cast<unsigned>(sizes.size()), params);
  if (ZDICT_isError(n) || n == 0) return {};
  dictionary.resize(n);
  return dictionary;
}

// --- BlockCompressor ---

BlockCompressor::BlockCompressor() : m_ctx(ZSTD_createCCtx()) {}

BlockCompressor::~BlockCompressor() {
  ZSTD_freeCDict(m_dictionary);
  ZSTD_freeCCtx(m_ctx);
}

bool BlockCompressor::useDictionary(BytesView dictionary, int level) {
  if (m_ctx == nullptr) return false;
  ZSTD_CDict* cdict = ZSTD_createCDict(dictionary.data(), dictionary.size(), level);
  if (cdict == nullptr) return false;
  if (ZSTD_isError(ZSTD_CCtx_refCDict(m_ctx, cdict)) ||
      ZSTD_isError(ZSTD_CCtx_setParameter(m_ctx, ZSTD_c_dictIDFlag, 0))) {
    ZSTD_freeCDict(cdict);
    return false;
  }
  ZSTD_freeCDict(m_dictionary);
  m_dictionary = cdict;
  return true;
}

bool BlockCompressor::compress(BytesView raw, int level, std::string* out, std::string* error) {
  if (m_ctx == nullptr) {
    *error = "cannot create a zstd context";
    return false;
  }
  out->resize(ZSTD_compressBound(raw.size()));
  const size_t n = m_dictionary != nullptr
                       ? ZSTD_compress2(m_ctx, out->data(), out->size(), raw.data(), raw.size())
                       : ZSTD_compressCCtx(m_ctx, out->data(), out->size(), raw.data(), raw.size(), level);
  if (ZSTD_isError(n)) {
    *error = std::string("zstd: ") + ZSTD_getErrorName(n);
    return false;
  }
  out->resize(n);
  return true;
}

// --- DecompressionDictionary ---

std::unique_ptr<DecompressionDictionary> DecompressionDictionary::load(BytesView bytes) {
  // A trained dictionary starts with zstd's dictionary magic; without it zstd
  // would take any bytes as raw content and never say they are damaged.
  if (ZDICT_getDictID(bytes.data(), bytes.size()) == 0) return nullptr;
  ZSTD_DDict* ddict = ZSTD_createDDict(bytes.data(), bytes.size());
  if (ddict == nullptr) return nullptr;
  return std::unique_ptr<DecompressionDictionary>(new DecompressionDictionary(ddict));
}

DecompressionDictionary::~DecompressionDictionary() { ZSTD_freeDDict(m_ddict); }

}  // namespace keyscope::engine
