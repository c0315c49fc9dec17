// zstd dictionaries of store files (store-file format 4, store_file_format.h):
// trained by the writer on a file's first raw blocks, stored in the file's
// metadata, and digested once per open file for every block read.
//
// Threads: trainBlockDictionary is pure. A BlockCompressor is used by one
// thread (the writer's). A DecompressionDictionary is shared by every reader
// thread (its decoders are handed out under a mutex).
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "keyscope/bytes.h"

struct ZSTD_CCtx_s;
struct ZSTD_CDict_s;
struct ZSTD_DDict_s;
struct ZSTD_DCtx_s;

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

  // From now on store literals raw, not Huffman-coded: frames decode faster
  // and grow (store_file_format.h, format 6). False when zstd refuses it.
  bool leaveLiteralsRaw();

  // One frame of `raw` into *out (resized to fit); false with *error set when
  // zstd fails. Without a dictionary, at `level`; with one, at the
  // dictionary's level.
  bool compress(BytesView raw, int level, std::string* out, std::string* error);

 private:
  ZSTD_CCtx_s* m_ctx;
  ZSTD_CDict_s* m_dictionary = nullptr;
  bool m_rawLiterals = false;
};

// A store file's dictionary digested for decompression (its entropy tables
// built once, not per block).
//
// Blocks are decoded right behind a copy of the dictionary in memory. zstd
// treats a dictionary's content as if it came before the frame; when the
// output buffer does follow it, a match into the dictionary is an ordinary
// match into the data already decoded, and when it does not (any buffer of
// the caller's), each such match takes zstd's slower external-dictionary
// path, a memmove per match. A 4 KiB block of the benchmark's cells has
// many: decoding 8,000 of them took about 25% less time behind the
// dictionary, the copy to the caller's buffer included. So the dictionary
// keeps a few decoders, each a buffer holding the dictionary and room for a
// block after it, taken by one decode at a time.
class DecompressionDictionary {
 public:
  // Null when zstd cannot load `bytes` as a dictionary (damaged) or is out of
  // memory. Copies what it needs: `bytes` may go away.
  static std::unique_ptr<DecompressionDictionary> load(BytesView bytes);
  ~DecompressionDictionary();
  DecompressionDictionary(const DecompressionDictionary&) = delete;
  DecompressionDictionary& operator=(const DecompressionDictionary&) = delete;

  // Decompresses `frame`, one zstd frame compressed against this dictionary,
  // into raw[0, rawSize); zstd's result: the decoded size, or an error code
  // (ZSTD_isError). Any thread. A block up to kDecoderRoom is decoded with
  // its decoder's own context, others with `ctx`, the caller's own.
  size_t decompress(ZSTD_DCtx_s* ctx, BytesView frame, char* raw, size_t rawSize) const;

  // Blocks up to this size are decoded behind the dictionary; larger ones
  // (a single large cell) straight into the caller's buffer.
  static constexpr size_t kDecoderRoom = 8 * 1024;

 private:
  struct Decoder;
  explicit DecompressionDictionary(std::unique_ptr<Decoder> first);
  Decoder* takeDecoder() const;  // null when out of memory
  void returnDecoder(Decoder* decoder) const;

  // The first decoder: its buffer's dictionary bytes are copied into the
  // decoders made later, and its digest (read-only in zstd, as the dictionary
  // bytes are) also serves the decodes into callers' buffers.
  Decoder* m_first;
  mutable std::mutex m_mutex;
  mutable std::vector<std::unique_ptr<Decoder>> m_decoders;  // all of them
  mutable std::vector<Decoder*> m_idle;
};

}  // namespace keyscope::engine
