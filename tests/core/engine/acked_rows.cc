#include "acked_rows.h"

#include <cstdio>
#include <sstream>

namespace keyscope::test {

namespace {

uint64_t splitmix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace

std::string ackedRowKey(int i) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "row%06d", i);
  return buf;
}

Bytes ackedRowValue(int i, size_t bytes) {
  Bytes value(bytes, '\0');
  uint64_t state = static_cast<uint64_t>(i) * uint64_t{0x2545f4914f6cdd1d} + 1;
  for (size_t at = 0; at < bytes; at += 8) {
    state = splitmix(state);
    for (size_t b = 0; b < 8 && at + b < bytes; ++b)
      value[at + b] = static_cast<char>(state >> (8 * b));
  }
  return value;
}

TableOptions ackedTable(uint64_t memstoreFlushSize) {
  TableOptions table;
  table.name = kAckedTable;
  FamilyOptions family;
  family.name = "f";
  family.compression = Compression::kNone;
  table.families = {family};
  table.memstoreFlushSize = memstoreFlushSize;
  // One region throughout: the tests follow one region's flushes.
  table.splitPolicy = SplitPolicy::kConstantSize;
  table.maxFileSize = uint64_t{1} << 40;
  return table;
}

Status putAckedRows(Workspace& ws, int first, int last, size_t valueBytes, Durability durability) {
  std::vector<Mutation> batch;
  for (int i = first; i < last; ++i)
    batch.emplace_back(Put{ackedRowKey(i), {{"f", "v", 1, ackedRowValue(i, valueBytes)}}});
  return ws.mutate(kAckedTable, batch, WriteOptions{durability});
}

std::string checkAckedRows(const Workspace& ws, const std::set<int>& rows, size_t valueBytes) {
  Result<std::unique_ptr<Scanner>> scanner = ws.scan(kAckedTable, ScanOptions{});
  if (!scanner) return "scan: " + scanner.status().toString();
  std::ostringstream problems;
  int shown = 0;
  const auto note = [&](const std::string& what) {
    if (shown++ < 5) problems << what << "; ";
  };
  auto expected = rows.begin();
  RowResult row;
  size_t seen = 0;
  while ((*scanner)->next(&row)) {
    ++seen;
    while (expected != rows.end() && ackedRowKey(*expected) < row.row)
      note("missing " + ackedRowKey(*expected++));
    if (expected == rows.end() || ackedRowKey(*expected) != row.row) {
      note("unexpected " + row.row);
      continue;
    }
    if (row.cells.size() != 1 || row.cells[0].value != ackedRowValue(*expected, valueBytes))
      note("wrong value in " + row.row);
    ++expected;
  }
  if (!(*scanner)->status()) return "scan: " + (*scanner)->status().toString();
  while (expected != rows.end()) note("missing " + ackedRowKey(*expected++));
  if (shown == 0) return {};
  problems << "(" << shown << " problems; " << seen << " rows seen, " << rows.size()
           << " expected)";
  return problems.str();
}

std::set<int> ackedRows(const std::vector<std::string>& lines) {
  std::set<int> rows;
  for (const std::string& line : lines) {
    int first = 0, last = 0;
    if (std::sscanf(line.c_str(), "A %d %d", &first, &last) != 2) continue;
    for (int i = first; i < last; ++i) rows.insert(i);
  }
  return rows;
}

std::string ackLine(int first, int last) {
  return "A " + std::to_string(first) + " " + std::to_string(last);
}

}  // namespace keyscope::test
