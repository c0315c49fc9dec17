#include "engine/merging_iterator.h"

#include <algorithm>
#include <string>

#include "engine/internal_key.h"
#include "engine/key_compare.h"

namespace keyscope::engine {

namespace {

// A binary min-heap of child indexes ordered by (key, child index): the child
// index breaks ties so the newest child comes first among equal keys.
class MergingIterator final : public InternalIterator {
 public:
  explicit MergingIterator(std::vector<std::unique_ptr<InternalIterator>> children)
      : m_children(std::move(children)) {
    m_heap.reserve(m_children.size());
  }

  bool valid() const override { return !m_heap.empty() && m_status.isOk(); }

  void seekToFirst() override {
    for (auto& child : m_children) child->seekToFirst();
    rebuild();
  }
  void seek(BytesView target) override {
    for (auto& child : m_children) child->seek(target);
    rebuild();
  }
  void seekToLastRowBefore(BytesView bound) override {
    // Each child finds its own last row before bound; the merged answer is
    // the greatest of them, and every child is then positioned at that row.
    std::string best;
    bool found = false;
    for (auto& child : m_children) {
      child->seekToLastRowBefore(bound);
      if (!child->valid()) continue;
      const BytesView row = child->key().substr(0, escapedRowLength(child->key()));
      if (!found || row > BytesView(best)) {
        best.assign(row.data(), row.size());
        found = true;
      }
    }
    if (!found) {
      for (auto& child : m_children) collectStatus(*child);
      m_heap.clear();
      return;
    }
    seek(best);
  }

  void next() override {
    // Usually no other child holds the current key. The one with the next
    // smallest key is a child of the heap's root, so two comparisons tell;
    // then the current child steps on and sinks only as far as it must (a
    // memstore's segments in a key-ordered load, or files of disjoint key
    // ranges, keep it at the top: two more comparisons, where a pop and a
    // push went to the bottom of the heap and back).
    const size_t top = m_heap.front();
    const BytesView current = m_children[top]->key();
    const auto holdsCurrent = [&](size_t at) {
      return at < m_heap.size() && keysEqual(m_children[m_heap[at]]->key(), current);
    };
    if (!holdsCurrent(1) && !holdsCurrent(2)) {
      m_children[top]->next();
      if (m_children[top]->valid()) {
        siftDownFromTop();
      } else {
        collectStatus(*m_children[top]);
        m_heap.front() = m_heap.back();  // the spent child is never compared again
        m_heap.pop_back();
        if (!m_heap.empty()) siftDownFromTop();
      }
      return;
    }
    // Advance the current child past the key, and every other child holding
    // the same key (older duplicates).
    m_scratch.assign(current.data(), current.size());
    while (!m_heap.empty() && m_children[m_heap.front()]->key() == BytesView(m_scratch)) {
      const size_t holder = m_heap.front();
      std::pop_heap(m_heap.begin(), m_heap.end(), m_greater);
      m_heap.pop_back();
      m_children[holder]->next();
      if (m_children[holder]->valid()) {
        m_heap.push_back(holder);
        std::push_heap(m_heap.begin(), m_heap.end(), m_greater);
      } else {
        collectStatus(*m_children[holder]);
      }
    }
  }

  BytesView key() const override { return m_children[m_heap.front()]->key(); }
  BytesView value() const override { return m_children[m_heap.front()]->value(); }
  Status status() const override { return m_status; }

 private:
  void rebuild() {
    m_heap.clear();
    for (size_t i = 0; i < m_children.size(); ++i) {
      if (m_children[i]->valid()) {
        m_heap.push_back(i);
      } else {
        collectStatus(*m_children[i]);
      }
    }
    std::make_heap(m_heap.begin(), m_heap.end(), m_greater);
  }

  // Restores the heap after its top child's key grew.
  void siftDownFromTop() {
    const size_t n = m_heap.size();
    size_t at = 0;
    while (true) {
      const size_t left = 2 * at + 1;
      if (left >= n) return;
      const size_t right = left + 1;
      const size_t smaller = right < n && m_greater(m_heap[left], m_heap[right]) ? right : left;
      if (!m_greater(m_heap[at], m_heap[smaller])) return;
      std::swap(m_heap[at], m_heap[smaller]);
      at = smaller;
    }
  }

  void collectStatus(const InternalIterator& child) {
    if (m_status.isOk()) {
      Status s = child.status();
      if (!s.isOk()) m_status = std::move(s);
    }
  }

  struct Greater {
    const std::vector<std::unique_ptr<InternalIterator>>* children;
    bool operator()(size_t a, size_t b) const {
      const int c = compareKeys((*children)[a]->key(), (*children)[b]->key());
      if (c != 0) return c > 0;
      return a > b;
    }
  };

  std::vector<std::unique_ptr<InternalIterator>> m_children;
  std::vector<size_t> m_heap;
  Greater m_greater{&m_children};
  std::string m_scratch;
  Status m_status;
};

// With one child there is nothing to merge.
}  // namespace

std::unique_ptr<InternalIterator> newMergingIterator(std::vector<std::unique_ptr<InternalIterator>> children) {
  if (children.size() == 1) return std::move(children.front());
  return std::make_unique<MergingIterator>(std::move(children));
}

}  // namespace keyscope::engine
