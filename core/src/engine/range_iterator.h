// RangeIterator: the entries of another iterator whose keys lie in
// [low, high) (internal keys; an empty high is no bound). A split writes each
// daughter's half of its parent's files and memstores through one.
// Not thread-safe, as every InternalIterator.
#pragma once

#include <algorithm>
#include <memory>
#include <string>

#include "engine/internal_iterator.h"

namespace keyscope::engine {

class RangeIterator final : public InternalIterator {
 public:
  RangeIterator(std::unique_ptr<InternalIterator> source, std::string low, std::string high)
      : m_source(std::move(source)), m_low(std::move(low)), m_high(std::move(high)) {}
  bool valid() const override {
    return m_source->valid() && (m_high.empty() || m_source->key() < BytesView(m_high));
  }
  void seekToFirst() override { m_source->seek(m_low); }
  void seek(BytesView target) override { m_source->seek(std::max(target, BytesView(m_low))); }
  void seekToLastRowBefore(BytesView bound) override {
    m_source->seekToLastRowBefore(m_high.empty() ? bound : std::min(bound, BytesView(m_high)));
  }
  void next() override { m_source->next(); }
  BytesView key() const override { return m_source->key(); }
  BytesView value() const override { return m_source->value(); }
  Status status() const override { return m_source->status(); }

 private:
  std::unique_ptr<InternalIterator> m_source;
  std::string m_low, m_high;
};

}  // namespace keyscope::engine
