// The demo's generated data: a seeded random source, a batching writer, row
// keys encoded with the schema each table's recipe declares, and one
// generator per lesson (demo_series.cc, demo_web.cc).
//
// Every generator is a pure function of its seed: it uses only Rng (never
// std:: distributions, whose results differ between standard libraries),
// integer arithmetic for the values it prints, and explicit timestamps or the
// fixed workspace clock. Single-threaded, as demo::build is.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "keyscope/cancel_token.h"
#include "keyscope/demo.h"
#include "keyscope/key_codec.h"
#include "keyscope/key_schema.h"
#include "keyscope/workspace.h"
#include "splitmix64.h"

namespace keyscope::demo::detail {

// The demo's seeded random source (splitmix64.h) with the draws its
// generators use.
class Rng : public SplitMix64 {
 public:
  using SplitMix64::SplitMix64;
  // Uniform in [lo, hi]; REQUIRES: lo <= hi.
  int64_t between(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(below(static_cast<uint64_t>(hi - lo) + 1));
  }
  bool chance(unsigned percent) { return below(100) < percent; }
  // Index into a list whose first entries are the most popular: rank r is
  // drawn with weight 1/(r+1), a Zipf-like skew as in web traffic.
  size_t skewed(size_t n);
};

// What a generator works with.
struct Context {
  Workspace& ws;
  const BuildOptions& options;
  BuildSummary& summary;

  Status checkCancelled() const;
  void progress(const std::string& line) const;
};

// A table's row keys, encoded with the schema its recipe attached to it, so
// the keys the GUI decodes are exactly the ones written.
class KeyEncoder {
 public:
  static Result<KeyEncoder> forTable(const Workspace& ws, const std::string& table);
  Result<Bytes> encode(const KeyTuple& tuple) const;

 private:
  KeyEncoder(std::string table, KeySchema schema) : m_table(std::move(table)), m_schema(std::move(schema)) {}
  std::string m_table;
  KeySchema m_schema;
};

// Collects puts and writes them in atomic batches of `batchRows` rows.
class TableWriter {
 public:
  TableWriter(const Context& ctx, std::string table, size_t batchRows = 1000)
      : m_ctx(ctx), m_table(std::move(table)), m_batchRows(batchRows) {}
  Status add(Put put);
  Status flushBatch();   // writes what is collected (add() calls it when full)
  uint64_t rows() const { return m_rows; }
  uint64_t cells() const { return m_cells; }

 private:
  const Context& m_ctx;
  std::string m_table;
  size_t m_batchRows;
  std::vector<Mutation> m_batch;
  uint64_t m_rows = 0;
  uint64_t m_cells = 0;
};

// "21.4" for 214, "-0.5" for -5: one decimal, no locale.
std::string tenths(int64_t value);
// "000042" for (42, 6).
std::string zeroPadded(uint64_t value, int width);
// "2024-03-01T00:15:00.000Z" and "2024-03-01" for a time in ms since 1970 (UTC).
std::string isoTime(int64_t millis);
std::string isoDay(int64_t millis);
// "1,234": thousands separated, for progress lines.
std::string grouped(uint64_t value);

// The generators. Each fills the tables its recipe created and flushes them.
Status generateEvents(const Context& ctx);        // events_monotonic + events_salted, lock-step
Status generateTsdb(const Context& ctx);          // tsdb
Status generateWebVisits(const Context& ctx);     // web_visits
Status generateSensorSeries(const Context& ctx);  // sensor_series
Status generateProfiles(const Context& ctx);      // profiles
Status generateSizes(const Context& ctx);         // sizes_verbose + sizes_compact
Status generateWebPages(const Context& ctx);      // web_pages
Status generateGeoTiles(const Context& ctx);      // geo_tiles
Status generatePageCounters(const Context& ctx);  // page_counters
Status generateTopUrls(const Context& ctx);       // top_urls

}  // namespace keyscope::demo::detail
