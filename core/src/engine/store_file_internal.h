// What the store-file sources share (store_file.cc, store_file_blocks.cc,
// store_file_meta.cc, store_file_writer.cc): not part of store_file.h's
// interface.
#pragma once

#include <xxhash.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/block_index.h"
#include "keyscope/status.h"

namespace keyscope::engine::store_file_detail {

// The checksum of blocks and metadata (store_file_format.h).
inline uint64_t checksumOf(const char* p, size_t n, uint64_t seed = 0) { return XXH3_64bits_withSeed(p, n, seed); }

// The block index without its count, as StoreFileMeta::encode writes it.
void appendIndex(std::string* out, const BlockIndex& blocks);

// The status with `where: ` in front of its message; an ok status as it is.
inline Status withContext(const Status& s, const std::string& where) { return s.withMessage(where + ": " + s.message()); }

}  // namespace keyscope::engine::store_file_detail
