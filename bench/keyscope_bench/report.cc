// Medians, spreads, ratios and targets, as Markdown or JSON (see report.h).
#include "report.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>
#include <optional>

namespace keyscope_bench {
namespace {

struct MetricDef {
  const char* key;
  const char* label;
  bool bytes;  // a size (lower is better) rather than a rate (higher is better)
  double (*value)(const Metrics&, const RunConfig&);
};

double at(const Metrics& m, const char* name) {
  const auto it = m.find(name);
  return it == m.end() ? std::nan("") : it->second;
}
double cells(const RunConfig& c) {
  return static_cast<double>(c.workload.cells);
}

const std::vector<MetricDef>& metricDefs() {
  static const std::vector<MetricDef> defs = {
      {"load_sorted", "load, key order, client-visible (cells/s)", false,
       [](const Metrics& m, const RunConfig& c) {
         return cells(c) / at(m, "load_sorted_client_seconds");
       }},
      {"load_sorted_compacted", "load, key order, until compacted (cells/s)", false,
       [](const Metrics& m, const RunConfig& c) {
         return cells(c) / at(m, "load_sorted_compacted_seconds");
       }},
      {"load_random", "load, random order, client-visible (cells/s)", false,
       [](const Metrics& m, const RunConfig& c) {
         return cells(c) / at(m, "load_random_client_seconds");
       }},
      {"load_random_compacted", "load, random order, until compacted (cells/s)", false,
       [](const Metrics& m, const RunConfig& c) {
         return cells(c) / at(m, "load_random_compacted_seconds");
       }},
      {"get_hit", "get latest, all hits (gets/s)", false,
       [](const Metrics& m, const RunConfig&) { return at(m, "gets") / at(m, "get_hit_seconds"); }},
      {"get_miss", "get latest, 20% misses (gets/s)", false,
       [](const Metrics& m, const RunConfig&) {
         return at(m, "gets") / at(m, "get_miss_seconds");
       }},
      {"prefix_scan", "prefix scan, ~1,000 cells each (cells/s)", false,
       [](const Metrics& m, const RunConfig&) {
         return at(m, "prefix_scan_cells") / at(m, "prefix_scan_seconds");
       }},
      {"full_scan", "full scan (cells/s)", false,
       [](const Metrics& m, const RunConfig& c) { return cells(c) / at(m, "full_scan_seconds"); }},
      {"stored_size", "stored size after compaction", true,
       [](const Metrics& m, const RunConfig&) { return at(m, "stored_bytes"); }},
      {"peak_rss", "peak RSS", true,
       [](const Metrics& m, const RunConfig&) { return at(m, "peak_rss_bytes"); }},
  };
  return defs;
}

const MetricDef& metricDef(const char* key) {
  for (const MetricDef& d : metricDefs()) {
    if (std::string_view(d.key) == key) return d;
  }
  die(std::string("no metric ") + key);
}

// Issue 3's targets: Keyscope / peer, measured in the same run.
struct Bound {
  const char* peer = nullptr;  // nullptr: none
  double ratio = 0;
};
struct Target {
  const char* metric;
  const char* label;
  Bound must;
  Bound goal;
  Bound goalFallback;  // when goal's peer was not run (the "~N x RocksDB")
};

const std::vector<Target>& targets() {
  static const std::vector<Target> list = {
      {"load_sorted", "load, sorted order", {"rocksdb", 1.0}, {"leveldb", 1.0}, {"rocksdb", 1.8}},
      {"load_random", "load, random order, client-visible", {"rocksdb", 2.0}, {"rocksdb", 2.4}, {}},
      {"load_random_compacted",
       "load, random order, until compacted",
       {"rocksdb", 1.1},
       {"rocksdb", 1.7},
       {}},
      {"get_hit",
       "get latest, all hits, 64 MiB cache",
       {"rocksdb", 1.5},
       {"sqlite", 1.0},
       {"rocksdb", 2.3}},
      {"get_miss", "get latest, 20% misses", {"rocksdb", 1.5}, {"sqlite", 1.0}, {}},
      {"prefix_scan",
       "prefix scan ~1,000 cells",
       {"rocksdb", 1.5},
       {"leveldb", 1.0},
       {"rocksdb", 1.5}},
      {"full_scan", "full scan", {"rocksdb", 2.5}, {"rocksdb", 2.9}, {}},
      {"stored_size", "stored size after compaction", {"rocksdb", 1.0}, {"rocksdb", 0.95}, {}},
      {"peak_rss", "peak RSS, same cache and memstore", {"rocksdb", 1.1}, {"rocksdb", 1.0}, {}},
  };
  return list;
}

struct Stat {
  double median = 0;
  double min = 0;
  double max = 0;
  int n = 0;
};

std::optional<Stat> statOf(const std::vector<Round>& rounds, const std::string& peer,
                           const MetricDef& def, const RunConfig& config) {
  std::vector<double> values;
  for (const Round& r : rounds) {
    if (r.ok && r.peer == peer) {
      const double v = def.value(r.metrics, config);
      if (std::isfinite(v)) values.push_back(v);
    }
  }
  if (values.empty()) return std::nullopt;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  Stat s;
  s.median = n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  s.min = values.front();
  s.max = values.back();
  s.n = static_cast<int>(n);
  return s;
}

std::optional<double> ratioOf(const std::vector<Round>& rounds, const std::string& peer,
                              const MetricDef& def, const RunConfig& config) {
  const auto ks = statOf(rounds, "keyscope", def, config);
  const auto other = statOf(rounds, peer, def, config);
  if (!ks || !other || other->median == 0) return std::nullopt;
  // Rates and sizes alike: Keyscope / peer (sizes are then compared with <=).
  return ks->median / other->median;
}

bool meets(const MetricDef& def, double ratio, double bound) {
  return def.bytes ? ratio <= bound : ratio >= bound;
}

std::string fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

// 5000000 -> "5,000,000".
std::string thousands(uint64_t v) {
  std::string digits = std::to_string(v);
  for (size_t i = digits.size(); i > 3; i -= 3) digits.insert(i - 3, 1, ',');
  return digits;
}

std::string formatRate(double v) {
  if (v >= 1e6) return fmt("%.2f M", v / 1e6);
  if (v >= 1e3) return fmt("%.1f k", v / 1e3);
  return fmt("%.0f", v);
}

std::string formatValue(const MetricDef& def, double v) {
  return def.bytes ? fmt("%.1f MiB", v / (1 << 20)) : formatRate(v);
}

std::string formatStat(const MetricDef& def, const Stat& s) {
  std::string text = "**" + formatValue(def, s.median) + "**";
  if (s.n > 1) text += " (" + formatValue(def, s.min) + "–" + formatValue(def, s.max) + ")";
  return text;
}

std::string peerLabel(const std::string& name) {
  const PeerInfo* info = findPeer(name);
  return info != nullptr ? info->label : name;
}

std::string assertionsNote(const std::string& peer) {
  return peer == "rocksdb" && rocksDbHasAssertions() ? " (assertions on)" : "";
}

bool ran(const RunConfig& config, const char* peer) {
  return std::find(config.peers.begin(), config.peers.end(), peer) != config.peers.end();
}

// "≥ 1.0× RocksDB", "≤ 0.95× RocksDB"; notes a goal measured against its
// RocksDB estimate because its own peer was not run.
std::string boundText(const MetricDef& def, const Bound& b, const char* notRun = nullptr) {
  const bool tenths = std::fabs(b.ratio * 10 - std::round(b.ratio * 10)) < 1e-9;
  std::string text = std::string(def.bytes ? "≤ " : "≥ ") + fmt(tenths ? "%.1f" : "%.2f", b.ratio) +
                     "× " + peerLabel(b.peer);
  if (notRun != nullptr) text += " (" + peerLabel(notRun) + " not run)";
  return text;
}

// "met" / "missed" / "not run", with the RocksDB label where it applies.
std::string verdict(const std::vector<Round>& rounds, const RunConfig& config, const MetricDef& def,
                    const Bound& b) {
  const auto r = ratioOf(rounds, b.peer, def, config);
  if (!r) return "not measured";
  return (meets(def, *r, b.ratio) ? std::string("met") : std::string("**missed**")) +
         assertionsNote(b.peer);
}

const Bound& effectiveGoal(const RunConfig& config, const Target& t) {
  return ran(config, t.goal.peer) || t.goalFallback.peer == nullptr ? t.goal : t.goalFallback;
}

std::string jsonString(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += fmt("\\u%04x", static_cast<double>(static_cast<unsigned char>(c)));
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string jsonNumber(double v) {
  return std::isfinite(v) ? fmt("%.6g", v) : "null";
}

}  // namespace

std::string loadAverage() {
  std::ifstream in("/proc/loadavg");
  std::string one, five, fifteen;
  if (!(in >> one >> five >> fifteen)) return "";
  return one + " " + five + " " + fifteen;
}

RunInfo describeRun(const std::string& command) {
  RunInfo info;
  info.command = command;
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", &utc);
  info.date = date;
  info.cores = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) {
      const size_t colon = line.find(':');
      info.cpu = colon == std::string::npos ? line : line.substr(colon + 2);
      break;
    }
  }
  if (info.cpu.empty()) info.cpu = "unknown CPU";
  info.loadBefore = loadAverage();
  return info;
}

std::string markdownReport(const RunConfig& config, const RunInfo& info,
                           const std::vector<Round>& rounds) {
  std::string md;
  md += "`" + info.command + "`\n\n";
  md += "Machine: " + std::to_string(info.cores) + " cores (nproc), " + info.cpu +
        ". Date: " + info.date + ".";
  if (!info.loadBefore.empty()) {
    md +=
        " Load average (1/5/15 min): " + info.loadBefore + " before, " + info.loadAfter + " after.";
  }
  md += "\n\n";
  md += "Workload: " + thousands(config.workload.cells) + " cells (seed " +
        std::to_string(config.workload.seed) +
        "), OpenTSDB-style keys metric(2)|entity(4)|reversed hour(4), family d, 2-byte "
        "qualifiers, 8–64-byte values, one point in eight with a second version; batches of " +
        thousands(config.phases.batchCells) + " cells, WAL on without fsync; " +
        std::to_string(config.settings.cacheBytes >> 20) + " MiB cache and " +
        std::to_string(config.settings.memstoreBytes >> 20) +
        " MiB memstore / write buffer each; " + thousands(config.phases.gets) +
        " gets per get phase, " + thousands(config.phases.prefixScans) +
        " prefix scans. Rounds: " + std::to_string(config.rounds) +
        ", each peer in its own process, interleaved; " + "median (min–max).\n\n";
  md += "Peers:\n";
  for (const std::string& p : config.peers) {
    const PeerInfo* pi = findPeer(p);
    md += "- " + (pi != nullptr ? pi->description : p) + "\n";
  }
  md += "\n| metric |";
  for (const std::string& p : config.peers) md += " " + peerLabel(p) + " |";
  md += "\n| --- |";
  for (size_t i = 0; i < config.peers.size(); ++i) md += " ---: |";
  md += "\n";
  double rawBytes = std::nan("");
  for (const Round& r : rounds) {
    if (r.ok) rawBytes = at(r.metrics, "raw_bytes");
  }
  for (const MetricDef& def : metricDefs()) {
    md += std::string("| ") + def.label + " |";
    for (const std::string& p : config.peers) {
      const auto s = statOf(rounds, p, def, config);
      std::string cell = s ? formatStat(def, *s) : "—";
      if (s && std::string_view(def.key) == "stored_size" && std::isfinite(rawBytes)) {
        cell += fmt(", %.2f× raw", s->median / rawBytes);
      }
      md += " " + cell + " |";
    }
    md += "\n";
  }
  if (std::isfinite(rawBytes)) {
    md += "\nRaw key+value bytes: " + fmt("%.1f MiB", rawBytes / (1 << 20)) +
          " (20-byte keys row|qualifier|timestamp plus values).\n";
  }

  bool failures = false;
  for (const Round& r : rounds) {
    if (!r.ok) {
      if (!failures) md += "\nFailed rounds:\n";
      failures = true;
      md += "- " + peerLabel(r.peer) + ", round " + std::to_string(r.round) + ": " + r.error + "\n";
    }
  }

  md +=
      "\nTargets (issue 3): Keyscope ÷ peer, medians of this run; for size and RSS lower is "
      "better.\n\n";
  if (!ran(config, "keyscope") || !statOf(rounds, "keyscope", metricDefs().front(), config)) {
    md += "Keyscope's engine was not measured in this run, so there are no ratios.\n";
    return md;
  }
  std::vector<std::string> others;
  for (const std::string& p : config.peers) {
    if (p != "keyscope") others.push_back(p);
  }
  md += "| metric |";
  for (const std::string& p : others) md += " ÷ " + peerLabel(p) + " |";
  md += " must reach | | goal | |\n| --- |";
  for (size_t i = 0; i < others.size(); ++i) md += " ---: |";
  md += " --- | --- | --- | --- |\n";
  for (const Target& t : targets()) {
    const MetricDef& def = metricDef(t.metric);
    md += std::string("| ") + t.label + " |";
    for (const std::string& p : others) {
      const auto r = ratioOf(rounds, p, def, config);
      // Appended piecewise: GCC 12 warns falsely (-Wrestrict) on "x" + std::string&&.
      md += ' ';
      md += r ? fmt("%.2f×", *r) + assertionsNote(p) : std::string("—");
      md += " |";
    }
    const Bound& goal = effectiveGoal(config, t);
    md += " " + boundText(def, t.must) + " | " + verdict(rounds, config, def, t.must) + " | " +
          boundText(def, goal, &goal == &t.goal ? nullptr : t.goal.peer) + " | " +
          verdict(rounds, config, def, goal) + " |\n";
  }
  return md;
}

std::string jsonReport(const RunConfig& config, const RunInfo& info,
                       const std::vector<Round>& rounds) {
  std::string j = "{\n";
  j += "  \"command\": " + jsonString(info.command) + ",\n";
  j += "  \"date\": " + jsonString(info.date) + ",\n";
  j += "  \"machine\": {\"cores\": " + std::to_string(info.cores) +
       ", \"cpu\": " + jsonString(info.cpu) + ", \"load_before\": " + jsonString(info.loadBefore) +
       ", \"load_after\": " + jsonString(info.loadAfter) + "},\n";
  j += "  \"workload\": {\"cells\": " + std::to_string(config.workload.cells) +
       ", \"seed\": " + std::to_string(config.workload.seed) +
       ", \"batch_cells\": " + std::to_string(config.phases.batchCells) +
       ", \"gets\": " + std::to_string(config.phases.gets) +
       ", \"prefix_scans\": " + std::to_string(config.phases.prefixScans) +
       ", \"cache_bytes\": " + std::to_string(config.settings.cacheBytes) +
       ", \"memstore_bytes\": " + std::to_string(config.settings.memstoreBytes) +
       ", \"rounds\": " + std::to_string(config.rounds) + "},\n";
  j +=
      "  \"rocksdb_assertions\": " + std::string(rocksDbHasAssertions() ? "true" : "false") + ",\n";
  j += "  \"peers\": {";
  for (size_t i = 0; i < config.peers.size(); ++i) {
    const std::string& p = config.peers[i];
    const PeerInfo* pi = findPeer(p);
    j += std::string(i == 0 ? "" : ",") + "\n    " + jsonString(p) +
         ": {\"description\": " + jsonString(pi != nullptr ? pi->description : p) +
         ",\n      \"summary\": {";
    bool first = true;
    for (const MetricDef& def : metricDefs()) {
      const auto s = statOf(rounds, p, def, config);
      if (!s) continue;
      j += std::string(first ? "" : ", ") + "\n        " + jsonString(def.key) +
           ": {\"median\": " + jsonNumber(s->median) + ", \"min\": " + jsonNumber(s->min) +
           ", \"max\": " + jsonNumber(s->max) +
           ", \"unit\": " + jsonString(def.bytes ? "bytes" : "per second") + "}";
      first = false;
    }
    j += "},\n      \"rounds\": [";
    bool firstRound = true;
    for (const Round& r : rounds) {
      if (r.peer != p) continue;
      j += std::string(firstRound ? "" : ",") + "\n        {\"round\": " + std::to_string(r.round) +
           ", \"ok\": " + (r.ok ? "true" : "false");
      if (!r.ok) j += ", \"error\": " + jsonString(r.error);
      for (const auto& [name, value] : r.metrics)
        j += ", " + jsonString(name) + ": " + jsonNumber(value);
      j += "}";
      firstRound = false;
    }
    j += "]}";
  }
  j += "\n  },\n  \"targets\": [";
  bool firstTarget = true;
  const bool haveKeyscope = statOf(rounds, "keyscope", metricDefs().front(), config).has_value();
  for (const Target& t : targets()) {
    if (!haveKeyscope) break;
    const MetricDef& def = metricDef(t.metric);
    j += std::string(firstTarget ? "" : ",") + "\n    {\"metric\": " + jsonString(t.metric) +
         ", \"label\": " + jsonString(t.label) + ", \"ratios\": {";
    bool firstRatio = true;
    for (const std::string& p : config.peers) {
      if (p == "keyscope") continue;
      const auto r = ratioOf(rounds, p, def, config);
      j += std::string(firstRatio ? "" : ", ") + jsonString(p) + ": " +
           (r ? jsonNumber(*r) : std::string("null"));
      firstRatio = false;
    }
    j += "}";
    const auto bound = [&](const char* name, const Bound& b) {
      const auto r = ratioOf(rounds, b.peer, def, config);
      j += std::string(", \"") + name + "\": {\"peer\": " + jsonString(b.peer) +
           ", \"ratio\": " + jsonNumber(b.ratio) +
           ", \"comparison\": " + jsonString(def.bytes ? "<=" : ">=") +
           ", \"met\": " + (r ? (meets(def, *r, b.ratio) ? "true" : "false") : "null") + "}";
    };
    bound("must", t.must);
    bound("goal", effectiveGoal(config, t));
    j += "}";
    firstTarget = false;
  }
  j += "\n  ]\n}\n";
  return j;
}

}  // namespace keyscope_bench
