// loadPage: reads one page of the data browser from the engine. Runs on a
// job runner's worker thread: it takes and returns plain values and touches
// nothing of the GUI. No Qt.
//
// Threads: any thread; the Workspace may be shared with others (it is
// thread-safe), and each call uses its own scanner.
#pragma once

#include "browser/browse_query.h"
#include "keyscope/cancel_token.h"
#include "keyscope/status.h"
#include "keyscope/workspace.h"

namespace keyscope {

// The rows of request.query after request.after, up to the request's row,
// cell and byte budgets (at least one row when any is left), each row's
// latest value per column, its version counts and, with a key schema, its
// decoded components. Cancelled when `cancel` is set between rows; the
// engine's status (NotFound for a missing table) otherwise.
Result<RowPage> loadPage(const Workspace& ws, const PageRequest& request,
                         const CancelToken& cancel);

// The scan a page runs, for tests and for the query console to show.
ScanOptions pageScanOptions(const PageRequest& request);

}  // namespace keyscope
