// OperationStream (operation_stream.h): a run's schedule of clients and
// operations.
#include "workload/operation_stream.h"

#include <algorithm>
#include <cmath>

namespace keyscope::workload {

int64_t Schedule::timeOf(uint64_t op) const {
  return startMillis + static_cast<int64_t>(std::floor(static_cast<double>(op) * 1000.0 / rate));
}

Schedule Schedule::of(const WorkloadOptions& options, int64_t startMillis) {
  Schedule s;
  s.startMillis = startMillis;
  s.rate = options.rate.value_or(kNominalRate);
  if (!options.operations && !options.durationMillis) {
    s.operations = kDefaultOperations;
  } else {
    s.operations = options.operations.value_or(UINT64_MAX);
    if (options.durationMillis) {
      // Operation k runs while floor(k x 1000 / rate) < duration, i.e. k < duration x rate / 1000.
      const double fit = std::ceil(static_cast<double>(*options.durationMillis) * s.rate / 1000.0);
      s.operations = std::min(s.operations, static_cast<uint64_t>(std::max(fit, 0.0)));
    }
  }
  return s;
}

RunPlan Schedule::plan(const WorkloadOptions& options) const {
  RunPlan p;
  p.startMillis = startMillis;
  p.endMillis = operations > 0 ? timeOf(operations - 1) : startMillis;
  p.operations = operations;
  const OperationMix& m = options.mix;
  const double total = m.put + m.get + m.scan;
  p.puts = total > 0 ? static_cast<uint64_t>(std::llround(static_cast<double>(operations) * m.put / total)) : 0;
  p.clients = std::max<uint32_t>(options.clients, 1);
  p.scanRows = options.scanRows;
  return p;
}

OperationStream::OperationStream(const WorkloadOptions& options, const Schedule& schedule,
                                 std::unique_ptr<KeyDesignModel> design, std::string family)
    : m_schedule(schedule), m_design(std::move(design)), m_family(std::move(family)), m_lastMillis(schedule.startMillis) {
  m_options = options;
  m_options.progress = nullptr;
  m_options.cancel = nullptr;
  m_options.pause = nullptr;
  const double total = options.mix.put + options.mix.get + options.mix.scan;
  m_putShare = options.mix.put / total;
  m_getShare = options.mix.get / total;
  m_clients.reserve(options.clients);
  for (uint32_t c = 0; c < options.clients; ++c) m_clients.push_back(Client{Rng(clientSeed(options.seed, c)), 0, {}});
  m_recent.reserve(kRecentRows);
}

OperationStream::OpKind OperationStream::pickKind(Rng& rng) const {
  // Write-only and read-only runs draw nothing, so that their keys do not
  // depend on the mix's arithmetic.
  if (m_putShare >= 1) return OpKind::kPut;
  const double u = rng.unit();
  if (u < m_putShare) return OpKind::kPut;
  if (u < m_putShare + m_getShare) return OpKind::kGet;
  return OpKind::kScan;
}

// Lowercase letters a..p, four random bits each: values that look like
// data and compress about as well as text does.
Bytes OperationStream::value(Rng& rng) const {
  Bytes v(m_options.valueBytes, 'a');
  uint64_t bits = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i % 16 == 0) bits = rng.next();
    v[i] = static_cast<char>('a' + (bits & 15));
    bits >>= 4;
  }
  return v;
}

void OperationStream::emitBatch(Client& client, uint32_t index, int64_t now, Action* out) {
  out->kind = Action::Kind::kPuts;
  out->client = index;
  out->nowMillis = now;
  out->puts = std::move(client.batch);
  client.batch.clear();
  out->row.clear();
  out->ranges.clear();
  for (const Mutation& m : out->puts) {
    const Bytes& row = std::get<Put>(m).row;
    if (m_recent.size() < kRecentRows) {
      m_recent.push_back(row);
    } else {
      m_recent[m_recentNext] = row;
      m_recentNext = (m_recentNext + 1) % kRecentRows;
    }
  }
}

bool OperationStream::drainOne(Action* out) {
  for (; m_drainClient < m_clients.size(); ++m_drainClient) {
    Client& client = m_clients[m_drainClient];
    if (client.batch.empty()) continue;
    emitBatch(client, static_cast<uint32_t>(m_drainClient), m_lastMillis, out);
    ++m_drainClient;
    return true;
  }
  return false;
}

bool OperationStream::next(Action* out) {
  if (!m_status) return false;
  while (!m_stopped && m_issued < m_schedule.operations) {
    const uint64_t op = m_issued;
    const auto index = static_cast<uint32_t>(op % m_clients.size());
    Client& client = m_clients[index];
    const int64_t now = m_schedule.timeOf(op);
    const KeyContext ctx{now, m_puts, index, client.step};
    const OpKind kind = pickKind(client.rng);
    if (kind == OpKind::kPut) {
      Result<Bytes> row = m_design->writeKey(ctx, client.rng);
      if (!row) {
        m_status = row.status();
        return false;
      }
      m_issued = op + 1;
      m_lastMillis = now;
      client.batch.push_back(Put{std::move(row).value(), {PutCell{m_family, "v", kLatestTimestamp, value(client.rng)}}});
      ++m_puts;
      ++client.step;
      if (client.batch.size() < m_options.batchSize) continue;
      emitBatch(client, index, now, out);
      return true;
    }
    m_issued = op + 1;
    m_lastMillis = now;
    out->client = index;
    out->nowMillis = now;
    out->puts.clear();
    out->ranges.clear();
    out->row.clear();
    if (kind == OpKind::kGet) {
      ++m_gets;
      out->kind = Action::Kind::kGet;
      if (!m_recent.empty()) {
        out->row = m_recent[client.rng.below(m_recent.size())];
      } else {
        Result<Bytes> row = m_design->writeKey(ctx, client.rng);
        if (!row) {
          m_status = row.status();
          return false;
        }
        out->row = std::move(row).value();
      }
      return true;
    }
    ++m_scans;
    out->kind = Action::Kind::kScan;
    Result<std::vector<ScanRange>> ranges = m_design->scanRanges(ctx, client.rng);
    if (!ranges) {
      m_status = ranges.status();
      return false;
    }
    out->ranges = std::move(ranges).value();
    return true;
  }
  return drainOne(out);
}

}  // namespace keyscope::workload
