// OperationStream: a run's operations as a deterministic sequence of actions
// (a batch of puts, a get, a scan), each at its simulated time, computed
// from the options alone. The runner executes them against a workspace;
// previewKeys reads the puts without one.
//
// The schedule: operation k is client k mod C's turn, at simulated time
// start + floor(k x 1000 / rate). On its turn a client draws the operation's
// kind by the mix from its own Rng. A put is collected into the client's
// batch (and counted as issued) and written when the batch is full; a get
// asks for one of the last kRecentRows rows written (a row the design would
// write now while none is); a scan reads the design's scan ranges. When
// every operation is issued, the partial batches follow, client by client.
//
// Not thread-safe: one stream per run, on the run's thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "keyscope/workload.h"
#include "keyscope/workspace.h"
#include "workload/key_design.h"
#include "workload/workload_rng.h"

namespace keyscope::workload {

struct Action {
  enum class Kind : uint8_t { kPuts, kGet, kScan };
  Kind kind = Kind::kPuts;
  uint32_t client = 0;
  int64_t nowMillis = 0;          // the clock while it runs
  std::vector<Mutation> puts;     // kPuts: Put mutations, one cell each
  Bytes row;                      // kGet
  std::vector<ScanRange> ranges;  // kScan
};

// The schedule's arithmetic, shared with the runner and the summary.
struct Schedule {
  int64_t startMillis = kDefaultStartMillis;
  double rate = kNominalRate;
  uint64_t operations = 0;  // planned

  int64_t timeOf(uint64_t op) const;
  // The plan for `options`, starting at `startMillis`.
  static Schedule of(const WorkloadOptions& options, int64_t startMillis);
  RunPlan plan(const WorkloadOptions& options) const;
};

class OperationStream {
 public:
  // How many recently written rows gets choose from: recent enough to be
  // "the rows a reader asks for now", many enough to spread over regions.
  static constexpr size_t kRecentRows = 4096;

  OperationStream(const WorkloadOptions& options, const Schedule& schedule, std::unique_ptr<KeyDesignModel> design,
                  std::string family);

  // The next action; false when the run has no more (then check status()).
  // Once every operation is issued, the partial batches come out.
  bool next(Action* out);
  // Stops issuing operations: next() returns only the partial batches now.
  void stop() { m_stopped = true; }
  // An error that ended the stream (a key that does not encode); OK otherwise.
  const Status& status() const { return m_status; }

  uint64_t issued() const { return m_issued; }
  uint64_t puts() const { return m_puts; }
  uint64_t gets() const { return m_gets; }
  uint64_t scans() const { return m_scans; }
  // The simulated time of the last operation issued (the start before any).
  int64_t lastMillis() const { return m_lastMillis; }
  const KeyDesignModel& design() const { return *m_design; }

 private:
  enum class OpKind : uint8_t { kPut, kGet, kScan };
  struct Client {
    Rng rng;
    uint64_t step = 0;
    std::vector<Mutation> batch;
  };
  OpKind pickKind(Rng& rng) const;
  Bytes value(Rng& rng) const;
  void emitBatch(Client& client, uint32_t index, int64_t now, Action* out);
  bool drainOne(Action* out);

  WorkloadOptions m_options;  // without its callbacks
  Schedule m_schedule;
  std::unique_ptr<KeyDesignModel> m_design;
  std::string m_family;
  std::vector<Client> m_clients;
  std::vector<Bytes> m_recent;  // a ring of the last kRecentRows rows written
  size_t m_recentNext = 0;
  double m_putShare = 1;
  double m_getShare = 0;
  uint64_t m_issued = 0;
  uint64_t m_puts = 0;
  uint64_t m_gets = 0;
  uint64_t m_scans = 0;
  int64_t m_lastMillis = 0;
  size_t m_drainClient = 0;
  bool m_stopped = false;
  Status m_status;
};

}  // namespace keyscope::workload
