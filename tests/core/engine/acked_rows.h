// Rows for tests of what survives a failure: row i's key and value are pure
// functions of i, so a parent process can check a workspace a child wrote
// against nothing but the numbers of the rows the child said were
// acknowledged. Values are incompressible bytes, so their stored size is
// their size.
//
// A child reports each acknowledged batch as "A first last" (rows
// [first, last)); ackedRows() reads those lines back.
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "keyscope/workspace.h"

namespace keyscope::test {

constexpr const char* kAckedTable = "acked";

std::string ackedRowKey(int i);
Bytes ackedRowValue(int i, size_t bytes);
// The table: one family "f" without compression, this memstore flush size,
// and one region (no automatic splits).
TableOptions ackedTable(uint64_t memstoreFlushSize);
// Puts rows [first, last) as one atomic mutate().
Status putAckedRows(Workspace& ws, int first, int last, size_t valueBytes,
                    Durability durability = Durability::kSyncWal);
// Empty when the table holds exactly `rows`, each with its value; otherwise
// what differs (the first few differences).
std::string checkAckedRows(const Workspace& ws, const std::set<int>& rows, size_t valueBytes);

// "A first last" -> first, first+1, ..., last-1, over every such line.
std::set<int> ackedRows(const std::vector<std::string>& lines);
std::string ackLine(int first, int last);

}  // namespace keyscope::test
