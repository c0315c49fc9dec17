// Test helper: builds small workspaces through the core API in a temporary
// directory, so widget tests read real engine files (never committed
// binaries). Header-only; the tests' GUI thread.
#pragma once

#include <QString>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "keyscope/key_codec.h"
#include "keyscope/key_schema.h"
#include "keyscope/workspace.h"

namespace keyscope::test {

inline std::unique_ptr<Workspace> openWorkspace(const QString& path) {
  Result<std::unique_ptr<Workspace>> ws = Workspace::open(path.toStdString());
  if (!ws) qFatal("cannot open test workspace: %s", ws.status().toString().c_str());
  return std::move(ws).value();
}

inline void check(const Status& status, const char* what) {
  if (!status.isOk()) qFatal("%s: %s", what, status.toString().c_str());
}

// "row00042": zero-padded, so key order is number order.
inline std::string rowKey(int n) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "row%05d", n);
  return buffer;
}

// Big-endian 8 bytes, as HBase's Bytes.toBytes(long).
inline std::string longBytes(int64_t value) {
  std::string out(8, '\0');
  for (int i = 7; i >= 0; --i) {
    out[static_cast<size_t>(i)] = static_cast<char>(value & 0xff);
    value >>= 8;
  }
  return out;
}

// A table "t" with families d (VERSIONS 5) and m, and `rows` rows:
//   d:name   "name<n>"                       (every row)
//   d:count  8-byte big-endian n             (every row), written three times: 3 versions
//   m:extra  "x"                             (rows >= extraFrom only: a column later pages bring)
inline void fillNumberedTable(Workspace& ws, int rows, int extraFrom) {
  TableOptions table;
  table.name = "t";
  FamilyOptions d;
  d.name = "d";
  d.maxVersions = 5;
  FamilyOptions m;
  m.name = "m";
  table.families = {d, m};
  table.description = "Numbered rows for tests.";
  table.exampleCommands = {"scan 't', {LIMIT => 5}", "get 't', 'row00001'"};
  check(ws.createTable(table), "create t");
  std::vector<Mutation> batch;
  for (int n = 0; n < rows; ++n) {
    Put put;
    put.row = rowKey(n);
    put.cells.push_back({"d", "name", 1000, "name" + std::to_string(n)});
    for (int64_t ts = 1; ts <= 3; ++ts)
      put.cells.push_back({"d", "count", 1000 + ts, longBytes(n)});
    if (n >= extraFrom) put.cells.push_back({"m", "extra", 1000, "x"});
    batch.emplace_back(std::move(put));
  }
  check(ws.mutate("t", batch), "fill t");
}

// A table "keyed" with key schema "metric:utf8 | n:u32" and one row per
// (metric, n) for metrics "cpu" and "mem" and n in [0, perMetric), each with
// v:x = "1".
inline void fillKeyedTable(Workspace& ws, int perMetric) {
  TableOptions table;
  table.name = "keyed";
  FamilyOptions v;
  v.name = "v";
  table.families = {v};
  table.keySchema = "metric:utf8 | n:u32";
  check(ws.createTable(table), "create keyed");
  Result<KeySchema> schema = KeySchema::parse(table.keySchema);
  check(schema.status(), "schema");
  std::vector<Mutation> batch;
  for (const char* metric : {"cpu", "mem"}) {
    for (int n = 0; n < perMetric; ++n) {
      Result<Bytes> key =
          encodeKey(schema.value(), {std::string(metric), static_cast<uint64_t>(n)});
      check(key.status(), "key");
      Put put;
      put.row = key.value();
      put.cells.push_back({"v", "x", 1000, "1"});
      batch.emplace_back(std::move(put));
    }
  }
  check(ws.mutate("keyed", batch), "fill keyed");
}

}  // namespace keyscope::test
