#include "engine/block_dictionary.h"

// fastCover with fixed parameters: zdict.h's "advanced" section, exported by
// the shared libzstd as well. Likewise ZSTD_createDDict_byReference, from
// zstd.h's: a dictionary digested in place, so that decoders can put blocks
// right after it (DecompressionDictionary).
#define ZDICT_STATIC_LINKING_ONLY
#define ZSTD_STATIC_LINKING_ONLY
#include <zdict.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <new>

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

bool BlockCompressor::leaveLiteralsRaw() {
  if (m_ctx == nullptr ||
      ZSTD_isError(ZSTD_CCtx_setParameter(m_ctx, ZSTD_c_literalCompressionMode, ZSTD_ps_disable))) {
    return false;
  }
  m_rawLiterals = true;
  return true;
}

bool BlockCompressor::compress(BytesView raw, int level, std::string* out, std::string* error) {
  if (m_ctx == nullptr) {
    *error = "cannot create a zstd context";
    return false;
  }
  out->resize(ZSTD_compressBound(raw.size()));
  size_t n = 0;
  if (m_dictionary != nullptr) {
    n = ZSTD_compress2(m_ctx, out->data(), out->size(), raw.data(), raw.size());
  } else if (m_rawLiterals) {
    // zstd's simple API ignores the context's parameters: the literals'
    // setting needs compress2, with the level as a parameter too.
    n = ZSTD_CCtx_setParameter(m_ctx, ZSTD_c_compressionLevel, level);
    if (!ZSTD_isError(n)) n = ZSTD_compress2(m_ctx, out->data(), out->size(), raw.data(), raw.size());
  } else {
    n = ZSTD_compressCCtx(m_ctx, out->data(), out->size(), raw.data(), raw.size(), level);
  }
  if (ZSTD_isError(n)) {
    *error = std::string("zstd: ") + ZSTD_getErrorName(n);
    return false;
  }
  out->resize(n);
  return true;
}

// --- DecompressionDictionary ---

// The dictionary's bytes with room for a block after them, and zstd's digest
// of them by reference, so that its content ends where the room begins.
struct DecompressionDictionary::Decoder {
  std::unique_ptr<char[]> buffer;
  ZSTD_DDict* ddict = nullptr;
  size_t dictionarySize = 0;
  // The decoder's own context, made at its first decode. zstd takes a
  // dictionary other than the one its context decoded with last as cold,
  // and then decodes with its prefetching loop, which costs a 4 KiB block of
  // the benchmark's cells 27% more instructions (72.7 k against 57.0 k,
  // callgrind, 2,000 blocks); a thread's one context, shared by every file's
  // dictionary, met a cold one at nearly every get. A context is about 94 KiB.
  ZSTD_DCtx* ctx = nullptr;

  ~Decoder() {
    ZSTD_freeDCtx(ctx);
    ZSTD_freeDDict(ddict);
  }
  char* room() { return buffer.get() + dictionarySize; }

  // Null when zstd cannot load the bytes or memory runs out.
  static std::unique_ptr<Decoder> make(BytesView dictionary) {
    std::unique_ptr<Decoder> decoder(new (std::nothrow) Decoder);
    if (decoder == nullptr) return nullptr;
    decoder->buffer.reset(new (std::nothrow) char[dictionary.size() + kDecoderRoom]);
    if (decoder->buffer == nullptr) return nullptr;
    std::memcpy(decoder->buffer.get(), dictionary.data(), dictionary.size());
    decoder->dictionarySize = dictionary.size();
    decoder->ddict = ZSTD_createDDict_byReference(decoder->buffer.get(), dictionary.size());
    return decoder->ddict == nullptr ? nullptr : std::move(decoder);
  }
};

std::unique_ptr<DecompressionDictionary> DecompressionDictionary::load(BytesView bytes) {
  // A trained dictionary starts with zstd's dictionary magic; without it zstd
  // would take any bytes as raw content and never say they are damaged.
  if (ZDICT_getDictID(bytes.data(), bytes.size()) == 0) return nullptr;
  std::unique_ptr<Decoder> first = Decoder::make(bytes);
  if (first == nullptr) return nullptr;
  return std::unique_ptr<DecompressionDictionary>(new DecompressionDictionary(std::move(first)));
}

DecompressionDictionary::DecompressionDictionary(std::unique_ptr<Decoder> first) : m_first(first.get()) {
  m_idle.push_back(first.get());
  m_decoders.push_back(std::move(first));
}

DecompressionDictionary::~DecompressionDictionary() = default;

DecompressionDictionary::Decoder* DecompressionDictionary::takeDecoder() const {
  {
    std::lock_guard lock(m_mutex);
    if (!m_idle.empty()) {
      Decoder* decoder = m_idle.back();
      m_idle.pop_back();
      return decoder;
    }
  }
  // A decode beside the others: one more decoder (made outside the lock, the
  // dictionary bytes of the first being immutable), kept for the next ones.
  std::unique_ptr<Decoder> made = Decoder::make(BytesView(m_first->buffer.get(), m_first->dictionarySize));
  if (made == nullptr) return nullptr;
  std::lock_guard lock(m_mutex);
  m_decoders.push_back(std::move(made));
  return m_decoders.back().get();
}

void DecompressionDictionary::returnDecoder(Decoder* decoder) const {
  std::lock_guard lock(m_mutex);
  m_idle.push_back(decoder);
}

size_t DecompressionDictionary::decompress(ZSTD_DCtx* ctx, BytesView frame, char* raw, size_t rawSize) const {
  if (rawSize <= kDecoderRoom) {
    if (Decoder* decoder = takeDecoder()) {
      if (decoder->ctx == nullptr) decoder->ctx = ZSTD_createDCtx();  // null when out of memory: ctx serves
      ZSTD_DCtx* const decoderCtx = decoder->ctx != nullptr ? decoder->ctx : ctx;
      const size_t n = ZSTD_decompress_usingDDict(decoderCtx, decoder->room(), kDecoderRoom, frame.data(),
                                                  frame.size(), decoder->ddict);
      // More than rawSize is not copied: the caller reports the size it did not expect.
      if (!ZSTD_isError(n) && n <= rawSize) std::memcpy(raw, decoder->room(), n);
      returnDecoder(decoder);
      return n;
    }
  }
  // Only the digest is read here, never a decoder's room: any number of these
  // may run beside the decodes in rooms.
  return ZSTD_decompress_usingDDict(ctx, raw, rawSize, frame.data(), frame.size(), m_first->ddict);
}

}  // namespace keyscope::engine
