#include "workload_test_util.h"

namespace keyscope::test {

WorkloadOptions singleClient(KeyDesign design) {
  WorkloadOptions o;
  o.table = "t";
  o.keys.design = design;
  o.clients = 1;
  o.batchSize = 1;
  return o;
}

std::vector<std::string> firstKeysHex(const WorkloadOptions& options, size_t count) {
  Result<std::vector<Bytes>> keys = previewKeys(options, count);
  EXPECT_TRUE(keys.isOk()) << keys.status().toString();
  std::vector<std::string> hex;
  if (keys) {
    for (const Bytes& k : *keys) hex.push_back(toHex(k));
  }
  return hex;
}

WorkloadSummary runOk(Workspace& ws, const WorkloadOptions& options) {
  WorkloadSummary summary;
  const Status s = runWorkload(ws, options, &summary);
  EXPECT_TRUE(s.isOk()) << s.toString();
  return summary;
}

std::vector<Bytes> allRows(const Workspace& ws, const std::string& table) {
  std::vector<Bytes> rows;
  Result<std::unique_ptr<Scanner>> scanner = ws.scan(table, ScanOptions{});
  EXPECT_TRUE(scanner.isOk()) << scanner.status().toString();
  if (!scanner) return rows;
  RowResult row;
  while ((*scanner)->next(&row)) rows.push_back(row.row);
  EXPECT_TRUE((*scanner)->status().isOk()) << (*scanner)->status().toString();
  return rows;
}

}  // namespace keyscope::test
