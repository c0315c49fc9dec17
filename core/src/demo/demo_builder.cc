// demo::build: runs each table's recipe script through the shell, stores its
// example commands, then runs the generators and flushes every table. Also
// the helpers the generators share (demo_data.h).
#include <ctime>
#include <set>

#include "demo/demo_data.h"
#include "demo/embedded_recipes.h"
#include "keyscope/demo.h"
#include "keyscope/shell.h"

namespace keyscope::demo {

namespace {

constexpr std::string_view kExampleMarker = "# example:";

// "03_web_visits.hbase" -> "web_visits".
std::string tableOfFile(std::string_view file) {
  if (file.size() > 6 && file.substr(file.size() - 6) == ".hbase") file.remove_suffix(6);
  size_t i = 0;
  while (i < file.size() && file[i] >= '0' && file[i] <= '9') ++i;
  if (i > 0 && i < file.size() && file[i] == '_') file.remove_prefix(i + 1);
  return std::string(file);
}

std::string trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
  return std::string(text);
}

Recipe recipeOf(const detail::EmbeddedFile& file) {
  Recipe recipe;
  recipe.file = file.name;
  recipe.table = tableOfFile(recipe.file);
  recipe.script.assign(file.data, file.size);
  std::string_view rest = recipe.script;
  while (!rest.empty()) {
    const size_t end = rest.find('\n');
    const std::string_view line = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    if (line.substr(0, kExampleMarker.size()) == kExampleMarker)
      recipe.examples.push_back(trimmed(line.substr(kExampleMarker.size())));
  }
  return recipe;
}

// A generator and the tables it fills, in the order they are built.
struct Generator {
  Status (*run)(const detail::Context&);
  std::vector<std::string> tables;
};

const std::vector<Generator>& generators() {
  static const std::vector<Generator> kGenerators = {
      {&detail::generateEvents, {"events_monotonic", "events_salted"}},
      {&detail::generateTsdb, {"tsdb"}},
      {&detail::generateWebVisits, {"web_visits"}},
      {&detail::generateSensorSeries, {"sensor_series"}},
      {&detail::generateProfiles, {"profiles"}},
      {&detail::generateSizes, {"sizes_verbose", "sizes_compact"}},
      {&detail::generateWebPages, {"web_pages"}},
      {&detail::generateGeoTiles, {"geo_tiles"}},
      {&detail::generatePageCounters, {"page_counters"}},
      {&detail::generateTopUrls, {"top_urls"}},
  };
  return kGenerators;
}

// Runs a recipe's script and attaches its examples, each checked to be one
// statement that parses.
Status runRecipe(Workspace& ws, const Recipe& recipe) {
  const std::string where = "demo recipe " + recipe.file + ": ";
  std::string failure;
  shell::Shell sh(ws, shell::ShellFormat::kText);
  sh.run(recipe.script, 1, [&failure](const shell::CommandOutput& out) {
    if (!out.ok && failure.empty()) failure = out.text;
  });
  if (!failure.empty()) {
    while (!failure.empty() && failure.back() == '\n') failure.pop_back();
    return Status::invalidArgument(where + failure);
  }
  Result<TableOptions> table = ws.describeTable(recipe.table);
  if (!table) return Status::invalidArgument(where + "it does not create table '" + recipe.table + "'");
  for (size_t i = 0; i < recipe.examples.size(); ++i) {
    std::vector<shell::Statement> statements = shell::parseShell(recipe.examples[i]);
    if (statements.size() != 1 || !statements[0].status)
      return Status::invalidArgument(where + "example " + std::to_string(i + 1) + " is not one shell command" +
                                     (statements.empty() ? "" : ": " + statements[0].status.message()));
  }
  TableOptions noted = *table;
  noted.exampleCommands = recipe.examples;
  return ws.alterTable(noted);
}

}  // namespace

const std::vector<Recipe>& recipes() {
  static const std::vector<Recipe> kRecipes = [] {
    std::vector<Recipe> all;
    for (size_t i = 0; i < detail::kRecipeFileCount; ++i) all.push_back(recipeOf(detail::kRecipeFiles[i]));
    return all;
  }();
  return kRecipes;
}

Result<BuildSummary> build(Workspace& ws, const BuildOptions& options) {
  for (const Recipe& recipe : recipes()) {
    if (ws.tableExists(recipe.table))
      return Status::invalidArgument("the workspace already has a table '" + recipe.table +
                                     "': the demo builds into a workspace without its tables");
  }
  BuildSummary summary;
  const detail::Context ctx{ws, options, summary};
  // Returns the clock to the one given at open however the build ends.
  struct ClockReset {
    Workspace& ws;
    ~ClockReset() { ws.setClock(std::nullopt); }
  } clockReset{ws};
  ws.setClock(kEpochMillis);

  for (const Recipe& recipe : recipes()) {
    if (Status s = ctx.checkCancelled(); !s) return s;
    if (Status s = runRecipe(ws, recipe); !s) return s;
    ++summary.tables;
  }
  std::set<std::string> generated;
  for (const Generator& g : generators()) {
    if (Status s = ctx.checkCancelled(); !s) return s;
    for (const std::string& table : g.tables) {
      if (!ws.tableExists(table)) return Status::invalidArgument("the demo recipe for table '" + table + "' is missing");
    }
    if (Status s = g.run(ctx); !s) return s;
    generated.insert(g.tables.begin(), g.tables.end());
  }
  // Tables made by a recipe alone hold what its script wrote: to store files too.
  for (const Recipe& recipe : recipes()) {
    if (generated.count(recipe.table) == 0) {
      if (Status s = ws.flush(recipe.table); !s) return s;
    }
  }
  if (Status s = ws.waitForBackgroundWork(); !s) return s;
  return summary;
}

namespace detail {

size_t Rng::skewed(size_t n) {
  // Weights 1/(r+1) scaled to integers: 720720 is divisible by 1..16, and the
  // rounding beyond that is invisible in a demo.
  uint64_t total = 0;
  for (size_t r = 0; r < n; ++r) total += 720720 / (r + 1);
  uint64_t pick = below(total);
  for (size_t r = 0; r < n; ++r) {
    const uint64_t w = 720720 / (r + 1);
    if (pick < w) return r;
    pick -= w;
  }
  return n - 1;
}

Status Context::checkCancelled() const {
  if (options.cancel != nullptr && options.cancel->cancelled()) return Status::cancelled("the demo build was cancelled");
  return Status::ok();
}

void Context::progress(const std::string& line) const {
  if (options.progress) options.progress(line);
}

Result<KeyEncoder> KeyEncoder::forTable(const Workspace& ws, const std::string& table) {
  Result<TableOptions> options = ws.describeTable(table);
  if (!options) return options.status();
  Result<KeySchema> schema = KeySchema::parse(options->keySchema);
  if (!schema) return Status::invalidArgument("demo table '" + table + "': key schema: " + schema.status().message());
  return KeyEncoder(table, std::move(*schema));
}

Result<Bytes> KeyEncoder::encode(const KeyTuple& tuple) const {
  Result<Bytes> key = encodeKey(m_schema, tuple);
  if (!key) return Status::invalidArgument("demo table '" + m_table + "': " + key.status().message());
  return key;
}

Status TableWriter::add(Put put) {
  m_cells += put.cells.size();
  m_batch.emplace_back(std::move(put));
  return m_batch.size() >= m_batchRows ? flushBatch() : Status::ok();
}

Status TableWriter::flushBatch() {
  if (m_batch.empty()) return Status::ok();
  if (Status s = m_ctx.checkCancelled(); !s) return s;
  uint64_t cells = 0;
  for (const Mutation& m : m_batch) cells += std::get<Put>(m).cells.size();
  if (Status s = m_ctx.ws.mutate(m_table, m_batch); !s) return s;
  // A memstore past its flush size is flushed in the background; waiting for
  // it here puts the flush at the same point of the data in every build.
  if (Status s = m_ctx.ws.waitForBackgroundWork(); !s) return s;
  m_rows += m_batch.size();
  m_ctx.summary.rows += m_batch.size();
  m_ctx.summary.cells += cells;
  m_batch.clear();
  return Status::ok();
}

std::string tenths(int64_t value) {
  const int64_t magnitude = value < 0 ? -value : value;
  return (value < 0 ? "-" : "") + std::to_string(magnitude / 10) + "." + std::to_string(magnitude % 10);
}

std::string zeroPadded(uint64_t value, int width) {
  std::string text = std::to_string(value);
  if (static_cast<int>(text.size()) < width) text.insert(0, static_cast<size_t>(width) - text.size(), '0');
  return text;
}

namespace {
std::tm utc(int64_t millis) {
  const std::time_t seconds = static_cast<std::time_t>(millis / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  return tm;
}
}  // namespace

std::string isoTime(int64_t millis) {
  const std::tm tm = utc(millis);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &tm);
  return std::string(text) + "." + zeroPadded(static_cast<uint64_t>(millis % 1000), 3) + "Z";
}

std::string isoDay(int64_t millis) {
  const std::tm tm = utc(millis);
  char text[16];
  std::strftime(text, sizeof text, "%Y-%m-%d", &tm);
  return text;
}

std::string grouped(uint64_t value) {
  std::string digits = std::to_string(value);
  for (size_t i = digits.size(); i > 3; i -= 3) digits.insert(i - 3, ",");
  return digits;
}

}  // namespace detail

}  // namespace keyscope::demo
