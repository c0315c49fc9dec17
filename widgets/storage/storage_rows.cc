// The Storage tab's rows: one scope of a report as named numbers.
#include "storage/storage_rows.h"

#include <QObject>

#include <algorithm>
#include <array>

namespace keyscope {

namespace {

// Distinguishable on light and dark backgrounds alike (mid-tone hues).
QColor categoryColour(size_t i) {
  static const QColor colours[] = {
      QColor(0x4e, 0x79, 0xa7),  // row key
      QColor(0xf2, 0x8e, 0x2b),  // family
      QColor(0xe1, 0x57, 0x59),  // qualifier
      QColor(0x76, 0xb7, 0xb2),  // timestamp
      QColor(0x59, 0xa1, 0x4f),  // value
      QColor(0xed, 0xc9, 0x48),  // framing
      QColor(0xb0, 0x7a, 0xa1),  // page index
      QColor(0xff, 0x9d, 0xa7),  // bloom
      QColor(0x9c, 0x75, 0x5f),  // block headers
      QColor(0xba, 0xb0, 0xac),  // compression dictionaries
  };
  return colours[i % (sizeof colours / sizeof colours[0])];
}

}  // namespace

QVector<StorageRow> storageRows(const StorageReport& report, const StorageSlice& slice) {
  // The scope's compressibility per category: each family's, weighted by the
  // raw bytes of that category the family holds in the scope.
  std::array<double, kStorageCategoryCount> weighted{};
  std::array<double, kStorageCategoryCount> weights{};
  for (size_t f = 0; f < report.families.size() && f < report.compressibility.size(); ++f) {
    const std::string& family = report.families[f].family;
    if (!slice.family.empty() && slice.family != family) continue;
    const StorageSlice part = report.scope(family, slice.regionId);
    for (size_t c = 0; c < kStorageCategoryCount; ++c) {
      weighted[c] += report.compressibility[f][c] * static_cast<double>(part.raw.bytes[c]);
      weights[c] += static_cast<double>(part.raw.bytes[c]);
    }
  }
  // Uncompressed pages store the raw bytes as they are: nothing to attribute.
  const bool compressed = slice.storedBytes - std::min(slice.storedBytes, slice.blockHeaderBytes) != slice.raw.total();
  QVector<StorageRow> rows;
  for (size_t c = 0; c < kStorageCategoryCount; ++c) {
    StorageRow row;
    row.name = QString::fromUtf8(storageCategoryName(static_cast<StorageCategory>(c)));
    row.raw = slice.raw.bytes[c];
    row.stored = slice.stored.bytes[c];
    row.estimated = compressed;
    row.compressibility = weights[c] > 0 ? weighted[c] / weights[c] : 1.0;
    row.hbase = slice.hbase.bytes[c];
    row.colour = categoryColour(c);
    rows.push_back(row);
  }
  const auto fixed = [&](const QString& name, uint64_t raw, uint64_t stored, size_t colour) {
    StorageRow row;
    row.name = name;
    row.raw = raw;
    row.stored = stored;
    row.colour = categoryColour(colour);
    rows.push_back(row);
  };
  // Kept beside the pages, uncompressed; HBase's own index and blooms are not
  // modelled (its KeyValue figure is the cells alone).
  fixed(QObject::tr("page index"), slice.pageIndexBytes, slice.pageIndexBytes, 6);
  fixed(QObject::tr("bloom filters"), slice.bloomBytes, slice.bloomBytes, 7);
  fixed(QObject::tr("block headers"), 0, slice.blockHeaderBytes, 8);
  // Trained per store file and stored with its metadata: compression's own
  // cost, with no raw counterpart.
  fixed(QObject::tr("compression dictionaries"), 0, slice.dictionaryBytes, 9);
  return rows;
}

std::string storageCsv(const QVector<StorageRow>& rows) {
  std::string out = "part,keyscope_raw_bytes,keyscope_stored_bytes,stored_is_estimate,compressibility,hbase_keyvalue_bytes\r\n";
  uint64_t raw = 0, stored = 0, hbase = 0;
  for (const StorageRow& r : rows) {
    out += r.name.toStdString() + "," + std::to_string(r.raw) + "," + std::to_string(r.stored) + "," +
           (r.estimated ? "yes" : "no") + "," + QString::number(r.compressibility, 'f', 3).toStdString() + "," +
           std::to_string(r.hbase) + "\r\n";
    raw += r.raw;
    stored += r.stored;
    hbase += r.hbase;
  }
  out += "total," + std::to_string(raw) + "," + std::to_string(stored) + ",no,," + std::to_string(hbase) + "\r\n";
  return out;
}

}  // namespace keyscope
