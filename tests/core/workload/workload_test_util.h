// Helpers for the workload simulator's tests: options for small, quick runs,
// the first keys a design writes as hex, and a fresh workspace per test.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "core/engine/engine_test_util.h"
#include "keyscope/workload.h"
#include "keyscope/workspace.h"

namespace keyscope::test {

// One client, one put per write, the default start and seed: the keys of
// operation 0, 1, 2, ... in order.
WorkloadOptions singleClient(KeyDesign design);

// The first `count` keys a run with `options` writes, as lowercase hex.
std::vector<std::string> firstKeysHex(const WorkloadOptions& options, size_t count);

// Runs `options` into `ws`; fails the test unless the run returns OK.
WorkloadSummary runOk(Workspace& ws, const WorkloadOptions& options);

// Every row key of `table`, in order.
std::vector<Bytes> allRows(const Workspace& ws, const std::string& table);

}  // namespace keyscope::test
