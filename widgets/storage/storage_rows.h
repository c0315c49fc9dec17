// The rows the Storage tab shows for one scope of a storage report: each
// byte category, the page index, bloom filters, block headers and compression
// dictionaries, with Keyscope's raw and stored bytes and HBase's KeyValue
// bytes. Shared by the table model, the chart and the CSV export, so all three
// show one set of numbers.
//
// Pure functions; thread-safe.
#pragma once

#include <QColor>
#include <QString>
#include <QVector>

#include <cstdint>
#include <string>

#include "keyscope/storage_report.h"

namespace keyscope {

struct StorageRow {
  QString name;         // "row key", "page index", …
  uint64_t raw = 0;     // Keyscope, before compression
  uint64_t stored = 0;  // Keyscope, as stored (categories: attributed by compressibility)
  double compressibility = 1.0;  // compressed alone / raw (1: not compressed, or n/a)
  bool estimated = false;        // `stored` is an attribution, not a measurement
  uint64_t hbase = 0;   // the same cells as HBase KeyValues (0: no such part)
  QColor colour;
};

// The categories, then page index, bloom filters, block headers and
// compression dictionaries. The
// compressibility is the family's (or the bytes-weighted mean of the
// families' in a scope spanning several).
QVector<StorageRow> storageRows(const StorageReport& report, const StorageSlice& slice);

// CSV of the rows: name, Keyscope raw, Keyscope stored, estimated,
// compressibility, HBase KeyValue; then a total line.
std::string storageCsv(const QVector<StorageRow>& rows);

}  // namespace keyscope
