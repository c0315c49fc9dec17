// Key neighbours: the rows just before and just after a row key in its
// table's sort order, read with two short scans: a reversed scan from the
// key (exclusive) and a forward scan from it (inclusive), which also tells
// whether the key itself is a row ("present") or only a place in the order
// ("would sort here").
//
// Thread rules: readKeyNeighbours is a plain function of the workspace; it
// runs on the JobRunner's workers (Workspace reads are thread-safe) and
// returns a value. firstDifference is pure.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "keyscope/bytes.h"
#include "keyscope/cancel_token.h"
#include "keyscope/status.h"
#include "keyscope/workspace.h"

namespace keyscope {

struct KeyNeighbours {
  Bytes key;
  std::vector<Bytes> before;  // ascending: the farthest first, the nearest last
  bool present = false;       // `key` is a row of the table
  std::vector<Bytes> after;   // ascending: the nearest first
  bool atStart = false;       // no rows before the ones in `before`
  bool atEnd = false;         // no rows after the ones in `after`
};

// Up to `perSide` rows each side of `key` in `table`. Rows whose every cell
// is deleted or expired are not rows (as a scan sees them). Cancelled when
// `cancel` is set between rows.
Result<KeyNeighbours> readKeyNeighbours(const Workspace& ws, const std::string& table,
                                        const Bytes& key, int perSide,
                                        const CancelToken* cancel = nullptr);

// The first table row (nullopt for an empty table): where the inspector
// starts when no key was asked for.
Result<std::optional<Bytes>> readFirstRowKey(const Workspace& ws, const std::string& table,
                                             const CancelToken* cancel = nullptr);

// Offset of the first byte where a and b differ; when one is a prefix of
// the other, the shorter one's size; nullopt when they are equal.
std::optional<size_t> firstDifference(BytesView a, BytesView b);

}  // namespace keyscope
