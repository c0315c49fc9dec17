// zstd dictionaries of store files (store-file format 4, store_file_format.h):
// trained by the writer on a file's first raw blocks, stored in the file's
// metadata, and digested once per open file for every block read.
//
// Threads: trainBlockDictionary is pure. A BlockCompressor is used by one
// thread (the writer's). A DecompressionDictionary is immutable once built
// and shared by every reader thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "keyscope/bytes.h"

struct ZSTD_CCtx_s;
struct ZSTD_CDict_s;
struct ZSTD_DDict_s;

namespace keyscope::engine {

// A dictionary of at most maxBytes trained on rawBlocks for compression at
// `level`; empty when zstd cannot train one from them (too few or too
// uniform samples). Deterministic: the same blocks give the same bytes.
std::string trainBlockDictionary(const std::vector<BytesView>& rawBlocks, size_t maxBytes, int level);

// Compresses blocks as zstd frames, against a dictionary when given one.
class BlockCompressor {
 public:
  BlockCompressor();
  ~BlockCompressor();
  BlockCompressor(const BlockCompressor&) = delete;
  BlockCompressor& operator=(const BlockCompressor&) = delete;

  // From now on compress against `dictionary` (frames carry no dictionary
  // id). False when zstd refuses it or is out of memory.
  bool useDictionary(BytesView dictionary, int level);

  // One frame of `raw` into *out (resized to fit); false with *error set when
  // zstd fails. Without a dictionary, at `level`; with one, at the
  // dictionary's level.
  bool compress(BytesView raw, int level, std::string* out, std::string* error);

 private:
  ZSTD_CCtx_s* m_ctx;
  ZSTD_CDict_s* m_dictionary = nullptr;
};

// A store file's dictionary digested for decompression (its entropy tables
// built once, not per block).
class DecompressionDictionary {
 public:
  // Null when zstd cannot load `bytes` as a dictionary (damaged) or is out of
  // memory. Copies what it needs: `bytes` may go away.
  static std::unique_ptr<DecompressionDictionary> load(BytesView bytes);
  ~DecompressionDictionary();
  DecompressionDictionary(const DecompressionDictionary&) = delete;
  DecompressionDictionary& operator=(const DecompressionDictionary&) = delete;

  const ZSTD_DDict_s* get() const { return m_ddict; }

 private:
  explicit DecompressionDictionary(ZSTD_DDict_s* ddict) : m_ddict(ddict) {}
  ZSTD_DDict_s* m_ddict;
};

}  // namespace keyscope::engine
