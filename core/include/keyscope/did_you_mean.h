// Guesses at a misspelt name: how far a word is from each name a place
// knows, so an error can say which one was probably meant. The shell
// language guesses at its constants and keywords, the batch API at fields.
//
// Pure functions; thread-safe.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace keyscope {

// Levenshtein distance (insertions, deletions, substitutions), ASCII case
// differences not counted.
size_t editDistanceIgnoringCase(std::string_view a, std::string_view b);

// The candidate nearest to `word` when it is at most maxEdits edits away
// (the first of equally near ones); empty when none is.
std::string_view nearestName(std::string_view word, const std::vector<std::string_view>& candidates,
                             size_t maxEdits);

}  // namespace keyscope
