// checkWorkspace (keyscope/check.h) and the checks it runs.
#include "engine/workspace_check.h"

#include <algorithm>
#include <map>
#include <set>

#include "engine/internal_key.h"
#include "engine/region_partition.h"
#include "engine/sqlite_pages.h"
#include "engine/store_file.h"
#include "engine/wal_record.h"
#include "keyscope/cancel_token.h"

namespace keyscope {

const char* checkAreaName(CheckArea area) {
  switch (area) {
    case CheckArea::kCatalog: return "catalog";
    case CheckArea::kRegions: return "regions";
    case CheckArea::kStoreFile: return "store file";
    case CheckArea::kLog: return "log";
    case CheckArea::kSqlite: break;
  }
  return "sqlite";
}

Result<CheckReport> checkWorkspace(const std::string& path, const CheckOptions& options) {
  Result<std::unique_ptr<engine::Catalog>> catalog = engine::Catalog::openForCheck(path);
  if (!catalog) return catalog.status();
  CheckReport report;
  engine::RepairPlan plan;
  if (Status s = engine::runChecks(**catalog, options, &report, &plan); !s) return s;
  if (!options.repair) return report;
  report.repairAttempted = true;
  report.repairRefused = engine::repairRefusal(report, plan);
  if (!report.repairRefused.empty() || plan.empty()) return report;
  const Status repaired = engine::repairWorkspace(**catalog, plan, &report);
  if (!repaired) report.repairRefused = "the repair stopped: " + repaired.message();
  catalog.value().reset();  // releases the workspace's lock for the check below
  CheckOptions again = options;
  again.repair = false;
  Result<CheckReport> after = checkWorkspace(path, again);
  if (!after) return after.status();
  report.afterRepair = std::make_shared<const CheckReport>(std::move(after).value());
  return report;
}

}  // namespace keyscope

namespace keyscope::engine {

namespace {

// "table 't', region 3, family 'a', store file 17"
std::string fileName(const std::string& table, int64_t regionId, const std::string& family, int64_t fileId) {
  return "table '" + table + "', region " + std::to_string(regionId) + ", family '" + family + "', store file " +
         std::to_string(fileId);
}

Bytes rowOf(BytesView key) { return unescaped(key.substr(0, escapedRowLength(key))); }

class Checker {
 public:
  Checker(Catalog& catalog, const CheckOptions& options, CheckReport* report, RepairPlan* plan)
      : m_catalog(catalog), m_options(options), m_report(*report), m_plan(*plan) {}

  Status run() {
    m_report.path = m_catalog.path();
    m_report.formatVersion = kFormatVersion;
    checkSqlite();
    checkCatalog();
    checkRegions();
    if (Status s = checkStoreFiles(); !s) return s;
    checkLeftovers();
    checkLog();
    return Status::ok();
  }

 private:
  void problem(CheckProblem p) { m_report.problems.push_back(std::move(p)); }
  void catalogProblem(const Status& s) { problem({CheckArea::kCatalog, {}, 0, {}, 0, {}, 0, s.message(), false}); }

  void checkSqlite() {
    Statement st;
    std::vector<std::string> findings;
    Status status = st.prepare(m_catalog.db(), "PRAGMA integrity_check(100)");
    if (status) status = st.eachRow("running SQLite's integrity check", [&] { findings.push_back(st.columnText(0)); });
    if (!status) findings.push_back(status.message());
    if (findings.size() == 1 && findings.front() == "ok") return;
    m_report.sqliteFindings = findings;
    problem({CheckArea::kSqlite, {}, 0, {}, 0, {}, 0,
             m_catalog.path() + ": SQLite finds its own structure damaged (" + std::to_string(findings.size()) +
                 (findings.size() == 1 ? " finding" : " findings") + "; the first: " + findings.front() + ")",
             false});
  }

  void checkCatalog() {
    if (Status s = m_catalog.checkSchemaLocations(); s.code() == Status::Code::kNotFound) {
      m_report.notes.push_back(s.message() + "; the next open records it");
    } else if (!s) {
      catalogProblem(s);
      // Moved tables are a Corruption; an I/O error reading where they are
      // says nothing of a rebuild.
      m_plan.rebuiltWithoutAutoVacuum = s.code() == Status::Code::kCorruption && m_catalog.autoVacuumOff();
    }
    Result<std::vector<TableRecord>> tables = m_catalog.loadTables();
    if (tables) {
      for (const TableRecord& t : *tables) m_tables[t.id] = t.options;
    } else {
      catalogProblem(tables.status());
      m_catalogComplete = false;
    }
    Result<std::vector<RegionRecord>> regions = m_catalog.loadRegions();
    if (regions) {
      m_regions = std::move(regions).value();
    } else {
      catalogProblem(regions.status());
      m_catalogComplete = false;
    }
    if (Result<std::vector<RegionHistoryRecord>> history = m_catalog.loadRegionHistory(); !history)
      catalogProblem(history.status());
    if (auto dropped = m_catalog.loadDroppedFamilies(); !dropped) catalogProblem(dropped.status());
    Statement keys;
    std::vector<std::string> settings;
    Status status = keys.prepare(m_catalog.db(), "SELECT key FROM settings ORDER BY key");
    if (status) status = keys.eachRow("reading settings", [&] { settings.push_back(keys.columnText(0)); });
    if (!status) catalogProblem(status);
    for (const std::string& key : settings) {
      if (Result<std::optional<std::string>> value = m_catalog.setting(key); !value) catalogProblem(value.status());
    }
    m_report.counts.tables = m_tables.size();
    m_report.counts.regions = m_regions.size();
  }

  void checkRegions() {
    std::map<int64_t, std::vector<RegionBounds>> byTable;
    for (const RegionRecord& r : m_regions) {
      m_regionById[r.id] = &r;
      if (m_catalogComplete && m_tables.count(r.tableId) == 0) {
        problem({CheckArea::kRegions, {}, r.id, {}, 0, {}, 0,
                 "region " + std::to_string(r.id) + " belongs to table " + std::to_string(r.tableId) +
                     ", which the catalog does not hold",
                 false});
        continue;
      }
      byTable[r.tableId].push_back({r.id, r.startRow, r.endRow});  // loadRegions sorts by start row
    }
    if (!m_catalogComplete) return;
    for (const auto& [id, options] : m_tables) {
      const std::string what = regionPartitionProblem(byTable[id]);
      if (!what.empty())
        problem({CheckArea::kRegions, options.name, 0, {}, 0, {}, 0,
                 "table '" + options.name + "': its regions " + what, false});
    }
  }

  // Where the catalog says a file belongs, and whether that is a live
  // region and family; empty when so, else what is wrong.
  std::string placeOf(const StoreFileRecord& f, std::string* table, const RegionRecord** region) const {
    const auto r = m_regionById.find(f.regionId);
    *region = r == m_regionById.end() ? nullptr : r->second;
    const auto t = *region == nullptr ? m_tables.end() : m_tables.find((*region)->tableId);
    *table = t == m_tables.end() ? "?" : t->second.name;
    if (!m_catalogComplete) return {};
    if (*region == nullptr)
      return "belongs to region " + std::to_string(f.regionId) + ", which the catalog does not hold";
    if (t == m_tables.end()) return {};  // the region's own problem is reported
    if (t->second.family(f.family) == nullptr)
      return "belongs to family '" + f.family + "', which table '" + t->second.name + "' does not have";
    return {};
  }

  Status checkStoreFiles() {
    Result<std::vector<StoreFileRecord>> files = m_catalog.loadStoreFiles();
    if (!files) {
      catalogProblem(files.status());
      return Status::ok();
    }
    SqlitePageSource pages(m_catalog.db());
    uint64_t done = 0;
    for (const StoreFileRecord& f : *files) {
      if (m_options.cancel != nullptr && m_options.cancel->cancelled())
        return Status::cancelled("the check was cancelled");
      m_liveFiles.insert(f.id);
      checkStoreFile(f, pages);
      pages.release();
      if (m_options.progress) m_options.progress(++done, files->size());
    }
    m_report.counts.storeFiles = files->size();
    return Status::ok();
  }

  void checkStoreFile(const StoreFileRecord& f, SqlitePageSource& pages) {
    std::string table;
    const RegionRecord* region = nullptr;
    const std::string misplaced = placeOf(f, &table, &region);
    const std::string name = fileName(table, f.regionId, f.family, f.id);
    LostStoreFile loss;
    loss.id = f.id;
    loss.table = table;
    loss.regionId = f.regionId;
    loss.family = f.family;
    Result<StoreFileMeta> meta = StoreFileMeta::decode(f.meta);
    if (meta) {
      loss.metadataReadable = true;
      loss.firstRow = rowOf(meta->firstKey);
      loss.lastRow = rowOf(meta->lastKey);
      loss.minTimestamp = meta->minTimestamp;
      loss.maxTimestamp = meta->maxTimestamp;
      loss.cells = meta->cellCount;
    }
    const auto damaged = [&](const std::string& what, std::optional<uint32_t> page = std::nullopt) {
      loss.reason = what;
      m_plan.files.push_back(loss);
      problem({CheckArea::kStoreFile, table, f.regionId, f.family, f.id, page, 0, name + ": " + what, true});
    };
    if (!f.damage.empty()) return damaged(f.damage + " (the table, region and family above are unverified)");
    if (!misplaced.empty()) return damaged(misplaced);
    if (!meta) return damaged(meta.status().message());
    m_report.counts.pages += meta->pageCount;
    m_report.counts.blocks += meta->blocks.size();
    m_report.counts.cells += meta->cellCount;
    if (meta->bloomType != BloomType::kNone) ++m_report.counts.bloomFilters;
    m_pagesOf[f.id] = meta->pageCount;
    if (region != nullptr) {
      const BytesView start(region->startRow);
      const BytesView end(region->endRow);
      if (BytesView(loss.firstRow) < start || (!end.empty() && BytesView(loss.lastRow) >= end))
        return damaged("holds rows '" + toStringBinary(loss.firstRow) + "' to '" + toStringBinary(loss.lastRow) +
                       "', outside its region ['" + toStringBinary(region->startRow) + "', '" +
                       toStringBinary(region->endRow) + "')");
    }
    StoreFileReader reader(f.id, std::move(meta).value(), StoreFileLabel{table, f.regionId, f.family}, nullptr);
    std::optional<uint32_t> page;
    if (Status s = reader.verify(&pages, &page); !s) {
      // verify's message names the table, region, family and file itself,
      // in the reader's words: keep what follows.
      const std::string prefix = fileName(table, f.regionId, f.family, f.id);
      std::string what = s.message();
      if (what.rfind(prefix, 0) == 0) what = what.substr(prefix.size() + (what.compare(prefix.size(), 2, ": ") == 0 ? 2 : 0));
      if (what.rfind(", ", 0) == 0) what = what.substr(2);
      damaged(what, page);
    }
  }

  // Pages no store file owns, and live files also listed for deletion:
  // harmless (no reader looks at them), cleared by a repair.
  void checkLeftovers() {
    Result<std::vector<int64_t>> pending = m_catalog.loadPendingFiles();
    if (!pending) return catalogProblem(pending.status());
    const std::set<int64_t> pendingIds(pending->begin(), pending->end());
    for (const int64_t id : *pending) {
      if (m_liveFiles.count(id) == 0) continue;
      m_report.notes.push_back("store file " + std::to_string(id) +
                               " is also listed for deletion (a damaged listing, ignored when the workspace opens)");
      m_plan.stalePending.push_back(id);
    }
    Statement st;
    Status status = st.prepare(m_catalog.db(),
                               "SELECT page_id >> 20, count(*) FROM pages GROUP BY page_id >> 20 ORDER BY 1");
    if (status)
      status = st.eachRow("counting pages", [&] {
        const int64_t id = st.columnInt(0);
        const int64_t count = st.columnInt(1);
        if (pendingIds.count(id) > 0) return;  // deleted at the next open
        const auto live = m_pagesOf.find(id);
        if (live != m_pagesOf.end()) {
          if (count > live->second)
            m_report.notes.push_back("store file " + std::to_string(id) + " has " + std::to_string(count) +
                                     " pages stored, " + std::to_string(count - live->second) +
                                     " more than its metadata lists (no reader uses them)");
          return;
        }
        if (m_liveFiles.count(id) > 0) return;  // a damaged file: its pages go with it
        m_report.notes.push_back(std::to_string(count) + (count == 1 ? " page" : " pages") + " of store file " +
                                 std::to_string(id) + ", which the catalog does not list (leftovers)");
        m_plan.orphanPages.push_back(id);
      });
    if (!status) catalogProblem(status);
  }

  void checkLog() {
    const Status read = m_catalog.readWal([&](int64_t seq, BytesView data) {
      ++m_report.counts.logRecords;
      Result<std::vector<LogEntry>> entries = decodeLogRecord(seq, data);
      if (entries) {
        m_report.counts.logEntries += entries->size();
        return Status::ok();
      }
      m_plan.log.push_back({seq, entries.status().message()});
      problem({CheckArea::kLog, {}, 0, {}, 0, {}, seq, entries.status().message(), true});
      return Status::ok();
    });
    if (!read) problem({CheckArea::kLog, {}, 0, {}, 0, {}, 0, "reading the log: " + read.message(), false});
    Result<std::vector<LogSlots::Damage>> damage = m_catalog.logDamage();
    if (!damage) return;  // reported above: readWal read the slots first
    for (const LogSlots::Damage& d : *damage) {
      m_plan.log.push_back({0, d.message, d.slot, d.offset});
      problem({CheckArea::kLog, {}, 0, {}, 0, {}, 0,
               d.message + " (repair ends the slot there: the batches logged after that point in it are lost)",
               true});
    }
  }

  Catalog& m_catalog;
  const CheckOptions& m_options;
  CheckReport& m_report;
  RepairPlan& m_plan;
  bool m_catalogComplete = true;  // tables and regions read: what refers to them can be judged
  std::map<int64_t, TableOptions> m_tables;
  std::vector<RegionRecord> m_regions;
  std::map<int64_t, const RegionRecord*> m_regionById;
  std::set<int64_t> m_liveFiles;
  std::map<int64_t, int64_t> m_pagesOf;  // readable live files: pages per their metadata
};

}  // namespace

Status runChecks(Catalog& catalog, const CheckOptions& options, CheckReport* report, RepairPlan* plan) {
  return Checker(catalog, options, report, plan).run();
}

std::string repairRefusal(const CheckReport& report, const RepairPlan& plan) {
  const auto has = [&](CheckArea area) {
    return std::any_of(report.problems.begin(), report.problems.end(),
                       [&](const CheckProblem& p) { return p.area == area && !p.repairable; });
  };
  const auto unrepairable = std::count_if(report.problems.begin(), report.problems.end(),
                                          [](const CheckProblem& p) { return !p.repairable; });
  // The one thing wrong is where the tables are, every row reading well,
  // in a file rebuilt without auto-vacuum: rebuilding it again with
  // auto-vacuum put the tables back where they were, in every case tried.
  if (plan.rebuiltWithoutAutoVacuum && unrepairable == 1)
    return "the file was rebuilt without auto-vacuum, which moved the catalog's tables; keyscope cannot move "
           "them back, but the rows are intact: `sqlite3 " + report.path +
           " 'PRAGMA auto_vacuum = INCREMENTAL; VACUUM;'` rebuilds it with the tables in their places (keep a "
           "copy of the file until `keyscope-cli check` reads it clean)";
  if (has(CheckArea::kSqlite))
    return "SQLite's own structure is damaged, which keyscope cannot repair (dropping files would write into a "
           "damaged database). Copy what SQLite can still read into a new file - `sqlite3 " +
           report.path + " .recover | sqlite3 RECOVERED.ksw`, or .dump where .recover fails - and make that a "
           "workspace again as docs/CHECK.md says; keep the damaged file until you are sure";
  if (has(CheckArea::kCatalog) || has(CheckArea::kRegions) || has(CheckArea::kLog))
    return "the catalog's records of tables, regions or settings (or the log as a whole) are damaged, which "
           "keyscope cannot repair: what they said is lost. Restore the workspace from a copy";
  return {};
}

}  // namespace keyscope::engine
