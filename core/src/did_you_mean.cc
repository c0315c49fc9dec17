#include "keyscope/did_you_mean.h"

#include <algorithm>

namespace keyscope {

namespace {

char upper(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 32) : c; }

}  // namespace

size_t editDistanceIgnoringCase(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (upper(a[i - 1]) == upper(b[j - 1]) ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string_view nearestName(std::string_view word, const std::vector<std::string_view>& candidates,
                             size_t maxEdits) {
  std::string_view nearest;
  size_t nearestDistance = maxEdits + 1;
  for (std::string_view candidate : candidates) {
    if (const size_t d = editDistanceIgnoringCase(word, candidate); d < nearestDistance) {
      nearest = candidate;
      nearestDistance = d;
    }
  }
  return nearest;
}

}  // namespace keyscope
