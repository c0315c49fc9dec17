// The seeded OpenTSDB-style workload (see workload.h for the key layout).
#include "workload.h"

#include <algorithm>
#include <array>
#include <cstring>

namespace keyscope_bench {
namespace {

// Ids are spread out (not 0, 1, 2...) so keys look like real ids; the gaps
// give absentRow() entities that sort between real ones.
constexpr uint16_t kFirstMetric = 0x0100;
constexpr uint16_t kMetricStep = 7;
constexpr uint32_t kFirstEntity = 1000;
constexpr uint32_t kEntityStep = 3;
// 2023-11-14T22:00Z: the newest hour of every series.
constexpr uint32_t kNewestHour = 472'222;
constexpr uint32_t kSecondsPerPointSlot = 3600 / Workload::kPointsPerRow;  // 56
// The second version of a point: a correction written an hour later.
constexpr int64_t kCorrectionDelayMillis = 3'600'000;

// Tokens of monitoring annotations: enough repetition for zstd to find, with
// numbers in between so values are not trivially compressible.
constexpr std::array<std::string_view, 16> kVocabulary = {
    "ok ",       "cpu=",   "idle ",       "mem=",  "host-a17 ", "GET /api/v2 ",
    "status=",   "200 ",   "latency_ms=", "warn ", "disk=",     "rx_bytes=",
    "region=eu", "retry ", "gc_pause=",   "queue="};

void putBigEndian(uint64_t v, size_t n, char* out) {
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<char>(v >> (8 * (n - 1 - i)));
}

}  // namespace

uint64_t mix64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  x ^= x >> 31;
  return x;
}

void flatKey(const CellData& cell, char out[kFlatKeySize]) {
  std::memcpy(out, cell.row, CellData::kRowSize);
  std::memcpy(out + CellData::kRowSize, cell.qualifier, CellData::kQualifierSize);
  putBigEndian(~static_cast<uint64_t>(cell.timestamp), 8,
               out + CellData::kRowSize + CellData::kQualifierSize);
}

void flatKeyBounds(std::string_view row, std::string_view qualifier, char low[kFlatKeySize],
                   char high[kFlatKeySize]) {
  const size_t n = row.size() + qualifier.size();
  std::memcpy(low, row.data(), row.size());
  std::memcpy(low + row.size(), qualifier.data(), qualifier.size());
  std::memcpy(high, low, n);
  std::memset(low + n, 0x00, kFlatKeySize - n);
  std::memset(high + n, 0xFF, kFlatKeySize - n);
}

Workload::Workload(const WorkloadConfig& config) : m_config(config) {
  m_rows = (config.cells + kCellsPerRow - 1) / kCellsPerRow;
  m_series = (m_rows + kHoursPerSeries - 1) / kHoursPerSeries;
  m_entitiesPerMetric = std::max<uint64_t>(1, (m_series + kMetrics - 1) / kMetrics);
  uint32_t bits = 1;
  while ((uint64_t{1} << (2 * bits)) < config.cells) ++bits;
  m_halfBits = bits;
}

void Workload::rowKey(uint64_t row, uint32_t entityOffset, char out[CellData::kRowSize]) const {
  const uint64_t series = row / kHoursPerSeries;
  const uint64_t hourSlot = row % kHoursPerSeries;  // 0: the newest hour
  const uint64_t metric = kFirstMetric + kMetricStep * (series / m_entitiesPerMetric);
  const uint64_t entity =
      kFirstEntity + kEntityStep * (series % m_entitiesPerMetric) + entityOffset;
  const uint64_t hour = kNewestHour - hourSlot;
  putBigEndian(metric, 2, out);
  putBigEndian(entity, 4, out + 2);
  putBigEndian(0xFFFFFFFFull - hour, 4, out + 6);
}

uint16_t Workload::secondOf(uint64_t row, uint32_t point) const {
  const uint64_t jitter = mix64(m_config.seed ^ (row << 8) ^ point) % kSecondsPerPointSlot;
  return static_cast<uint16_t>(point * kSecondsPerPointSlot + jitter);
}

int64_t Workload::timestampOf(uint64_t row, uint32_t point, uint32_t version) const {
  const int64_t hour = kNewestHour - static_cast<int64_t>(row % kHoursPerSeries);
  const int64_t millis = (hour * 3600 + secondOf(row, point)) * 1000;
  return version == 0 && point % kVersionedEvery == mix64(m_config.seed ^ row) % kVersionedEvery
             ? millis + kCorrectionDelayMillis
             : millis;
}

void Workload::valueOf(uint64_t row, uint32_t point, uint32_t version, CellData* out) const {
  uint64_t h = mix64(m_config.seed * 31 + (row << 16) + (point << 1) + version);
  const size_t size = 8 + h % (CellData::kMaxValueSize - 8 + 1);
  size_t n = 0;
  while (n < size) {
    h = mix64(h);
    const std::string_view token = kVocabulary[h % kVocabulary.size()];
    const size_t t = std::min(token.size(), size - n);
    std::memcpy(out->value + n, token.data(), t);
    n += t;
    // Numeric noise: 1-4 digits.
    uint64_t number = (h >> 8) % 10'000;
    char digits[8];
    size_t d = 0;
    do {
      digits[d++] = static_cast<char>('0' + number % 10);
      number /= 10;
    } while (number != 0);
    while (d > 0 && n < size) out->value[n++] = digits[--d];
    if (n < size) out->value[n++] = ' ';
  }
  out->valueSize = static_cast<uint8_t>(size);
}

void Workload::pointOf(uint64_t row, uint32_t j, uint32_t* point, uint32_t* version) const {
  // Each group of kVersionedEvery points holds kVersionedEvery + 1 cells: the
  // versioned point (same position in every group of a row) takes two.
  const uint32_t v = static_cast<uint32_t>(mix64(m_config.seed ^ row) % kVersionedEvery);
  const uint32_t group = j / (kVersionedEvery + 1);
  const uint32_t o = j % (kVersionedEvery + 1);
  const uint32_t base = group * kVersionedEvery;
  if (o <= v) {
    *point = base + o;
    *version = 0;
  } else if (o == v + 1) {
    *point = base + v;
    *version = 1;
  } else {
    *point = base + o - 1;
    *version = 0;
  }
}

void Workload::cellAt(uint64_t i, CellData* out) const {
  const uint64_t row = i / kCellsPerRow;
  uint32_t point = 0;
  uint32_t version = 0;
  pointOf(row, static_cast<uint32_t>(i % kCellsPerRow), &point, &version);
  rowKey(row, 0, out->row);
  putBigEndian(secondOf(row, point), 2, out->qualifier);
  out->timestamp = timestampOf(row, point, version);
  valueOf(row, point, version, out);
}

void Workload::latestAt(uint64_t i, CellData* out) const {
  const uint64_t row = i / kCellsPerRow;
  uint32_t point = 0;
  uint32_t version = 0;
  pointOf(row, static_cast<uint32_t>(i % kCellsPerRow), &point, &version);
  rowKey(row, 0, out->row);
  putBigEndian(secondOf(row, point), 2, out->qualifier);
  out->timestamp = timestampOf(row, point, 0);
  valueOf(row, point, 0, out);
}

std::string Workload::absentRow(uint64_t s) const {
  std::string row(CellData::kRowSize, '\0');
  rowKey(s * kHoursPerSeries, 1, row.data());
  return row;
}

std::string Workload::seriesPrefix(uint64_t s) const {
  char row[CellData::kRowSize];
  rowKey(s * kHoursPerSeries, 0, row);
  return std::string(row, 6);
}

uint64_t Workload::cellsInSeries(uint64_t s) const {
  const uint64_t first = s * kCellsPerSeries;
  return first >= cells() ? 0 : std::min<uint64_t>(kCellsPerSeries, cells() - first);
}

uint64_t Workload::rawBytes() const {
  uint64_t total = 0;
  CellData cell;
  for (uint64_t i = 0; i < cells(); ++i) {
    cellAt(i, &cell);
    total += kFlatKeySize + cell.valueSize;
  }
  return total;
}

// A balanced Feistel network over 2 * m_halfBits bits is a bijection; walking
// the cycle until the result falls inside [0, cells) keeps it one on [0, cells)
// (the domain is < 4 x cells, so a few steps at most on average).
uint64_t Workload::feistel(uint64_t x) const {
  const uint64_t mask = (uint64_t{1} << m_halfBits) - 1;
  uint64_t left = x >> m_halfBits;
  uint64_t right = x & mask;
  for (uint64_t round = 0; round < 4; ++round) {
    const uint64_t f = mix64(right ^ (m_config.seed + round * 0x632BE59BD9B4E019ull)) & mask;
    const uint64_t next = left ^ f;
    left = right;
    right = next;
  }
  return (left << m_halfBits) | right;
}

uint64_t Workload::permutedIndex(uint64_t i) const {
  uint64_t x = feistel(i);
  while (x >= cells()) x = feistel(x);
  return x;
}

}  // namespace keyscope_bench
