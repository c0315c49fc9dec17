#include "engine/internal_key.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace keyscope::engine {

namespace {

// The first 00 byte at or after `from`, or npos. Row keys and qualifiers are
// mostly a few dozen bytes, where a plain loop beats a call to memchr (this
// runs for every cell a read examines); longer fields go to memchr.
size_t findZero(BytesView key, size_t from) {
  constexpr size_t kLoopBytes = 32;
  const size_t loopEnd = std::min(key.size(), from + kLoopBytes);
  size_t i = from;
  // Eight bytes at a time: (w - 0x01..01) & ~w & 0x80..80 flags the bytes
  // that are 00; a borrow can flag a byte after a 00 too, never one before,
  // so the first flagged byte is the first 00.
  for (; i + 8 <= loopEnd; i += 8) {
    uint64_t w;
    std::memcpy(&w, key.data() + i, sizeof w);
    const uint64_t zeros = (w - 0x0101010101010101ull) & ~w & 0x8080808080808080ull;
    if (zeros == 0) continue;
    if constexpr (std::endian::native == std::endian::little) return i + (static_cast<size_t>(std::countr_zero(zeros)) >> 3);
    for (;; ++i) {
      if (key[i] == '\0') return i;
    }
  }
  for (; i < loopEnd; ++i) {
    if (key[i] == '\0') return i;
  }
  if (loopEnd == key.size()) return std::string::npos;  // (and no memchr on an empty view's null data)
  const void* hit = std::memchr(key.data() + loopEnd, 0, key.size() - loopEnd);
  return hit == nullptr ? std::string::npos : static_cast<size_t>(static_cast<const char*>(hit) - key.data());
}

// Offset just past the terminator 00 01 of the escaped field starting at `from`,
// or npos when the field is cut short or holds an invalid escape.
size_t escapedFieldEnd(BytesView key, size_t from) {
  size_t i = from;
  while (true) {
    i = findZero(key, i);
    if (i == std::string::npos) return std::string::npos;
    if (i + 1 >= key.size()) return std::string::npos;
    const auto next = static_cast<uint8_t>(key[i + 1]);
    if (next == 0x01) return i + 2;
    if (next != 0xff) return std::string::npos;
    i += 2;
  }
}

// Writes esc(field) at p, which has room for 2 * field.size() + 2 bytes;
// returns the end. Fields up to a few dozen bytes (rows, qualifiers) are
// copied byte by byte, which costs less than finding each 00 and copying the
// runs between; longer ones the other way.
char* putEscaped(char* p, BytesView field) {
  constexpr size_t kByteLoopMax = 48;
  if (field.size() <= kByteLoopMax) {
    for (const char c : field) {
      *p++ = c;
      if (c == '\x00') *p++ = '\xff';
    }
  } else {
    size_t start = 0;
    while (true) {
      const size_t zero = findZero(field, start);
      const size_t end = zero == std::string::npos ? field.size() : zero;
      std::memcpy(p, field.data() + start, end - start);
      p += end - start;
      if (zero == std::string::npos) break;
      *p++ = '\x00';
      *p++ = '\xff';
      start = zero + 1;
    }
  }
  *p++ = '\x00';
  *p++ = '\x01';
  return p;
}

size_t maxEscapedSize(BytesView field) { return 2 * field.size() + kFieldTerminatorSize; }

}  // namespace

// Both size *out for the longest result (every byte a 00), write in place,
// and cut it back: one allocation check per key instead of one per run.
void appendEscaped(std::string* out, BytesView bytes) {
  const size_t at = out->size();
  out->resize(at + maxEscapedSize(bytes));
  const char* end = putEscaped(out->data() + at, bytes);
  out->resize(static_cast<size_t>(end - out->data()));
}

void appendInternalKey(std::string* out, BytesView row, BytesView qualifier, int64_t ts, CellType type) {
  const size_t at = out->size();
  out->resize(at + maxEscapedSize(row) + maxEscapedSize(qualifier) + kKeyTrailerSize);
  char* p = putEscaped(out->data() + at, row);
  p = putEscaped(p, qualifier);
  storeBigEndian64(p, ~static_cast<uint64_t>(ts));
  p[8] = static_cast<char>(~static_cast<uint8_t>(type));
  out->resize(static_cast<size_t>(p + kKeyTrailerSize - out->data()));
}

std::string internalKey(BytesView row, BytesView qualifier, int64_t ts, CellType type) {
  std::string key;
  key.reserve(row.size() + qualifier.size() + 4 + kKeyTrailerSize);
  appendInternalKey(&key, row, qualifier, ts, type);
  return key;
}

std::string rowStartKey(BytesView row) {
  std::string key;
  appendEscaped(&key, row);
  return key;
}

std::string rowEndKey(BytesView row) {
  std::string key = rowStartKey(row);
  toRowEndKey(&key);
  return key;
}

std::string columnStartKey(BytesView row, BytesView qualifier) {
  std::string key;
  appendEscaped(&key, row);
  appendEscaped(&key, qualifier);
  return key;
}

std::string columnEndKey(BytesView row, BytesView qualifier) {
  std::string key = columnStartKey(row, qualifier);
  key.back() = '\x02';
  return key;
}

size_t escapedRowLength(BytesView key) {
  const size_t end = escapedFieldEnd(key, 0);
  return end == std::string::npos ? 0 : end;
}

bool parseInternalKey(BytesView key, ParsedKey* parsed) {
  const size_t rowEnd = escapedFieldEnd(key, 0);
  if (rowEnd == std::string::npos) return false;
  return parseInternalKeyAfterRow(key, rowEnd, parsed);
}

bool parseInternalKeyAfterRow(BytesView key, size_t rowEnd, ParsedKey* parsed) {
  // The trailer has a fixed size, so the qualifier's end is known: it is
  // well formed when its terminator 00 01 sits just before the trailer and
  // every 00 before that is an escape (00 FF). Most qualifiers have no 00 at
  // all, and findZero() answers that for a short one without a call.
  if (key.size() < rowEnd + 2 + kKeyTrailerSize) return false;
  const size_t qualifierEnd = key.size() - kKeyTrailerSize;
  if (key[qualifierEnd - 2] != '\0' || key[qualifierEnd - 1] != '\x01') return false;
  const BytesView qualifierBody = key.substr(0, qualifierEnd - 2);
  size_t zero = findZero(qualifierBody, rowEnd);
  parsed->qualifierHasEscapes = zero != std::string::npos;
  for (; zero != std::string::npos; zero = findZero(qualifierBody, zero + 2)) {
    if (zero + 1 >= qualifierBody.size() || static_cast<uint8_t>(qualifierBody[zero + 1]) != 0xff) return false;
  }
  const uint64_t ts = ~loadBigEndian64(key.data() + qualifierEnd);
  if (ts > static_cast<uint64_t>(kLatestTimestamp)) return false;
  const auto type = static_cast<uint8_t>(~static_cast<uint8_t>(key[qualifierEnd + 8]));
  switch (static_cast<CellType>(type)) {
    case CellType::kPut:
    case CellType::kDelete:
    case CellType::kDeleteFamilyVersion:
    case CellType::kDeleteColumn:
    case CellType::kDeleteFamily:
      break;
    default:
      return false;
  }
  parsed->rowEscaped = key.substr(0, rowEnd);
  parsed->qualifierEscaped = key.substr(rowEnd, qualifierEnd - rowEnd);
  parsed->timestamp = static_cast<int64_t>(ts);
  parsed->type = static_cast<CellType>(type);
  return true;
}

BytesView unescape(BytesView escaped, std::string* scratch) {
  // REQUIRES: escaped ends with its 00 01 terminator (as parseInternalKey yields).
  const BytesView body = escaped.substr(0, escaped.size() - 2);
  if (findZero(body, 0) == std::string::npos) return body;
  scratch->clear();
  for (size_t i = 0; i < body.size(); ++i) {
    scratch->push_back(body[i]);
    if (body[i] == '\0') ++i;  // skip the FF of the 00 FF escape
  }
  return *scratch;
}

Bytes unescaped(BytesView escaped) {
  std::string scratch;
  return Bytes(unescape(escaped, &scratch));
}

}  // namespace keyscope::engine
