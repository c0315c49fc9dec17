// Internal keys: one cell's coordinates as bytes whose memcmp order is the cell
// order of HBASE-SEMANTICS.md B1 within one family: row asc, qualifier asc,
// timestamp desc, type desc. Store files and memstores are per family, so the
// family is not part of the key.
//
// Layout (stored in store files and the log: DO NOT CHANGE):
//   esc(row) esc(qualifier) be64(~timestamp) u8(~type)
// where esc(b) escapes each 00 byte as 00 FF and ends with 00 01, so a row
// that is a prefix of another sorts first, and every key of row r lies in
// [rowStart(r), rowEnd(r)): rowStart(r) = esc(r), rowEnd(r) = esc(r) minus its
// final 01 plus 02. Column bounds work the same way on esc(row) esc(qualifier).
//
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/big_endian.h"
#include "keyscope/bytes.h"
#include "keyscope/cell.h"

namespace keyscope::engine {

constexpr size_t kKeyTrailerSize = 9;       // be64(~ts) + u8(~type)
constexpr size_t kFieldTerminatorSize = 2;  // the 00 01 that ends esc(b)

// Appends esc(bytes) to *out.
void appendEscaped(std::string* out, BytesView bytes);

// Appends the full internal key of (row, qualifier, ts, type).
void appendInternalKey(std::string* out, BytesView row, BytesView qualifier, int64_t ts, CellType type);
std::string internalKey(BytesView row, BytesView qualifier, int64_t ts, CellType type);

// Seek targets.
std::string rowStartKey(BytesView row);           // <= every key of the row
std::string rowEndKey(BytesView row);             // > every key of the row, <= every later row
std::string columnStartKey(BytesView row, BytesView qualifier);
std::string columnEndKey(BytesView row, BytesView qualifier);
// Turns rowStartKey(row) (or a key's escaped row) into rowEndKey(row) in
// place: the two differ in their terminator's last byte, 01 against 02.
inline void toRowEndKey(std::string* rowStartKey) { rowStartKey->back() = '\x02'; }

// A key split into its parts. rowEscaped and qualifierEscaped include their
// terminators and point into the parsed key.
struct ParsedKey {
  BytesView rowEscaped;
  BytesView qualifierEscaped;
  int64_t timestamp = 0;
  CellType type = CellType::kPut;
  // Whether the escaped qualifier holds a 00 FF escape; when not, its bytes
  // before the terminator are the qualifier itself (qualifierOf()).
  bool qualifierHasEscapes = true;
  // The prefix esc(row) esc(qualifier): equal for every version of a column.
  BytesView columnPrefix() const {
    return BytesView(rowEscaped.data(), rowEscaped.size() + qualifierEscaped.size());
  }
};

// False when the key is not a well-formed internal key (a Corruption upstream).
bool parseInternalKey(BytesView key, ParsedKey* parsed);
// The same when the key is known to start with a well-formed escaped row of
// rowLength bytes (terminator included), as every key of a row being read
// does: only the rest is parsed.
bool parseInternalKeyAfterRow(BytesView key, size_t rowLength, ParsedKey* parsed);

// The timestamp of a key already known to be well formed (a memstore entry):
// read from its fixed-size trailer. REQUIRES: key.size() >= kKeyTrailerSize.
inline int64_t timestampOfValidKey(BytesView key) {
  return static_cast<int64_t>(~loadBigEndian64(key.data() + key.size() - kKeyTrailerSize));
}

// Length of esc(row) at the start of `key` (terminator included), or 0 when
// the key holds no complete escaped row.
size_t escapedRowLength(BytesView key);

// Removes the escaping: the escaped form's bytes, without its terminator.
// Returns a view of `escaped` itself when it holds no escape (the common case),
// else of *scratch.
BytesView unescape(BytesView escaped, std::string* scratch);
Bytes unescaped(BytesView escaped);

// The parsed key's qualifier, unescaped: a view of the key itself when the
// parse found no escape in it (no second look), else unescape()'s answer.
inline BytesView qualifierOf(const ParsedKey& key, std::string* scratch) {
  if (!key.qualifierHasEscapes) return key.qualifierEscaped.substr(0, key.qualifierEscaped.size() - 2);
  return unescape(key.qualifierEscaped, scratch);
}

}  // namespace keyscope::engine
