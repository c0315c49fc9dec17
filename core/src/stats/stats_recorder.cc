// StatsRecorder (stats_recorder.h). PLACEHOLDER until the statistics module lands.
#include "stats/stats_recorder.h"

namespace keyscope::stats {

struct StatsRecorder::State {};

StatsRecorder::StatsRecorder(uint64_t) : m_state(std::make_unique<State>()) {}
StatsRecorder::~StatsRecorder() = default;
void StatsRecorder::recordWrite(const ChargeTarget&, BytesView, uint64_t, uint64_t, int64_t) {}
void StatsRecorder::recordReads(const ChargeTarget&, uint64_t, uint64_t, uint64_t, std::span<const BytesView>,
                                int64_t) {}
Status StatsRecorder::persist(sqlite3*) { return Status::ok(); }
bool StatsRecorder::empty() const { return true; }

}  // namespace keyscope::stats
