// MergingIterator: one ordered view over several InternalIterators - a
// store's memstores and store files. Children are given newest first; when
// several hold the same internal key, the newest child's entry is yielded and
// the others are skipped (HBase: "only the last written is fetchable").
// Not thread-safe, like every iterator.
#pragma once

#include <memory>
#include <vector>

#include "engine/internal_iterator.h"

namespace keyscope::engine {

std::unique_ptr<InternalIterator> newMergingIterator(std::vector<std::unique_ptr<InternalIterator>> children);

}  // namespace keyscope::engine
