// The benchmark's workload: an OpenTSDB-style time-series table, generated
// from a seed so that every peer process regenerates exactly the same cells
// without any of them being held in memory (peak RSS stays the peer's own).
//
// Row key (10 bytes, big-endian):
//   OFFSET  SIZE  DESCRIPTION
//        0     2  metric id
//        2     4  entity id
//        6     4  0xFFFFFFFF - hour since the epoch (newest hour sorts first)
// Family `d`; qualifier = 2-byte big-endian second offset inside the hour.
//
// Shape: a series (metric|entity, the prefix scans' unit) has kHoursPerSeries
// rows; a row has kPointsPerRow points, one in eight of which also carries a
// second, newer version (a correction written an hour later), so a row holds
// kCellsPerRow cells and a series 14 x 72 = 1,008 cells ("prefix scans of
// about 1,000 cells"). Values are 8-64 bytes drawn from a small vocabulary
// with numeric noise, so they compress somewhat, as real annotations do.
//
// Cell index i in [0, cells) enumerates the cells in key order (row asc,
// qualifier asc, timestamp desc); permutedIndex() maps it to a random order
// with a seeded bijection, so neither order needs a table in memory.
//
// Thread rules: a Workload is immutable after construction; share it freely.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace keyscope_bench {

// One generated cell, in fixed buffers (no allocation per cell).
struct CellData {
  static constexpr size_t kRowSize = 10;
  static constexpr size_t kQualifierSize = 2;
  static constexpr size_t kMaxValueSize = 64;

  char row[kRowSize];
  char qualifier[kQualifierSize];
  char value[kMaxValueSize];
  uint8_t valueSize = 0;
  int64_t timestamp = 0;

  std::string_view rowView() const { return {row, kRowSize}; }
  std::string_view qualifierView() const { return {qualifier, kQualifierSize}; }
  std::string_view valueView() const { return {value, valueSize}; }
};

// The key the flat peers (RocksDB, LevelDB, SQLite) store per cell:
// row(10) | qualifier(2) | ~timestamp (8, big-endian), so that byte order is
// Keyscope's cell order (row asc, qualifier asc, newest version first).
constexpr size_t kFlatKeySize = CellData::kRowSize + CellData::kQualifierSize + 8;
void flatKey(const CellData& cell, char out[kFlatKeySize]);
// The bounds holding every version of row|qualifier: [row|q|00.., row|q|ff..].
void flatKeyBounds(std::string_view row, std::string_view qualifier, char low[kFlatKeySize],
                   char high[kFlatKeySize]);

struct WorkloadConfig {
  uint64_t cells = 5'000'000;
  uint64_t seed = 42;
};

class Workload {
 public:
  static constexpr uint32_t kPointsPerRow = 64;
  static constexpr uint32_t kVersionedEvery = 8;  // one point in 8 has two versions
  static constexpr uint32_t kCellsPerRow = kPointsPerRow + kPointsPerRow / kVersionedEvery;
  static constexpr uint32_t kHoursPerSeries = 14;
  static constexpr uint32_t kCellsPerSeries = kCellsPerRow * kHoursPerSeries;
  static constexpr uint32_t kMetrics = 8;

  explicit Workload(const WorkloadConfig& config);

  uint64_t cells() const { return m_config.cells; }
  uint64_t seed() const { return m_config.seed; }
  uint64_t series() const { return m_series; }

  // The cell at key-order index i. REQUIRES: i < cells().
  void cellAt(uint64_t i, CellData* out) const;
  // A seeded permutation of [0, cells()): the random load order.
  uint64_t permutedIndex(uint64_t i) const;

  // The row and qualifier of cell i, and the newest value stored there.
  void latestAt(uint64_t i, CellData* out) const;
  // A row key that is absent from the table (an entity between two real ones),
  // derived from series s. REQUIRES: s < series().
  std::string absentRow(uint64_t s) const;

  // The metric|entity prefix of series s, and how many cells it holds.
  std::string seriesPrefix(uint64_t s) const;
  uint64_t cellsInSeries(uint64_t s) const;

  // Raw key+value bytes: per cell its flat key (row, qualifier, timestamp:
  // 20 bytes; the single family is implied) plus the value.
  uint64_t rawBytes() const;

 private:
  void rowKey(uint64_t row, uint32_t entityOffset, char out[CellData::kRowSize]) const;
  uint16_t secondOf(uint64_t row, uint32_t point) const;
  int64_t timestampOf(uint64_t row, uint32_t point, uint32_t version) const;
  void valueOf(uint64_t row, uint32_t point, uint32_t version, CellData* out) const;
  // Cell j of a row -> (point, version); version 0 is the newest.
  void pointOf(uint64_t row, uint32_t j, uint32_t* point, uint32_t* version) const;
  uint64_t feistel(uint64_t x) const;

  WorkloadConfig m_config;
  uint64_t m_rows = 0;
  uint64_t m_series = 0;
  uint64_t m_entitiesPerMetric = 0;
  uint32_t m_halfBits = 0;  // the permutation works on 2 * m_halfBits bits
};

// splitmix64: the generator's only source of randomness.
uint64_t mix64(uint64_t x);

// A small seeded generator for the read phases' choices.
class Rng {
 public:
  explicit Rng(uint64_t seed) : m_state(seed) {}
  uint64_t next() { return mix64(m_state += 0x9E3779B97F4A7C15ull); }
  uint64_t below(uint64_t n) { return next() % n; }

 private:
  uint64_t m_state;
};

}  // namespace keyscope_bench
