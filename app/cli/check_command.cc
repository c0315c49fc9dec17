// `keyscope-cli check WORKSPACE [--repair] [--json]`: verifies a workspace
// end to end and reports what is damaged (keyscope/check.h, docs/CHECK.md);
// --repair drops damaged store files and log records (and ends a log slot
// where its frames cannot be read), saying what is lost.
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_io.h"
#include "csv_cli.h"
#include "keyscope/cancel_token.h"
#include "keyscope/check.h"

namespace keyscope::cli {

namespace {

using nlohmann::json;

constexpr const char* kCheckUsage =
    "usage: keyscope-cli check WORKSPACE [--repair] [--json]\n"
    "  Verifies the workspace without changing it: SQLite's own structure, the catalog's\n"
    "  records, the regions, every page of every store file (checksums, decompression, block\n"
    "  index, bloom filter) and the log (docs/CHECK.md). The workspace must not be open.\n"
    "  --repair  drop each damaged store file and log record, saying what is lost, then check\n"
    "            again; refused (nothing changed) when the damage is beyond it\n"
    "  --json    the report as one JSON object on standard output\n"
    "Exit status: 0 clean, 1 damaged (left as it is, or the repair was refused or stopped),\n"
    "2 bad usage or not checkable (no such file, not a workspace, open in another process),\n"
    "3 repaired: the damage was dropped and the workspace is clean now (the report says what was lost).\n";

constexpr int kExitRepaired = 3;

int usageError(Streams io, const std::string& message) {
  io.err << "keyscope-cli: check: " << message << "\n";
  return kExitBadInput;
}

// Bytes as HBase's shell shows them, quoted.
std::string shown(BytesView bytes) { return "'" + toStringBinary(bytes) + "'"; }

// "3 records", "1 record"
std::string counted(uint64_t n, const char* one, const char* many) { return withCommas(n) + " " + (n == 1 ? one : many); }

std::string lossText(const LostStoreFile& f) {
  std::string text = "store file " + std::to_string(f.id) + " (table '" + f.table + "', region " +
                     std::to_string(f.regionId) + ", family '" + f.family + "'): ";
  if (!f.metadataReadable) return text + "its metadata was unreadable, so what it held is unknown";
  return text + "rows " + shown(f.firstRow) + " to " + shown(f.lastRow) + ", timestamps " +
         std::to_string(f.minTimestamp) + " to " + std::to_string(f.maxTimestamp) + ", " +
         counted(f.cells, "cell", "cells");
}

void printText(const CheckReport& r, std::ostream& out) {
  const CheckCounts& c = r.counts;
  out << "Checked " << r.path << " (workspace format " << r.formatVersion << ")\n";
  out << "  SQLite structure: " << (r.sqliteFindings.empty() ? "ok" : "DAMAGED") << "\n";
  out << "  catalog: " << counted(c.tables, "table", "tables") << ", " << counted(c.regions, "region", "regions")
      << "\n";
  out << "  store files: " << withCommas(c.storeFiles) << " (" << counted(c.pages, "page", "pages") << ", "
      << counted(c.blocks, "block", "blocks") << ", " << counted(c.cells, "cell", "cells") << ", "
      << counted(c.bloomFilters, "bloom filter", "bloom filters") << " read)\n";
  out << "  log: " << counted(c.logRecords, "record", "records") << ", " << counted(c.logEntries, "entry", "entries")
      << "\n";
  for (const std::string& finding : r.sqliteFindings) out << "  SQLite: " << finding << "\n";
  if (!r.problems.empty()) {
    out << "Problems (" << r.problems.size() << "):\n";
    for (const CheckProblem& p : r.problems) {
      out << "  [" << checkAreaName(p.area) << "] " << p.message << "\n";
      if (p.repairable) {
        if (p.area != CheckArea::kLog)
          out << "      --repair drops store file " << p.storeFileId << "\n";
        else if (p.logSeq != 0)
          out << "      --repair drops log record " << p.logSeq << "\n";
        else
          out << "      --repair ends the log slot there\n";  // a frame that cannot be read (log_slots.h)
      }
    }
  }
  for (const std::string& note : r.notes) out << "  note: " << note << "\n";
}

void printRepair(const CheckReport& r, std::ostream& out) {
  if (!r.repairAttempted) return;
  if (!r.repairRefused.empty()) out << "Repair: " << r.repairRefused << "\n";
  if (!r.droppedFiles.empty() || !r.droppedLogRecords.empty()) {
    out << "Repair dropped (this data is LOST):\n";
    for (const LostStoreFile& f : r.droppedFiles) out << "  " << lossText(f) << "\n";
    for (const LostLogRecord& l : r.droppedLogRecords) {
      if (l.seq != 0)
        out << "  log record " << l.seq << ", one batch of writes (" << l.reason << ")\n";
      else
        out << "  log slot " << l.slot << " from byte " << l.slotOffset << " on, the batches logged there ("
            << l.reason << ")\n";
    }
  }
  if (!r.cleared.empty()) {
    out << "Repair cleared:\n";
    for (const std::string& line : r.cleared) out << "  " << line << "\n";
  }
  if (r.afterRepair != nullptr) {
    out << "After the repair:\n";
    std::ostringstream again;
    printText(*r.afterRepair, again);
    std::istringstream lines(again.str());
    for (std::string line; std::getline(lines, line);) out << "  " << line << "\n";
  }
}

json countsJson(const CheckCounts& c) {
  return {{"tables", c.tables},         {"regions", c.regions},         {"store_files", c.storeFiles},
          {"pages", c.pages},           {"blocks", c.blocks},           {"cells", c.cells},
          {"bloom_filters", c.bloomFilters}, {"log_records", c.logRecords}, {"log_entries", c.logEntries}};
}

json reportJson(const CheckReport& r) {
  json problems = json::array();
  for (const CheckProblem& p : r.problems) {
    json j = {{"area", checkAreaName(p.area)}, {"message", p.message}, {"repairable", p.repairable}};
    if (!p.table.empty()) j["table"] = p.table;
    if (p.regionId != 0) j["region"] = p.regionId;
    if (!p.family.empty()) j["family"] = p.family;
    if (p.storeFileId != 0) j["store_file"] = p.storeFileId;
    if (p.page) j["page"] = *p.page;
    if (p.logSeq != 0) j["log_record"] = p.logSeq;
    problems.push_back(std::move(j));
  }
  json j = {{"path", r.path},
            {"format", r.formatVersion},
            {"clean", r.clean()},
            {"sqlite", r.sqliteFindings.empty() ? json("ok") : json(r.sqliteFindings)},
            {"counts", countsJson(r.counts)},
            {"problems", std::move(problems)},
            {"notes", r.notes}};
  if (r.repairAttempted) {
    json dropped = json::array();
    for (const LostStoreFile& f : r.droppedFiles) {
      json d = {{"store_file", f.id}, {"table", f.table}, {"region", f.regionId}, {"family", f.family},
                {"metadata_readable", f.metadataReadable}, {"reason", f.reason}};
      if (f.metadataReadable) {
        d["first_row"] = toStringBinary(f.firstRow);
        d["last_row"] = toStringBinary(f.lastRow);
        d["min_timestamp"] = f.minTimestamp;
        d["max_timestamp"] = f.maxTimestamp;
        d["cells"] = f.cells;
      }
      dropped.push_back(std::move(d));
    }
    json log = json::array();
    for (const LostLogRecord& l : r.droppedLogRecords) {
      if (l.seq != 0) log.push_back({{"log_record", l.seq}, {"reason", l.reason}});
      else log.push_back({{"log_slot", l.slot}, {"from_byte", l.slotOffset}, {"reason", l.reason}});
    }
    j["repair"] = {{"refused", r.repairRefused.empty() ? json(nullptr) : json(r.repairRefused)},
                   {"dropped_store_files", std::move(dropped)},
                   {"dropped_log_records", std::move(log)},
                   {"cleared", r.cleared}};
    if (r.afterRepair != nullptr) j["after_repair"] = reportJson(*r.afterRepair);
  }
  return j;
}

// Damaged names may not be UTF-8: such bytes are shown as U+FFFD rather
// than making the dump throw.
std::string dumped(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

int exitStatus(const CheckReport& r) {
  if (r.clean()) return kExitOk;
  if (r.afterRepair != nullptr && r.afterRepair->clean() && r.repairRefused.empty()) return kExitRepaired;
  return kExitFailed;
}

}  // namespace

int runCheckCommand(const Args& args, Streams io) {
  std::vector<std::string> positional;
  CheckOptions options;
  bool asJson = false;
  for (const std::string& a : args) {
    if (a == "-h" || a == "--help") {
      io.out << kCheckUsage;
      return kExitOk;
    }
    if (a == "--repair") options.repair = true;
    else if (a == "--json") asJson = true;
    else if (a.size() > 1 && a[0] == '-') return usageError(io, "unknown option '" + a + "' (try keyscope-cli check --help)");
    else positional.push_back(a);
  }
  if (positional.size() != 1) {
    io.err << kCheckUsage;
    return kExitBadInput;
  }
  CancelToken cancel;
  options.cancel = &cancel;
  ProgressLine progress(io.err, stderrIsTerminal(), true);
  options.progress = [&](uint64_t done, uint64_t total) {
    progress.update("check: store file " + withCommas(done) + " of " + withCommas(total));
  };
  Result<CheckReport> report = [&] {
    CancelOnInterrupt interrupt(cancel);
    return checkWorkspace(positional[0], options);
  }();
  progress.finish();
  if (!report) {
    const Status& s = report.status();
    // A file SQLite cannot read at all is damage, not a usage error.
    if (s.code() == Status::Code::kCorruption) {
      if (asJson) {
        io.out << dumped(json({{"path", positional[0]}, {"clean", false}, {"unreadable", s.message()}})) << "\n";
      } else {
        io.out << "Checked " << positional[0] << ": DAMAGED, it cannot be read as a workspace: " << s.message()
               << "\n";
        if (options.repair)
          io.out << "Repair: refused. Copy what SQLite can still read into a new file - `sqlite3 " << positional[0]
                 << " .recover | sqlite3 RECOVERED.ksw`, or .dump where .recover fails - and make that a workspace "
                    "again as docs/CHECK.md says\n";
      }
      return kExitFailed;
    }
    if (s.code() == Status::Code::kCancelled) {
      io.err << "keyscope-cli: check: cancelled\n";
      return kExitFailed;
    }
    return usageError(io, s.message());
  }
  if (asJson) {
    io.out << dumped(reportJson(*report)) << "\n";
  } else {
    printText(*report, io.out);
    printRepair(*report, io.out);
    const int status = exitStatus(*report);
    io.out << (status == kExitOk         ? "Result: clean"
               : status == kExitRepaired ? "Result: repaired (what was dropped is listed above)"
                                         : "Result: DAMAGED (" + std::to_string(report->problems.size()) +
                                               (report->problems.size() == 1 ? " problem)" : " problems)"))
           << "\n";
  }
  return exitStatus(*report);
}

}  // namespace keyscope::cli
