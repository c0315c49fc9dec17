// StatsRecorder (stats_recorder.h).
#include "stats/stats_recorder.h"

#include <unordered_map>
#include <utility>

#include "stats/key_reservoir.h"
#include "stats/stats_store.h"
#include "stats/stats_time.h"

namespace keyscope::stats {

namespace {

struct CounterKey {
  int64_t regionId;
  int64_t bucket;
  int32_t server;
  bool operator==(const CounterKey&) const = default;
};

struct SampleKey {
  int64_t tableId;
  int64_t bucket;
  bool operator==(const SampleKey&) const = default;
};

uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h;
}

struct CounterKeyHash {
  size_t operator()(const CounterKey& k) const {
    return mix(mix(static_cast<uint64_t>(k.regionId), static_cast<uint64_t>(k.bucket)),
               static_cast<uint64_t>(k.server));
  }
};

struct SampleKeyHash {
  size_t operator()(const SampleKey& k) const {
    return mix(static_cast<uint64_t>(k.tableId), static_cast<uint64_t>(k.bucket));
  }
};

struct CounterEntry {
  int64_t tableId = 0;
  LoadCounters counters;
};

using CounterMap = std::unordered_map<CounterKey, CounterEntry, CounterKeyHash>;
using SampleMap = std::unordered_map<SampleKey, Reservoir, SampleKeyHash>;

}  // namespace

// What one persist takes out of the recorder.
struct StatsRecorder::Pending {
  CounterMap counters;
  SampleMap samples;
};

struct StatsRecorder::State {
  explicit State(uint64_t seed) : random(seed) {}

  CounterEntry& counterFor(const ChargeTarget& target, int64_t bucket) {
    const CounterKey key{target.regionId, bucket, target.server};
    if (lastCounter == nullptr || !(lastCounterKey == key)) {
      auto [it, inserted] = pending.counters.try_emplace(key);
      if (inserted) it->second.tableId = target.tableId;
      lastCounter = &it->second;
      lastCounterKey = key;
    }
    return *lastCounter;
  }

  Reservoir& reservoirFor(int64_t tableId, int64_t bucket) {
    const SampleKey key{tableId, bucket};
    if (lastReservoir == nullptr || !(lastReservoirKey == key)) {
      auto it = pending.samples.find(key);
      if (it == pending.samples.end()) {
        it = pending.samples.emplace(key, Reservoir()).first;
        if (!spare.empty()) {
          it->second = std::move(spare.back());
          spare.pop_back();
        }
      }
      lastReservoir = &it->second;
      lastReservoirKey = key;
    }
    return *lastReservoir;
  }

  void forgetLookups() {
    lastCounter = nullptr;
    lastReservoir = nullptr;
  }

  SampleRandom random;
  Pending pending;
  // The last entries used: consecutive calls mostly hit the same ones.
  // Pointers into unordered_map stay valid until the entry is erased.
  CounterKey lastCounterKey{};
  CounterEntry* lastCounter = nullptr;
  SampleKey lastReservoirKey{};
  Reservoir* lastReservoir = nullptr;
  // Emptied reservoirs whose slots (and their row strings) are reused.
  std::vector<Reservoir> spare;
};

StatsRecorder::StatsRecorder(uint64_t seed) : m_state(std::make_unique<State>(seed)) {}
StatsRecorder::~StatsRecorder() = default;

void StatsRecorder::recordWrite(const ChargeTarget& target, BytesView row, uint64_t cells, uint64_t bytes,
                                int64_t nowMillis) {
  const int64_t bucket = bucketOf(nowMillis);
  std::lock_guard lock(m_mutex);
  State& state = *m_state;
  LoadCounters& c = state.counterFor(target, bucket).counters;
  c.writes += 1;
  c.cellsWritten += cells;
  c.bytesWritten += bytes;
  const double rank = state.random.nextRank(1.0);
  state.reservoirFor(target.tableId, bucket)
      .offer(rank, row, target.regionId, 1.0, static_cast<double>(cells), static_cast<double>(bytes), true);
}

void StatsRecorder::recordReads(const ChargeTarget& target, uint64_t rows, uint64_t cells, uint64_t bytes,
                                std::span<const BytesView> sampleRows, int64_t nowMillis) {
  if (rows == 0 && cells == 0 && bytes == 0) return;
  const int64_t bucket = bucketOf(nowMillis);
  std::lock_guard lock(m_mutex);
  State& state = *m_state;
  LoadCounters& c = state.counterFor(target, bucket).counters;
  c.reads += rows;
  c.cellsRead += cells;
  c.bytesRead += bytes;
  if (rows == 0 || sampleRows.empty()) return;
  const auto n = static_cast<double>(sampleRows.size());
  const double weight = static_cast<double>(rows) / n;
  const double cellsEach = static_cast<double>(cells) / n;
  const double bytesEach = static_cast<double>(bytes) / n;
  Reservoir& reservoir = state.reservoirFor(target.tableId, bucket);
  for (BytesView row : sampleRows)
    reservoir.offer(state.random.nextRank(weight), row, target.regionId, weight, cellsEach, bytesEach, false);
}

bool StatsRecorder::empty() const {
  std::lock_guard lock(m_mutex);
  return m_state->pending.counters.empty() && m_state->pending.samples.empty();
}

namespace {

Status writePending(sqlite3* db, const CounterMap& counters, const SampleMap& samples) {
  StatsWriter writer(db);
  std::unordered_map<int64_t, CounterEntry> totals;
  std::unordered_map<CounterKey, LoadCounters, CounterKeyHash> servers;  // regionId unused (0)
  for (const auto& [key, entry] : counters) {
    if (Status s = writer.addRegionBucket(key.regionId, key.bucket, key.server, entry.counters); !s) return s;
    CounterEntry& total = totals[key.regionId];
    total.tableId = entry.tableId;
    total.counters.add(entry.counters);
    servers[CounterKey{0, key.bucket, key.server}].add(entry.counters);
  }
  for (const auto& [regionId, total] : totals)
    if (Status s = writer.addRegionTotal(total.tableId, regionId, total.counters); !s) return s;
  for (const auto& [key, sum] : servers)
    if (Status s = writer.addServerBucket(key.bucket, key.server, sum); !s) return s;
  for (const auto& [key, reservoir] : samples)
    if (Status s = writer.mergeSamples(key.tableId, key.bucket, reservoir); !s) return s;
  return Status::ok();
}

}  // namespace

Status StatsRecorder::persist(sqlite3* db) {
  Pending taken;
  {
    std::lock_guard lock(m_mutex);
    std::swap(taken, m_state->pending);
    m_state->forgetLookups();
  }
  if (taken.counters.empty() && taken.samples.empty()) return Status::ok();
  const Status status = writePending(db, taken.counters, taken.samples);

  std::lock_guard lock(m_mutex);
  State& state = *m_state;
  if (!status) {
    // Put it back, merged with what was recorded meanwhile.
    for (auto& [key, entry] : taken.counters) {
      auto [it, inserted] = state.pending.counters.try_emplace(key, entry);
      if (!inserted) it->second.counters.add(entry.counters);
    }
    for (auto& [key, reservoir] : taken.samples) {
      auto [it, inserted] = state.pending.samples.try_emplace(key, std::move(reservoir));
      if (!inserted) it->second.merge(reservoir);
    }
    state.forgetLookups();
    return status;
  }
  for (auto& [key, reservoir] : taken.samples) {
    reservoir.clear();
    state.spare.push_back(std::move(reservoir));
  }
  // Enough for the tables written to in one second; more would only hold memory.
  constexpr size_t kMaxSpare = 16;
  if (state.spare.size() > kMaxSpare) state.spare.resize(kMaxSpare);
  return status;
}

}  // namespace keyscope::stats
