// The demo workspace: one table per lesson of HBase schema design (DESIGN.md's
// list), each with a description and the shell commands that show its lesson.
//
// The recipe has two halves. resources/demo/NN_TABLE.hbase is a shell script
// per table (create with its key schema, families, regions and DESCRIPTION)
// whose "# example: COMMAND" lines are the table's example commands; the
// scripts are compiled in, so a build needs no source tree. The bulk rows come
// from generators in core/src/demo, which encode row keys with the schema the
// script declares.
//
// A build is deterministic: fixed seeds, explicit cell timestamps, and the
// workspace clock fixed (setClock) to the simulated time of each write, so
// two builds hold the same cells and every scan prints the same output.
//
// Threads: build() is synchronous and uses the workspace as any writer does.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "keyscope/cancel_token.h"
#include "keyscope/status.h"
#include "keyscope/workspace.h"

namespace keyscope::demo {

// 2024-03-01T00:00:00Z: the demo's simulated time starts here and runs for two
// days; most generated timestamps fall in [kEpochMillis, kEndMillis).
constexpr int64_t kEpochMillis = 1709251200000;
constexpr int64_t kEndMillis = kEpochMillis + 2 * 86400000;

// 50,000 years of 365.2425 days, in milliseconds: how far the sensor
// metadata is timeshifted into the future (DESIGN.md's lessons).
constexpr int64_t kTimeshiftMillis = 50000 * 31556952000LL;

struct Recipe {
  std::string file;                   // "03_web_visits.hbase"
  std::string table;                  // "web_visits": the file name without "NN_" and ".hbase"
  std::string script;                 // the file's text
  std::vector<std::string> examples;  // its "# example: " lines, in order
};

// The recipes compiled into this build, in file-name order.
const std::vector<Recipe>& recipes();

struct BuildOptions {
  // Called with one line per step ("web_visits: 5,987 rows"), for people.
  std::function<void(const std::string&)> progress;
  const CancelToken* cancel = nullptr;  // checked between batches of writes
};

struct BuildSummary {
  size_t tables = 0;
  uint64_t rows = 0;   // rows the generators wrote (a row written twice counts twice)
  uint64_t cells = 0;  // cells put, plus counter increments
};

// Creates and fills every demo table in `ws`, then flushes them to store
// files. Refuses (InvalidArgument, nothing written) when `ws` already has a
// table of a demo table's name. On an error or Cancelled the tables made so
// far stay: build into a new file and discard it on failure. The workspace
// clock is fixed while it runs and returned to the clock given at open after.
Result<BuildSummary> build(Workspace& ws, const BuildOptions& options = {});

}  // namespace keyscope::demo
