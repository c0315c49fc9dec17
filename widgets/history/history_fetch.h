// fetchHistory: reads what the cell history shows, from the engine, and lays
// it out. Runs on a job runner's worker thread: plain values in and out.
//
//   1. the family's options (describeTable);
//   2. a RAW read of the row's family: every put and delete marker, every
//      version (the markers of the whole family, since DeleteFamily and
//      DeleteFamilyVersion carry an empty qualifier), kept to the column
//      asked for plus the family markers;
//   3. the real get with the history's TIMERANGE / TIMESTAMP / VERSIONS
//      and "as of" clock;
//   4. layoutHistory over both.
//
// Threads: any thread; the Workspace is thread-safe and each call uses its
// own scanner.
#pragma once

#include <optional>
#include <string>

#include "history/history_layout.h"
#include "keyscope/cancel_token.h"
#include "keyscope/status.h"
#include "keyscope/workspace.h"

namespace keyscope {

struct HistoryRequest {
  std::string table;
  Bytes row;
  std::string family;
  std::optional<Bytes> qualifier;      // nullopt: every column of the family
  // nullopt: the family's VERSIONS (and the get's TIMERANGE all time).
  std::optional<HistoryGet> get;
  std::optional<int64_t> asOf;         // ReadOptions::now; nullopt: the engine's clock
};

// Why 20,000: a column with more versions than that is read in its newest
// 20,000 (the view says so); the plot and the table stay quick, and the
// RAW read stays a few megabytes.
constexpr size_t kMaxHistoryCells = 20'000;

struct HistoryResult {
  HistoryInput input;                  // what was read (the get as used)
  HistoryLayout layout;
  bool truncated = false;              // more than kMaxHistoryCells cells exist
};

// NotFound for a missing table or family; Cancelled when `cancel` is set.
Result<HistoryResult> fetchHistory(const Workspace& ws, const HistoryRequest& request,
                                   const CancelToken& cancel);

}  // namespace keyscope
