// InternalIterator: ordered (internal key, value) entries of one source - a
// memstore, a store file, or a merge of several. LevelDB's iterator contract.
// Not thread-safe: one iterator per thread. Invalid until a seek.
#pragma once

#include "keyscope/bytes.h"
#include "keyscope/status.h"

namespace keyscope::engine {

class InternalIterator {
 public:
  virtual ~InternalIterator() = default;
  virtual bool valid() const = 0;
  virtual void seekToFirst() = 0;
  // First entry with key >= target.
  virtual void seek(BytesView target) = 0;
  // For reversed scans: positions at the first entry of the last row that has
  // an entry with key < bound (bound is a rowStartKey); invalid when none.
  virtual void seekToLastRowBefore(BytesView bound) = 0;
  // REQUIRES: valid()
  virtual void next() = 0;
  // REQUIRES: valid(). Valid until the iterator moves.
  virtual BytesView key() const = 0;
  virtual BytesView value() const = 0;
  // Check after the loop: a Corruption or IOError ends iteration early.
  virtual Status status() const = 0;
};

}  // namespace keyscope::engine
