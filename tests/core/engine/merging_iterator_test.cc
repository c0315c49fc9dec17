// MergingIterator: one ordered view over several children, given newest
// first; of entries with equal keys only the newest child's is yielded.
// Checked against a plain map over children that interleave, hold the same
// keys, or lie one after another (a key-ordered load's memstore segments).
#include "engine/merging_iterator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace keyscope::engine {
namespace {

// A child over sorted, distinct keys.
class VectorIterator final : public InternalIterator {
 public:
  explicit VectorIterator(std::map<std::string, std::string> entries) : m_entries(entries.begin(), entries.end()) {}
  bool valid() const override { return m_at < m_entries.size(); }
  void seekToFirst() override { m_at = 0; }
  void seek(BytesView target) override {
    m_at = 0;
    while (m_at < m_entries.size() && BytesView(m_entries[m_at].first) < target) ++m_at;
  }
  void seekToLastRowBefore(BytesView) override { m_at = m_entries.size(); }  // not used here
  void next() override { ++m_at; }
  BytesView key() const override { return m_entries[m_at].first; }
  BytesView value() const override { return m_entries[m_at].second; }
  Status status() const override { return Status::ok(); }

 private:
  std::vector<std::pair<std::string, std::string>> m_entries;
  size_t m_at = 0;
};

using Entries = std::map<std::string, std::string>;

// What the merge must yield: every key once, the first (newest) child's value.
Entries expectedMerge(const std::vector<Entries>& children, const std::string& from = {}) {
  Entries out;
  for (const Entries& child : children) {
    for (const auto& [key, value] : child) {
      if (key >= from) out.emplace(key, value);  // emplace keeps the newer child's
    }
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> drain(const std::vector<Entries>& children, const std::string* from) {
  std::vector<std::unique_ptr<InternalIterator>> its;
  for (const Entries& child : children) its.push_back(std::make_unique<VectorIterator>(child));
  auto merged = newMergingIterator(std::move(its));
  if (from == nullptr) merged->seekToFirst();
  else merged->seek(*from);
  std::vector<std::pair<std::string, std::string>> out;
  for (; merged->valid(); merged->next()) out.emplace_back(std::string(merged->key()), std::string(merged->value()));
  EXPECT_TRUE(merged->status().isOk());
  return out;
}

void expectMerges(const std::vector<Entries>& children, const std::string& from = {}) {
  const Entries want = expectedMerge(children, from);
  EXPECT_EQ(drain(children, from.empty() ? nullptr : &from),
            (std::vector<std::pair<std::string, std::string>>(want.begin(), want.end())));
}

TEST(MergingIterator, ChildrenOneAfterAnotherComeOutInOrder) {
  std::vector<Entries> children(8);
  for (size_t c = 0; c < children.size(); ++c) {
    for (size_t i = 0; i < 50; ++i) children[c][std::to_string(1000 + 50 * c + i)] = "c" + std::to_string(c);
  }
  expectMerges(children);
  // Newest first need not be lowest first.
  std::reverse(children.begin(), children.end());
  expectMerges(children);
  expectMerges(children, "1199");
}

TEST(MergingIterator, TheNewestChildsEntryWinsAmongEqualKeys) {
  const std::vector<Entries> children = {
      {{"a", "new"}, {"c", "new"}},
      {{"a", "mid"}, {"b", "mid"}, {"c", "mid"}},
      {{"a", "old"}, {"b", "old"}, {"d", "old"}},
  };
  EXPECT_EQ(drain(children, nullptr),
            (std::vector<std::pair<std::string, std::string>>{{"a", "new"}, {"b", "mid"}, {"c", "new"}, {"d", "old"}}));
}

TEST(MergingIterator, RandomChildrenMatchAMap) {
  std::mt19937 random(7);
  for (int round = 0; round < 200; ++round) {
    std::vector<Entries> children(1 + random() % 9);
    for (size_t c = 0; c < children.size(); ++c) {
      const uint64_t keys = random() % 40;
      const uint64_t spread = 1 + random() % 100;  // small: many equal keys
      for (uint64_t i = 0; i < keys; ++i) children[c][std::to_string(100 + random() % spread)] = std::to_string(c);
    }
    expectMerges(children);
    expectMerges(children, std::to_string(100 + random() % 100));
  }
}

}  // namespace
}  // namespace keyscope::engine
