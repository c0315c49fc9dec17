// The text and jsonl forms of a workload run (workload_report.h).
#include "workload_report.h"

#include <cstdio>
#include <ctime>

#include <nlohmann/json.hpp>

#include "csv_cli.h"
#include "keyscope/bytes.h"

namespace keyscope::cli {

namespace {

std::string fixed(double value, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

std::string percent(double share) { return fixed(share * 100, 0) + "%"; }

std::string plural(uint64_t n, const char* one, const char* many) {
  return withCommas(n) + " " + (n == 1 ? one : many);
}

// "12 ([1250,0])": a region and its start row (decoded when the table has a
// key schema), short enough for a table cell.
std::string regionText(const IntervalLoad& l) {
  std::string start = l.hottestRegionStart.empty() ? "table start" : toStringBinary(l.hottestRegionStart);
  const std::string prefix = "region " + std::to_string(l.hottestRegion) + ": ";
  if (l.hottestRegionLabel.starts_with(prefix)) start = l.hottestRegionLabel.substr(prefix.size());
  if (start.size() > 2 && start.front() == '(' && start.back() == ')') start = start.substr(1, start.size() - 2);
  std::string text = std::to_string(l.hottestRegion) + " (" + start;
  if (text.size() > 29) text = text.substr(0, 26) + "...";
  return text + ")";
}

std::string padLeft(const std::string& s, size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}
std::string padRight(const std::string& s, size_t width) {
  return s.size() >= width ? s : s + std::string(width - s.size(), ' ');
}

}  // namespace

std::string isoMillis(int64_t millis) {
  const std::time_t seconds = static_cast<std::time_t>(millis / 1000 - (millis % 1000 < 0 ? 1 : 0));
  const int64_t ms = ((millis % 1000) + 1000) % 1000;
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms));
  return buf;
}

std::string progressText(const WorkloadProgress& p) {
  return withCommas(p.operations) + " of " + withCommas(p.plannedOperations) + " operations, " +
         fixed(static_cast<double>(p.simulatedMillis) / 1000.0, 1) + " s simulated, " +
         plural(p.regions, "region", "regions") + ", " + plural(p.splits, "split", "splits");
}

std::string progressJson(const WorkloadProgress& p) {
  nlohmann::ordered_json j;
  j["type"] = "progress";
  j["operations"] = p.operations;
  j["planned"] = p.plannedOperations;
  j["puts"] = p.puts;
  j["gets"] = p.gets;
  j["scans"] = p.scans;
  j["now"] = p.nowMillis;
  j["simulated_ms"] = p.simulatedMillis;
  j["regions"] = p.regions;
  j["splits"] = p.splits;
  return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

void printSummaryText(std::ostream& out, const WorkloadSummary& s) {
  out << "workload '" << s.table << "': " << s.design << " keys, " << s.keySchema << "\n";
  out << "  " << plural(s.operations, "operation", "operations");
  if (s.operations != s.plannedOperations) out << " of " << withCommas(s.plannedOperations) << " planned";
  out << " (" << withCommas(s.puts) << " puts, " << withCommas(s.gets) << " gets";
  if (s.gets > 0) out << " (" << withCommas(s.getsFound) << " found)";
  out << ", " << withCommas(s.scans) << " scans";
  if (s.scans > 0) out << " (" << withCommas(s.rowsScanned) << " rows)";
  out << ") by " << plural(s.clients, "client", "clients") << ", seed " << s.seed << "\n";
  out << "  simulated " << isoMillis(s.startMillis) << " + "
      << fixed(static_cast<double>(s.endMillis - s.startMillis) / 1000.0, 1) << " s at "
      << withCommas(static_cast<uint64_t>(s.rate)) << " ops/s; " << fixed(s.wallSeconds, 1) << " s of wall time\n";
  out << "  regions " << s.regionsBefore << " -> " << s.regionsAfter << " (" << plural(s.splits, "split", "splits")
      << ")" << (s.createdTable ? ", table created" : "") << "\n";
  for (const std::string& note : s.notes) out << "  note: " << note << "\n";
  if (s.cancelled) out << "  cancelled: the figures cover the operations that ran\n";

  const char* what = s.metric == LoadMetric::kReads ? "reads" : "writes";
  if (!s.servers.empty()) {
    uint64_t total = 0;
    for (const ServerTotals& t : s.servers) total += s.metric == LoadMetric::kReads ? t.reads : t.writes;
    out << "\nserver      writes       reads  share of " << what << "\n";
    for (const ServerTotals& t : s.servers) {
      const uint64_t v = s.metric == LoadMetric::kReads ? t.reads : t.writes;
      out << padLeft(std::to_string(t.server), 6) << padLeft(withCommas(t.writes), 12) << padLeft(withCommas(t.reads), 12)
          << padLeft(total > 0 ? percent(static_cast<double>(v) / static_cast<double>(total)) : "-", 11) << "\n";
    }
  }
  if (!s.intervals.empty()) {
    out << "\ninterval  seconds        " << padLeft(what, 8)
        << "  hottest server  share  hottest region (start row)        share\n";
    for (size_t i = 0; i < s.intervals.size(); ++i) {
      const IntervalLoad& l = s.intervals[i];
      const std::string from = std::to_string((l.window.fromMillis - s.window.fromMillis) / 1000);
      const std::string to = std::to_string((l.window.toMillis - s.window.fromMillis) / 1000);
      const uint64_t v = s.metric == LoadMetric::kReads ? l.reads : l.writes;
      const bool any = v > 0;
      out << padLeft(std::to_string(i + 1), 8) << "  " << padRight(from + "-" + to, 9) << padLeft(withCommas(v), 12)
          << padLeft(any && l.hottestServer >= 0 ? std::to_string(l.hottestServer) : "-", 16)
          << padLeft(any ? percent(l.hottestServerShare) : "-", 7) << "  "
          << padRight(any && l.hottestRegion >= 0 ? regionText(l) : "-", 32)
          << padLeft(any && l.hottestRegion >= 0 ? percent(l.hottestRegionShare) : "-", 7) << "\n";
    }
  }
  if (!s.statisticsError.empty()) out << "\nstatistics: " << s.statisticsError << "\n";
  out << "\nverdict: " << s.verdict << "\n";
}

std::string summaryJson(const WorkloadSummary& s, const std::string& error) {
  nlohmann::ordered_json j;
  j["type"] = "summary";
  j["table"] = s.table;
  j["design"] = s.design;
  j["key_schema"] = s.keySchema;
  j["seed"] = s.seed;
  j["clients"] = s.clients;
  j["created_table"] = s.createdTable;
  j["cancelled"] = s.cancelled;
  j["planned"] = s.plannedOperations;
  j["operations"] = s.operations;
  j["puts"] = s.puts;
  j["gets"] = s.gets;
  j["gets_found"] = s.getsFound;
  j["scans"] = s.scans;
  j["rows_scanned"] = s.rowsScanned;
  j["start"] = s.startMillis;
  j["end"] = s.endMillis;
  j["rate"] = s.rate;
  j["wall_seconds"] = s.wallSeconds;
  j["regions_before"] = s.regionsBefore;
  j["regions_after"] = s.regionsAfter;
  j["splits"] = s.splits;
  j["window"] = {s.window.fromMillis, s.window.toMillis};
  j["metric"] = loadMetricName(s.metric);
  nlohmann::ordered_json servers = nlohmann::ordered_json::array();
  for (const ServerTotals& t : s.servers) servers.push_back({{"server", t.server}, {"writes", t.writes}, {"reads", t.reads}});
  j["servers"] = servers;
  nlohmann::ordered_json intervals = nlohmann::ordered_json::array();
  for (const IntervalLoad& l : s.intervals) {
    nlohmann::ordered_json i;
    i["from"] = l.window.fromMillis;
    i["to"] = l.window.toMillis;
    i["writes"] = l.writes;
    i["reads"] = l.reads;
    i["hottest_server"] = l.hottestServer;
    i["hottest_server_share"] = l.hottestServerShare;
    i["hottest_region"] = l.hottestRegion;
    i["hottest_region_start"] = toStringBinary(l.hottestRegionStart);
    i["hottest_region_label"] = l.hottestRegionLabel;
    i["hottest_region_share"] = l.hottestRegionShare;
    intervals.push_back(i);
  }
  j["intervals"] = intervals;
  j["verdict"] = s.verdict;
  if (!s.statisticsError.empty()) j["statistics_error"] = s.statisticsError;
  j["notes"] = s.notes;
  if (!error.empty()) j["error"] = error;
  return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace keyscope::cli
